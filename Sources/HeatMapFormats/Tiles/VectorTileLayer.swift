import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// One layer of a Mapbox Vector Tile (2.1): features with their
/// attributes as indices into the layer's shared keys and values.
struct VectorTileLayer {
    /// An attribute value of the kinds the tiles use.
    enum Value: Hashable {
        case string(String)
        case double(Double)
        case unsigned(UInt64)
    }

    enum GeometryType: UInt64 {
        case lineString = 2, polygon = 3
    }

    let name: String
    let extent: Int
    private var keys: [String] = []
    private var keyIndex: [String: Int] = [:]
    private var values: [Value] = []
    private var valueIndex: [Value: Int] = [:]
    private var features = ProtobufWriter()
    private(set) var featureCount = 0

    init(name: String, extent: Int = 4096) {
        self.name = name
        self.extent = extent
    }

    /// Adds a feature; one with no geometry is left out.
    mutating func add(type: GeometryType, geometry: VectorTileGeometry, attributes: [(String, Value)]) {
        guard !geometry.integers.isEmpty else { return }
        var tags: [UInt32] = []
        tags.reserveCapacity(attributes.count * 2)
        for (key, value) in attributes {
            tags.append(UInt32(index(of: key)))
            tags.append(UInt32(index(of: value)))
        }
        var feature = ProtobufWriter()
        feature.field(2, packed: tags)
        feature.field(3, varint: type.rawValue)
        feature.field(4, packed: geometry.integers)
        features.message(2, feature)
        featureCount += 1
    }

    private mutating func index(of key: String) -> Int {
        if let k = keyIndex[key] { return k }
        keys.append(key)
        keyIndex[key] = keys.count - 1
        return keys.count - 1
    }

    private mutating func index(of value: Value) -> Int {
        if let k = valueIndex[value] { return k }
        values.append(value)
        valueIndex[value] = values.count - 1
        return values.count - 1
    }

    /// The layer message: version 2, name, features, keys, values, extent.
    var encoded: ProtobufWriter {
        var layer = ProtobufWriter()
        layer.field(15, varint: 2)
        layer.field(1, string: name)
        var bytes = layer
        bytes.append(features)
        for key in keys { bytes.field(3, string: key) }
        for value in values {
            var v = ProtobufWriter()
            switch value {
            case .string(let s): v.field(1, string: s)
            case .double(let d): v.field(3, double: d)
            case .unsigned(let u): v.field(5, varint: u)
            }
            bytes.message(4, v)
        }
        bytes.field(5, varint: UInt64(extent))
        return bytes
    }
}
