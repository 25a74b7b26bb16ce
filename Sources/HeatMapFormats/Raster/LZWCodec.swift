import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// TIFF's LZW (TIFF 6.0; docs/formats.md): codes written most-significant bit first,
/// starting at 9 bits, Clear = 256, EndOfInformation = 257, the width
/// growing one code early (at 511, 1023, 2047), and a Clear before the
/// table would pass 4094 entries.
enum LZWCodec {
    package static let clear = 256, end = 257

    /// LZW-compressed bytes of `data`. O(n).
    package static func encode(_ data: [UInt8]) -> [UInt8] {
        var writer = MSBBitWriter()
        // child[(code << 8) | byte] = code of string+byte, 0 when absent.
        var child = [UInt16](repeating: 0, count: 4096 * 256)
        var touched: [Int] = []
        var width = 9, next = 258
        writer.write(clear, width: width)
        guard var current = data.first.map(Int.init) else {
            writer.write(end, width: width)
            return writer.finish()
        }
        for byte in data.dropFirst() {
            let key = current << 8 | Int(byte)
            let found = Int(child[key])
            if found != 0 { current = found; continue }
            writer.write(current, width: width)
            child[key] = UInt16(next)
            touched.append(key)
            next += 1
            if next == 4094 {
                // The table is full: start over, as libtiff does.
                writer.write(clear, width: width)
                for k in touched { child[k] = 0 }
                touched.removeAll(keepingCapacity: true)
                width = 9
                next = 258
            } else if next > (1 << width) - 1 {
                width += 1
            }
            current = Int(byte)
        }
        writer.write(current, width: width)
        // The decoder adds one more entry on reading that code, and may widen before EOI.
        next += 1
        if next == 4094 {
            writer.write(clear, width: width)
            width = 9
        } else if next > (1 << width) - 1 {
            width += 1
        }
        writer.write(end, width: width)
        return writer.finish()
    }

    /// The bytes of LZW data; `expected` caps the output.
    static func decode(_ data: [UInt8], expected: Int) throws -> [UInt8] {
        guard data.count >= 2 else { throw RasterCodecError("LZW: stream too short") }
        // Old-style (pre-6.0, least-significant-first) LZW starts 0x00 0x01.
        guard !(data[0] == 0 && data[1] & 1 == 1) else {
            throw RasterCodecError("LZW: old-style (pre-TIFF 6.0) LZW is not supported")
        }
        var out: [UInt8] = []
        out.reserveCapacity(expected)
        // Entry k's string is out[start[k] ..< start[k] + length[k]]; codes below 256 are their byte.
        var start = [Int](repeating: 0, count: 4096), length = [Int](repeating: 0, count: 4096)
        var width = 9, next = 258
        var previousLength = 0  // 0 right after a Clear
        var bitBuffer: UInt64 = 0, bitCount = 0, position = 0
        while true {
            while bitCount < width {
                guard position < data.count else { return out }  // A missing EOI is tolerated, as libtiff does.
                bitBuffer = bitBuffer << 8 | UInt64(data[position])
                position += 1
                bitCount += 8
            }
            let code = Int((bitBuffer >> UInt64(bitCount - width)) & ((1 << UInt64(width)) - 1))
            bitCount -= width
            if code == end { return out }
            if code == clear {
                width = 9; next = 258; previousLength = 0
                continue
            }
            let begin = out.count
            if code < 256 {
                out.append(UInt8(code))
            } else if code < next && code > end {
                // Copied byte by byte: appending a slice of `out` to itself would copy all of it.
                guard out.count + length[code] <= expected else {
                    throw RasterCodecError("LZW: more data than the tile holds")
                }
                for k in start[code]..<(start[code] + length[code]) { out.append(out[k]) }
            } else if code == next && previousLength > 0 {
                // The string being defined: the previous one plus its own first byte.
                for k in (begin - previousLength)..<begin { out.append(out[k]) }
                out.append(out[begin - previousLength])
            } else {
                throw RasterCodecError("LZW: invalid code \(code) (the table has \(next) entries)")
            }
            guard out.count <= expected else { throw RasterCodecError("LZW: more data than the tile holds") }
            if previousLength > 0 && next < 4096 {
                // The new entry is the previous string plus this one's first byte, contiguous in `out`.
                start[next] = begin - previousLength
                length[next] = previousLength + 1
                next += 1
                if next >= (1 << width) - 1 && width < 12 { width += 1 }
            }
            previousLength = out.count - begin
        }
    }
}

/// Bits packed most-significant first (LZW).
struct MSBBitWriter {
    package private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    package mutating func write(_ value: Int, width: Int) {
        buffer = buffer << UInt64(width) | UInt64(value)
        count += width
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt64(count - 8)))
            count -= 8
        }
    }

    package mutating func finish() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer << UInt64(8 - count))) }
        count = 0
        return bytes
    }
}
