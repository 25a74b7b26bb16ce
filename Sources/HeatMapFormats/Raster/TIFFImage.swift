import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The first band of a TIFF image as doubles, rows top-down: stripped or
/// tiled; uncompressed, LZW, DEFLATE or PackBits; predictors 1, 2 and 3;
/// 8-, 16- and 32-bit signed or unsigned integers and 32/64-bit floats.
struct TIFFImage {
    package let width: Int
    package let height: Int
    /// Samples per pixel: the bands (only the first is read).
    package let bands: Int
    /// Row-major, row 0 the top.
    package var values: [Double]

    enum SampleKind { case unsigned, signed, float }

    package init(_ d: TIFFDirectory) throws {
        let name = d.name
        guard let w = d.integer(256), let h = d.integer(257), w > 0, h > 0 else {
            throw RasterCodecError("\(name): no image width or height")
        }
        guard w.multipliedReportingOverflow(by: h).overflow == false, w * h <= 400_000_000 else {
            throw RasterCodecError("\(name): \(w) × \(h) pixels is too many")
        }
        width = w
        height = h
        let samples = d.integer(277) ?? 1
        let bits = d.integers(258)?.first ?? 1
        let format = d.integer(339) ?? 1
        let compression = d.integer(259) ?? 1
        let predictor = d.integer(317) ?? 1
        let planar = d.integer(284) ?? 1
        guard samples >= 1, samples <= 64 else { throw RasterCodecError("\(name): \(samples) samples per pixel") }
        bands = samples
        let kind: SampleKind
        switch (format, bits) {
        case (1, 8), (1, 16), (1, 32): kind = .unsigned
        case (2, 8), (2, 16), (2, 32): kind = .signed
        case (3, 32), (3, 64): kind = .float
        default:
            let what =
                format == 3
                ? "\(bits)-bit floats"
                : format == 2
                    ? "\(bits)-bit signed integers"
                    : format == 1 ? "\(bits)-bit integers" : "sample format \(format)"
            throw RasterCodecError("\(name): \(what) are not supported (8–32-bit integers, 32/64-bit floats are)")
        }
        let codec: Int
        switch compression {
        case 1, 5, 8, 32946, 32773: codec = compression
        default:
            let known = [
                2: "CCITT RLE", 3: "CCITT fax 3", 4: "CCITT fax 4", 6: "old JPEG", 7: "JPEG", 34887: "LERC",
                34925: "LZMA", 50000: "ZSTD", 50001: "WebP", 34712: "JPEG 2000", 50002: "JPEG XL"
            ]
            throw RasterCodecError(
                "\(name): compression \(compression)\(known[compression].map { " (\($0))" } ?? "") is not supported (none, LZW, DEFLATE, PackBits are)"
            )
        }
        guard [1, 2, 3].contains(predictor) else {
            throw RasterCodecError("\(name): predictor \(predictor) is not supported")
        }
        guard predictor != 3 || kind == .float else {
            throw RasterCodecError("\(name): floating-point predictor on integer samples")
        }
        let bytes = bits / 8
        // With planar configuration 2 the first band's blocks come first; each holds one sample per pixel.
        let blockSamples = planar == 2 ? 1 : samples

        let tiled = d.has(322)
        let blockWidth = tiled ? (d.integer(322) ?? 0) : w
        let blockHeight = tiled ? (d.integer(323) ?? 0) : min(d.integer(278) ?? h, h)
        guard blockWidth > 0, blockHeight > 0, blockWidth <= 1 << 16, blockHeight <= 1 << 24 else {
            throw RasterCodecError("\(name): invalid \(tiled ? "tile" : "strip") size \(blockWidth) × \(blockHeight)")
        }
        guard let offsets = d.integers(tiled ? 324 : 273), let counts = d.integers(tiled ? 325 : 279) else {
            throw RasterCodecError("\(name): no \(tiled ? "tile" : "strip") offsets or byte counts")
        }
        let across = (w + blockWidth - 1) / blockWidth, down = (h + blockHeight - 1) / blockHeight
        guard offsets.count >= across * down, counts.count >= across * down else {
            throw RasterCodecError(
                "\(name): \(offsets.count) \(tiled ? "tiles" : "strips") listed for \(across * down)")
        }
        let blockBytes = blockWidth * blockHeight * blockSamples * bytes
        var values = [Double](repeating: 0, count: w * h)
        let data = d.data, bigEndian = d.bigEndian
        try values.withUnsafeMutableBufferPointer { out in
            let target = UncheckedSendable(out)
            try Parallel.forEach(across * down) { b in
                let offset = offsets[b], count = counts[b]
                guard offset >= 0, count >= 0, offset <= data.count, count <= data.count - offset else {
                    throw RasterCodecError(
                        "\(name): \(tiled ? "tile" : "strip") \(b) lies past the end of the file (truncated?)")
                }
                let raw = Array(data[offset..<(offset + count)])
                var block: [UInt8]
                do {
                    switch codec {
                    case 1: block = raw
                    case 5: block = try LZWCodec.decode(raw, expected: blockBytes)
                    case 32773: block = try PackBits.decode(raw, expected: blockBytes)
                    default: block = try Inflater.zlib(raw, expected: blockBytes)
                    }
                } catch let e as RasterCodecError {
                    throw RasterCodecError("\(name): \(tiled ? "tile" : "strip") \(b): \(e.description)")
                }
                // Short last strips and blocks are padded; rows past the data read as 0.
                let rows = tiled ? blockHeight : min(blockHeight, h - (b / across) * blockHeight)
                if block.count < blockBytes { block += [UInt8](repeating: 0, count: blockBytes - block.count) }
                var littleEndian = !bigEndian
                if predictor == 2 {
                    TIFFPredictor.undoHorizontal(
                        &block, rows: rows, width: blockWidth, samples: blockSamples, bytes: bytes, bigEndian: bigEndian
                    )
                } else if predictor == 3 {
                    TIFFPredictor.undoFloatingPoint(
                        &block, rows: rows, width: blockWidth, samples: blockSamples, bytes: bytes)
                    littleEndian = true
                }
                let x0 = (b % across) * blockWidth, y0 = (b / across) * blockHeight
                block.withUnsafeBytes { p in
                    for r in 0..<rows where y0 + r < h {
                        for c in 0..<blockWidth where x0 + c < w {
                            let at = ((r * blockWidth + c) * blockSamples) * bytes
                            target.value[(y0 + r) * w + x0 + c] = TIFFImage.sample(p, at, bytes, kind, littleEndian)
                        }
                    }
                }
            }
        }
        self.values = values
    }

    @inline(__always)
    static func sample(_ p: UnsafeRawBufferPointer, _ at: Int, _ bytes: Int, _ kind: SampleKind, _ little: Bool)
        -> Double
    {
        var u: UInt64 = 0
        for k in 0..<bytes { u |= UInt64(p[at + (little ? k : bytes - 1 - k)]) << UInt64(8 * k) }
        switch kind {
        case .unsigned: return Double(u)
        case .signed:
            let shift = UInt64(64 - 8 * bytes)
            return Double(Int64(bitPattern: u << shift) >> Int64(shift))
        case .float:
            return bytes == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: u))) : Double(bitPattern: u)
        }
    }
}
