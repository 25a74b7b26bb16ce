import Foundation
import Synchronization

/// Builds every kind of contour geometry from a grid (docs/contour-rules.md).
///
/// Stages, each reporting progress and polling cancellation:
/// 1. `.contour` — marching squares per level (``LevelTracer``), levels in
///    parallel: closed rings and frame-to-frame chains, stitched by grid
///    edge identity, crossings placed by ``CrossingRule``.
/// 2. `.smooth` — Chaikin per piece, with the fallback that keeps every
///    polygon valid (``SmoothingGuard``).
/// 3. `.assemble` — rings to polygons for every level and band
///    (``BandAssembler``), in parallel.
///
/// Guarantees: rings are closed (frame included), have no repeated
/// consecutive vertices, exteriors are counter-clockwise and holes
/// clockwise; each hole sits in the smallest exterior containing it; a dip
/// inside a level is a hole of that level; neighbouring bands share their
/// boundary vertices exactly (the same pieces), so Σ band areas from level
/// i up equals level i's area. Same input, same output, whatever the
/// thread timing.
package enum ContourBuilder {
    /// The contours of `grid` at `thresholds`, smoothed.
    ///
    /// - Parameters:
    ///   - grid: node values; NaN nodes are below every threshold.
    ///   - thresholds: finite and strictly ascending, in the grid's units.
    ///   - smoother: Chaikin passes applied to every ring (fewer where more
    ///     would break validity).
    ///   - control: cancellation and progress.
    /// - Throws: `CancellationError`, or ``HeatMapError/invalidConfiguration(_:)``
    ///   for thresholds that are not finite and strictly ascending, or a grid
    ///   too large to index.
    /// - Complexity: O(levels × cells) to classify, O(vertices · 2^iterations)
    ///   for the rest; levels run on every core.
    /// The bytes contouring a grid of `cells` nodes takes at its peak:
    /// the sanitised copy of the values, the cell cases and crossings of
    /// the levels traced at once, and the rings (measured on real data,
    /// with room to spare).
    static func bytesNeeded(cells: Int) -> Int {
        MemoryBudget.product(cells, 48)
    }

    package static func build(grid: DensityGrid, thresholds: [Double], smoother: PolygonSmoother,
                             control: ComputeControl = .none) throws -> ContourSet {
        for (i, t) in thresholds.enumerated() {
            guard t.isFinite else {
                throw HeatMapError.invalidConfiguration("threshold \(i) is \(t); thresholds must be finite")
            }
            if i > 0 && !(t > thresholds[i - 1]) {
                throw HeatMapError.invalidConfiguration(
                    "threshold \(i) (\(t)) is not above threshold \(i - 1) (\(thresholds[i - 1])); thresholds must ascend strictly")
            }
        }
        let geometry = grid.geometry
        let levelCount = thresholds.count
        let empty = ContourSet(thresholds: thresholds,
                               levels: Array(repeating: [], count: levelCount),
                               bands: Array(repeating: [], count: levelCount),
                               isolines: Array(repeating: [], count: levelCount))
        guard levelCount > 0, geometry.columns >= 2, geometry.rows >= 2,
              grid.values.count == geometry.count else { return empty }
        guard geometry.count < Int(Int32.max) / 2 else {
            throw HeatMapError.invalidConfiguration(
                "grid of \(geometry.columns) × \(geometry.rows) nodes is too large to contour")
        }
        let values = try sanitized(grid, thresholds: thresholds, control: control)
        let frame = GridFrame(columns: geometry.columns, rows: geometry.rows)

        // 1. Trace.
        try control.begin(.contour)
        let done = Atomic<Int>(0)
        var traces = try values.withUnsafeBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            return try Parallel.map(levelCount, control: control) { l in
                try control.checkCancellation()
                let trace = try LevelTracer(values: shared.buffer, geometry: geometry, frame: frame,
                                            threshold: thresholds[l], control: control).trace()
                let n = done.add(1, ordering: .relaxed).newValue
                control.report(.contour, Double(n) / Double(levelCount))
                return trace
            }
        }

        // 2. Smooth.
        let smoothed = try SmoothingGuard.smooth(traces: traces, iterations: smoother.iterations,
                                                 geometry: geometry, control: control)

        for l in traces.indices { traces[l].dropVertices() }

        // 3. Assemble: tasks 0..<L are levels, L..<2L bands.
        try control.begin(.assemble)
        let assembled = Atomic<Int>(0)
        let finalTraces = traces
        let results = try values.withUnsafeBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            return try Parallel.map(2 * levelCount, control: control) { task in
                try control.checkCancellation()
                let l = task % levelCount
                let isBand = task >= levelCount
                let hasUpper = isBand && l + 1 < levelCount
                let assembler = BandAssembler(geometry: geometry, frame: frame, values: shared.buffer,
                                              lower: finalTraces[l], lowerSmooth: smoothed[l],
                                              upper: hasUpper ? finalTraces[l + 1] : nil,
                                              upperSmooth: hasUpper ? smoothed[l + 1] : nil, control: control)
                let result = try assembler.assemble()
                let n = assembled.add(1, ordering: .relaxed).newValue
                control.report(.assemble, Double(n) / Double(2 * levelCount))
                return result
            }
        }
        try control.checkCancellation()
        return ContourSet(thresholds: thresholds,
                          levels: (0..<levelCount).map { results[$0].polygons },
                          bands: (0..<levelCount).map { results[levelCount + $0].polygons },
                          isolines: (0..<levelCount).map { results[$0].rings })
    }

    /// The grid's values with NaN replaced by the floor of ``CrossingRule``.
    private static func sanitized(_ grid: DensityGrid, thresholds: [Double], control: ComputeControl) throws -> [Double] {
        guard grid.values.contains(where: { $0.isNaN }) else { return grid.values }
        let floor = CrossingRule.floorValue(minimum: grid.minimum, maximum: grid.maximum, thresholds: thresholds)
        var values = grid.values
        for start in stride(from: 0, to: values.count, by: 1 << 20) {
            try control.checkCancellation()
            for i in start..<min(start + (1 << 20), values.count) where values[i].isNaN { values[i] = floor }
        }
        return values
    }
}

/// A read-only buffer handed to worker threads while its array is pinned
/// by `withUnsafeBufferPointer` for the whole parallel section.
struct SharedBuffer: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Double>
    init(_ buffer: UnsafeBufferPointer<Double>) { self.buffer = buffer }
}
