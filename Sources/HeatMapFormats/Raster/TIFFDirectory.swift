import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The parsed structure of a TIFF or BigTIFF file: its byte order and the
/// entries of its first image file directory (the full-resolution image).
/// Every offset and count is checked against the file's size, so a
/// truncated or hostile file throws instead of reading out of bounds.
struct TIFFDirectory {
    struct Entry {
        let type: Int
        package let count: Int
        /// Where the values are: the entry's own value field, or an offset.
        let valueOffset: Int
    }

    package let data: [UInt8]
    let bigEndian: Bool
    let isBigTIFF: Bool
    private(set) var entries: [Int: Entry] = [:]
    package let name: String

    package init(data: [UInt8], name: String) throws {
        self.data = data
        self.name = name
        guard data.count >= 8 else { throw RasterCodecError("\(name): not a TIFF file (too short)") }
        switch (data[0], data[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw RasterCodecError("\(name): not a TIFF file (no II/MM byte-order mark)")
        }
        let probe = TIFFDirectory.Reader(data: data, bigEndian: bigEndian)
        let version = probe.uint(at: 2, bytes: 2)
        guard version == 42 || version == 43 else {
            throw RasterCodecError("\(name): not a TIFF file (version \(version))")
        }
        isBigTIFF = version == 43
        let first: Int
        if isBigTIFF {
            guard data.count >= 16, probe.uint(at: 4, bytes: 2) == 8 else {
                throw RasterCodecError("\(name): BigTIFF header is damaged")
            }
            first = probe.uint(at: 8, bytes: 8)
        } else {
            first = probe.uint(at: 4, bytes: 4)
        }
        let countBytes = isBigTIFF ? 8 : 2, entryBytes = isBigTIFF ? 20 : 12
        guard first >= 8, first <= data.count - countBytes else {
            throw RasterCodecError(
                "\(name): the first image directory (at byte \(first)) is past the end of the file (truncated?)")
        }
        let n = probe.uint(at: first, bytes: countBytes)
        guard n > 0, n <= 10_000, first + countBytes + n * entryBytes <= data.count else {
            throw RasterCodecError("\(name): the image directory at byte \(first) is cut off (truncated file?)")
        }
        let valueBytes = isBigTIFF ? 8 : 4
        for k in 0..<n {
            let at = first + countBytes + k * entryBytes
            let tag = probe.uint(at: at, bytes: 2), type = probe.uint(at: at + 2, bytes: 2)
            let count = probe.uint(at: at + 4, bytes: isBigTIFF ? 8 : 4)
            let size = TIFFDirectory.typeSize(type)
            guard size > 0 else { continue }  // Unknown types are skipped, as TIFF 6.0 asks.
            guard count <= data.count else {
                throw RasterCodecError("\(name): tag \(tag) claims \(count) values, more than the file holds")
            }
            let valueAt = at + 4 + (isBigTIFF ? 8 : 4)
            let offset = count * size <= valueBytes ? valueAt : probe.uint(at: valueAt, bytes: valueBytes)
            guard offset >= 0, offset + count * size <= data.count else {
                throw RasterCodecError("\(name): the values of tag \(tag) lie past the end of the file (truncated?)")
            }
            entries[tag] = Entry(type: type, count: count, valueOffset: offset)
        }
    }

    static func typeSize(_ type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12, 16, 17, 18: return 8
        default: return 0
        }
    }

    func has(_ tag: Int) -> Bool { entries[tag] != nil }

    /// Integer values of a tag (BYTE, SHORT, LONG, LONG8 and signed kinds).
    func integers(_ tag: Int) -> [Int]? {
        guard let e = entries[tag] else { return nil }
        let r = Reader(data: data, bigEndian: bigEndian)
        let size = TIFFDirectory.typeSize(e.type)
        return (0..<e.count).map { k in
            let at = e.valueOffset + k * size
            switch e.type {
            case 1, 7: return r.uint(at: at, bytes: 1)
            case 6: return Int(Int8(truncatingIfNeeded: r.uint(at: at, bytes: 1)))
            case 3: return r.uint(at: at, bytes: 2)
            case 8: return Int(Int16(truncatingIfNeeded: r.uint(at: at, bytes: 2)))
            case 4, 13: return r.uint(at: at, bytes: 4)
            case 9: return Int(Int32(truncatingIfNeeded: r.uint(at: at, bytes: 4)))
            case 16, 18: return r.uint(at: at, bytes: 8)
            case 17: return Int(Int64(bitPattern: r.bits(at: at, bytes: 8)))
            default:
                let v = doubleValue(r, e.type, at)
                return v.isFinite && abs(v) < 9e18 ? Int(v) : 0
            }
        }
    }

    package func integer(_ tag: Int) -> Int? { integers(tag)?.first }

    /// Real values of a tag (DOUBLE, FLOAT, RATIONAL, or integers).
    func doubles(_ tag: Int) -> [Double]? {
        guard let e = entries[tag] else { return nil }
        let r = Reader(data: data, bigEndian: bigEndian)
        let size = TIFFDirectory.typeSize(e.type)
        return (0..<e.count).map { doubleValue(r, e.type, e.valueOffset + $0 * size) }
    }

    private func doubleValue(_ r: Reader, _ type: Int, _ at: Int) -> Double {
        switch type {
        case 11: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: r.bits(at: at, bytes: 4))))
        case 12: return Double(bitPattern: r.bits(at: at, bytes: 8))
        case 5:
            let d = r.uint(at: at + 4, bytes: 4)
            return d == 0 ? .nan : Double(r.uint(at: at, bytes: 4)) / Double(d)
        case 10:
            let d = Int32(truncatingIfNeeded: r.uint(at: at + 4, bytes: 4))
            return d == 0 ? .nan : Double(Int32(truncatingIfNeeded: r.uint(at: at, bytes: 4))) / Double(d)
        default:
            return Double(integersAt(r, type, at))
        }
    }

    private func integersAt(_ r: Reader, _ type: Int, _ at: Int) -> Int {
        switch type {
        case 3: return r.uint(at: at, bytes: 2)
        case 8: return Int(Int16(truncatingIfNeeded: r.uint(at: at, bytes: 2)))
        case 4: return r.uint(at: at, bytes: 4)
        case 9: return Int(Int32(truncatingIfNeeded: r.uint(at: at, bytes: 4)))
        case 16: return r.uint(at: at, bytes: 8)
        case 17: return Int(Int64(bitPattern: r.bits(at: at, bytes: 8)))
        default: return r.uint(at: at, bytes: 1)
        }
    }

    /// Text of an ASCII tag, without the trailing NULs.
    package func text(_ tag: Int) -> String? {
        guard let e = entries[tag], e.type == 2 else { return nil }
        var bytes = Array(data[e.valueOffset..<(e.valueOffset + e.count)])
        while bytes.last == 0 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads unsigned integers in the file's byte order.
    struct Reader {
        package let data: [UInt8]
        let bigEndian: Bool

        /// An unsigned value, clamped to Int.max (offsets and counts past it are invalid anyway).
        func uint(at offset: Int, bytes: Int) -> Int {
            Int(truncatingIfNeeded: min(bits(at: offset, bytes: bytes), UInt64(Int.max)))
        }

        /// The raw bits of a value.
        func bits(at offset: Int, bytes: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<bytes {
                v = v << 8 | UInt64(data[offset + (bigEndian ? k : bytes - 1 - k)])
            }
            return v
        }
    }
}
