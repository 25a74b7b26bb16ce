import Foundation
import HeatMap

// Stage benchmark (docs/benchmark.md): the same jobs as Benchmarks/peers.py, on the
// same points, each stage timed as the best of K runs.

func bestOf<T>(_ repeats: Int, _ body: () throws -> T) rethrows -> (seconds: Double, cpu: Double, result: T) {
    var best = Double.infinity, bestCPU = Double.infinity
    var result: T?
    for _ in 0..<max(repeats, 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpu = CPUTime.seconds
        let r = try body()
        bestCPU = min(bestCPU, CPUTime.seconds - cpu)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        result = r
    }
    return (best, bestCPU, result!)
}

func readPoints(_ path: String) throws -> PlanePoints {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard data.count % 24 == 0 else {
        throw BenchOptions.UsageError(
            description: "\(path): \(data.count) bytes is not a whole number of (x, y, w) float64 triples")
    }
    let n = data.count / 24
    var x = [Double](repeating: 0, count: n), y = x, w = x
    data.withUnsafeBytes { raw in
        for i in 0..<n {
            x[i] = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24 * i, as: UInt64.self)))
            y[i] = Double(
                bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24 * i + 8, as: UInt64.self)))
            w[i] = Double(
                bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24 * i + 16, as: UInt64.self)))
        }
    }
    return PlanePoints(x: x, y: y, weight: w)
}

func reportFailure(_ error: any Error, usage: String) -> Never {
    if let error = error as? BenchOptions.UsageError {
        if !error.description.isEmpty {
            FileHandle.standardError.write(Data("contours-bench: \(error.description)\n".utf8))
        }
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(error.description.isEmpty ? 0 : 2)
    }
    FileHandle.standardError.write(Data("contours-bench: \(error)\n".utf8))
    exit(1)
}

// The end-to-end job runs as a client would: default allocator policy.
if CommandLine.arguments.dropFirst().first == "job" {
    do {
        try await JobBenchmark.main(Array(CommandLine.arguments.dropFirst(2)))
    } catch {
        reportFailure(error, usage: JobOptions.usage)
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "frames" {
    do {
        try await FramesBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    } catch {
        reportFailure(error, usage: FramesBenchmark.usage)
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "format" {
    do {
        try FormatBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    } catch {
        reportFailure(error, usage: FormatBenchmark.usage)
    }
    exit(0)
}

// Repeated stages in one process: keep freed pages (see MemoryPolicy).
MemoryPolicy.keepFreedMemory()
if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "h3" {
    do {
        try H3Check.run(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("contours-bench: \(error)\n".utf8))
        exit(2)
    }
}
do {
    let options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    let totalStart = DispatchTime.now().uptimeNanoseconds
    let points = try readPoints(options.points)
    let projection = PlaneProjection(kind: .planar)
    var configuration = HeatMapConfiguration(
        radius: options.radius, contourLevels: options.levels,
        levelSpacing: options.spacing == "linear" ? .linear : .quantile,
        gridResolution: options.resolution, smoother: .none,
        projection: .planar)
    configuration.paddingFactor = 1.5
    configuration.kernel = options.kernel
    if let sensitivity = options.adaptive {
        configuration.bandwidth = .adaptive(sensitivity: sensitivity, pilot: configuration.bandwidth)
    }

    let grid = try bestOf(options.repeats) {
        try DensityGrid.compute(points: points, projection: projection, configuration: configuration)
    }
    let thresholds = ThresholdResolver.thresholds(
        for: configuration.levelSpacing,
        levelCount: configuration.contourLevels, grid: grid.result)
    // Bands only, as the peer's filled contours.
    let contour = try bestOf(options.repeats) {
        try ContourBuilder.build(grid: grid.result, thresholds: thresholds, smoother: .none, kinds: .bands)
    }
    let smoothed =
        try options.skipped.contains("smooth")
        ? nil
        : bestOf(options.repeats) {
            try ContourBuilder.build(
                grid: grid.result, thresholds: thresholds, smoother: .chaikin(iterations: 2),
                kinds: .bands)
        }
    let polygons = contour.result.bands.reduce(0) { $0 + $1.count }

    // Queries uniform over the cell box, as peers.py draws them (seeded,
    // so every run asks the same questions).
    let box = grid.result.geometry.cellBox
    var rng = SplitMixGenerator(seed: 7)
    let queries = (0..<options.queries).map { _ in
        PlanePoint(
            x: Double.random(in: box.minX...box.maxX, using: &rng),
            y: Double.random(in: box.minY...box.maxY, using: &rng))
    }
    let hit =
        options.skipped.contains("hit")
        ? nil
        : bestOf(1) { () -> Int in
            let locator = BandLocator(bands: contour.result.bands)
            return locator.bands(at: queries).reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        }
    let hexbin =
        try options.skipped.contains("hexbin")
        ? nil
        : bestOf(options.repeats) {
            try HexBinBenchmark.count(points, size: options.hexSize)
        }

    let total = Double(DispatchTime.now().uptimeNanoseconds - totalStart) / 1e9
    var fields: [(String, String)] = [
        ("n", "\(points.count)"),
        ("resolution", "\(options.resolution)"),
        ("cols", "\(grid.result.geometry.columns)"),
        ("rows", "\(grid.result.geometry.rows)"),
        ("radius", "\(grid.result.radius)"),
        ("kernel", "\"\(grid.result.kernel.name)\""),
        ("grid_s", "\(grid.seconds)"),
        ("grid_cpu_s", "\(grid.cpu)"),
        ("contour_s", "\(contour.seconds)"),
        ("spacing", "\"\(options.spacing)\""),
        ("levels", "\(thresholds.count)"),
        ("polygons", "\(polygons)")
    ]
    if let path = options.gridOut {
        let g = grid.result.geometry
        var bytes = Data(capacity: grid.result.values.count * 8)
        for v in grid.result.values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        try bytes.write(to: URL(fileURLWithPath: path))
        fields += [("x0", "\(g.x0)"), ("y0", "\(g.y0)"), ("dx", "\(g.dx)"), ("dy", "\(g.dy)")]
    }
    if let smoothed { fields.append(("smooth_s", "\(max(smoothed.seconds - contour.seconds, 0))")) }
    if let hit {
        fields += [("hit_s", "\(hit.seconds)"), ("queries", "\(options.queries)"), ("hits", "\(hit.result)")]
    }
    if let hexbin { fields += [("hexbin_s", "\(hexbin.seconds)"), ("hex_cells", "\(hexbin.result)")] }
    fields.append(("total_s", "\(total)"))
    print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
} catch {
    reportFailure(error, usage: BenchOptions.usage)
}
