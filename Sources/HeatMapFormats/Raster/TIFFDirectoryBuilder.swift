import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// One image file directory being written: entries sorted by tag, values
/// that do not fit in the entry's 4 bytes stored after the directory.
/// Classic (32-bit) little-endian TIFF.
struct TIFFDirectoryBuilder {
    enum Payload {
        case shorts([UInt16])
        case longs([UInt32])
        case doubles([Double])
        case ascii(String)
    }

    private var entries: [(tag: UInt16, payload: Payload)] = []

    package mutating func set(_ tag: UInt16, _ payload: Payload) {
        entries.removeAll { $0.tag == tag }
        entries.append((tag, payload))
    }

    private static func info(_ p: Payload) -> (type: UInt16, count: Int, bytes: [UInt8]) {
        var b: [UInt8] = []
        switch p {
        case .shorts(let v):
            for x in v { b += [UInt8(x & 0xFF), UInt8(x >> 8)] }
            return (3, v.count, b)
        case .longs(let v):
            for x in v { withUnsafeBytes(of: x.littleEndian) { b += $0 } }
            return (4, v.count, b)
        case .doubles(let v):
            for x in v { withUnsafeBytes(of: x.bitPattern.littleEndian) { b += $0 } }
            return (12, v.count, b)
        case .ascii(let s):
            b = Array(s.utf8) + [0]
            return (2, b.count, b)
        }
    }

    /// The directory's size in bytes with its out-of-line values.
    package var size: Int {
        var n = 2 + 12 * entries.count + 4
        for e in entries {
            let bytes = TIFFDirectoryBuilder.info(e.payload).bytes.count
            if bytes > 4 { n += (bytes + 1) & ~1 }
        }
        return n
    }

    /// The directory's bytes, placed at `offset`, pointing to the next at `next` (0: last).
    package func bytes(at offset: Int, next: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var head: [UInt8] = [UInt8(sorted.count & 0xFF), UInt8(sorted.count >> 8)]
        var tail: [UInt8] = []
        let tailStart = offset + 2 + 12 * sorted.count + 4
        func u32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).littleEndian) { Array($0) } }
        for e in sorted {
            let (type, count, bytes) = TIFFDirectoryBuilder.info(e.payload)
            head += [UInt8(e.tag & 0xFF), UInt8(e.tag >> 8), UInt8(type), 0] + u32(count)
            if bytes.count <= 4 {
                head += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                head += u32(tailStart + tail.count)
                tail += bytes
                if tail.count % 2 == 1 { tail.append(0) }
            }
        }
        return head + u32(next) + tail
    }
}
