import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Round trips of the raster codecs over generated data: random bytes,
/// runs, repeats longer than the window, and float grids as the writer
/// sees them (after the floating-point predictor).
@Suite struct RasterCodecTests {
    static func samples(seed: UInt64) -> [[UInt8]] {
        var g = SplitMix(seed: seed)
        var out: [[UInt8]] = [[], [7], [1, 2, 3], [UInt8](repeating: 0, count: 100_000)]
        for _ in 0..<6 {
            let n = Int(g.next() % 200_000)
            let alphabet = UInt64(1 + g.next() % 255)
            var bytes = [UInt8](repeating: 0, count: n)
            var i = 0
            while i < n {
                if g.next() % 4 == 0 && i > 10 {
                    // A repeat at a random distance (sometimes beyond the 32 KiB window).
                    let d = 1 + Int(g.next() % UInt64(min(i, 40_000)))
                    let l = min(n - i, 3 + Int(g.next() % 300))
                    for k in 0..<l { bytes[i + k] = bytes[i + k - d] }
                    i += l
                } else {
                    bytes[i] = UInt8(g.next() % alphabet)
                    i += 1
                }
            }
            out.append(bytes)
        }
        var floats: [UInt8] = []
        for k in 0..<(256 * 256) {
            let v = Float(exp(-Double((k % 256 - 128) * (k % 256 - 128) + (k / 256 - 100) * (k / 256 - 100)) / 2000))
            withUnsafeBytes(of: v.bitPattern.littleEndian) { floats.append(contentsOf: $0) }
        }
        TIFFPredictor.applyFloatingPoint(&floats, rows: 256, width: 256, samples: 1, bytes: 4)
        out.append(floats)
        return out
    }

    @Test func deflateRoundTrips() throws {
        for (k, data) in Self.samples(seed: 11).enumerated() {
            for chain in [1, 32] {
                let z = DeflateEncoder.zlib(data, maxChain: chain)
                #expect(try Inflater.zlib(z, expected: data.count) == data, "sample \(k), chain \(chain)")
            }
        }
    }

    @Test func deflateCompressesRedundantData() {
        let zeros = [UInt8](repeating: 0, count: 100_000)
        #expect(DeflateEncoder.zlib(zeros).count < 1_000)
    }

    @Test func inflaterRefusesTruncatedAndCorruptStreams() throws {
        let data = Self.samples(seed: 5)[5]
        let z = DeflateEncoder.zlib(data)
        #expect(throws: RasterCodecError.self) { try Inflater.zlib(Array(z.prefix(z.count / 2)), expected: data.count) }
        #expect(throws: RasterCodecError.self) { try Inflater.zlib([0x12, 0x34, 0, 0], expected: 10) }
        #expect(throws: RasterCodecError.self) { try Inflater.zlib(z, expected: data.count / 2) }
    }

    @Test func lzwRoundTrips() throws {
        for (k, data) in Self.samples(seed: 12).enumerated() {
            let c = LZWCodec.encode(data)
            #expect(try LZWCodec.decode(c, expected: data.count) == data, "sample \(k)")
        }
    }

    @Test func packBitsDecodesTheTIFFExample() throws {
        // TIFF 6.0's PackBits example.
        let packed: [UInt8] = [0xFE, 0xAA, 0x02, 0x80, 0x00, 0x2A, 0xFD, 0xAA, 0x03, 0x80, 0x00, 0x2A, 0x22, 0xF7, 0xAA]
        let expected: [UInt8] = [
            0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0xAA, 0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0x22,
            0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA
        ]
        #expect(try PackBits.decode(packed, expected: expected.count) == expected)
        #expect(throws: RasterCodecError.self) { try PackBits.decode([0x05, 1, 2], expected: 6) }
    }

    @Test func predictorsRoundTrip() {
        var g = SplitMix(seed: 3)
        for bytes in [1, 2, 4, 8] {
            for big in [false, true] {
                let original = (0..<(3 * 17 * 2 * bytes)).map { _ in UInt8(g.next() & 0xFF) }
                var data = original
                TIFFPredictor.applyHorizontal(&data, rows: 3, width: 17, samples: 2, bytes: bytes, bigEndian: big)
                #expect(data != original)
                TIFFPredictor.undoHorizontal(&data, rows: 3, width: 17, samples: 2, bytes: bytes, bigEndian: big)
                #expect(data == original, "predictor 2, \(bytes) bytes, big-endian \(big)")
            }
            let original = (0..<(5 * 13 * bytes)).map { _ in UInt8(g.next() & 0xFF) }
            var data = original
            TIFFPredictor.applyFloatingPoint(&data, rows: 5, width: 13, samples: 1, bytes: bytes)
            TIFFPredictor.undoFloatingPoint(&data, rows: 5, width: 13, samples: 1, bytes: bytes)
            #expect(data == original, "predictor 3, \(bytes) bytes")
        }
    }
}
