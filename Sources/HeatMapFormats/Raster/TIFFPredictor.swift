import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// TIFF predictors applied to one row of samples before compression:
/// 2 (horizontal differencing of integers, TIFF 6.0; docs/formats.md) and 3 (the
/// floating-point predictor of Adobe's TIFF Technical Note 3: each row's
/// bytes split into planes, most significant first, then differenced).
enum TIFFPredictor {
    /// Undoes predictor 2 in place on `rows` rows of `width` pixels of
    /// `samples` samples of `bytes` bytes each, in the file's byte order.
    static func undoHorizontal(_ data: inout [UInt8], rows: Int, width: Int, samples: Int, bytes: Int, bigEndian: Bool)
    {
        forEachRow(&data, rows: rows, rowBytes: width * samples * bytes) { p, base in
            if bytes == 1 {
                for i in samples..<(width * samples) { p[base + i] = p[base + i] &+ p[base + i - samples] }
                return
            }
            for i in samples..<(width * samples) {
                let a = base + i * bytes, b = base + (i - samples) * bytes
                let sum = read(p, a, bytes, bigEndian) &+ read(p, b, bytes, bigEndian)
                write(p, a, bytes, bigEndian, sum)
            }
        }
    }

    /// Applies predictor 2 (the inverse of ``undoHorizontal``).
    static func applyHorizontal(_ data: inout [UInt8], rows: Int, width: Int, samples: Int, bytes: Int, bigEndian: Bool)
    {
        forEachRow(&data, rows: rows, rowBytes: width * samples * bytes) { p, base in
            for i in stride(from: width * samples - 1, through: samples, by: -1) {
                let a = base + i * bytes, b = base + (i - samples) * bytes
                write(p, a, bytes, bigEndian, read(p, a, bytes, bigEndian) &- read(p, b, bytes, bigEndian))
            }
        }
    }

    @inline(__always)
    private static func read(_ p: UnsafeMutableBufferPointer<UInt8>, _ at: Int, _ bytes: Int, _ big: Bool) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<bytes { v |= UInt64(p[at + (big ? bytes - 1 - k : k)]) << UInt64(8 * k) }
        return v
    }

    @inline(__always)
    private static func write(_ p: UnsafeMutableBufferPointer<UInt8>, _ at: Int, _ bytes: Int, _ big: Bool, _ v: UInt64)
    {
        for k in 0..<bytes { p[at + (big ? bytes - 1 - k : k)] = UInt8(truncatingIfNeeded: v >> UInt64(8 * k)) }
    }

    /// Undoes predictor 3: each row of `width × samples` values of `bytes`
    /// bytes comes back as little-endian values, whatever the file's order.
    static func undoFloatingPoint(_ data: inout [UInt8], rows: Int, width: Int, samples: Int, bytes: Int) {
        let count = width * samples, rowBytes = count * bytes
        eachRow(&data, rows: rows, rowBytes: rowBytes) { p, base, tmp in
            for i in samples..<rowBytes { p[base + i] = p[base + i] &+ p[base + i - samples] }
            for j in 0..<count {
                for k in 0..<bytes { tmp[j * bytes + k] = p[base + (bytes - 1 - k) * count + j] }
            }
        }
    }

    /// Applies predictor 3 to rows of little-endian values (the inverse of ``undoFloatingPoint``).
    static func applyFloatingPoint(_ data: inout [UInt8], rows: Int, width: Int, samples: Int, bytes: Int) {
        let count = width * samples, rowBytes = count * bytes
        eachRow(&data, rows: rows, rowBytes: rowBytes) { p, base, tmp in
            for j in 0..<count {
                for k in 0..<bytes { tmp[(bytes - 1 - k) * count + j] = p[base + j * bytes + k] }
            }
            for i in stride(from: rowBytes - 1, through: samples, by: -1) { tmp[i] = tmp[i] &- tmp[i - samples] }
        }
    }

    /// Runs `body(data, rowStart)` on each of the first `rows` rows of
    /// `rowBytes` bytes that `data` holds whole.
    private static func forEachRow(
        _ data: inout [UInt8], rows: Int, rowBytes: Int,
        _ body: (UnsafeMutableBufferPointer<UInt8>, Int) -> Void
    ) {
        data.withUnsafeMutableBufferPointer { p in
            for r in 0..<rows {
                let base = r * rowBytes
                guard base + rowBytes <= p.count else { return }
                body(p, base)
            }
        }
    }

    /// Like ``forEachRow(_:rows:rowBytes:_:)`` with a scratch row, which is
    /// then copied over the row.
    private static func eachRow(
        _ data: inout [UInt8], rows: Int, rowBytes: Int,
        _ body: (UnsafeMutableBufferPointer<UInt8>, Int, UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        var row = [UInt8](repeating: 0, count: rowBytes)
        row.withUnsafeMutableBufferPointer { tmp in
            forEachRow(&data, rows: rows, rowBytes: rowBytes) { p, base in
                body(p, base, tmp)
                for i in 0..<rowBytes { p[base + i] = tmp[i] }
            }
        }
    }
}
