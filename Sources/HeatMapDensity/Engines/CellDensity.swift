import Foundation
import HeatMapCore

extension CellTable {
    /// The density grid the table's sums give (docs/density-model.md): the Taylor scheme's
    /// moments through the same ``SeparableConvolution`` as points binned
    /// here, the splat's kernel factors added at their nodes, or the disc
    /// scheme's sums as they are, each scaled as the kernel and its values
    /// want.
    /// O(cells · planes · kernel width in cells); all cores for the
    /// convolution; `control` polled throughout.
    /// - Throws: `CancellationError`; ``HeatMapError`` when the moment
    ///   planes do not fit in memory.
    package func densityGrid(control: ComputeControl = .none) throws -> DensityGrid {
        try control.checkCancellation()
        control.report(.density, 0)
        let cells = geometry.count, columns = geometry.columns
        let mean = estimator == .mean
        let channels = mean ? 2 : 1
        let scale = try DensityAccumulator.scale(
            kernel: kernel, values: kernelValues, radius: radius, projection: projection)
        let stride = scheme.sumsPerChannel * channels
        var values = [Double](repeating: 0, count: cells)

        switch scheme {
        case .disc:
            // Each node's own sums, complete: nodes no disc reached have none.
            for (k, node) in nodes.enumerated() {
                if k & 0xfff == 0 { try control.checkCancellation() }
                values[node] = DensityAccumulator.nodeValue(
                    sum: sums[k * stride], valueSum: mean ? sums[k * stride + 1] : 0, mean: mean, scale: scale)
            }
            if mean {
                var present = [Bool](repeating: false, count: cells)
                for node in nodes { present[node] = true }
                for i in 0..<cells where !present[i] { values[i] = .nan }
            }
        case .cubic:
            try finishCubic(into: &values, scale: scale, mean: mean, control: control)
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
                values[i] = DensityAccumulator.nodeValue(
                    sum: den[i], valueSum: mean ? num[i] : 0, mean: mean,
                    scale: scale)
            }
        case .taylor(let order):
            // The automatic method's reach, as the points' own binned or
            // splatted grid has it: the same nodes are left at zero.
            let (xAxis, yAxis) = DensityAccumulator.axes(
                geometry: geometry, radius: radius,
                reachInSigmas: DensityPlan.automaticReachInSigmas)
            let planeCount = MomentBinning.planeCount(order: order)
            let (total, overflow) = cells.multipliedReportingOverflow(by: planeCount * channels)
            guard !overflow, total <= Int.max / 16 else {
                throw HeatMapError.invalidConfiguration("grid of \(columns) × \(geometry.rows) nodes is too large")
            }
            let storage = try DensityStorage(
                planeCount: total + SeparableConvolution.slack, cells: cells,
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
                try convolution.run(
                    planes: planes, control: control,
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
        if !kernel.isFinite {
            // Nodes no point's kernel reaches are zero (undefined for a mean)
            // as in the points' own grid, whose lowest thresholds count them.
            let reached = self.reached(channels: channels)
            for i in 0..<cells where !reached[i] { values[i] = mean ? .nan : 0 }
        }
        SphereRim.mark(mean ? .nan : 0, beyondIn: &values, geometry: geometry, projection: projection)
        control.report(.density, 1)
        return DensityGrid(
            geometry: geometry, values: values, projection: projection, radius: radius,
            estimator: estimator, units: mean ? units : kernelValues == .raw ? "" : projection.densityUnits,
            kernel: kernel, kernelValues: kernelValues)
    }

    /// The cubic scheme's grid: each cell's 16 sums added at the nodes of
    /// its 4 × 4 block in the padded plane, as ``CubicBinning`` adds a
    /// point's weights, then the kernel's convolution of those planes
    /// (``DiscConvolutionFill``), as for the tool's own binned points.
    private func finishCubic(
        into values: inout [Double], scale: Double, mean: Bool, control: ComputeControl
    ) throws {
        let channels = mean ? 2 : 1
        let (xAxis, yAxis) = DensityAccumulator.axes(
            geometry: geometry, radius: radius,
            reachInSigmas: DensityPlan.reach(of: .discConvolution, method: .automatic))
        let layout = DiscConvolutionLayout(xAxis: xAxis, yAxis: yAxis, radius: radius, channels: channels)
        let storage = try DensityStorage(planeCount: layout.count, cells: geometry.count, channels: channels)
        let planes = storage.planes!.base
        let columns = geometry.columns, pad = CubicBinning.padding
        let stride = CellScheme.cubic.sumsPerChannel * channels
        for (k, node) in nodes.enumerated() {
            if k & 0xfff == 0 { try control.checkCancellation() }
            let c = node % columns, r = node / columns
            for b in 0..<4 {
                let row = r - 1 + b + pad
                let weights = planes + layout.offset(row: row) + c - 1 + pad
                let weighted = mean ? planes + layout.valueOffset(row: row) + c - 1 + pad : nil
                for a in 0..<4 {
                    weights[a] += sums[k * stride + b * 4 + a]
                    weighted?[a] += sums[k * stride + 16 + b * 4 + a]
                }
            }
        }
        let fill = DiscConvolutionFill(
            kernel: kernel, xAxis: xAxis, yAxis: yAxis, radius: radius, channels: channels, planes: planes)
        try values.withUnsafeMutableBufferPointer { out in
            let out = out.baseAddress!
            try fill.finish(
                control: control, progress: { f in control.report(.density, f) },
                emit: { r, rowSums in
                    for c in 0..<columns {
                        out[r * columns + c] = DensityAccumulator.nodeValue(
                            sum: rowSums?[c] ?? 0, valueSum: mean ? rowSums?[columns + c] ?? 0 : 0, mean: mean,
                            scale: scale)
                    }
                })
        }
        withExtendedLifetime(storage) {}
    }

    /// The nodes the points' own grid would reach: the footprints of the
    /// scheme ``DensityPlan`` picks for as many points on this grid (the
    /// square of taps around each occupied node, or the exact splat's disc
    /// chords where its tabulated splat uses them; a splat without tables
    /// is taken as the chords too).
    func reached(channels: Int) -> [Bool] {
        let columns = geometry.columns, rows = geometry.rows
        let (x5, y5) = DensityAccumulator.axes(
            geometry: geometry, radius: radius, reachInSigmas: DensityPlan.reachInSigmas)
        let scheme = DensityPlan.scheme(
            method: .automatic, xAxis: x5, yAxis: y5, channels: channels, pointCount: points)
        let (x, y) = DensityAccumulator.axes(
            geometry: geometry, radius: radius,
            reachInSigmas: DensityPlan.reach(of: scheme, method: .automatic))
        let hx = min(GaussianTable.half(of: x), columns), hy = min(GaussianTable.half(of: y), rows)
        let stride = (2 * hx + 1 + 3) / 4 * 4
        var chord = [Int](repeating: hx, count: 2 * hy + 1)
        if scheme == .direct {
            for j in 0..<chord.count {
                let dy = max(0, Double(abs(j - hy)) - 0.5) * y.step
                let left = x.reach * x.reach - dy * dy
                chord[j] = left < 0 ? -1 : min(hx, Int((left.squareRoot() / x.step + 0.5).rounded(.down)))
            }
        }
        var reached = [Bool](repeating: false, count: columns * rows)
        for node in nodes {
            let c = node % columns, r = node / columns
            let square = scheme != .direct || (stride <= 8 && c - hx >= 0 && c - hx + stride <= columns)
            for j in 0..<chord.count where (0..<rows).contains(r + j - hy) {
                let half = square ? hx : chord[j]
                guard half >= 0 else { continue }
                let row = (r + j - hy) * columns
                for k in max(0, c - half)...min(columns - 1, c + half) { reached[row + k] = true }
            }
        }
        return reached
    }
}
