import Foundation

/// A spatial index over contour polygons for point queries (§7).
///
/// A uniform grid over the polygons' extent lists, per cell, the polygons
/// whose bounding box meets the cell; each candidate is then tested with
/// its rings' slab locators. A query costs O(1) to find the cell plus
/// O(√vertices) per candidate, far below a scan of every polygon.
///
/// Boundary rule: a point on an exterior ring is inside, a point on a hole
/// is outside, so a point on the ring shared by two bands belongs to the
/// upper band only.
struct PolygonIndex: Sendable {
    private struct Entry: Sendable {
        var box: PlaneBox
        var exterior: RingLocator
        var holes: [RingLocator]
        var holeBoxes: [PlaneBox]
    }

    private let entries: [Entry]
    private let extent: PlaneBox
    private let columns: Int
    private let rows: Int
    private let cellStart: [Int32]
    private let cellItems: [Int32]

    /// Indexes the polygons of every level, flattened level by level (the
    /// order of `HeatMapContours.contours`). O(P + V).
    init(bands: [[PlanePolygon]]) {
        var entries: [Entry] = []
        var extent = PlaneBox.empty
        for level in bands {
            for polygon in level {
                let box = polygon.bounds
                extent.formUnion(box)
                entries.append(Entry(box: box, exterior: RingLocator(polygon.exterior),
                                     holes: polygon.holes.map(RingLocator.init),
                                     holeBoxes: polygon.holes.map { ring in
                                         var b = PlaneBox.empty
                                         for p in ring { b.formUnion(p) }
                                         return b
                                     }))
            }
        }
        self.entries = entries
        self.extent = extent
        let side = max(1, min(256, Int(Double(entries.count).squareRoot() * 2)))
        columns = extent.isEmpty ? 1 : side
        rows = extent.isEmpty ? 1 : side
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var spans: [(Int, Int, Int, Int)] = []
        spans.reserveCapacity(entries.count)
        for e in entries {
            let (c0, r0) = PolygonIndex.cell(of: PlanePoint(x: e.box.minX, y: e.box.minY), extent, columns, rows)
            let (c1, r1) = PolygonIndex.cell(of: PlanePoint(x: e.box.maxX, y: e.box.maxY), extent, columns, rows)
            spans.append((c0, r0, c1, r1))
            for r in r0...r1 { for c in c0...c1 { counts[r * columns + c + 1] += 1 } }
        }
        for k in 0..<(columns * rows) { counts[k + 1] += counts[k] }
        var fill = counts
        var items = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for (i, (c0, r0, c1, r1)) in spans.enumerated() {
            for r in r0...r1 {
                for c in c0...c1 {
                    items[Int(fill[r * columns + c])] = Int32(i)
                    fill[r * columns + c] += 1
                }
            }
        }
        cellStart = counts
        cellItems = items
    }

    private static func cell(of p: PlanePoint, _ extent: PlaneBox, _ columns: Int, _ rows: Int) -> (Int, Int) {
        let w = extent.width > 0 ? extent.width : 1, h = extent.height > 0 ? extent.height : 1
        let c = Int((p.x - extent.minX) / w * Double(columns))
        let r = Int((p.y - extent.minY) / h * Double(rows))
        return (min(max(c, 0), columns - 1), min(max(r, 0), rows - 1))
    }

    /// Indices of the polygons containing `p`, ascending.
    func polygons(containing p: PlanePoint) -> [Int] {
        guard !entries.isEmpty, extent.contains(p) else { return [] }
        let (c, r) = PolygonIndex.cell(of: p, extent, columns, rows)
        let k = r * columns + c
        var out: [Int] = []
        for j in Int(cellStart[k])..<Int(cellStart[k + 1]) {
            let i = Int(cellItems[j])
            let e = entries[i]
            guard e.box.contains(p), e.exterior.locate(p) >= 0 else { continue }
            var inHole = false
            for (h, hole) in e.holes.enumerated() where e.holeBoxes[h].contains(p) {
                if hole.locate(p) >= 0 { inHole = true; break }
            }
            if !inHole { out.append(i) }
        }
        return out
    }
}
