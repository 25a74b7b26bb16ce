import Foundation
import HeatMapCore

/// The buffers behind a ``DensityAccumulator``: exact-splat sums and, for
/// the binned methods, the moment planes. Shared by copies of an
/// accumulator until one of them writes.
final class DensityStorage: @unchecked Sendable {
    /// Σ w e^(−d²/2σ²) from exact splats (nil until a binned accumulator
    /// meets a point off its binnable nodes).
    private(set) var direct: GridBuffer?
    /// Σ v w e^(−d²/2σ²) from exact splats (mean estimator).
    private(set) var directValue: GridBuffer?
    /// Moment planes of the binned methods, all channels.
    let planes: GridBuffer?
    /// The wide points of radius classes, kept until the grid is finished.
    let classPoints: RadiusClassPoints?

    package static let outOfMemory = HeatMapError.invalidConfiguration("not enough memory for the density grid")

    /// Buffers for a binned scheme whose moments take `planeCount` doubles,
    /// or (nil) for the exact splat. Only the `zeroed` range of the
    /// moments is cleared when given (the scheme clears the rest as it
    /// goes); else all. With `keepingClassPoints`, a store for the wide
    /// points of radius classes as well.
    package init(
        planeCount: Int?, zeroed: Range<Int>? = nil, cells: Int, channels: Int, keepingClassPoints: Bool = false
    ) throws {
        classPoints = keepingClassPoints ? RadiusClassPoints() : nil
        if let planeCount {
            let buffer = zeroed.map { GridBuffer(count: planeCount, zeroing: $0) } ?? GridBuffer(count: planeCount)
            guard let planes = buffer else { throw DensityStorage.outOfMemory }
            self.planes = planes
        } else {
            planes = nil
            try ensureDirect(cells: cells, channels: channels)
        }
    }

    private init(
        direct: GridBuffer?, directValue: GridBuffer?, planes: GridBuffer?, classPoints: RadiusClassPoints?
    ) {
        self.direct = direct
        self.directValue = directValue
        self.planes = planes
        self.classPoints = classPoints
    }

    /// Whether the buffers have been touched (see ``GridBuffer/prefault(control:)``).
    private var prefaulted = false

    /// Touches every page of the buffers once, before the first points.
    func prefault(control: ComputeControl) throws {
        guard !prefaulted else { return }
        for buffer in [direct, directValue, planes] { try buffer?.prefault(control: control) }
        prefaulted = true
    }

    /// Allocates the exact-splat sums if they are not there yet.
    func ensureDirect(cells: Int, channels: Int) throws {
        if direct == nil {
            guard let grid = GridBuffer(zeroedOnAllCores: cells) else { throw DensityStorage.outOfMemory }
            direct = grid
            prefaulted = false
        }
        if channels == 2, directValue == nil {
            guard let grid = GridBuffer(zeroedOnAllCores: cells) else { throw DensityStorage.outOfMemory }
            directValue = grid
            prefaulted = false
        }
    }

    /// An independent copy; nil when the memory is not available.
    package func copy() -> DensityStorage? {
        var copies: [GridBuffer?] = []
        for buffer in [direct, directValue, planes] {
            guard let buffer else { copies.append(nil); continue }
            guard let copy = buffer.copy() else { return nil }
            copies.append(copy)
        }
        return DensityStorage(
            direct: copies[0], directValue: copies[1], planes: copies[2], classPoints: classPoints?.copy())
    }
}

/// One parallel pass over a batch before anything is added: finds the first
/// bad point, sums the weights (in a fixed order) and learns whether any
/// point needs the exact-splat grid of a binned accumulator.
struct BatchCheck {
    var firstProblem: (index: Int, reason: String)?
    var totalWeight = 0.0
    var needsDirectGrid = false

    package static let chunkSize = 1 << 14

    package static func run(
        x: [Double], y: [Double], weight: [Double], value: [Double]?,
        binning: Binnability?, control: ComputeControl
    ) throws -> BatchCheck {
        let n = x.count
        let chunks = (n + chunkSize - 1) / chunkSize
        var parts = [BatchCheck](repeating: BatchCheck(), count: chunks)
        try x.withUnsafeBufferPointer { x in
            try y.withUnsafeBufferPointer { y in
                try weight.withUnsafeBufferPointer { weight in
                    try withOptionalBuffer(value) { value in
                        try parts.withUnsafeMutableBufferPointer { parts in
                            let x = x.baseAddress!, y = y.baseAddress!, weight = weight.baseAddress!
                            let parts = parts.baseAddress!
                            try Parallel.forEach(chunks) { c in
                                try control.checkCancellation()
                                parts[c] = check(
                                    x: x, y: y, weight: weight, value: value,
                                    range: c * chunkSize..<min(n, (c + 1) * chunkSize),
                                    binning: binning)
                            }
                        }
                    }
                }
            }
        }
        var result = BatchCheck()
        for part in parts {
            if let problem = part.firstProblem { result.firstProblem = problem; break }
            result.totalWeight += part.totalWeight
            result.needsDirectGrid = result.needsDirectGrid || part.needsDirectGrid
        }
        return result
    }

    private static func check(
        x: UnsafePointer<Double>, y: UnsafePointer<Double>, weight: UnsafePointer<Double>,
        value: UnsafePointer<Double>?, range: Range<Int>, binning: Binnability?
    ) -> BatchCheck {
        var part = BatchCheck()
        // Fast path: all finite and non-negative, branch-free (``PointSweep``).
        guard
            let sum = PointSweep.weightSum(x: x, y: y, weight: weight, value: value, range: range)
        else {
            for i in range {
                if let reason = problem(x[i], y[i], weight[i], value?[i]) {
                    part.firstProblem = (i, reason)
                    return part
                }
            }
            return part
        }
        part.totalWeight = sum
        // Binnable points form a box (an interval per axis), so when the
        // corners of the points' box are binnable, all points are.
        if let binning, range.count > 0, let box = PointSweep.box(x: x, y: y, range: range),
            !(binning.contains(x: box.minX, y: box.minY) && binning.contains(x: box.maxX, y: box.maxY))
        {
            for i in range where weight[i] != 0 && !binning.contains(x: x[i], y: y[i]) {
                part.needsDirectGrid = true
                break
            }
        }
        return part
    }

    /// ``PointRule``'s reasons for a plane point, x first.
    @inline(__always) package static func problem(_ x: Double, _ y: Double, _ w: Double, _ v: Double?) -> String? {
        if !x.isFinite { return PointRule.notFinite(.longitude, geographic: false) }
        if !y.isFinite { return PointRule.notFinite(.latitude, geographic: false) }
        if !w.isFinite { return PointRule.notFinite(.weight, geographic: false) }
        if let why = PointRule.outside(w, .weight, geographic: false) { return why }
        if let v, !v.isFinite { return PointRule.notFinite(.value, geographic: false) }
        return nil
    }
}
