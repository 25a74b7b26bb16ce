import Foundation
import HeatMapCore
import HeatMapDensity

/// Finds which band (or level) polygon holds a plane point, through a
/// raster index of the ring edges (docs/contour-rules.md) instead of a scan
/// of every polygon: a query reads one raster cell per part of the index,
/// O(parts + edges in that cell), about constant for contour rings
/// whatever the number of polygons, holes or vertices.
///
/// A point on the ring shared by two bands belongs to the upper band; a
/// point on the outer edge of the lowest band belongs to it.
public struct BandLocator: Sendable {
    private let index: PolygonIndex
    private let levelOf: [Int]

    /// Indexes polygons given per level (as ``ContourSet/bands`` holds them).
    /// O(V + raster cells) for V vertices, on every core.
    public init(bands: [[PlanePolygon]]) {
        index = PolygonIndex(bands: bands)
        levelOf = bands.enumerated().flatMap { level, polygons in Array(repeating: level, count: polygons.count) }
    }

    /// The highest level whose polygon holds `p`, or nil outside every
    /// polygon. O(parts + edges in `p`'s raster cell).
    public func band(at p: PlanePoint) -> Int? {
        index.highestPolygon(containing: p).map { levelOf[$0] }
    }

    /// The band of each point (as ``band(at:)``), in order, on every core:
    /// for many queries at once, such as every pixel of a picture or a
    /// column of sensor readings. O(n) after the index is built.
    ///
    /// Large batches are answered in `SpatialOrder` (nearby points one
    /// after another), so that consecutive lookups read the same parts of
    /// the index from cache instead of memory; answers come back in input
    /// order.
    public func bands(at points: [PlanePoint]) -> [Int?] {
        let order = SpatialOrder(points)
        let chunk = 4096
        let chunks = (points.count + chunk - 1) / chunk
        return [Int?](unsafeUninitializedCapacity: points.count) { out, initialized in
            let out = UncheckedSendable(out.baseAddress!)
            points.withUnsafeBufferPointer { points in
                Parallel.forEach(chunks) { c in
                    for k in c * chunk ..< min(points.count, (c + 1) * chunk) {
                        let i = order.map { Int($0.indices[k]) } ?? k
                        (out.value + i).initialize(to: band(at: points[i]))
                    }
                }
            }
            initialized = points.count
        }
    }

    /// Every polygon holding `p`, as (level, flat polygon index), lowest level first.
    public func polygons(containing p: PlanePoint) -> [(level: Int, polygon: Int)] {
        index.polygons(containing: p).map { (levelOf[$0], $0) }
    }
}
