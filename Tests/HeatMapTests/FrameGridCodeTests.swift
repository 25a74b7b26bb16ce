import Foundation
import Testing

@testable import HeatMapFormats

/// The compact text the page of frames keeps each frame's grid in, read
/// back as the page's script reads it.
@Suite struct FrameGridCodeTests {
    /// The script's decoder, step for step: varints of code differences,
    /// an odd varint a run of unchanged codes.
    static func decode(_ text: String, count: Int) throws -> [Double] {
        let bytes = try #require(Data(base64Encoded: text))
        var out: [Double] = []
        var code: Int64 = 0
        var p = bytes.startIndex
        while out.count < count, p < bytes.endIndex {
            var t: UInt64 = 0, shift: UInt64 = 0
            while true {
                let b = bytes[p]
                p += 1
                t |= UInt64(b & 127) << shift
                shift += 7
                if b < 128 { break }
            }
            var times = 1
            if t % 2 == 1 {
                times = Int((t - 1) / 2) + 1
            } else {
                let z = Int64(t / 2)
                code += z % 2 == 0 ? z / 2 : -(z + 1) / 2
            }
            for _ in 0..<times where out.count < count { out.append(FrameGridCode.value(code)) }
        }
        return out
    }

    @Test func valuesComeBackWithinEightMillionths() throws {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = []
        // Runs of zero, a smooth bump, NaN, negatives, tiny and large values.
        values += [Double](repeating: 0, count: 1000)
        values += (0..<2000).map { i in exp(-Double((i - 1000) * (i - 1000)) / 90_000) * 1.7 }
        values += [.nan, -3.25, 1e-30, 6e30, 0, 0, 2.5]
        values += (0..<500).map { _ in Double.random(in: -1e6...1e6, using: &rng) }
        let decoded = try Self.decode(FrameGridCode.encode(values), count: values.count)
        #expect(decoded.count == values.count)
        for (v, d) in zip(values, decoded) {
            if v.isNaN {
                #expect(d.isNaN)
            } else {
                #expect(abs(d - v) <= 8e-6 * abs(v), "\(v) came back as \(d)")
            }
        }
    }

    @Test func emptyFramesAreAFewBytes() {
        let text = FrameGridCode.encode([Double](repeating: 0, count: 500 * 330))
        #expect(text.utf8.count <= 8)
    }
}
