import HeatMapCore
import HeatMapDensity

/// Per grid node, the band it lies in: how many thresholds are at or below
/// its value (0 below the lowest threshold).
///
/// This is all that assembly asks of the grid once the levels are traced —
/// whether a node is inside a band or level, and which of two nodes a
/// level crosses between is the higher — so contours kept as pieces hold a
/// byte per node (two or four past 255 thresholds) instead of the values.
/// Both answers are exact: a node is at or above threshold l exactly when
/// its band is above l, and two nodes with a level between them have
/// different bands, ordered as their values.
package struct NodeBands: Sendable {
    /// One of these holds the bands, by the number of thresholds.
    private let narrow: [UInt8]
    private let wide: [UInt32]
    /// Whether every band is below 128, so eight can be compared in one word.
    private let isSWARSafe: Bool

    /// No nodes.
    package init() {
        narrow = []
        wide = []
        isSWARSafe = false
    }

    /// The bands of `values` among `thresholds` (ascending), computed on
    /// every core. O(nodes · log thresholds).
    /// - Throws: `CancellationError` when `control` is cancelled.
    package init(values: UnsafeBufferPointer<Double>, thresholds: [Double], control: ComputeControl = .none) throws {
        isSWARSafe = thresholds.count < 128
        if thresholds.count <= Int(UInt8.max) {
            narrow = try Self.bands(values, thresholds, as: UInt8.self, control: control)
            wide = []
        } else {
            narrow = []
            wide = try Self.bands(values, thresholds, as: UInt32.self, control: control)
        }
    }

    /// The band of `node`.
    @inline(__always) package subscript(node: Int) -> Int {
        wide.isEmpty ? Int(narrow[node]) : Int(wide[node])
    }

    /// Bit b set when node `start + b` is at or above threshold `level`,
    /// for b < `count` (at most 64); the other bits 0. What the marching
    /// squares' count pass reads: a byte a node, not a Double.
    @inline(__always) package func bits(from start: Int, count: Int, atOrAbove level: Int) -> UInt64 {
        var word: UInt64 = 0
        if wide.isEmpty {
            let l = UInt8(truncatingIfNeeded: level)
            narrow.withUnsafeBufferPointer { p in
                var b = 0
                if level < 127 && isSWARSafe {
                    // Eight bands at a time: with every band below 128, the
                    // high bit of (band | 0x80) − (level + 1) is band > level,
                    // and the multiply gathers the eight high bits in order.
                    let high: UInt64 = 0x8080_8080_8080_8080
                    let subtrahend = UInt64(level + 1) &* 0x0101_0101_0101_0101
                    let raw = UnsafeRawPointer(p.baseAddress! + start)
                    while b + 8 <= count {
                        let x = raw.loadUnaligned(fromByteOffset: b, as: UInt64.self).littleEndian
                        let above = ((x | high) &- subtrahend) & high
                        word |= (((above >> 7) &* 0x0102_0408_1020_4080) >> 56) << UInt64(b)
                        b += 8
                    }
                }
                while b < count {
                    if p[start + b] > l { word |= 1 << UInt64(b) }
                    b += 1
                }
            }
        } else {
            let l = UInt32(truncatingIfNeeded: level)
            wide.withUnsafeBufferPointer { p in
                for b in 0..<count where p[start + b] > l { word |= 1 << UInt64(b) }
            }
        }
        return word
    }

    /// Whether `node` lies in the band from threshold `lower` up to the
    /// next threshold, or, when `isLevel`, anywhere at or above `lower`.
    @inline(__always) func isInside(_ node: Int, lower: Int, isLevel: Bool) -> Bool {
        let band = self[node]
        return isLevel ? band > lower : band == lower + 1
    }

    private static func bands<T: FixedWidthInteger & Sendable>(
        _ values: UnsafeBufferPointer<Double>, _ thresholds: [Double], as: T.Type,
        control: ComputeControl
    ) throws -> [T] {
        let count = values.count, chunk = 1 << 16
        let shared = UncheckedSendable(values)
        guard let lowest = thresholds.first else { return [T](repeating: 0, count: count) }
        return try [T](unsafeUninitializedCapacity: count) { out, initialized in
            let target = UncheckedSendable(out)
            try Parallel.forEach((count + chunk - 1) / chunk, control: control) { c in
                try control.checkCancellation()
                for i in (c * chunk)..<min(count, (c + 1) * chunk) {
                    // The first threshold above the value: binary search,
                    // after the test most nodes of a sparse grid stop at.
                    let v = shared.value[i]
                    guard v >= lowest else { target.value[i] = 0; continue }
                    var low = 1, high = thresholds.count
                    while low < high {
                        let mid = (low + high) >> 1
                        if thresholds[mid] <= v { low = mid + 1 } else { high = mid }
                    }
                    target.value[i] = T(low)
                }
            }
            initialized = count
        }
    }
}
