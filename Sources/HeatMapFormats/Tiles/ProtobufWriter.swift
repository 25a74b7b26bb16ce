import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The few protocol-buffer encodings a vector tile needs, written by hand:
/// base-128 varints, zigzag for signed values, field keys, and
/// length-delimited fields (strings, packed arrays, nested messages).
///
/// Bytes accumulate in ``bytes``; a nested message is written into its
/// own writer and appended with ``message(_:_:)``. O(bytes written).
struct ProtobufWriter {
    /// Wire types of the protocol-buffer encoding.
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    private(set) var bytes: [UInt8] = []

    /// A base-128 varint, low groups first.
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A field's key: its number and wire type.
    mutating func key(_ field: Int, _ type: WireType) {
        varint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    /// A varint field.
    mutating func field(_ field: Int, varint value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    /// A double field (fixed64, little-endian IEEE 754).
    mutating func field(_ field: Int, double value: Double) {
        key(field, .fixed64)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// A string field (UTF-8).
    mutating func field(_ field: Int, string value: String) {
        key(field, .lengthDelimited)
        let utf8 = Array(value.utf8)
        varint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A packed repeated uint32 field; nothing when `values` is empty.
    mutating func field(_ field: Int, packed values: [UInt32]) {
        guard !values.isEmpty else { return }
        var inner = ProtobufWriter()
        for v in values { inner.varint(UInt64(v)) }
        message(field, inner)
    }

    /// A nested message (or any length-delimited bytes) as a field.
    mutating func message(_ field: Int, _ inner: ProtobufWriter) {
        key(field, .lengthDelimited)
        varint(UInt64(inner.bytes.count))
        bytes.append(contentsOf: inner.bytes)
    }

    /// Appends another writer's bytes as they are (fields already keyed).
    mutating func append(_ other: ProtobufWriter) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Zigzag: small magnitudes of either sign become small unsigned values
    /// (0, −1, 1, −2 → 0, 1, 2, 3).
    static func zigzag(_ n: Int32) -> UInt32 {
        UInt32(bitPattern: (n << 1) ^ (n >> 31))
    }
}
