import Foundation

/// Fits a projection to coordinates seen one at a time, in constant memory,
/// so a tool can choose the binning plane in a first pass over a stream.
///
/// The centre is the one ``PlaneProjection/fitted(_:to:)`` picks: the middle
/// of the latitudes and the middle of the smallest longitude arc holding
/// every longitude. The arc is found from 3600 buckets of 0.1° that keep
/// their smallest and largest longitude, which gives the exact arc whenever
/// its widest gap is at least 0.1° (otherwise the data circles the globe and
/// any centre longitude serves).
struct ProjectionFitter: Sendable {
    private var latitudeLow = Double.infinity
    private var latitudeHigh = -Double.infinity
    private var bucketLow = [Double](repeating: .infinity, count: 3600)
    private var bucketHigh = [Double](repeating: -.infinity, count: 3600)

    /// Creates an empty fitter.
    init() {}

    /// Whether no coordinate has been added.
    var isEmpty: Bool { latitudeLow > latitudeHigh }

    /// Takes one coordinate into account; non-finite ones are ignored. O(1).
    mutating func add(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite else { return }
        latitudeLow = min(latitudeLow, latitude)
        latitudeHigh = max(latitudeHigh, latitude)
        let l = LongitudeArc.normalized(longitude)
        let b = min(max(Int(((l + 180) * 10).rounded(.down)), 0), 3599)
        bucketLow[b] = min(bucketLow[b], l)
        bucketHigh[b] = max(bucketHigh[b], l)
    }

    /// The smallest longitude arc holding every longitude added, nil if none.
    var longitudeArc: LongitudeArc? {
        let occupied = (0..<3600).filter { bucketLow[$0] <= bucketHigh[$0] }
        guard let first = occupied.first, let last = occupied.last else { return nil }
        // As LongitudeArc.smallest: the wrap-around gap first, then the gaps
        // in ascending order, replaced only by a strictly wider one.
        var widestGap = bucketLow[first] + 360 - bucketHigh[last]
        var west = bucketLow[first]
        for k in occupied.indices.dropFirst() {
            let gap = bucketLow[occupied[k]] - bucketHigh[occupied[k - 1]]
            if gap > widestGap {
                widestGap = gap
                west = bucketLow[occupied[k]]
            }
        }
        return LongitudeArc(west: west, width: 360 - widestGap)
    }

    /// A projection of `kind` centred on the coordinates added (centred on
    /// (0, 0) when there were none).
    func projection(_ kind: MapProjection) -> PlaneProjection {
        guard kind != .planar else { return PlaneProjection(kind: .planar) }
        guard let arc = longitudeArc, !isEmpty else { return PlaneProjection(kind: kind) }
        return PlaneProjection(kind: kind, centreLatitude: (latitudeLow + latitudeHigh) / 2,
                               centreLongitude: arc.centre)
    }
}
