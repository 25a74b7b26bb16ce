import Foundation

/// Validates points and projects them to the plane.
package enum PointPreparation {
    package struct Prepared {
        package var points: PlanePoints
        package var projection: PlaneProjection
        package var summary: InputSummary
    }

    /// Points per chunk of the parallel passes: a millisecond or so of
    /// work between cancellation polls.
    package static let chunkSize = 1 << 15

    /// What one chunk of the reading pass found.
    private struct ChunkTally {
        package var kept = 0
        package var rejected: [String: Int] = [:]
        var firstBad: (index: Int, reason: String)?
        package var minLatitude = Double.infinity
        package var maxLatitude = -Double.infinity
    }

    /// Validates `points` and projects the good ones, in input order.
    ///
    /// Two passes over chunks of ``chunkSize`` points, each on every core:
    /// the first reads each point once (through the protocol, no dynamic
    /// cast: a measured value is read through the type, opened once) into
    /// columns, compacting each chunk's good points to its front; the
    /// second projects them in place, once the projection is fitted to
    /// them all. Memory: the four columns of the result, nothing more.
    package static func prepare<P: HeatMapable>(
        _ points: [P], configuration: HeatMapConfiguration,
        strict: Bool, control: ComputeControl = .none
    ) throws -> Prepared {
        try control.begin(.project)
        // A report per chunk of each pass (the read, then the projection).
        let progress = StageProgress(.project, control: control)
        let geographic = configuration.projection != .planar
        let mean = configuration.estimator == .mean
        let n = points.count
        let chunks = (n + chunkSize - 1) / chunkSize
        let measured = mean ? measuredValue(of: P.self) : nil
        let radial = ownRadius(of: P.self)
        var latitude = [Double](repeating: 0, count: n), longitude = latitude, weight = latitude
        var value: [Double]? = mean ? latitude : nil
        var radius: [Double]? = radial == nil ? nil : latitude
        var tallies = [ChunkTally](repeating: ChunkTally(), count: chunks)
        try points.withUnsafeBufferPointer { source in
            try latitude.withUnsafeMutableBufferPointer { lat in
                try longitude.withUnsafeMutableBufferPointer { lon in
                    try weight.withUnsafeMutableBufferPointer { w in
                        try withOptionalMutable(&value) { v in
                            try withOptionalMutable(&radius) { r in
                                try tallies.withUnsafeMutableBufferPointer { t in
                                    let columns = UncheckedSendable((source, lat, lon, w, v, r, t))
                                    try Parallel.forEach(chunks) { c in
                                        try control.checkCancellation()
                                        let (source, lat, lon, w, v, r, t) = columns.value
                                        t[c] = read(
                                            source, chunk: c, measured: measured, radial: radial, mean: mean,
                                            geographic: geographic, strict: strict,
                                            into: (lat, lon, w, v, r))
                                        progress.advance(by: 1, of: 2 * chunks)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        try control.checkCancellation()
        if strict, let bad = tallies.lazy.compactMap(\.firstBad).first {
            throw HeatMapError.invalidPoint(index: bad.index, reason: bad.reason)
        }
        var summary = InputSummary()
        for t in tallies {
            summary.used += t.kept
            summary.rejected.merge(t.rejected, uniquingKeysWith: +)
        }
        if summary.used < n {
            // Close the gaps the rejected points left, chunk by chunk (leftwards, so in place).
            var to = 0
            for (c, t) in tallies.enumerated() {
                let from = c * chunkSize
                if from != to {
                    for i in 0..<t.kept {
                        latitude[to + i] = latitude[from + i]
                        longitude[to + i] = longitude[from + i]
                        weight[to + i] = weight[from + i]
                        if let v = value?[from + i] { value![to + i] = v }
                        if let r = radius?[from + i] { radius![to + i] = r }
                    }
                }
                to += t.kept
            }
            let extra = n - summary.used
            latitude.removeLast(extra); longitude.removeLast(extra); weight.removeLast(extra)
            value?.removeLast(extra)
            radius?.removeLast(extra)
        }
        try control.checkCancellation()
        let projection = try fitted(
            configuration.projection, latitudes: tallies, longitudes: longitude, control: control)
        if projection.kind != .planar {
            try project(
                latitude: &latitude, longitude: &longitude, with: projection, control: control,
                progress: progress, of: 2 * chunks)
        }
        control.report(.project, 1)
        // Planar x is the longitude column, y the latitude column.
        var plane = PlanePoints(x: longitude, y: latitude, weight: weight, value: value)
        plane.radius = radius
        return Prepared(points: plane, projection: projection, summary: summary)
    }

    /// Reads chunk `c` of `source` into the columns, good points first.
    private static func read<P: HeatMapable>(
        _ source: UnsafeBufferPointer<P>, chunk c: Int, measured: ((UnsafePointer<P>) -> Double)?,
        radial: ((UnsafePointer<P>) -> Double)?, mean: Bool, geographic: Bool, strict: Bool,
        into columns: (
            lat: UnsafeMutableBufferPointer<Double>, lon: UnsafeMutableBufferPointer<Double>,
            w: UnsafeMutableBufferPointer<Double>, v: UnsafeMutableBufferPointer<Double>?,
            r: UnsafeMutableBufferPointer<Double>?
        )
    ) -> ChunkTally {
        var tally = ChunkTally()
        let start = c * chunkSize, end = min(start + chunkSize, source.count)
        guard let base = source.baseAddress else { return tally }
        var k = start
        for i in start..<end {
            let p = base + i
            let coordinate = p.pointee.coordinate, given = p.pointee.weight
            let reading = measured?(p)
            // Plain points under the mean estimator map the mean of their weights.
            let w = mean && reading == nil ? 1 : given
            let v = mean ? (reading ?? given) : 0
            let ownRadius = radial?(p) ?? 1
            var problem = PointRule.problem(
                latitude: coordinate.latitude, longitude: coordinate.longitude, weight: given,
                value: mean ? v : nil, geographic: geographic)
            if problem == nil, !(ownRadius.isFinite && ownRadius > 0) {
                problem = "radius \(ownRadius) is not a finite number > 0"
            }
            if let why = problem {
                if strict {
                    tally.firstBad = (i, why)
                    break
                }
                tally.rejected[why, default: 0] += 1
                continue
            }
            columns.lat[k] = coordinate.latitude
            columns.lon[k] = coordinate.longitude
            columns.w[k] = w
            columns.v?[k] = v
            columns.r?[k] = ownRadius
            if coordinate.latitude < tally.minLatitude { tally.minLatitude = coordinate.latitude }
            if coordinate.latitude > tally.maxLatitude { tally.maxLatitude = coordinate.latitude }
            k += 1
        }
        tally.kept = k - start
        return tally
    }

    /// How to read the measured value of a `P`, when `P` is measurable:
    /// the type is opened once here, not cast point by point.
    private static func measuredValue<P: HeatMapable>(of type: P.Type) -> ((UnsafePointer<P>) -> Double)? {
        guard let measurable = type as? any HeatMapMeasurable.Type else { return nil }
        func reader<M: HeatMapMeasurable>(_: M.Type) -> (UnsafePointer<P>) -> Double {
            { p in UnsafeRawPointer(p).assumingMemoryBound(to: M.self).pointee.value }
        }
        return reader(measurable)
    }

    /// How to read a point's own radius, when `P` brings one (``HeatMapRadial``).
    package static func ownRadius<P: HeatMapable>(of type: P.Type) -> ((UnsafePointer<P>) -> Double)? {
        guard let radial = type as? any HeatMapRadial.Type else { return nil }
        func reader<R: HeatMapRadial>(_: R.Type) -> (UnsafePointer<P>) -> Double {
            { p in UnsafeRawPointer(p).assumingMemoryBound(to: R.self).pointee.radius }
        }
        return reader(radial)
    }

    /// The projection ``PlaneProjection/fitted(_:to:)`` fits to the kept points.
    /// The longitudes are binned by chunks on every core (each chunk's
    /// bins, then their extremes merged: the same bins in any order),
    /// polling `control` between chunks.
    private static func fitted(
        _ kind: MapProjection, latitudes tallies: [ChunkTally],
        longitudes: [Double], control: ComputeControl
    ) throws -> PlaneProjection {
        guard kind != .planar else { return PlaneProjection(kind: .planar) }
        let lo = tallies.reduce(Double.infinity) { min($0, $1.minLatitude) }
        let hi = tallies.reduce(-Double.infinity) { max($0, $1.maxLatitude) }
        let blocks = Parallel.blocks(of: longitudes.count, size: 8 * chunkSize)
        let parts = try longitudes.withUnsafeBufferPointer { all in
            let all = UncheckedSendable(all)
            return try Parallel.map(blocks.count, control: control) { b -> LongitudeBins in
                var bins = LongitudeBins()
                bins.add(contentsOf: UnsafeBufferPointer(rebasing: all.value[blocks[b]]))
                return bins
            }
        }
        var bins = LongitudeBins()
        for part in parts { bins.merge(part) }
        return PlaneProjection.centred(kind, latitudes: lo, hi, arc: bins.smallestArc())
    }

    /// Projects every point in place: x over the longitude, y over the latitude.
    private static func project(
        latitude: inout [Double], longitude: inout [Double], with projection: PlaneProjection,
        control: ComputeControl, progress: StageProgress, of total: Int
    ) throws {
        let count = latitude.count
        try latitude.withUnsafeMutableBufferPointer { lat in
            try longitude.withUnsafeMutableBufferPointer { lon in
                let columns = UncheckedSendable((lat, lon))
                let projector = PointProjector(projection)
                try Parallel.forEach((count + chunkSize - 1) / chunkSize) { c in
                    try control.checkCancellation()
                    let (lat, lon) = columns.value
                    for i in (c * chunkSize)..<min((c + 1) * chunkSize, count) {
                        let q = projector.plane(latitude: lat[i], longitude: lon[i])
                        lon[i] = q.x
                        lat[i] = q.y
                    }
                    progress.advance(by: 1, of: total)
                }
            }
        }
    }
}
