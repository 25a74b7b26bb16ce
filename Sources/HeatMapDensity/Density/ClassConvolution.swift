import Foundation
import HeatMapCore

/// Radius classes convolved on one grid (the grid's own, or the coarse one
/// of ``CoarseGrid``): the classes binned into a packed plane each at
/// once, or each in turn into one, convolved with its kernel, and the
/// convolutions summed by one inverse transform (``SpectralSum``).
///
/// Memory: a packed plane (about the grid's doubles) per class, while
/// they fit ``allPlanesLimit``, else one, and the sum's six
/// transform-sized grids. Cost per class
/// about one and a quarter transforms of ``transform``'s size, which is
/// padded by the widest class's reach only.
struct ClassConvolution {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// The transform's layout, wide enough for the widest class's kernel.
    let transform: DiscConvolutionLayout
    /// The packed plane each class is binned into (``DiscConvolutionLayout/init(packing:)``).
    let layout: DiscConvolutionLayout
    let plane: GridBuffer
    let sum: SpectralSum

    /// The most doubles of the planes of ``add(_:support:kernel:control:binAll:bin:done:)``'s
    /// classes binned all at once (64 MiB); more classes are binned one at a time into one plane.
    static let allPlanesLimit = 1 << 23

    /// - Parameter reach: how far the widest kernel reaches (its support).
    init(xAxis: GaussianAxis, yAxis: GaussianAxis, reach: Double, channels: Int) throws {
        self.xAxis = xAxis
        self.yAxis = yAxis
        transform = DiscConvolutionLayout(xAxis: xAxis, yAxis: yAxis, radius: reach, channels: channels)
        layout = DiscConvolutionLayout(packing: transform)
        guard let plane = GridBuffer(count: layout.count) else { throw DensityStorage.outOfMemory }
        self.plane = plane
        sum = try SpectralSum(rows: transform.rows, columns: transform.columns)
    }

    /// Convolves each class of `classes` and adds it to the sum, two
    /// kernels a transform: `kernel(k, i, j)` is class k's kernel at node
    /// offset (i, j) of this grid (zero beyond `support(k)`), `bin(k, binning)`
    /// bins class k's points by `binning` into the plane (zero before each
    /// class), and `done(k, magnitude)` sees Σ |value| of each part of
    /// class k's plane.
    ///
    /// With `binAll`, when a plane per class fits ``allPlanesLimit``, every
    /// class is binned first in one call into planes of its own (class
    /// `classes[s]` into plane s, ``CubicBinning/deposit(x:y:shares:slots:stride:)``,
    /// `binAll(binning, stride)` with `binning` over plane 0): each point's
    /// nodes and weights are found once rather than once per class it shares.
    func add(
        _ classes: [Int], support: (Int) -> Double, kernel: (_ k: Int, _ i: Int, _ j: Int) -> Double,
        control: ComputeControl, binAll: ((_ binning: CubicBinning, _ stride: Int) throws -> Void)? = nil,
        bin: (_ k: Int, _ binning: CubicBinning) throws -> Void,
        done: (_ k: Int, _ magnitude: (re: Double, im: Double)) -> Void
    ) throws {
        var planes: GridBuffer? = nil
        if let binAll, classes.count > 1, classes.count * layout.count <= ClassConvolution.allPlanesLimit,
            let all = GridBuffer(count: classes.count * layout.count)
        {
            try binAll(CubicBinning(xAxis: xAxis, yAxis: yAxis, planes: all.base, layout: layout), layout.count)
            planes = all
        }
        let binning = CubicBinning(xAxis: xAxis, yAxis: yAxis, planes: plane.base, layout: layout)
        var index = 0
        while index < classes.count {
            let a = classes[index], b = index + 1 < classes.count ? classes[index + 1] : nil
            let reach = support(b ?? a)
            let spectra = try sum.spectra(
                reachRows: Int(reach / yAxis.step) + 1, reachColumns: Int(reach / xAxis.step) + 1, control: control
            ) { i, j in (kernel(a, i, j), b.map { kernel($0, i, j) } ?? 0) }
            for (slot, k, spectrum) in [(index, a, spectra.re), (index + 1, b, spectra.im)] {
                guard let k else { continue }
                var plane = self.plane.base
                if let planes {
                    plane = planes.base + slot * layout.count
                } else {
                    try bin(k, binning)
                }
                // The packed plane: its real part's rows, then its imaginary part's.
                let filled = layout.rows, width = layout.columns
                let magnitude = try sum.add(
                    clearing: plane, im: plane + filled * width, width: width, filledRows: filled,
                    spectrum: spectrum.base, control: control)
                done(k, magnitude)
            }
            index += 2
        }
    }
}
