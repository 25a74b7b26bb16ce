import Foundation

extension CellTable {
    /// The density grid the table's sums give (§4): the Taylor scheme's
    /// moments through the same ``SeparableConvolution`` as points binned
    /// here, or the splat's kernel factors added at their nodes.
    /// O(cells · planes · kernel width in cells); all cores for the
    /// convolution; `control` polled throughout.
    /// - Throws: `CancellationError`; ``HeatMapError`` when the moment
    ///   planes do not fit in memory.
    public func densityGrid(control: ComputeControl = .none) throws -> DensityGrid {
        try control.checkCancellation()
        control.report(.density, 0)
        let cells = geometry.count, columns = geometry.columns
        let sigma = radius / 3
        let mean = estimator == .mean
        let channels = mean ? 2 : 1
        let scale = projection.areaUnitScale / (2 * Double.pi * sigma * sigma)
        let stride = CellScheme.sumCount * channels
        var values = [Double](repeating: 0, count: cells)

        switch scheme {
        case .splat:
            var den = [Double](repeating: 0, count: cells)
            var num = [Double](repeating: 0, count: mean ? cells : 0)
            let half = CellScheme.splatHalf, side = 2 * half + 1
            let (hx, hy) = CellScheme.splatReach(geometry: geometry, radius: radius)
            for (k, node) in nodes.enumerated() {
                if k & 0xfff == 0 { try control.checkCancellation() }
                let c = node % columns, r = node / columns
                let base = k * stride
                for jy in -hy...hy where (0..<geometry.rows).contains(r + jy) {
                    for jx in -hx...hx where (0..<columns).contains(c + jx) {
                        let s = (jy + half) * side + jx + half
                        let target = (r + jy) * columns + c + jx
                        den[target] += sums[base + s]
                        if mean { num[target] += sums[base + CellScheme.sumCount + s] }
                    }
                }
            }
            for i in 0..<cells {
                values[i] = DensityAccumulator.nodeValue(sum: den[i], valueSum: mean ? num[i] : 0, mean: mean,
                                                         scale: scale)
            }
        case .taylor(let order):
            // The reach of the exact method asked for by name (5σ).
            let (xAxis, yAxis) = DensityAccumulator.axes(geometry: geometry, radius: radius,
                                                         reachInSigmas: DensityPlan.reachInSigmas)
            let planeCount = MomentBinning.planeCount(order: order)
            let (total, overflow) = cells.multipliedReportingOverflow(by: planeCount * channels)
            guard !overflow, total <= Int.max / 16 else {
                throw HeatMapError.invalidConfiguration("grid of \(columns) × \(geometry.rows) nodes is too large")
            }
            let storage = try DensityStorage(planeCount: total + SeparableConvolution.slack, cells: cells,
                                             channels: channels)
            let planes = storage.planes!.base
            // Plane (m, n) of this order's layout ← moment (m, n) of the table's.
            var source: [Int] = []
            for n in 0...order { for m in 0...(order - n) { source.append(CellScheme.momentIndex(m: m, n: n)) } }
            for (k, node) in nodes.enumerated() {
                for ch in 0..<channels {
                    let from = k * stride + ch * CellScheme.sumCount
                    let to = planes + ch * planeCount * cells + node * planeCount
                    for (p, s) in source.enumerated() { to[p] = sums[from + s] }
                }
            }
            let convolution = SeparableConvolution(order: order, xAxis: xAxis, yAxis: yAxis, channels: channels)
            try values.withUnsafeMutableBufferPointer { out in
                let out = out.baseAddress!
                try convolution.run(planes: planes, control: control,
                                    progress: { f in control.report(.density, f) },
                                    emit: { r, rowSums in
                                        for c in 0..<columns {
                                            out[r * columns + c] = DensityAccumulator.nodeValue(
                                                sum: rowSums[c], valueSum: mean ? rowSums[columns + c] : 0,
                                                mean: mean, scale: scale)
                                        }
                                    })
            }
            withExtendedLifetime(storage) {}
        }
        control.report(.density, 1)
        return DensityGrid(geometry: geometry, values: values, projection: projection, radius: radius,
                           estimator: estimator, units: mean ? units : projection.densityUnits)
    }
}
