import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The density of points at every node, summed exactly: each point adds
/// w·K(d) to the nodes within 5σ of it (d measured in the points' own
/// plane, so the kernel and radius are the grid's at every zoom), K the
/// Gaussian of docs/density-model.md; or, for the mean estimator, the
/// kernel-weighted mean, NaN where the support is below 0.05.
///
/// Points are kept sorted by world u, so the points near a block are found
/// by two binary searches; every node adds its points in that one order,
/// whichever block it is in. Memory: 6 numbers a point.
struct PointTileField: TileField {
    private let u: [Double], v: [Double], x: [Double], y: [Double], w: [Double]
    private let value: [Double]?
    /// Each point's reach in world units (the Mercator scale grows poleward).
    private let reachU: [Double]
    private let maximumReachU: Double
    let projection: PlaneProjection
    let sigma: Double
    let worldBox: (minU: Double, minV: Double, maxU: Double, maxV: Double)

    /// Reach of the kernel, in σ (the exact method's).
    static let reachInSigmas = 5.0

    init(points: PlanePoints, projection: PlaneProjection, radius: Double, control: ComputeControl) throws {
        self.projection = projection
        sigma = radius / 3
        let reach = Self.reachInSigmas * sigma
        let n = points.count
        var uu = [Double](repeating: 0, count: n), vv = uu, ru = uu
        let unprojection = Unprojection(projection)
        // Radians of arc the reach spans; 1.5 covers the equal-area
        // plane's stretch (at most √2 within 90° of its centre).
        let arc = 1.5 * reach / PlaneProjection.authalicRadius * 180 / .pi
        for i in 0..<n {
            if i & 0xffff == 0 { try control.checkCancellation() }
            let c = unprojection.coordinate(PlanePoint(x: points.x[i], y: points.y[i]))
            uu[i] = WebMercator.u(longitude: c.longitude)
            vv[i] = WebMercator.v(latitude: c.latitude)
            let poleward = min(abs(c.latitude) + arc, 89.9)
            ru[i] = 1.5 * reach * WebMercator.unitsPerMetre(latitude: poleward)
        }
        let order = (0..<n).sorted { uu[$0] < uu[$1] || (uu[$0] == uu[$1] && $0 < $1) }
        u = order.map { uu[$0] }
        v = order.map { vv[$0] }
        reachU = order.map { ru[$0] }
        x = order.map { points.x[$0] }
        y = order.map { points.y[$0] }
        w = order.map { points.weight[$0] }
        value = points.value.map { values in order.map { values[$0] } }
        maximumReachU = reachU.max() ?? 0
        var box = (minU: Double.infinity, minV: Double.infinity, maxU: -Double.infinity, maxV: -Double.infinity)
        for i in 0..<n where w[i] > 0 {
            box.minU = min(box.minU, u[i] - reachU[i]); box.maxU = max(box.maxU, u[i] + reachU[i])
            box.minV = min(box.minV, v[i] - reachU[i]); box.maxV = max(box.maxV, v[i] + reachU[i])
        }
        worldBox = box
    }

    var count: Int { u.count }

    func values(_ block: TileBlock, control: ComputeControl) throws -> [Double] {
        let nodes = block.planeNodes(projection)
        let columns = block.columns, rows = block.rows
        let mean = value != nil
        var sums = [Double](repeating: 0, count: columns * rows)
        var valueSums = mean ? sums : []
        let scale = block.nodesPerUnit
        let reach = Self.reachInSigmas * sigma, reach2 = reach * reach
        let inverse = -1 / (2 * sigma * sigma)
        let loU = block.u(column: 0) - maximumReachU, hiU = block.u(column: columns - 1) + maximumReachU
        let loV = block.v(row: 0), hiV = block.v(row: rows - 1)
        var i = lowerBound(loU)
        var polled = 0
        while i < u.count, u[i] <= hiU {
            defer { i += 1 }
            let r = reachU[i], pv = v[i]
            guard pv + r >= loV, pv - r <= hiV, w[i] != 0 else { continue }
            polled += 1
            if polled & 0xfff == 0 { try control.checkCancellation() }
            let c0 = max(Int(((u[i] - r) * scale).rounded(.up)) - block.firstColumn, 0)
            let c1 = min(Int(((u[i] + r) * scale).rounded(.down)) - block.firstColumn, columns - 1)
            let r0 = max(Int(((pv - r) * scale).rounded(.up)) - block.firstRow, 0)
            let r1 = min(Int(((pv + r) * scale).rounded(.down)) - block.firstRow, rows - 1)
            guard c0 <= c1, r0 <= r1 else { continue }
            let px = x[i], py = y[i], wi = w[i], vi = value?[i] ?? 0
            nodes.x.withUnsafeBufferPointer { nx in
                nodes.y.withUnsafeBufferPointer { ny in
                    sums.withUnsafeMutableBufferPointer { s in
                        for row in r0...r1 {
                            let base = row * columns
                            for col in c0...c1 {
                                let dx = nx[base + col] - px, dy = ny[base + col] - py
                                let d2 = dx * dx + dy * dy
                                guard d2 < reach2 else { continue }
                                s[base + col] += wi * exp(d2 * inverse)
                            }
                        }
                    }
                }
            }
            if mean {
                for row in r0...r1 {
                    let base = row * columns
                    for col in c0...c1 {
                        let dx = nodes.x[base + col] - px, dy = nodes.y[base + col] - py
                        let d2 = dx * dx + dy * dy
                        guard d2 < reach2 else { continue }
                        valueSums[base + col] += vi * wi * exp(d2 * inverse)
                    }
                }
            }
        }
        let density = projection.areaUnitScale / (2 * Double.pi * sigma * sigma)
        if mean {
            return (0..<sums.count).map { sums[$0] < 0.05 ? .nan : valueSums[$0] / sums[$0] }
        }
        return sums.map { $0 * density }
    }

    /// The first point whose u is at least `target`.
    private func lowerBound(_ target: Double) -> Int {
        var lo = 0, hi = u.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if u[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
