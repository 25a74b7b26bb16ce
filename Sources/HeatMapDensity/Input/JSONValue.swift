import Foundation
import HeatMapCore

/// A parsed JSON value with the place it started in its file, so errors
/// about GeoJSON content can point at a line and column.
package struct JSONNode: Sendable {
    /// The value.
    package var value: JSONValue
    /// 1-based line of the value's first character.
    package var line: Int
    /// 1-based column (byte in the line) of the value's first character.
    package var column: Int

    /// Creates a node.
    package init(_ value: JSONValue, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    /// The member `key` of an object (the first, if repeated); nil otherwise.
    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, if this is one.
    package var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    /// The elements, if this is an array.
    package var array: [JSONNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    /// The number, if this is one.
    package var number: Double? {
        if case .number(let v) = value { return v }
        return nil
    }

    /// Whether this is JSON null.
    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// A word for the kind of value, for messages ("an array", "a string").
    package var kind: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON value. Numbers keep full double precision; the non-standard
/// literals NaN and ±Infinity some writers emit are read as numbers so that
/// the point checks can name them.
package enum JSONValue: Sendable {
    /// null
    case null
    /// true or false
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONNode])
    /// An object's members, in file order.
    case object([(key: String, value: JSONNode)])
}
