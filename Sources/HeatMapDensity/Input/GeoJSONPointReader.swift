import Foundation
import HeatMapCore

/// Reads points from GeoJSON: a FeatureCollection, a Feature, a bare
/// Point / MultiPoint / GeometryCollection, a top-level array of features,
/// or newline-delimited GeoJSON (one value per line, RFC 8142 separators
/// allowed).
///
/// A FeatureCollection's `features` are parsed one at a time, and the
/// positions of a Point or MultiPoint are handed out in batches as they
/// are parsed (when the feature's `type` and the properties read come
/// before its geometry, and the geometry's `type` before its
/// `coordinates`, as writers put them), so memory is one batch however
/// long the file or the MultiPoint; other values are parsed whole.
/// Positions are [longitude, latitude] (x, y for planar input); weight
/// and value come from the feature's properties (numbers, or numeric
/// strings), and so does the time (an ISO 8601 string, a number of
/// seconds or milliseconds, or calendar parts, as CSV columns are read). Bad positions and properties throw an ``InputError`` with the
/// line and column of the offending JSON — or are counted in
/// ``rejections`` under ``PointReaderOptions/skipInvalid``. Invalid or
/// truncated JSON and non-point geometry are reported the same way; the
/// former always stops reading. O(bytes).
final class GeoJSONPointReader {
    /// Points (positions) left out under `skipInvalid`.
    package private(set) var rejections = InputRejections()
    /// Positions (and point-less features) seen, good and bad.
    package private(set) var rowsRead = 0

    private let features: GeoJSONFeatureStream
    private let fileName: String
    private let options: PointReaderOptions
    private let validator: PointValidator
    private var pending: [InputPoint] = []
    private var pendingIndex = 0
    /// Streamed positions gathered before they are handed out.
    private let batchSize: Int
    /// The weight, value and time of the feature whose positions are streamed.
    /// What every streamed position of the current feature takes from its
    /// properties (weight, value, radius, time; the position is its own).
    private var streamFields = InputPoint(latitude: 0, longitude: 0)
    /// Reads a feature's time from its properties, when times are asked for.
    private let timeReader: TimeFieldReader?
    /// The first bad position of the feature being streamed: thrown when
    /// the feature ends, as a feature read whole would (bad JSON later in
    /// it is reported first).
    private var streamError: InputError?

    /// Positions gathered per batch by default.
    static let defaultBatchSize = 1 << 16

    /// Opens the reader; nothing is read until ``next()``.
    package convenience init(source: ByteSource, options: PointReaderOptions) {
        self.init(source: source, options: options, batchSize: GeoJSONPointReader.defaultBatchSize)
    }

    /// Opens the reader, gathering streamed positions `batchSize` at a time.
    package init(source: ByteSource, options: PointReaderOptions, batchSize: Int) {
        features = GeoJSONFeatureStream(source: source)
        fileName = source.name
        self.options = options
        self.batchSize = max(1, batchSize)
        validator = PointValidator(geographic: options.geographic)
        timeReader = options.columns.time.map { TimeFieldReader(columns: $0, decimalComma: false) }
        features.positionsWanted = { [unowned self] feature, _ in self.streams(feature) }
    }

    /// The next good point, or nil at the end of the input.
    ///
    /// - Throws: ``InputError`` for bad JSON, non-point geometry or a bad
    ///   position or property (the last two only when not skipping).
    package func next() throws -> InputPoint? {
        while true {
            if pendingIndex < pending.count {
                pendingIndex += 1
                return pending[pendingIndex - 1]
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            guard let item = try features.nextItem() else { return nil }
            switch item {
            case .feature(let node, let streamed):
                if streamed {
                    if let error = streamError {
                        streamError = nil
                        throw error
                    }
                } else {
                    try collect(node)
                }
            case .position(let node):
                take(node)
                while pending.count < batchSize, features.isStreamingPositions,
                    case .position(let more)? = try features.nextItem()
                {
                    take(more)
                }
            }
        }
    }

    // MARK: Streamed positions

    /// Whether the positions of `feature` (nil: a bare geometry) can be
    /// streamed: everything a whole feature would be checked for before
    /// its positions is known and good. Otherwise the feature is read
    /// whole and checked as ever.
    private func streams(_ feature: JSONNode?) -> Bool {
        let columns = options.columns
        let named = columns.weight != nil || columns.value != nil || columns.radius != nil || timeReader != nil
        guard let feature else {
            streamFields = InputPoint(latitude: 0, longitude: 0)
            return !named
        }
        guard feature["type"]?.string == "Feature" else { return false }
        let properties = feature["properties"]
        // The properties may still come after the geometry.
        if named, properties == nil { return false }
        do {
            streamFields = try fields(of: properties, feature: feature)
        } catch {
            return false
        }
        return true
    }

    /// The weight, value, radius and time a feature's properties give its
    /// positions (at 0, 0: each position sets its own).
    ///
    /// - Throws: ``InputError`` for a missing or bad property.
    private func fields(of properties: JSONNode?, feature: JSONNode) throws -> InputPoint {
        let columns = options.columns
        var fields = InputPoint(latitude: 0, longitude: 0)
        fields.time = try time(of: properties, feature: feature)
        if let name = columns.weight {
            fields.weight = try property(name, of: properties, feature: feature, role: .weight)
        }
        if let name = columns.value {
            fields.value = try property(name, of: properties, feature: feature, role: .value)
        }
        if let name = columns.radius {
            fields.radius = try property(name, of: properties, feature: feature, role: .radius)
        }
        return fields
    }

    /// One streamed position: a good point joins `pending`; the first bad
    /// one waits for the feature's end (unless skipping).
    private func take(_ node: JSONNode) {
        var errors: [InputError] = []
        position(node, fields: streamFields, into: &pending, errors: &errors)
        for error in errors {
            if options.skipInvalid {
                rejections.record(error)
            } else if streamError == nil {
                streamError = error
            }
        }
    }

    // MARK: Features to points

    private func fail(_ node: JSONNode, _ reason: String, _ message: String) -> InputError {
        InputError(file: fileName, line: node.line, column: String(node.column), reason: reason, message: message)
    }

    /// Adds the good points of a feature (or geometry) to `pending`; bad
    /// ones are counted, or thrown when not skipping.
    private func collect(_ node: JSONNode) throws {
        var errors: [InputError] = []
        points(of: node, into: &pending, errors: &errors)
        if let first = errors.first, !options.skipInvalid {
            pending.removeAll()
            throw first
        }
        for error in errors { rejections.record(error) }
    }

    private func points(of node: JSONNode, into out: inout [InputPoint], errors: inout [InputError]) {
        guard case .object = node.value else {
            rowsRead += 1
            errors.append(fail(node, "not a feature", "expected a GeoJSON Feature object, found \(node.kind)"))
            return
        }
        guard let type = node["type"]?.string else {
            rowsRead += 1
            errors.append(fail(node, "not a feature", "GeoJSON object without a 'type'"))
            return
        }
        switch type {
        case "Feature":
            guard let geometry = node["geometry"], !geometry.isNull else {
                rowsRead += 1
                errors.append(fail(node, "no geometry", "feature has no geometry (null)"))
                return
            }
            let properties = node["properties"]
            let fields: InputPoint
            do {
                fields = try self.fields(of: properties, feature: node)
            } catch let error as InputError {
                rowsRead += 1
                errors.append(error)
                return
            } catch {
                return
            }
            positions(of: geometry, fields: fields, into: &out, errors: &errors)
        case "Point", "MultiPoint", "GeometryCollection":
            let columns = options.columns
            if let name = columns.weight ?? columns.value ?? columns.radius ?? columns.time?.names.first {
                rowsRead += 1
                errors.append(
                    fail(
                        node, "missing property",
                        "bare \(type) geometry has no properties, so no '\(name)'"))
                return
            }
            positions(of: node, fields: InputPoint(latitude: 0, longitude: 0), into: &out, errors: &errors)
        default:
            rowsRead += 1
            errors.append(
                fail(
                    node, "not a point geometry",
                    "expected a Feature with Point or MultiPoint geometry, found \(type)"))
        }
    }

    private func property(
        _ name: String, of properties: JSONNode?, feature: JSONNode,
        role: PointValidator.Role
    ) throws -> Double {
        let what = validator.name(role)
        guard let properties, case .object = properties.value else {
            throw fail(feature, "missing property", "feature has no properties, so no '\(name)' for the \(what)")
        }
        guard let node = properties[name] else {
            throw fail(properties, "missing property", "feature has no property '\(name)' for the \(what)")
        }
        let parsed: ParsedNumber
        switch node.value {
        case .number(let v):
            parsed = v.isNaN ? .nan : (v.isFinite ? .number(v) : .infinite(v))
        case .string(let s):
            var bytes = Array(s.utf8)
            parsed = bytes.withUnsafeMutableBufferPointer { NumberParser.parse(UnsafeBufferPointer($0)) }
        case .null:
            parsed = .missing
        default:
            parsed = .invalid
        }
        switch validator.number(parsed, role: role, text: JSONNumberText.describe(node)) {
        case .success(let v): return v
        case .failure(let p): throw fail(node, p.reason, "property '\(name)': \(p.message)")
        }
    }

    /// The feature's time from its properties (NaN when no time is asked for).
    private func time(of properties: JSONNode?, feature: JSONNode) throws -> Double {
        guard let timeReader else { return .nan }
        let names = timeReader.columns.names
        guard let properties, case .object = properties.value else {
            throw fail(feature, "missing property", "feature has no properties, so no '\(names[0])' for the time")
        }
        // Each part as the text a CSV field would hold: a string as it is, a number as written.
        var bytes: [UInt8] = []
        var parts: [Range<Int>] = []
        for name in names {
            guard let node = properties[name] else {
                throw fail(properties, "missing property", "feature has no property '\(name)' for the time")
            }
            let start = bytes.count
            switch node.value {
            case .string(let s): bytes += s.utf8
            case .number: bytes += JSONNumberText.describe(node).utf8
            case .null: break
            default: bytes += node.kind.utf8
            }
            parts.append(start..<bytes.count)
        }
        let read = bytes.withUnsafeBufferPointer { all in
            timeReader.time { k in UnsafeBufferPointer(rebasing: all[parts[k]]) }
        }
        switch read {
        case .success(let t): return t
        case .failure(let problem):
            let name = names[problem.part]
            throw fail(properties[name] ?? properties, problem.reason, "property '\(name)': \(problem.message)")
        }
    }

    private func positions(
        of geometry: JSONNode, fields: InputPoint,
        into out: inout [InputPoint], errors: inout [InputError]
    ) {
        let type = geometry["type"]?.string
        switch type {
        case "Point":
            guard let coordinates = geometry["coordinates"] else {
                rowsRead += 1
                errors.append(fail(geometry, "invalid GeoJSON", "Point without 'coordinates'"))
                return
            }
            position(coordinates, fields: fields, into: &out, errors: &errors)
        case "MultiPoint":
            guard let coordinates = geometry["coordinates"]?.array else {
                rowsRead += 1
                errors.append(fail(geometry, "invalid GeoJSON", "MultiPoint without a 'coordinates' array"))
                return
            }
            for p in coordinates { position(p, fields: fields, into: &out, errors: &errors) }
        case "GeometryCollection":
            guard let members = geometry["geometries"]?.array else {
                rowsRead += 1
                errors.append(fail(geometry, "invalid GeoJSON", "GeometryCollection without a 'geometries' array"))
                return
            }
            for g in members { positions(of: g, fields: fields, into: &out, errors: &errors) }
        default:
            rowsRead += 1
            let found = type ?? (geometry.string != nil ? "a string" : "a geometry without a 'type'")
            errors.append(
                fail(
                    geometry, "not a point geometry",
                    "expected a Point or MultiPoint geometry, found \(found)"))
        }
    }

    private func position(
        _ node: JSONNode, fields: InputPoint,
        into out: inout [InputPoint], errors: inout [InputError]
    ) {
        rowsRead += 1
        guard let parts = node.array, parts.count >= 2 else {
            errors.append(
                fail(
                    node, "invalid position",
                    "a position must be an array [\(options.geographic ? "longitude, latitude" : "x, y")],"
                        + " found \(node.kind)\(node.array.map { " of \($0.count)" } ?? "")"))
            return
        }
        func coordinate(_ k: Int, _ role: PointValidator.Role) -> Double? {
            let part = parts[k]
            let parsed: ParsedNumber
            switch part.value {
            case .number(let v): parsed = v.isNaN ? .nan : (v.isFinite ? .number(v) : .infinite(v))
            case .null: parsed = .missing
            default: parsed = .invalid
            }
            switch validator.number(parsed, role: role, text: JSONNumberText.describe(part)) {
            case .success(let v): return v
            case .failure(let p):
                errors.append(fail(part, p.reason, p.message))
                return nil
            }
        }
        guard let lon = coordinate(0, .longitude), let lat = coordinate(1, .latitude) else { return }
        var point = fields
        point.latitude = lat
        point.longitude = lon
        out.append(point)
    }
}

/// Short text of a JSON number for messages (95 rather than 95.0).
enum JSONNumberText {
    package static func text(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// How a JSON value reads in a message: numbers as written (NaN,
    /// Infinity), strings as they are, null, or the kind of value.
    static func describe(_ node: JSONNode) -> String {
        switch node.value {
        case .number(let v): return v.isNaN ? "NaN" : (v.isFinite ? text(v) : (v > 0 ? "Infinity" : "-Infinity"))
        case .string(let s): return s
        case .null: return "null"
        default: return node.kind
        }
    }
}
