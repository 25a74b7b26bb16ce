import Foundation
import HeatMapCore
import HeatMapDensity
import Synchronization

/// Builds every kind of contour geometry from a grid (docs/contour-rules.md).
///
/// Stages, each reporting progress and polling cancellation:
/// 1. `.contour` — marching squares per level (``LevelTracer``), levels in
///    parallel: closed rings and frame-to-frame chains, stitched by grid
///    edge identity, crossings placed by ``CrossingRule``.
/// 2. `.smooth` — Chaikin per piece, with the fallback that keeps every
///    polygon valid (``SmoothingGuard``).
/// 3. `.assemble` — rings to polygons for the levels and bands asked for
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
    /// The bytes contouring a grid of `cells` nodes takes at its peak:
    /// the sanitised copy of the values, the cell cases and crossings of
    /// the levels traced at once, and the rings (measured on real data,
    /// with room to spare).
    static func bytesNeeded(cells: Int) -> Int {
        MemoryBudget.product(cells, 48)
    }

    /// The contours of `grid` at `thresholds`, smoothed.
    ///
    /// - Parameters:
    ///   - grid: node values; NaN nodes are below every threshold.
    ///   - thresholds: finite and strictly ascending, in the grid's units.
    ///   - smoother: Chaikin passes applied to every ring (fewer where more
    ///     would break validity).
    ///   - kinds: the kinds assembled; the others are left empty (one per
    ///     level, with no geometry). Each kind is the same whatever else is
    ///     chosen with it.
    ///   - control: cancellation and progress.
    /// - Throws: `CancellationError`, or ``HeatMapError/invalidConfiguration(_:)``
    ///   for thresholds that are not finite and strictly ascending, or a grid
    ///   too large to index.
    /// - Complexity: O(levels × cells) to classify, O(vertices · 2^iterations)
    ///   for the rest; levels run on every core.
    package static func build(
        grid: DensityGrid, thresholds: [Double], smoother: PolygonSmoother,
        kinds: ContourKinds = .all, control: ComputeControl = .none
    ) throws -> ContourSet {
        try ContourPieces.contourSet(
            of: pieces(
                grid: grid, thresholds: thresholds, smoother: smoother,
                control: control),
            kinds: kinds, control: control)
    }

    /// Stages 1 and 2: the contours of `grid` at `thresholds` as traced
    /// pieces and the Chaikin passes each keeps, from which
    /// ``ContourPieces`` makes any band, level or isoline on demand (stage 3,
    /// one at a time or all at once). Throws as `build` does.
    /// - Complexity: as `build` up to smoothing; memory O(traced vertices).
    package static func pieces(
        grid: DensityGrid, thresholds: [Double], smoother: PolygonSmoother,
        control: ComputeControl = .none
    ) throws -> ContourPieces {
        guard let prepared = try prepare(grid: grid, thresholds: thresholds, control: control) else {
            return ContourPieces(thresholds: thresholds)
        }
        let geometry = grid.geometry
        var traces: [LevelTrace] = []
        do {
            // Which nodes are inside each level, a byte a node: what the
            // tracing's count pass reads, and all assembly needs of the
            // values, so the pieces need not keep the grid.
            try control.begin(.contour)
            let bands = try prepared.values.withUnsafeBufferPointer {
                try NodeBands(values: $0, thresholds: thresholds, control: control)
            }
            traces = try trace(
                values: prepared.values, bands: bands, geometry: geometry, frame: prepared.frame,
                thresholds: thresholds, control: control)
            let passes = try SmoothingGuard.passes(
                traces: traces, iterations: smoother.iterations,
                geometry: geometry, control: control)
            return ContourPieces(
                thresholds: thresholds, geometry: geometry, frame: prepared.frame,
                bands: bands, traces: traces, passes: passes)
        } catch {
            DeferredRelease.release(traces)
            throw error
        }
    }

    /// Checks the thresholds and gives the values to contour with their
    /// frame, or nil when there is nothing to contour (no levels, or a
    /// grid of fewer than 2 × 2 nodes).
    private static func prepare(
        grid: DensityGrid, thresholds: [Double],
        control: ComputeControl
    ) throws -> (values: [Double], frame: GridFrame)? {
        for (i, t) in thresholds.enumerated() {
            guard t.isFinite else {
                throw HeatMapError.invalidConfiguration("threshold \(i) is \(t); thresholds must be finite")
            }
            if i > 0 && !(t > thresholds[i - 1]) {
                throw HeatMapError.invalidConfiguration(
                    "threshold \(i) (\(t)) is not above threshold \(i - 1) (\(thresholds[i - 1])); thresholds must ascend strictly"
                )
            }
        }
        let geometry = grid.geometry
        guard !thresholds.isEmpty, geometry.columns >= 2, geometry.rows >= 2,
            grid.values.count == geometry.count
        else { return nil }
        guard geometry.count < Int(Int32.max) / 2 else {
            throw HeatMapError.invalidConfiguration(
                "grid of \(geometry.columns) × \(geometry.rows) nodes is too large to contour")
        }
        return (
            try sanitized(grid, thresholds: thresholds, control: control),
            GridFrame(columns: geometry.columns, rows: geometry.rows)
        )
    }

    /// Marching squares on every level, levels in parallel (stage `.contour`).
    private static func trace(
        values: [Double], bands: NodeBands, geometry: GridGeometry, frame: GridFrame,
        thresholds: [Double], control: ComputeControl
    ) throws -> [LevelTrace] {
        let done = Atomic<Int>(0)
        return try values.withUnsafeBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            return try Parallel.map(thresholds.count, control: control) { l in
                try control.checkCancellation()
                let trace = try LevelTracer(
                    values: shared.buffer, bands: bands, level: l, geometry: geometry,
                    frame: frame, threshold: thresholds[l], control: control
                ).trace()
                let n = done.add(1, ordering: .relaxed).newValue
                control.report(.contour, Double(n) / Double(thresholds.count))
                return trace
            }
        }
    }

    /// The grid's values with NaN replaced by the floor of ``CrossingRule``.
    private static func sanitized(_ grid: DensityGrid, thresholds: [Double], control: ComputeControl) throws -> [Double]
    {
        guard try hasNaN(grid.values, control: control) else { return grid.values }
        let floor = CrossingRule.floorValue(minimum: grid.minimum, maximum: grid.maximum, thresholds: thresholds)
        var values = grid.values
        for start in stride(from: 0, to: values.count, by: 1 << 20) {
            try control.checkCancellation()
            for i in start..<min(start + (1 << 20), values.count) where values[i].isNaN { values[i] = floor }
        }
        return values
    }

    /// Whether any value is NaN: a pass over the grid on all cores, a
    /// stretch of a million values each.
    private static func hasNaN(_ values: [Double], control: ComputeControl) throws -> Bool {
        let stretch = 1 << 20
        let found = try values.withUnsafeBufferPointer { values in
            try Parallel.map((values.count + stretch - 1) / stretch, control: control) { k in
                UnsafeBufferPointer(rebasing: values[k * stretch..<min(values.count, (k + 1) * stretch)])
                    .contains { $0.isNaN }
            }
        }
        return found.contains(true)
    }
}

/// A read-only buffer handed to worker threads while its array is pinned
/// by `withUnsafeBufferPointer` for the whole parallel section.
struct SharedBuffer: @unchecked Sendable {
    package let buffer: UnsafeBufferPointer<Double>
    package init(_ buffer: UnsafeBufferPointer<Double>) { self.buffer = buffer }
}
