import Foundation

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
final class GeoJSONFeatureStream {
    private enum State {
        case start
        case members(first: Bool)
        case features(topLevelArray: Bool)
        case done
    }

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

    init(source: ByteSource) {
        parser = JSONStreamParser(source: source)
        fileName = source.name
    }

    /// The next feature (or bare geometry), or nil at the end.
    ///
    /// - Throws: ``InputError`` for an empty file, invalid or truncated
    ///   JSON, or a FeatureCollection without features.
    func next() throws -> JSONNode? {
        do {
            while true {
                if let node = try step() { return node }
                if case .done = state { return nil }
            }
        } catch let error as JSONStreamParser.SyntaxError {
            state = .done
            throw InputError(file: fileName, line: error.line, column: String(error.column),
                             reason: error.reason, message: error.message)
        }
    }

    /// Advances the walk by one token group; returns a feature when one is complete.
    private func step() throws -> JSONNode? {
        switch state {
        case .done:
            return nil
        case .start:
            let b = try parser.skipSpace()
            guard let b else {
                state = .done
                if valuesRead == 0 {
                    throw InputError(file: fileName, line: 1, column: "1", reason: "empty file",
                                     message: "empty file: expected GeoJSON")
                }
                return nil
            }
            valuesRead += 1
            objectLine = parser.line
            objectColumn = parser.column
            if valuesRead > 1 {
                if lastWasCollection {
                    throw located("a second JSON value after a FeatureCollection (concatenated files?);"
                                  + " a file holds one FeatureCollection, or one Feature per line")
                }
                if objectLine == lastEndLine {
                    throw located("a second JSON value on the line where the previous one ended (concatenated objects?);"
                                  + " newline-delimited GeoJSON has one value per line")
                }
            }
            if b == UInt8(ascii: "{") {
                try parser.expect(b, context: "")
                members.removeAll()
                sawFeatures = false
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
                    throw located("a FeatureCollection after another top-level value (concatenated files?);"
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
            let value = try parser.parseValue(depth: 1)
            if ["type", "geometry", "properties", "coordinates", "geometries"].contains(key) {
                members.append((key, value))
            }
            return try afterMember()
        case .features(let topLevelArray):
            let feature = try parser.parseValue(depth: 2)
            if try !parser.separator(close: UInt8(ascii: "]"), context: "in the features array") {
                if topLevelArray {
                    lastEndLine = parser.line
                    state = .start
                } else {
                    // An object with features is not itself a feature: this yields nil.
                    _ = try afterMember()
                }
            }
            return feature
        }
    }

    private func afterMember() throws -> JSONNode? {
        if try parser.separator(close: UInt8(ascii: "}"), context: "in an object") {
            state = .members(first: false)
            return nil
        }
        return try endObject()
    }

    /// A top-level object ended: unless it had features, it is itself a
    /// Feature or a geometry.
    private func endObject() throws -> JSONNode? {
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
        if type == "FeatureCollection" { throw located("FeatureCollection without a 'features' array") }
        guard GeoJSONFeatureStream.objectTypes.contains(type) else {
            throw located("unknown GeoJSON type '\(type)' (expected FeatureCollection, Feature or a geometry)")
        }
        return node
    }

    /// The types a top-level object may have besides FeatureCollection.
    static let objectTypes: Set<String> = ["Feature", "Point", "MultiPoint", "LineString", "MultiLineString",
                                           "Polygon", "MultiPolygon", "GeometryCollection"]

    /// An error at the current top-level value's position.
    private func located(_ message: String) -> InputError {
        InputError(file: fileName, line: objectLine, column: String(objectColumn), reason: "invalid GeoJSON",
                   message: message)
    }
}
