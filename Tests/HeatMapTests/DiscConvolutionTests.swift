import Foundation
import Testing

@testable import HeatMapCore
@testable import HeatMapDensity

/// The finite kernels' convolution scheme (cubic binning and a 2-D
/// convolution by our Fourier transform) against the exact sums written
/// out in ``KernelTests``, and the planner's choice between it and the
/// exact splat.
@Suite struct DiscConvolutionTests {
    static let planar = PlaneProjection(kind: .planar)

    @Test(arguments: [1, 2, 3, 4, 5, 6, 8, 9, 12, 15, 16, 20, 25, 30, 32, 45, 60, 64, 75, 90, 128, 150])
    func theTransformIsTheDiscreteFourierSum(n: Int) {
        var rng = SplitMixGenerator(seed: UInt64(n))
        for lanes in [1, 3] {
            let re = (0..<n * lanes).map { _ in Double.random(in: -1...1, using: &rng) }
            let im = (0..<n * lanes).map { _ in Double.random(in: -1...1, using: &rng) }
            var outRe = re, outIm = im
            var work = [Double](repeating: 0, count: 2 * n * lanes)
            outRe.withUnsafeMutableBufferPointer { r in
                outIm.withUnsafeMutableBufferPointer { i in
                    work.withUnsafeMutableBufferPointer { w in
                        ComplexFFT(count: n).transform(
                            re: r.baseAddress!, im: i.baseAddress!, workRe: w.baseAddress!,
                            workIm: w.baseAddress! + n * lanes, lanes: lanes)
                    }
                }
            }
            var worst = 0.0
            for l in 0..<lanes {
                for k in 0..<n {
                    var sr = 0.0, si = 0.0
                    for j in 0..<n {
                        let a = -2 * Double.pi * Double(j * k % n) / Double(n)
                        let xr = re[j * lanes + l], xi = im[j * lanes + l]
                        sr += xr * cos(a) - xi * sin(a)
                        si += xr * sin(a) + xi * cos(a)
                    }
                    worst = max(worst, abs(sr - outRe[k * lanes + l]), abs(si - outIm[k * lanes + l]))
                }
            }
            #expect(worst < 1e-12 * Double(n), "n \(n) lanes \(lanes): \(worst)")
        }
    }

    @Test func goodSizesHaveNoPrimeFactorAboveFive() {
        #expect(ComplexFFT.goodSize(atLeast: 7) == 8)
        #expect(ComplexFFT.goodSize(atLeast: 1001) == 1024)
        #expect(ComplexFFT.goodSize(atLeast: 961) == 972)
        #expect(ComplexFFT.goodSize(atLeast: 1) == 1)
    }

    @Test func theCandidateLengthsAreGoodAndTheCheapestPairIsTaken() {
        let sizes = ComplexFFT.goodSizes(atLeast: 483)
        #expect(sizes.first == 486 && sizes.contains(512) && sizes.allSatisfy { $0 * 3 <= 483 * 4 })
        #expect(sizes.allSatisfy { ComplexFFT.goodSize(atLeast: $0) == $0 } && sizes == sizes.sorted())
        // 2·3⁵ takes six passes (five of radix 3), 2⁹ five (four of radix 4).
        #expect(ComplexFFT.workPerElement(512) * 512 < ComplexFFT.workPerElement(486) * 486)
        let (x, y) = DensityAccumulator.axes(
            geometry: GridGeometry(columns: 1024, rows: 878, x0: 0, y0: 0, dx: 1, dy: 1), radius: 20,
            reachInSigmas: 5)
        let layout = DiscConvolutionLayout(xAxis: x, yAxis: y, radius: 20, channels: 1)
        #expect(layout.rows == 512 && layout.columns == 1080)
        #expect(layout.rows >= layout.split + 2 * layout.reachRows)
        // A row's convolution is read on the plane's own columns only: a
        // period of width + reach keeps every wrap off them.
        #expect(layout.columns >= layout.width + layout.reachColumns)
        let wide = DiscConvolutionLayout(xAxis: x, yAxis: y, radius: 5000, channels: 1)
        #expect(wide.columns >= 2 * wide.reachColumns + 1 && wide.columns >= wide.width + wide.reachColumns)
    }

    /// Two terms, each a real and an imaginary grid filled on fewer rows
    /// and columns than the transform's, and two kernels sharing one
    /// transform, summed in the frequency domain: the sum equals the
    /// circular convolutions written out, for odd and even lengths, and
    /// each term's grid is left cleared.
    @Test(arguments: [(15, 16), (16, 15), (9, 10), (12, 25)])
    func aSpectralSumIsTheSumOfTheCircularConvolutions(rows m: Int, columns n: Int) throws {
        var rng = SplitMixGenerator(seed: UInt64(m * 100 + n))
        let filled = m - 3, width = n - 4, reachRows = 3, reachColumns = 4
        func kernel(_ i: Int, _ j: Int, _ r: Double) -> Double {
            let d2 = Double(i * i) / 16 + Double(j * j) / 9
            return d2 <= r ? (r - d2) * (1 + 0.1 * Double(i * i)) : 0
        }
        let sum = try SpectralSum(rows: m, columns: n)
        let spectra = try sum.spectra(reachRows: reachRows, reachColumns: reachColumns, control: .none) { i, j in
            (kernel(i, j, 1.2), kernel(i, j, 0.7))
        }
        var terms: [[Double]] = []
        for spectrum in [spectra.re, spectra.im] {
            let plane = (0..<(2 * filled * width)).map { _ in Double.random(in: -1...1, using: &rng) }
            terms.append(plane)
            var read = plane
            let magnitude = try read.withUnsafeMutableBufferPointer { p in
                try sum.add(
                    clearing: p.baseAddress!, im: p.baseAddress! + filled * width, width: width,
                    filledRows: filled, spectrum: spectrum.base, control: .none)
            }
            // The grid is left zero for the next term.
            #expect(read.allSatisfy { $0 == 0 })
            // What the rounding floor is made from: Σ |value| of each part.
            let half = filled * width
            let re = plane[..<half].reduce(0) { $0 + abs($1) }, im = plane[half...].reduce(0) { $0 + abs($1) }
            #expect(abs(magnitude.re - re) <= 1e-12 * re && abs(magnitude.im - im) <= 1e-12 * im)
        }
        try sum.inverse(control: .none)
        var worst = 0.0
        for r in 0..<m {
            for c in 0..<n {
                var expectRe = 0.0, expectIm = 0.0
                for (k, plane) in terms.enumerated() {
                    for y in 0..<filled {
                        for x in 0..<width {
                            // The kernel's offset from the input to the output, wrapped into −half…half.
                            var i = (c - x + n) % n, j = (r - y + m) % m
                            if i > n / 2 { i -= n }
                            if j > m / 2 { j -= m }
                            guard abs(i) <= reachColumns, abs(j) <= reachRows else { continue }
                            let f = kernel(i, j, k == 0 ? 1.2 : 0.7)
                            expectRe += plane[y * width + x] * f
                            expectIm += plane[(filled + y) * width + x] * f
                        }
                    }
                }
                worst = max(worst, abs(sum.sumRe.base[r * n + c] - expectRe), abs(sum.sumIm.base[r * n + c] - expectIm))
            }
        }
        #expect(worst < 1e-12, "\(m) × \(n): \(worst)")
    }

    /// A grid of `cells` × `cells` unit cells with the kernel `radiusInCells` wide.
    static func grid(
        _ points: PlanePoints, kernel: DensityKernel, radiusInCells: Double, cells: Int = 64,
        estimator: DensityEstimator = .density, values: KernelValues = .density, method: DensityMethod = .binned
    ) throws -> (DensityGrid, DensityScheme) {
        let geometry = GridGeometry(columns: cells, rows: cells + 3, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        var accumulator = try DensityAccumulator(
            geometry: geometry, radius: radiusInCells, projection: planar, estimator: estimator,
            method: method, kernel: kernel, kernelValues: values, expectedCount: points.count)
        let scheme = accumulator.scheme
        try accumulator.add(points)
        return (try accumulator.finish(), scheme)
    }

    @Test(arguments: [
        (DensityKernel.quartic, 19.0), (.quartic, 20.0), (.quartic, 27.5), (.triweight, 10.0), (.triweight, 14.3)
    ])
    func aLonePointAnywhereInItsCellIsWithinTheBound(kernel: DensityKernel, radius: Double) throws {
        // The worst case: no neighbours to average the error away.
        for (fx, fy) in [(0.0, 0.0), (0.5, 0.5), (0.25, 0.75), (0.1, 0.6), (0.9, 0.35)] {
            let p = PlanePoints(x: [31 + fx], y: [33 + fy], weight: [2])
            let (grid, scheme) = try Self.grid(p, kernel: kernel, radiusInCells: radius)
            #expect(scheme == .discConvolution)
            let radii = [radius]
            let error = KernelTests.error(grid, p, radii: radii, kernel: kernel, raw: false)
            #expect(error < 1e-3, "\(kernel) r \(radius) at +(\(fx), \(fy)): \(error)")
        }
    }

    @Test(arguments: [DensityKernel.quartic, .triweight])
    func manyPointsTheMeanAndRawValuesAreTheExactSums(kernel: DensityKernel) throws {
        var rng = SplitMixGenerator(seed: 4)
        var p = PlanePoints()
        // A cluster, a scatter, and points on and beyond the grid's edges
        // (the beyond ones are splatted exactly).
        for i in 0..<400 {
            let spread = i % 4 == 0 ? -8.0...72.0 : 20.0...40.0
            p.append(
                x: Double.random(in: spread, using: &rng), y: Double.random(in: spread, using: &rng),
                weight: Double.random(in: 0.5...2, using: &rng))
        }
        let radii = [Double](repeating: 21, count: p.count)
        let (density, scheme) = try Self.grid(p, kernel: kernel, radiusInCells: 21)
        #expect(scheme == .discConvolution)
        #expect(KernelTests.error(density, p, radii: radii, kernel: kernel, raw: false) < 2e-4)
        let (raw, _) = try Self.grid(p, kernel: kernel, radiusInCells: 21, values: .raw)
        #expect(KernelTests.error(raw, p, radii: radii, kernel: kernel, raw: true) < 2e-4)
        #expect(density.values.allSatisfy { $0 >= 0 })

        var measured = p
        measured.value = p.x.map { 0.5 * $0 - 3 }
        let (mean, _) = try Self.grid(measured, kernel: kernel, radiusInCells: 21, estimator: .mean)
        let (exactMean, exactScheme) = try Self.grid(
            measured, kernel: kernel, radiusInCells: 21, estimator: .mean, method: .exact)
        #expect(exactScheme == .direct)
        var worst = 0.0, span = 0.0
        for (a, b) in zip(mean.values, exactMean.values) where !b.isNaN {
            worst = max(worst, abs(a - b))
            span = max(span, abs(b))
        }
        #expect(worst < 1e-3 * span, "mean: \(worst) of \(span)")
    }

    @Test func thePlannerTakesTheConvolutionOnlyWhereItIsAccurateAndCheaper() {
        func scheme(_ kernel: DensityKernel, _ r: Double, method: DensityMethod = .automatic, n: Int = 1_000_000)
            -> DensityScheme
        {
            let (x, y) = DensityAccumulator.axes(
                geometry: GridGeometry(columns: 900, rows: 1000, x0: 0, y0: 0, dx: 1, dy: 1), radius: r,
                reachInSigmas: 5)
            return DensityPlan.discScheme(
                method: method, kernel: kernel, radius: r, xAxis: x, yAxis: y, channels: 1, pointCount: n)
        }
        #expect(scheme(.quartic, 6) == .direct)
        #expect(scheme(.quartic, 18.9) == .direct)
        #expect(scheme(.quartic, 18.9, method: .binned) == .direct)
        #expect(scheme(.quartic, 20) == .discConvolution)
        #expect(scheme(.quartic, 20, method: .exact) == .direct)
        #expect(scheme(.quartic, 20, n: 100) == .direct)
        #expect(scheme(.quartic, 20, method: .binned, n: 100) == .discConvolution)
        #expect(scheme(.triweight, 12) == .discConvolution)
        #expect(scheme(.epanechnikov, 60) == .direct)
        #expect(scheme(.uniform, 60) == .direct)
        #expect(scheme(.triangular(decay: 0), 60) == .direct)
    }
}
