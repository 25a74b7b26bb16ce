/// A grid's values as the page of frames keeps them: compact text that
/// the page's script decodes exactly as written here.
///
/// Each value is rounded to a float32 with 16 bits of mantissa (a relative
/// error below 8e-6, zero and NaN kept as they are) and taken as the top
/// 25 bits of that float's bit pattern, which for a smooth field change
/// little from node to node. The codes are written in row order as
/// differences from the previous code: a run of n unchanged codes as the
/// varint 2(n − 1) + 1, any other difference d as the varint 4d (d ≥ 0)
/// or −4d − 2 (d < 0); the bytes in base64. The empty parts of a frame
/// (runs of zero) cost a byte or two, the rest about two bytes a node.
enum FrameGridCode {
    /// Bits dropped from a float32's pattern (of its 23 bits of mantissa).
    static let droppedBits: UInt32 = 7

    /// The code of `v`: its float32 rounded to 16 bits of mantissa, shifted.
    @inline(__always)
    static func code(_ v: Double) -> Int64 {
        let bits = Float(v).bitPattern
        if Float(v).isNaN { return Int64(Float.nan.bitPattern >> droppedBits) }
        // Adding half of the dropped part rounds to nearest; a carry moves to the next binade, as it should.
        let rounded = UInt64(bits) + (1 << UInt64(droppedBits - 1))
        return Int64(min(rounded, UInt64(UInt32.max)) >> UInt64(droppedBits))
    }

    /// The value a code stands for (what the page reads).
    static func value(_ code: Int64) -> Double {
        Double(Float(bitPattern: UInt32(truncatingIfNeeded: code << Int64(droppedBits))))
    }

    /// The encoded text of `values`.
    static func encode(_ values: [Double]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count / 4)
        func varint(_ u: UInt64) {
            var u = u
            while u >= 0x80 {
                bytes.append(UInt8(u & 0x7f) | 0x80)
                u >>= 7
            }
            bytes.append(UInt8(u))
        }
        var previous: Int64 = 0
        var same = 0
        for v in values {
            let c = code(v)
            let d = c - previous
            previous = c
            if d == 0 {
                same += 1
                continue
            }
            if same > 0 {
                varint(UInt64(same - 1) << 1 | 1)
                same = 0
            }
            varint(d >= 0 ? UInt64(d) << 2 : UInt64(-d) << 2 - 2)
        }
        if same > 0 { varint(UInt64(same - 1) << 1 | 1) }
        return Base64Text.encode(bytes)
    }
}

/// Standard base64 (RFC 4648, with padding), as `atob` reads it.
enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [
                alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]
            ]
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)]]
            out += rest == 2 ? [alphabet[Int(n >> 6 & 63)], UInt8(ascii: "=")] : [UInt8(ascii: "="), UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
