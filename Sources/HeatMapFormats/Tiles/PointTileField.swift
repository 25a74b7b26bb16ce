import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The density of points at every node, summed exactly: each point adds
/// w·K(d) to the nodes within its kernel's reach (d measured in the
/// points' own plane, so the kernel and radius are the grid's at every
/// zoom): the Gaussian to 5σ, a finite kernel to its support radius, a
/// node at exactly the radius included. K is the configuration's kernel
/// (``DensityKernel/shape(squaredDistanceRatio:)`` scaled by its
/// normalisation, or the bare shape for raw values), with the point's own
/// radius when points have one; for the mean estimator, the
/// kernel-weighted mean, NaN where the support is below 0.05.
///
/// Points are kept sorted by world u, so the points near a block are found
/// by two binary searches; every node adds its points in that one order,
/// whichever block it is in. Memory: 7 numbers a point (8 with radii).
struct PointTileField: TileField {
    private let u: [Double], v: [Double], x: [Double], y: [Double]
    /// Each point's weight, times (R / rᵢ)² when it has its own radius rᵢ
    /// and values are densities (the normalisation c / (π rᵢ²) is then
    /// the finish's c / (π R²) times that factor).
    private let w: [Double]
    private let value: [Double]?
    /// 1 / rᵢ² of every point, when points have their own radii.
    private let inverseRadiusSquared: [Double]?
    /// Each point's reach in world units (the Mercator scale grows poleward).
    private let reachU: [Double]
    private let maximumReachU: Double
    let projection: PlaneProjection
    let kernel: DensityKernel
    let kernelValues: KernelValues
    /// The radius R the density is normalised by (the plan's).
    let radius: Double
    let worldBox: (minU: Double, minV: Double, maxU: Double, maxV: Double)
    let finestRadius: Double

    /// Reach in radii: 5σ = 5/3 R for the Gaussian (beyond, it is below
    /// e^−12.5 ≈ 4e−6 of its peak, the exact method's truncation), the
    /// support for the finite kernels.
    static func reachInRadii(_ kernel: DensityKernel) -> Double { kernel.isFinite ? 1 : 5.0 / 3 }

    /// - Parameter points: with ``PlanePoints/radius`` set, each point's
    ///   own kernel radius (plane units); otherwise `radius` for all.
    init(
        points: PlanePoints, projection: PlaneProjection, radius: Double, kernel: DensityKernel = .gaussian,
        kernelValues: KernelValues = .density, control: ComputeControl
    ) throws {
        self.projection = projection
        self.kernel = kernel
        self.kernelValues = kernelValues
        self.radius = radius
        let perRadius = Self.reachInRadii(kernel)
        let n = points.count
        let radii = points.radius
        var uu = [Double](repeating: 0, count: n), vv = uu, ru = uu
        let unprojection = Unprojection(projection)
        for i in 0..<n {
            if i & 0xffff == 0 { try control.checkCancellation() }
            let reach = perRadius * (radii?[i] ?? radius)
            // Radians of arc the reach spans; 1.5 covers the equal-area
            // plane's stretch (at most √2 within 90° of its centre).
            let arc = 1.5 * reach / PlaneProjection.authalicRadius * 180 / .pi
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
        let normalised = kernelValues == .density
        w = order.map { i in
            guard normalised, let r = radii?[i] else { return points.weight[i] }
            return points.weight[i] * (radius / r) * (radius / r)
        }
        inverseRadiusSquared = radii.map { radii in order.map { 1 / (radii[$0] * radii[$0]) } }
        value = points.value.map { values in order.map { values[$0] } }
        maximumReachU = reachU.max() ?? 0
        var box = (minU: Double.infinity, minV: Double.infinity, maxU: -Double.infinity, maxV: -Double.infinity)
        for i in 0..<n where w[i] > 0 {
            box.minU = min(box.minU, u[i] - reachU[i]); box.maxU = max(box.maxU, u[i] + reachU[i])
            box.minV = min(box.minV, v[i] - reachU[i]); box.maxV = max(box.maxV, v[i] + reachU[i])
        }
        worldBox = box
        var finest = radius
        if let radii {
            finest = .infinity
            for i in 0..<n where points.weight[i] > 0 { finest = min(finest, radii[i]) }
            if !finest.isFinite { finest = radius }
        }
        finestRadius = finest
    }

    var count: Int { u.count }

    func values(_ block: TileBlock, control: ComputeControl) throws -> [Double] {
        let nodes = block.planeNodes(projection)
        let columns = block.columns, rows = block.rows
        let mean = value != nil
        var sums = [Double](repeating: 0, count: columns * rows)
        var valueSums = mean ? sums : []
        let scale = block.nodesPerUnit
        let perRadius = Self.reachInRadii(kernel), kernel = self.kernel
        let fixedInverse = 1 / (radius * radius)
        let loU = block.u(column: 0) - maximumReachU, hiU = block.u(column: columns - 1) + maximumReachU
        let loV = block.v(row: 0), hiV = block.v(row: rows - 1)
        // A point's u is its unprojected longitude's, which for data round
        // the globe runs past ±180° on one side (longitudes are continuous
        // across the antimeridian within the data's arc), while the block's
        // columns are unwrapped next to the tile: a point is looked for a
        // turn either way too, and reaches the nodes of each copy of itself
        // the block holds (each node once: copies a reach apart merge).
        // Each candidate point with the turns it is found at (bit k: turn
        // k − 1), the turns in order.
        var candidates: [(index: Int, turns: UInt8)] = []
        for bit in 0..<3 {
            let turn = Double(bit - 1)
            var i = u.firstIndex(notBelow: loU - turn)
            while i < u.count, u[i] <= hiU - turn {
                defer { i += 1 }
                let r = reachU[i], pv = v[i]
                guard pv + r >= loV, pv - r <= hiV, w[i] != 0 else { continue }
                candidates.append((i, 1 << UInt8(bit)))
            }
        }
        if hiU - loU >= 1 {
            // Windows a turn apart overlap: one entry per point, its turns together.
            candidates.sort { $0.index < $1.index }
            var merged: [(index: Int, turns: UInt8)] = []
            for c in candidates {
                if let last = merged.last, last.index == c.index {
                    merged[merged.count - 1].turns |= c.turns
                } else {
                    merged.append(c)
                }
            }
            candidates = merged
        }
        var polled = 0
        var spans: [(lo: Int, hi: Int)] = []
        for (i, turns) in candidates {
            polled += 1
            if polled & 0xfff == 0 { try control.checkCancellation() }
            let r = reachU[i], pv = v[i]
            let r0 = max(Int(((pv - r) * scale).rounded(.up)) - block.firstRow, 0)
            let r1 = min(Int(((pv + r) * scale).rounded(.down)) - block.firstRow, rows - 1)
            guard r0 <= r1 else { continue }
            // The columns of each copy, merged where they meet.
            spans.removeAll(keepingCapacity: true)
            for bit in 0..<3 where turns & (1 << UInt8(bit)) != 0 {
                let turn = Double(bit - 1)
                let c0 = max(Int(((u[i] + turn - r) * scale).rounded(.up)) - block.firstColumn, 0)
                let c1 = min(Int(((u[i] + turn + r) * scale).rounded(.down)) - block.firstColumn, columns - 1)
                guard c0 <= c1 else { continue }
                if let last = spans.last, c0 <= last.hi + 1 {
                    spans[spans.count - 1].hi = max(last.hi, c1)
                } else {
                    spans.append((c0, c1))
                }
            }
            let px = x[i], py = y[i], wi = w[i], vi = value?[i] ?? 0
            let inverse = inverseRadiusSquared?[i] ?? fixedInverse
            // u² beyond which the point adds nothing: (reach / r)².
            let limit = perRadius * perRadius
            nodes.x.withUnsafeBufferPointer { nx in
                nodes.y.withUnsafeBufferPointer { ny in
                    sums.withUnsafeMutableBufferPointer { s in
                        valueSums.withUnsafeMutableBufferPointer { vs in
                            for (c0, c1) in spans {
                                for row in r0...r1 {
                                    let base = row * columns
                                    for col in c0...c1 {
                                        let dx = nx[base + col] - px, dy = ny[base + col] - py
                                        let u2 = (dx * dx + dy * dy) * inverse
                                        guard u2 <= limit else { continue }
                                        let k = wi * kernel.shape(squaredDistanceRatio: u2)
                                        s[base + col] += k
                                        if mean { vs[base + col] += vi * k }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if mean {
            return (0..<sums.count).map { sums[$0] < 0.05 ? .nan : valueSums[$0] / sums[$0] }
        }
        guard kernelValues == .density else { return sums }
        let density = projection.areaUnitScale * kernel.normalization / (Double.pi * radius * radius)
        return sums.map { $0 * density }
    }
}
