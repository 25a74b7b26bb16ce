import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Bits packed least-significant first into bytes, as DEFLATE stores them.
struct DeflateBitWriter {
    package private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Appends the low `width` bits of `value` (width ≤ 32).
    @inline(__always)
    package mutating func write(_ value: UInt32, width: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += width
        if count >= 32 {
            let word = UInt32(truncatingIfNeeded: buffer)
            bytes.append(UInt8(truncatingIfNeeded: word))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            buffer >>= 32
            count -= 32
        }
    }

    /// Appends a Huffman code, whose bits DEFLATE stores most-significant first.
    @inline(__always)
    package mutating func write(code: UInt32, length: Int) {
        write(code, width: length)
    }

    /// Pads with zero bits to the next byte boundary.
    mutating func alignToByte() {
        let pad = (8 - count % 8) % 8
        if pad > 0 { write(0, width: pad) }
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// Appends whole bytes (the writer must be byte-aligned).
    package mutating func append<C: Collection>(contentsOf raw: C) where C.Element == UInt8 {
        precondition(count == 0, "bytes appended off a byte boundary")
        bytes.append(contentsOf: raw)
    }

    /// The bytes, with the last partial byte padded.
    package mutating func finish() -> [UInt8] {
        alignToByte()
        return bytes
    }
}
