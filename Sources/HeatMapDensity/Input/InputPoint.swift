import Foundation
import HeatMapCore

/// One point as read from a file, before projection.
public struct InputPoint: Sendable, Hashable {
    /// Degrees north (or planar y).
    public var latitude: Double
    /// Degrees east, in [-180, 360) (or planar x).
    public var longitude: Double
    /// Kernel weight, finite and ≥ 0 (1 when the input has no weight column).
    public var weight: Double
    /// The measured value for the mean estimator; NaN when not read.
    public var value: Double
    /// Seconds since 1970-01-01T00:00:00Z (``TimeColumns``); NaN when not read.
    public var time: Double
    /// The point's own kernel radius (``PointColumns/radius``), metres or
    /// planar units; NaN when not read.
    public var radius: Double = .nan

    /// Creates a point.
    public init(latitude: Double, longitude: Double, weight: Double = 1, value: Double = .nan) {
        self.init(latitude: latitude, longitude: longitude, weight: weight, value: value, time: .nan)
    }

    /// Creates a point with a time, in seconds since 1970-01-01T00:00:00Z (NaN: none).
    public init(latitude: Double, longitude: Double, weight: Double = 1, value: Double = .nan, time: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.weight = weight
        self.value = value
        self.time = time
    }

    /// Equal when every field is; two points without a value (NaN) are
    /// equal, and so are two without a time or a radius.
    public static func == (a: InputPoint, b: InputPoint) -> Bool {
        a.latitude == b.latitude && a.longitude == b.longitude && a.weight == b.weight
            && (a.value == b.value || (a.value.isNaN && b.value.isNaN))
            && (a.time == b.time || (a.time.isNaN && b.time.isNaN))
            && (a.radius == b.radius || (a.radius.isNaN && b.radius.isNaN))
    }

    /// Hashes the fields that `==` compares (a NaN value hashes alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(weight)
        hasher.combine(value.isNaN ? Double.nan.bitPattern : value.bitPattern)
        hasher.combine(time.isNaN ? Double.nan.bitPattern : time.bitPattern)
        hasher.combine(radius.isNaN ? Double.nan.bitPattern : radius.bitPattern)
    }
}

/// The input formats the readers understand.
public enum InputFormat: String, Sendable, Hashable, CaseIterable {
    /// Comma-, semicolon- or tab-separated values with a header row.
    case csv
    /// GeoJSON Point and MultiPoint features (also newline-delimited).
    case geojson

    /// The format a file name's extension implies, if any.
    public static func byExtension(_ path: String) -> InputFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "csv", "tsv", "tab", "txt", "psv": return .csv
        case "geojson", "json", "geojsonl", "geojsons", "ndjson", "jsonl": return .geojson
        default: return nil
        }
    }

    /// The format the first bytes suggest: GeoJSON when the first
    /// character (after a byte-order mark and white space) is `{`, `[` or
    /// the record separator of RFC 8142; CSV otherwise.
    public static func byContent(_ prefix: UnsafeBufferPointer<UInt8>) -> InputFormat {
        var i = CSVTokenizer.hasBOM(prefix) ? 3 : 0
        while i < prefix.count, prefix[i] == 0x20 || prefix[i] == 0x09 || prefix[i] == 0x0A || prefix[i] == 0x0D {
            i += 1
        }
        guard i < prefix.count else { return .csv }
        switch prefix[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), 0x1E: return .geojson
        default: return .csv
        }
    }
}

/// Which columns (CSV) or properties (GeoJSON) hold what.
public struct PointColumns: Sendable, Hashable {
    /// Latitude (or y) column; nil picks the first of ``latitudeNames``.
    public var latitude: String?
    /// Longitude (or x) column; nil picks the first of ``longitudeNames``.
    public var longitude: String?
    /// Weight column or property; nil gives every point weight 1.
    public var weight: String?
    /// Measured-value column or property (mean estimator); nil reads none.
    public var value: String?
    /// Time column or columns (``TimeColumns``); nil reads no time.
    public var time: TimeColumns?
    /// Column or property of each point's own kernel radius (the tool's
    /// `--radius-column`; metres, or planar units), each a finite number
    /// > 0; nil reads none.
    public var radius: String?

    /// Names tried for latitude, in order, case-insensitively.
    public static let latitudeNames = ["lat", "latitude", "y"]
    /// Names tried for longitude, in order, case-insensitively.
    public static let longitudeNames = ["lon", "lng", "long", "longitude", "x"]

    /// Creates a column choice that reads no time.
    public init(latitude: String? = nil, longitude: String? = nil, weight: String? = nil, value: String? = nil) {
        self.init(latitude: latitude, longitude: longitude, weight: weight, value: value, time: nil)
    }

    /// Creates a column choice with the column or columns of each point's time.
    public init(
        latitude: String? = nil, longitude: String? = nil, weight: String? = nil, value: String? = nil,
        time: TimeColumns?
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.weight = weight
        self.value = value
        self.time = time
    }
}

/// How to read points.
public struct PointReaderOptions: Sendable, Hashable {
    /// Which columns hold what.
    public var columns: PointColumns
    /// Whether coordinates are degrees (checked against [-90, 90] and
    /// [-180, 360)); false for planar x/y.
    public var geographic: Bool
    /// The format, or nil to go by extension, then content.
    public var format: InputFormat?
    /// Skip bad rows (counting them by reason) instead of stopping at the first.
    public var skipInvalid: Bool

    /// Creates reader options.
    public init(
        columns: PointColumns = PointColumns(), geographic: Bool = true, format: InputFormat? = nil,
        skipInvalid: Bool = false
    ) {
        self.columns = columns
        self.geographic = geographic
        self.format = format
        self.skipInvalid = skipInvalid
    }
}
