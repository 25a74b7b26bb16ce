import Foundation

/// Validates points and projects them to the plane.
enum PointPreparation {
    struct Prepared {
        var points: PlanePoints
        var projection: PlaneProjection
        var summary: InputSummary
    }

    /// Why a coordinate/weight/value is bad, or nil when it is fine (§4, §12).
    static func problem(latitude: Double, longitude: Double, weight: Double, value: Double?,
                        geographic: Bool) -> String? {
        if !latitude.isFinite { return geographic ? "latitude is not a finite number" : "y is not a finite number" }
        if !longitude.isFinite { return geographic ? "longitude is not a finite number" : "x is not a finite number" }
        if geographic {
            if let why = RangeRule.latitude(latitude) ?? RangeRule.longitude(longitude) { return why }
        }
        if !weight.isFinite { return "weight is not a finite number" }
        if let why = RangeRule.weight(weight) { return why }
        if let value, !value.isFinite { return "value is not a finite number" }
        return nil
    }

    /// The range rules of §4 for finite fields, each answering with its
    /// counting reason or nil; the in-memory API and the file readers both
    /// ask these, so the bounds live in one place.
    enum RangeRule {
        /// The bounds themselves, for the readers' quick paths.
        @inline(__always) static func isOutside(latitude v: Double) -> Bool { v < -90 || v > 90 }
        @inline(__always) static func isOutside(longitude v: Double) -> Bool { v < -180 || v >= 360 }
        static func latitude(_ v: Double) -> String? { isOutside(latitude: v) ? "latitude outside [-90, 90]" : nil }
        static func longitude(_ v: Double) -> String? { isOutside(longitude: v) ? "longitude outside [-180, 360)" : nil }
        static func weight(_ v: Double) -> String? { v < 0 ? "weight is negative" : nil }
    }

    static func prepare<P: HeatMapable>(_ points: [P], configuration: HeatMapConfiguration,
                                        strict: Bool) throws -> Prepared {
        let geographic = configuration.projection != .planar
        let mean = configuration.estimator == .mean
        var summary = InputSummary()
        var kept: [(LocationCoordinate2D, Double, Double)] = []
        kept.reserveCapacity(points.count)
        for (i, p) in points.enumerated() {
            let c = p.coordinate
            let measured = (p as? any HeatMapMeasurable)?.value
            // Plain points under the mean estimator map the mean of their weights.
            let weight = mean && measured == nil ? 1 : p.weight
            let value = mean ? (measured ?? p.weight) : 0
            if let why = problem(latitude: c.latitude, longitude: c.longitude, weight: p.weight,
                                 value: mean ? value : nil, geographic: geographic) {
                if strict { throw HeatMapError.invalidPoint(index: i, reason: why) }
                summary.rejected[why, default: 0] += 1
                continue
            }
            kept.append((c, weight, value))
        }
        summary.used = kept.count
        let projection = PlaneProjection.fitted(configuration.projection, to: kept.lazy.map(\.0))
        var plane = PlanePoints()
        plane.reserveCapacity(kept.count)
        if mean { plane.value = [] }
        for (c, w, v) in kept {
            let q = projection.project(c)
            plane.append(x: q.x, y: q.y, weight: w, value: mean ? v : nil)
        }
        return Prepared(points: plane, projection: projection, summary: summary)
    }
}
