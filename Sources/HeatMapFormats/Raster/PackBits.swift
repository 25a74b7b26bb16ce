import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// PackBits run-length decoding (TIFF compression 32773).
enum PackBits {
    /// The bytes of PackBits data, at most `expected` of them.
    static func decode(_ data: [UInt8], expected: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(expected)
        var i = 0
        while i < data.count && out.count < expected {
            let n = Int(Int8(bitPattern: data[i]))
            i += 1
            if n >= 0 {
                guard i + n + 1 <= data.count else {
                    throw RasterCodecError("PackBits: literal run past the end (truncated data)")
                }
                out.append(contentsOf: data[i..<(i + n + 1)])
                i += n + 1
            } else if n != -128 {
                guard i < data.count else {
                    throw RasterCodecError("PackBits: repeat run past the end (truncated data)")
                }
                out.append(contentsOf: repeatElement(data[i], count: 1 - n))
                i += 1
            }
        }
        guard out.count <= expected else { throw RasterCodecError("PackBits: more data than the tile holds") }
        return out
    }
}
