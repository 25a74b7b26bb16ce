import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A DEFLATE decompressor (RFC 1951), for zlib streams (RFC 1950) as TIFF
/// compression 8 stores them. Table-driven Huffman decoding; every length
/// and distance is checked, so corrupt input throws instead of reading or
/// writing out of bounds. O(output) time.
enum Inflater {
    /// The bytes of a zlib stream. `expected` (when known) caps the output:
    /// more is an error, so a hostile stream cannot exhaust memory.
    static func zlib(_ data: [UInt8], expected: Int? = nil) throws -> [UInt8] {
        guard data.count >= 2 else { throw RasterCodecError("DEFLATE: stream too short for a zlib header") }
        let cmf = Int(data[0]), flg = Int(data[1])
        guard cmf & 0x0F == 8, (cmf << 8 | flg) % 31 == 0 else {
            throw RasterCodecError("DEFLATE: not a zlib stream (header \(String(format: "%02X %02X", cmf, flg)))")
        }
        guard flg & 0x20 == 0 else { throw RasterCodecError("DEFLATE: zlib preset dictionaries are not supported") }
        return try data.withUnsafeBufferPointer { try raw(UnsafeBufferPointer(rebasing: $0[2...]), expected: expected) }
    }

    /// The bytes of a raw DEFLATE stream.
    package static func raw(_ data: UnsafeBufferPointer<UInt8>, expected: Int?) throws -> [UInt8] {
        var reader = InflateBitReader(data)
        var out = InflateOutput(capacity: expected ?? max(1024, data.count * 4), limit: expected ?? Int.max)
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let len = try reader.bits(16), nlen = try reader.bits(16)
                guard len == ~nlen & 0xFFFF else { throw RasterCodecError("DEFLATE: stored block length check fails") }
                try out.reserve(len)
                for _ in 0..<len { out.append(UInt8(try reader.bits(8))) }
            case 1:
                try inflateBlock(&reader, &out, InflateTable.fixedLiteral, InflateTable.fixedDistance)
            case 2:
                let (literal, distance) = try dynamicTables(&reader)
                try inflateBlock(&reader, &out, literal, distance)
            default:
                throw RasterCodecError("DEFLATE: invalid block type 3")
            }
        }
        return out.finish()
    }

    private static func dynamicTables(_ reader: inout InflateBitReader) throws -> (InflateTable, InflateTable) {
        let hlit = try reader.bits(5) + 257, hdist = try reader.bits(5) + 1, hclen = try reader.bits(4) + 4
        guard hlit <= 286, hdist <= 30 else { throw RasterCodecError("DEFLATE: too many length or distance codes") }
        var clLengths = [UInt8](repeating: 0, count: 19)
        for k in 0..<hclen { clLengths[DeflateTables.codeLengthOrder[k]] = UInt8(try reader.bits(3)) }
        let cl = try InflateTable(lengths: clLengths)
        var lengths: [UInt8] = []
        lengths.reserveCapacity(hlit + hdist)
        while lengths.count < hlit + hdist {
            let s = try cl.decode(&reader)
            switch s {
            case 0...15: lengths.append(UInt8(s))
            case 16:
                guard let previous = lengths.last else {
                    throw RasterCodecError("DEFLATE: repeat with no previous length")
                }
                for _ in 0..<(3 + (try reader.bits(2))) { lengths.append(previous) }
            case 17: for _ in 0..<(3 + (try reader.bits(3))) { lengths.append(0) }
            default: for _ in 0..<(11 + (try reader.bits(7))) { lengths.append(0) }
            }
        }
        guard lengths.count == hlit + hdist else { throw RasterCodecError("DEFLATE: code lengths overrun") }
        guard lengths[256] > 0 else { throw RasterCodecError("DEFLATE: no end-of-block code") }
        return (try InflateTable(lengths: Array(lengths[0..<hlit])), try InflateTable(lengths: Array(lengths[hlit...])))
    }

    private static func inflateBlock(
        _ reader: inout InflateBitReader, _ out: inout InflateOutput,
        _ literal: InflateTable, _ distance: InflateTable
    ) throws {
        while true {
            let s = try literal.decode(&reader)
            if s < 256 {
                try out.reserve(1)
                out.append(UInt8(s))
                continue
            }
            if s == 256 { return }
            let code = s - 257
            guard code < 29 else { throw RasterCodecError("DEFLATE: invalid length code \(s)") }
            let length = DeflateTables.lengthBase[code] + (try reader.bits(DeflateTables.lengthExtra[code]))
            let d = try distance.decode(&reader)
            guard d < 30 else { throw RasterCodecError("DEFLATE: invalid distance code \(d)") }
            let dist = DeflateTables.distanceBase[d] + (try reader.bits(DeflateTables.distanceExtra[d]))
            guard dist <= out.count else {
                throw RasterCodecError("DEFLATE: distance \(dist) reaches before the start")
            }
            try out.reserve(length)
            out.copy(distance: dist, length: length)
        }
    }
}

/// The inflater's output: a buffer filled by index, grown by doubling,
/// never past the limit the caller set.
struct InflateOutput {
    private var bytes: [UInt8]
    package private(set) var count = 0
    private let limit: Int

    package init(capacity: Int, limit: Int) {
        bytes = [UInt8](repeating: 0, count: max(capacity, 16))
        self.limit = limit
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    package mutating func reserve(_ n: Int) throws {
        guard count + n <= limit else { throw RasterCodecError("DEFLATE: more data than the tile holds") }
        if count + n > bytes.count {
            bytes += [UInt8](repeating: 0, count: max(bytes.count, n))
        }
    }

    @inline(__always)
    package mutating func append(_ b: UInt8) {
        bytes[count] = b
        count += 1
    }

    /// Copies `length` bytes from `distance` back (overlapping copies repeat the pattern, as LZ77 means).
    @inline(__always)
    mutating func copy(distance: Int, length: Int) {
        bytes.withUnsafeMutableBufferPointer { p in
            var from = count - distance, to = count
            for _ in 0..<length {
                p[to] = p[from]
                to += 1
                from += 1
            }
        }
        count += length
    }

    package mutating func finish() -> [UInt8] {
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}

/// Bits read least-significant first, with a 64-bit look-ahead.
struct InflateBitReader {
    private let data: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var buffer: UInt64 = 0
    private var count = 0

    package init(_ data: UnsafeBufferPointer<UInt8>) { self.data = data }

    @inline(__always)
    private mutating func refill() {
        while count <= 56 {
            if position < data.count {
                buffer |= UInt64(data[position]) << UInt64(count)
                position += 1
                count += 8
            } else {
                return
            }
        }
    }

    /// The next `n` bits (n ≤ 24) without consuming them; missing bits past the end read as 0.
    @inline(__always)
    mutating func peek(_ n: Int) -> Int {
        if count < n { refill() }
        return Int(buffer & ((1 << UInt64(n)) - 1))
    }

    /// Whether `n` bits are available.
    @inline(__always)
    mutating func has(_ n: Int) -> Bool {
        if count < n { refill() }
        return count >= n
    }

    @inline(__always)
    package mutating func consume(_ n: Int) {
        buffer >>= UInt64(n)
        count -= n
    }

    @inline(__always)
    mutating func bits(_ n: Int) throws -> Int {
        guard n > 0 else { return 0 }
        guard has(n) else { throw RasterCodecError("DEFLATE: stream ends early (truncated data)") }
        let v = peek(n)
        consume(n)
        return v
    }

    mutating func alignToByte() {
        consume(count % 8)
    }
}

/// A Huffman decoding table: indexed by the next `maxLength` bits
/// (least-significant first), each entry the symbol and its code length.
struct InflateTable {
    private var entries: [UInt32]
    private let maxLength: Int

    package init(lengths: [UInt8]) throws {
        let maxLength = Int(lengths.max() ?? 0)
        self.maxLength = max(maxLength, 1)
        entries = [UInt32](repeating: 0, count: 1 << self.maxLength)
        guard maxLength > 0 else { return }
        // Over-subscribed codes are corrupt; incomplete ones are allowed (one-code distance trees).
        var kraft = 0
        for l in lengths where l > 0 { kraft += 1 << (15 - Int(l)) }
        guard kraft <= 1 << 15 else { throw RasterCodecError("DEFLATE: over-subscribed Huffman code") }
        let code = HuffmanCode(lengths: lengths)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            let length = Int(l)
            let entry = UInt32(symbol) << 4 | UInt32(length)
            var k = Int(code.codes[symbol])
            while k < entries.count { entries[k] = entry; k += 1 << length }
        }
    }

    @inline(__always)
    func decode(_ reader: inout InflateBitReader) throws -> Int {
        let e = entries[reader.peek(maxLength)]
        let length = Int(e & 15)
        guard length > 0, reader.has(length) else {
            throw RasterCodecError(
                length == 0 ? "DEFLATE: invalid Huffman code" : "DEFLATE: stream ends early (truncated data)")
        }
        reader.consume(length)
        return Int(e >> 4)
    }

    static let fixedLiteral = try! InflateTable(lengths: DeflateTables.fixedLiteralLengths)
    static let fixedDistance = try! InflateTable(lengths: DeflateTables.fixedDistanceLengths + [5, 5])
}
