import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The fixed tables of DEFLATE (RFC 1951; docs/formats.md): base values and extra
/// bits of the length and distance codes, and the fixed Huffman code.
enum DeflateTables {
    static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
        35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
    ]
    static let lengthExtra: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
        3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
    ]
    static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
        257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
        8193, 12289, 16385, 24577
    ]
    static let distanceExtra: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
        7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
    ]
    /// The order code-length code lengths are stored in.
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Length code index (0...28) of each match length 0...258 (3... used).
    static let lengthCode: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 259)
        for code in 0..<28 {
            for len in lengthBase[code]..<min(lengthBase[code] + (1 << lengthExtra[code]), 258) { t[len] = UInt8(code) }
        }
        t[258] = 28
        return t
    }()

    /// Distance code of distance d: `distanceCodeTable[d - 1]` for d ≤ 256,
    /// `distanceCodeTable[256 + (d - 1) >> 7]` above.
    static let distanceCodeTable: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 512)
        func code(_ d: Int) -> UInt8 {
            var c = 29
            while distanceBase[c] > d { c -= 1 }
            return UInt8(c)
        }
        for d in 1...256 { t[d - 1] = code(d) }
        for k in 2..<256 { t[256 + k] = code((k << 7) + 1) }
        return t
    }()

    @inline(__always)
    static func distanceCode(_ d: Int) -> Int {
        d <= 256 ? Int(distanceCodeTable[d - 1]) : Int(distanceCodeTable[256 + ((d - 1) >> 7)])
    }

    static let fixedLiteralLengths: [UInt8] =
        [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
        + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8)
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)
    static let fixedLiteral = HuffmanCode(lengths: fixedLiteralLengths)
    static let fixedDistance = HuffmanCode(lengths: fixedDistanceLengths)
}
