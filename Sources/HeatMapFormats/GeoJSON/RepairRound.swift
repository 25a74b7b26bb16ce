import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A round of ``PrecisionRounding/repaired(_:precision:control:checkingAll:)`` as the
/// next round's check needs it: the rings it checked, their (polygon, ring)
/// in the feature's pieces, and the offenders it found.
///
/// A repair gives the offenders' positions more decimals and rounds the
/// feature again; most rings come out as they were. Only the rings a
/// repair can have changed are checked again, and the answer is the one a
/// check of every ring gives:
/// - a ring that is new, whose positions changed, or that was at fault is
///   *changed*; the other rings were valid, and stay so among themselves;
/// - a contact needs two rings to touch, so their boxes overlap: a ring
///   unchanged and not in a changed polygon matters only where its box
///   meets a changed ring's, and then only by its contacts with it (it is
///   checked as a polygon of its own: its holes and exterior, like itself,
///   are as they were);
/// - a hole outside its exterior concerns the two: a polygon with a
///   changed or vanished ring is checked with its exterior, its changed
///   rings and those near them (all of its rings when its exterior changed);
/// - touches that cut a polygon apart close a cycle of touching rings, and
///   the round before left no cycle but through a changed ring. When the
///   part of a polygon checked has no touch between its rings, the polygon
///   has no new touch, so no cycle; otherwise the whole is checked. Rings
///   keep their order, so touches are taken in the same order as in the
///   whole check.
struct RepairRound {
    /// The rings checked, or none when only their refs were kept (a
    /// feature's last round, from an earlier round of planning): then the
    /// caller says which rings moved.
    var rings: [RingContactCheck.Ring]
    var refs: [PrecisionRounding.RingRef]
    var bad: Set<Int>
    private var knowsPositions = true

    init(rings: [RingContactCheck.Ring], refs: [PrecisionRounding.RingRef], bad: Set<Int>) {
        (self.rings, self.refs, self.bad) = (rings, refs, bad)
    }

    /// A round known by its rings' refs and offenders alone.
    init(refs: [PrecisionRounding.RingRef], bad: Set<Int>) {
        (self.rings, self.refs, self.bad, knowsPositions) = ([], refs, bad, false)
    }

    /// An axis-aligned box of fixed positions (closed).
    private struct Box {
        var minX: Int64, maxX: Int64, minY: Int64, maxY: Int64

        init(_ points: [FixedPoint]) {
            var lo = FixedPoint(x: .max, y: .max), hi = FixedPoint(x: .min, y: .min)
            for p in points {
                lo.x = min(lo.x, p.x); lo.y = min(lo.y, p.y)
                hi.x = max(hi.x, p.x); hi.y = max(hi.y, p.y)
            }
            (minX, maxX, minY, maxY) = (lo.x, hi.x, lo.y, hi.y)
        }

        init(_ box: FixedBox) {
            (minX, maxX, minY, maxY) = (box.minX, box.maxX, box.minY, box.maxY)
        }

        var isEmpty: Bool { minX > maxX }

        func overlaps(_ o: Box) -> Bool {
            minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
        }
    }

    /// The offenders among `rings` (the round after `before`, with their
    /// `refs`), found by checking again only what the repair can have
    /// changed; nil when so much changed that the whole check is cheaper.
    /// `moved(k)` says whether ring k's positions may differ from the
    /// round before's, asked only when `before` kept no positions (a ring
    /// said to move that did not is only checked for nothing).
    /// O(rings + changed rings' neighbourhood), with the check of that part.
    static func offenders(
        _ rings: [RingContactCheck.Ring], refs: [PrecisionRounding.RingRef], changedSince before: RepairRound,
        moved: (Int) -> Bool = { _ in true }, control: ComputeControl
    ) -> Set<Int>? {
        let n = rings.count
        guard n > 0 else { return [] }
        let polygonCount = rings[n - 1].polygon + 1
        var changed = [Bool](repeating: false, count: n)
        var changedPolygon = [Bool](repeating: false, count: polygonCount)
        var changedPositions = 0, positions = 0
        // Rings in both rounds are matched by their (polygon, ring), in
        // increasing order in both.
        var gone: [Int] = []  // polygons of the pieces with a ring gone
        var wasBad = [Bool](repeating: false, count: before.refs.count)
        for j in before.bad { wasBad[j] = true }
        var j = 0
        for k in 0..<n {
            positions += rings[k].points.count
            while j < before.refs.count, before.refs[j] < refs[k] {
                gone.append(before.refs[j].polygon)
                j += 1
            }
            if j < before.refs.count, before.refs[j] == refs[k] {
                changed[k] =
                    wasBad[j]
                    || (before.knowsPositions ? before.rings[j].points != rings[k].points : moved(k))
                j += 1
            } else {
                changed[k] = true
            }
            if changed[k] {
                changedPolygon[rings[k].polygon] = true
                changedPositions += rings[k].points.count
            }
        }
        while j < before.refs.count {
            gone.append(before.refs[j].polygon)
            j += 1
        }
        for piece in gone {
            // The polygon of that piece this round, if its exterior is left.
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) >> 1
                if refs[mid].polygon < piece { lo = mid + 1 } else { hi = mid }
            }
            if lo < n, refs[lo].polygon == piece { changedPolygon[rings[lo].polygon] = true }
        }
        if changedPositions == 0, gone.isEmpty { return [] }
        if 2 * changedPositions > positions { return nil }

        // A polygon whose exterior changed is checked whole.
        var whole = [Bool](repeating: false, count: polygonCount)
        for k in 0..<n where changed[k] && (k == 0 || rings[k - 1].polygon != rings[k].polygon) {
            whole[rings[k].polygon] = true
        }
        let boxes = rings.map { Box($0.points) }
        let near = NearChanged(boxes: boxes, changed: changed)
        var subset: [RingContactCheck.Ring] = []
        var original: [Int] = []
        // Rings that did not change, checked only along their segments
        // near a changed ring (an exterior may hold most of the feature).
        var partial: [Bool] = []
        var ownPolygon = polygonCount
        for k in 0..<n {
            let polygon = rings[k].polygon
            let isExterior = k == 0 || rings[k - 1].polygon != polygon
            if changedPolygon[polygon] && (whole[polygon] || isExterior || changed[k]) {
                subset.append(rings[k])
                partial.append(!whole[polygon] && !changed[k])
            } else if near.touches(boxes[k]) {
                if changedPolygon[polygon] {
                    subset.append(rings[k])
                } else {
                    // Only its contacts with changed rings can be new.
                    subset.append(RingContactCheck.Ring(points: rings[k].points, polygon: ownPolygon))
                    ownPolygon += 1
                }
                partial.append(true)
            } else {
                continue
            }
            original.append(k)
        }
        var touched: [Int] = []
        let bad = RingContactCheck.offenders(subset, control: control, touchedPolygons: &touched) { r, box in
            guard let box else { return partial[r] }
            return near.touches(Box(box))
        }
        // A touch in a polygon checked in part: the rest may close a cycle.
        if touched.contains(where: { $0 < polygonCount && !whole[$0] }) { return nil }
        return Set(bad.map { original[$0] })
    }

    /// The boxes of the changed rings in a uniform grid, for finding the
    /// rings whose boxes meet one of them.
    private struct NearChanged {
        private var changedBoxes: [Box] = []
        private var bounds = Box([])
        private var side = 1
        private var cellWidth: Int64 = 1, cellHeight: Int64 = 1
        /// The boxes of cell c are `entries[starts[c]..<starts[c + 1]]`.
        private var starts: [Int] = []
        private var entries: [Int32] = []
        /// Boxes over too many cells, compared with every box asked about.
        private var wide: [Int] = []

        init(boxes: [Box], changed: [Bool]) {
            for (k, box) in boxes.enumerated() where changed[k] && !box.isEmpty { changedBoxes.append(box) }
            guard let first = changedBoxes.first else { return }
            var all = first
            for b in changedBoxes {
                all.minX = min(all.minX, b.minX); all.maxX = max(all.maxX, b.maxX)
                all.minY = min(all.minY, b.minY); all.maxY = max(all.maxY, b.maxY)
            }
            bounds = all
            side = max(1, min(512, Int(Double(changedBoxes.count).squareRoot().rounded(.up))))
            cellWidth = (all.maxX - all.minX) / Int64(side) + 1
            cellHeight = (all.maxY - all.minY) / Int64(side) + 1
            starts = [Int](repeating: 0, count: side * side + 1)
            var spans: [(Int, Int, Int, Int)?] = []
            spans.reserveCapacity(changedBoxes.count)
            for (i, b) in changedBoxes.enumerated() {
                let s = cells(b)
                if (s.1 - s.0 + 1) * (s.3 - s.2 + 1) > 64 {
                    wide.append(i)
                    spans.append(nil)
                    continue
                }
                spans.append(s)
                for y in s.2...s.3 { for x in s.0...s.1 { starts[y * side + x + 1] += 1 } }
            }
            for c in 0..<(side * side) { starts[c + 1] += starts[c] }
            var fill = starts
            entries = [Int32](repeating: 0, count: starts[side * side])
            for (i, s) in spans.enumerated() {
                guard let s else { continue }
                for y in s.2...s.3 {
                    for x in s.0...s.1 {
                        entries[fill[y * side + x]] = Int32(i)
                        fill[y * side + x] += 1
                    }
                }
            }
        }

        /// The cells a box covers within the bounds: columns lo...hi, rows lo...hi.
        private func cells(_ b: Box) -> (Int, Int, Int, Int) {
            func column(_ x: Int64) -> Int { Int((min(max(x, bounds.minX), bounds.maxX) - bounds.minX) / cellWidth) }
            func row(_ y: Int64) -> Int { Int((min(max(y, bounds.minY), bounds.maxY) - bounds.minY) / cellHeight) }
            return (column(b.minX), column(b.maxX), row(b.minY), row(b.maxY))
        }

        /// Whether `box` meets the box of a changed ring.
        func touches(_ box: Box) -> Bool {
            guard !changedBoxes.isEmpty, !box.isEmpty, box.overlaps(bounds) else { return false }
            for i in wide where changedBoxes[i].overlaps(box) { return true }
            let s = cells(box)
            for y in s.2...s.3 {
                for x in s.0...s.1 {
                    let c = y * side + x
                    for e in starts[c]..<starts[c + 1] where changedBoxes[Int(entries[e])].overlaps(box) {
                        return true
                    }
                }
            }
            return false
        }
    }
}
