import Foundation
import HeatMapCore
import Synchronization

/// The result's band polygons in latitude/longitude, and what is made with
/// them inside the awaited work: their hit-test index and a fingerprint of
/// their ids (so that `==` on results that differ answers at once).
struct BandPolygons: Sendable {
    let polygons: [HeatMapPolygon]
    let index: PolygonIndex<RingEdges>
    /// A 128-bit hash of the ids in order.
    let fingerprint: Fingerprint

    struct Fingerprint: Sendable, Equatable {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x9e37_79b9_7f4a_7c15

        init(_ polygons: [HeatMapPolygon]) {
            for p in polygons {
                withUnsafeBytes(of: p.id.uuid) { raw in
                    let lo = raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
                    let hi = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    a = (a ^ lo) &* 0x0000_0100_0000_01b3
                    b = (b ^ hi) &* 0x0000_0100_0000_01b3
                }
            }
        }
    }

    /// Nothing: no bands.
    static let empty = BandPolygons(
        polygons: [],
        index: try! PolygonIndex(
            polygons: [], projection: PlaneProjection(kind: .planar),
            control: .none))

    private init(polygons: [HeatMapPolygon], index: PolygonIndex<RingEdges>) {
        self.polygons = polygons
        self.index = index
        fingerprint = Fingerprint(polygons)
    }

    /// The bands of `source` unprojected (stage `.assemble`) and indexed
    /// (stage `.index`), on every core. O(V) unprojections, O(V)
    /// projections and O(V + cells) for the index.
    /// - Throws: `CancellationError`; what was made is freed off the caller's path.
    static func make(
        _ source: any ContourSource, projection: PlaneProjection,
        control: ComputeControl
    ) throws -> BandPolygons {
        let polygons = try unprojected(source, projection: projection, control: control)
        // Every level has been read: what the pieces kept for readers that
        // come back to a level is not needed while the index is built.
        (source as? ContourPieces)?.forgetRecent()
        do {
            let index = try PolygonIndex(polygons: polygons, projection: projection, control: control)
            return BandPolygons(polygons: polygons, index: index)
        } catch {
            DeferredRelease.release(consume polygons)
            throw error
        }
    }

    /// Every band of `source` in latitude/longitude, lowest level first,
    /// levels on every core, polling `control` every ``pollInterval``
    /// vertices copied (and within long rings while they are unprojected).
    /// Bands kept as pieces are assembled one level at a time from levels
    /// unprojected once each (a band's holes are the next band's rings),
    /// and their plane geometry is not kept. A polygon's id comes from its
    /// level, its place in the level and its exterior's first positions.
    static func unprojected(
        _ source: any ContourSource, projection: PlaneProjection,
        control: ComputeControl
    ) throws -> [HeatMapPolygon] {
        let geometry = LonLatGeometry(projection: projection)
        let thresholds = source.thresholds, levelCount = thresholds.count
        try control.begin(.assemble)
        let done = Atomic<Int>(0)
        let perLevel = try Parallel.map(levelCount, control: control) { level in
            let bands = try source.rawPolygons(.bands, level: level, geometry: geometry, control: control)
            var out: [HeatMapPolygon] = []
            out.reserveCapacity(bands.count)
            var budget = pollInterval
            do {
                for (k, polygon) in bands.enumerated() {
                    out.append(
                        HeatMapPolygon(
                            id: StableID.make(level: level, index: k, polygon: polygon),
                            level: level,
                            threshold: thresholds[level],
                            coordinates: try coordinates(polygon.exterior, control, &budget),
                            interiorPolygons: try polygon.holes.map { try coordinates($0, control, &budget) },
                            isGeographic: projection.isGeographic))
                }
            } catch {
                DeferredRelease.release((consume bands, consume out))
                throw error
            }
            control.report(.assemble, Double(done.add(1, ordering: .relaxed).newValue) / Double(levelCount))
            return out
        }
        var polygons: [HeatMapPolygon] = []
        polygons.reserveCapacity(perLevel.reduce(0) { $0 + $1.count })
        for level in perLevel { polygons.append(contentsOf: level) }
        return polygons
    }

    /// Vertices copied between cancellation polls.
    static let pollInterval = 1 << 15

    /// A raw ring (``LonLatGeometry/raw(_:control:)``: x the longitude, y
    /// the latitude) as coordinates; `budget` counts down the vertices
    /// left before the next poll.
    private static func coordinates(
        _ ring: [PlanePoint], _ control: ComputeControl, _ budget: inout Int
    ) throws -> [LocationCoordinate2D] {
        budget -= ring.count
        if budget <= 0 {
            try control.checkCancellation()
            budget = pollInterval
        }
        return ring.map { LocationCoordinate2D(latitude: $0.y, longitude: $0.x) }
    }
}
