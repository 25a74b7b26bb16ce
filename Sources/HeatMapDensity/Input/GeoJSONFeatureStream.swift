import Foundation
import HeatMapCore

/// Walks GeoJSON text and hands out its features one at a time: the
/// members of a FeatureCollection's `features`, the elements of a
/// top-level array, or a top-level Feature or geometry itself; several
/// top-level values in a row are read as newline-delimited GeoJSON (each
/// a Feature or geometry starting on a line of its own; a FeatureCollection
/// must be the only value, so concatenated files are refused).
///
/// Only one feature is held in memory at a time, however long the file.
/// Members of a top-level object other than those a Feature or geometry
/// needs (`crs`, `name`, foreign members) are parsed and dropped.
///
/// With ``positionsWanted`` set, a Point's or MultiPoint's `coordinates`
/// (bare, or a Feature's geometry) are not built into the tree: each
/// position is handed out on its own (``Item/position(_:)``) as it is
/// parsed, so that one MultiPoint of millions of positions takes no more
/// memory than one position. The feature still ends with
/// ``Item/feature(_:streamed:)``, without those coordinates.
final class GeoJSONFeatureStream {
    /// What ``nextItem()`` hands out.
    enum Item {
        /// A whole feature (or bare geometry); `streamed` when its
        /// coordinates were handed out as positions and are not in it.
        case feature(JSONNode, streamed: Bool)
        /// One position of the coordinates being streamed.
        case position(JSONNode)
    }

    private enum State {
        case start
        case members(first: Bool)
        case features(topLevelArray: Bool)
        /// Walking the object on top of `frames` member by member.
        case nested(first: Bool)
        /// Inside a MultiPoint's `coordinates` array being streamed.
        case positions(first: Bool)
        /// Streamed coordinates ended: on with the object that held them.
        case memberEnded
        case done
    }

    /// An object walked member by member below the top level: a feature
    /// in an array, or the geometry of the feature being walked.
    private struct Frame {
        enum Role { case element(topLevelArray: Bool), geometry }
        var role: Role
        /// The nesting depth of the object itself.
        package var depth: Int
        package var members: [(key: String, value: JSONNode)] = []
        package var line: Int, column: Int
        var streamed = false
        package var node: JSONNode { JSONNode(.object(members), line: line, column: column) }
    }

    /// Asked when a Point's or MultiPoint's `coordinates` begin, with the
    /// feature read so far (nil for a bare geometry) and the geometry's
    /// type: true streams them. Nil never streams (whole trees, as for
    /// contour files).
    var positionsWanted: ((_ feature: JSONNode?, _ type: String) -> Bool)?
    private var frames: [Frame] = []
    /// Whether the current top-level object's coordinates were streamed.
    private var topStreamed = false

    private let parser: JSONStreamParser
    let fileName: String
    private var state = State.start
    private var members: [(key: String, value: JSONNode)] = []
    private var sawFeatures = false
    private var objectLine = 1, objectColumn = 1
    private var valuesRead = 0
    /// The line on which the last top-level value ended, and whether it was
    /// a collection (a FeatureCollection or a top-level array).
    private var lastEndLine = 0
    private var lastWasCollection = false

    package init(source: ByteSource) {
        parser = JSONStreamParser(source: source)
        fileName = source.name
    }

    /// The next feature (or bare geometry), or nil at the end; for a
    /// stream without ``positionsWanted``.
    ///
    /// - Throws: ``InputError`` for an empty file, invalid or truncated
    ///   JSON, or a FeatureCollection without features.
    package func next() throws -> JSONNode? {
        while let item = try nextItem() {
            if case .feature(let node, _) = item { return node }
        }
        return nil
    }

    /// Whether the features so far came from a FeatureCollection's
    /// `features` (not bare Features or geometries).
    var inFeatureCollection: Bool { sawFeatures }

    /// Whether the next item is a further position of the coordinates
    /// being streamed.
    var isStreamingPositions: Bool {
        if case .positions = state { return true }
        return false
    }

    /// The next feature or streamed position, or nil at the end.
    ///
    /// - Throws: as ``next()``.
    func nextItem() throws -> Item? {
        do {
            while true {
                if let item = try step() { return item }
                if case .done = state { return nil }
            }
        } catch let error as JSONStreamParser.SyntaxError {
            state = .done
            throw InputError(
                file: fileName, line: error.line, column: String(error.column),
                reason: error.reason, message: error.message)
        }
    }

    /// Advances the walk by one token group; returns a feature when one is
    /// complete, or a streamed position.
    private func step() throws -> Item? {
        switch state {
        case .done:
            return nil
        case .start:
            let b = try parser.skipSpace()
            guard let b else {
                state = .done
                if valuesRead == 0 {
                    throw InputError(
                        file: fileName, line: 1, column: "1", reason: "empty file",
                        message: "empty file: expected GeoJSON")
                }
                return nil
            }
            valuesRead += 1
            objectLine = parser.line
            objectColumn = parser.column
            if valuesRead > 1 {
                if lastWasCollection {
                    throw located(
                        "a second JSON value after a FeatureCollection (concatenated files?);"
                            + " a file holds one FeatureCollection, or one Feature per line")
                }
                if objectLine == lastEndLine {
                    throw located(
                        "a second JSON value on the line where the previous one ended (concatenated objects?);"
                            + " newline-delimited GeoJSON has one value per line")
                }
            }
            if b == UInt8(ascii: "{") {
                try parser.expect(b, context: "")
                members.removeAll()
                sawFeatures = false
                topStreamed = false
                state = .members(first: true)
            } else if b == UInt8(ascii: "[") {
                try parser.expect(b, context: "")
                lastWasCollection = true
                if try parser.consume(UInt8(ascii: "]")) {
                    lastEndLine = parser.line
                    state = .start
                } else {
                    state = .features(topLevelArray: true)
                }
            } else {
                throw parser.unexpected(b, wanted: "'{' (a GeoJSON object)", context: "at the top level")
            }
            return nil
        case .members(let first):
            if first, try parser.consume(UInt8(ascii: "}")) {
                return try endObject()
            }
            let key = try parser.parseKey(context: "in an object")
            try parser.expect(UInt8(ascii: ":"), context: "after an object key")
            if key == "features", try parser.skipSpace() == UInt8(ascii: "[") {
                if valuesRead > 1 {
                    throw located(
                        "a FeatureCollection after another top-level value (concatenated files?);"
                            + " a file holds one FeatureCollection, or one Feature per line")
                }
                sawFeatures = true
                try parser.expect(UInt8(ascii: "["), context: "")
                if try parser.consume(UInt8(ascii: "]")) {
                    return try afterMember()
                }
                state = .features(topLevelArray: false)
                return nil
            }
            if positionsWanted != nil, key == "geometry", try parser.skipSpace() == UInt8(ascii: "{") {
                try push(.geometry, depth: 1)
                return nil
            }
            if key == "coordinates", let item = try streamCoordinates(of: members, depth: 0) {
                topStreamed = true
                return item
            }
            if case .positions = state { topStreamed = true; return nil }
            let value = try parser.parseValue(depth: 1)
            if ["type", "geometry", "properties", "coordinates", "geometries"].contains(key) {
                members.append((key, value))
            }
            return try afterMember()
        case .features(let topLevelArray):
            if positionsWanted != nil, try parser.skipSpace() == UInt8(ascii: "{") {
                try push(.element(topLevelArray: topLevelArray), depth: 2)
                return nil
            }
            let feature = try parser.parseValue(depth: 2)
            try afterFeature(topLevelArray: topLevelArray)
            return .feature(feature, streamed: false)
        case .nested(let first):
            if first, try parser.consume(UInt8(ascii: "}")) {
                return try endFrame()
            }
            let key = try parser.parseKey(context: "in an object")
            try parser.expect(UInt8(ascii: ":"), context: "after an object key")
            let role = frames[frames.count - 1].role, depth = frames[frames.count - 1].depth
            if case .element = role, key == "geometry", try parser.skipSpace() == UInt8(ascii: "{") {
                try push(.geometry, depth: depth + 1)
                return nil
            }
            if key == "coordinates",
                let item = try streamCoordinates(of: frames[frames.count - 1].members, depth: depth)
            {
                markStreamed()
                return item
            }
            if case .positions = state { markStreamed(); return nil }
            let value = try parser.parseValue(depth: depth + 1)
            frames[frames.count - 1].members.append((key, value))
            return try afterFrameMember()
        case .positions(let first):
            if first, try parser.consume(UInt8(ascii: "]")) {
                state = .memberEnded
                return nil
            }
            let position = try parser.parseValue(depth: (frames.last?.depth ?? 0) + 2)
            state =
                try parser.separator(close: UInt8(ascii: "]"), context: "in an array")
                ? .positions(first: false) : .memberEnded
            return .position(position)
        case .memberEnded:
            return try frames.isEmpty ? afterMember() : afterFrameMember()
        }
    }

    /// After a feature of an array: on to the next, or past the array's end.
    private func afterFeature(topLevelArray: Bool) throws {
        if try !parser.separator(close: UInt8(ascii: "]"), context: "in the features array") {
            if topLevelArray {
                lastEndLine = parser.line
                state = .start
            } else {
                // An object with features is not itself a feature: this yields nil.
                _ = try afterMember()
            }
        }
    }

    /// Starts walking the object at the next '{'.
    private func push(_ role: Frame.Role, depth: Int) throws {
        guard depth < JSONStreamParser.maximumDepth else {
            throw parser.error("invalid JSON", "JSON nested deeper than \(JSONStreamParser.maximumDepth) levels")
        }
        try parser.skipSpace()
        frames.append(Frame(role: role, depth: depth, line: parser.line, column: parser.column))
        try parser.expect(UInt8(ascii: "{"), context: "")
        state = .nested(first: true)
    }

    /// Marks the feature being walked as streamed (the element frame, or the top-level object).
    private func markStreamed() {
        if let k = frames.firstIndex(where: { if case .element = $0.role { return true } else { return false } }) {
            frames[k].streamed = true
        } else {
            topStreamed = true
        }
    }

    /// At the value of `coordinates` in an object with `members` so far:
    /// when its type is Point or MultiPoint and the caller wants them,
    /// streams them: a Point's one position is returned at once, a
    /// MultiPoint's array is entered (state `.positions`). Nil otherwise,
    /// or when a MultiPoint's positions begin (the state says which).
    private func streamCoordinates(of members: [(key: String, value: JSONNode)], depth: Int) throws -> Item? {
        guard let wanted = positionsWanted,
            let type = members.first(where: { $0.key == "type" })?.value.string,
            type == "Point" || type == "MultiPoint"
        else { return nil }
        let feature: JSONNode?
        if frames.last.map({ if case .geometry = $0.role { return true } else { return false } }) ?? false {
            feature =
                frames.count >= 2
                ? frames[frames.count - 2].node
                : JSONNode(.object(self.members), line: objectLine, column: objectColumn)
        } else {
            feature = nil
        }
        if type == "MultiPoint" {
            guard try parser.skipSpace() == UInt8(ascii: "["), wanted(feature, type) else { return nil }
            guard depth + 1 < JSONStreamParser.maximumDepth else {
                throw parser.error("invalid JSON", "JSON nested deeper than \(JSONStreamParser.maximumDepth) levels")
            }
            try parser.expect(UInt8(ascii: "["), context: "")
            state = .positions(first: true)
            return nil
        }
        guard wanted(feature, type) else { return nil }
        let position = try parser.parseValue(depth: depth + 1)
        state = .memberEnded
        return .position(position)
    }

    private func afterFrameMember() throws -> Item? {
        if try parser.separator(close: UInt8(ascii: "}"), context: "in an object") {
            state = .nested(first: false)
            return nil
        }
        return try endFrame()
    }

    /// The object on top of `frames` ended: a geometry joins its feature,
    /// a feature is handed out.
    private func endFrame() throws -> Item? {
        let frame = frames.removeLast()
        switch frame.role {
        case .geometry:
            if frames.isEmpty {
                members.append(("geometry", frame.node))
                state = .members(first: false)
                return try afterMember()
            }
            frames[frames.count - 1].members.append(("geometry", frame.node))
            return try afterFrameMember()
        case .element(let topLevelArray):
            state = .features(topLevelArray: topLevelArray)
            try afterFeature(topLevelArray: topLevelArray)
            return .feature(frame.node, streamed: frame.streamed)
        }
    }

    private func afterMember() throws -> Item? {
        if try parser.separator(close: UInt8(ascii: "}"), context: "in an object") {
            state = .members(first: false)
            return nil
        }
        return try endObject()
    }

    /// A top-level object ended: unless it had features, it is itself a
    /// Feature or a geometry.
    private func endObject() throws -> Item? {
        state = .start
        lastEndLine = parser.line
        lastWasCollection = sawFeatures
        let node = JSONNode(.object(members), line: objectLine, column: objectColumn)
        members.removeAll()
        guard let type = node["type"]?.string else {
            throw located("GeoJSON object without a 'type' (expected FeatureCollection, Feature or a geometry)")
        }
        if sawFeatures {
            guard type == "FeatureCollection" else {
                throw located("an object with 'features' has type '\(type)', not FeatureCollection")
            }
            return nil
        }
        let streamed = topStreamed
        topStreamed = false
        if type == "FeatureCollection" { throw located("FeatureCollection without a 'features' array") }
        guard GeoJSONFeatureStream.objectTypes.contains(type) else {
            throw located("unknown GeoJSON type '\(type)' (expected FeatureCollection, Feature or a geometry)")
        }
        return .feature(node, streamed: streamed)
    }

    /// The types a top-level object may have besides FeatureCollection.
    static let objectTypes: Set<String> = [
        "Feature", "Point", "MultiPoint", "LineString", "MultiLineString",
        "Polygon", "MultiPolygon", "GeometryCollection"
    ]

    /// An error at the current top-level value's position.
    private func located(_ message: String) -> InputError {
        InputError(
            file: fileName, line: objectLine, column: String(objectColumn), reason: "invalid GeoJSON",
            message: message)
    }
}
