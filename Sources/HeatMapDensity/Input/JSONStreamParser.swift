import Foundation
import HeatMapCore

/// A pull parser for JSON read from a ``ByteSource`` chunk by chunk.
///
/// It exposes both the tokens (so a caller can walk a large top-level
/// structure, such as a FeatureCollection's `features`, one element at a
/// time) and whole values (``parseValue()``, for one small element).
/// Tracks line and column for every error; nesting deeper than
/// ``maximumDepth`` is an error rather than a stack overflow. O(bytes).
final class JSONStreamParser {
    /// The deepest nesting accepted.
    static let maximumDepth = 256
    /// The longest string accepted, in bytes.
    static let maximumStringLength = 1 << 20

    /// Why the text is not (complete) JSON.
    struct SyntaxError: Error, Sendable {
        package var line: Int
        package var column: Int
        package var reason: String
        package var message: String
    }

    // The cursor is touched for every byte, so dynamic exclusivity checks
    // are off: this class is not Sendable and never re-enters itself.
    private let source: ByteSource
    @exclusivity(unchecked) private var chunk: UnsafeBufferPointer<UInt8>?
    @exclusivity(unchecked) private var position = 0
    private var started = false
    /// 1-based line of the next byte.
    @exclusivity(unchecked) package private(set) var line = 1
    /// 1-based column of the next byte.
    @exclusivity(unchecked) package private(set) var column = 1
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    package init(source: ByteSource) {
        self.source = source
    }

    // MARK: Bytes

    /// The next byte without consuming it; nil at the end.
    @inline(__always)
    package func peek() throws -> UInt8? {
        if let chunk, position < chunk.count { return chunk[position] }
        return try refill()
    }

    /// Reads the next chunk; its first byte, or nil at the end.
    private func refill() throws -> UInt8? {
        guard let next = try source.nextChunk() else {
            chunk = nil
            return nil
        }
        chunk = next
        position = 0
        if !started {
            started = true
            if CSVTokenizer.hasBOM(next) { position = 3 }
            if position >= next.count { return try peek() }
        }
        return next[position]
    }

    /// Consumes one byte (which `peek` returned).
    @inline(__always)
    private func advance(_ b: UInt8) {
        position += 1
        if b == 0x0A {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    package func error(_ reason: String, _ message: String) -> SyntaxError {
        SyntaxError(line: line, column: column, reason: reason, message: message)
    }

    private func describe(_ b: UInt8?) -> String {
        guard let b else { return "the end of the file" }
        if b == 0 { return "a NUL byte" }
        if b >= 0x21 && b < 0x7f { return "'\(Character(Unicode.Scalar(b)))'" }
        return String(format: "byte 0x%02x", b)
    }

    /// Skips white space (and RFC 8142 record separators). Returns the next byte.
    @discardableResult
    func skipSpace() throws -> UInt8? {
        while let b = try peek() {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D, 0x1E: advance(b)
            default: return b
            }
        }
        return nil
    }

    /// Consumes `expected` after white space, or throws naming what was found.
    func expect(_ expected: UInt8, context: String) throws {
        let b = try skipSpace()
        guard b == expected else {
            throw unexpected(b, wanted: "'\(Character(Unicode.Scalar(expected)))'", context: context)
        }
        advance(expected)
    }

    /// Consumes the next byte after white space if it is `b`.
    package func consume(_ b: UInt8) throws -> Bool {
        guard try skipSpace() == b else { return false }
        advance(b)
        return true
    }

    func unexpected(_ b: UInt8?, wanted: String, context: String) -> SyntaxError {
        let place = context.isEmpty ? "" : " " + context
        if b == nil {
            return error("truncated JSON", "unexpected end of file\(place), expected \(wanted) (truncated JSON?)")
        }
        if b == 0 {
            return error("binary data", "binary data (a NUL byte): this is not a GeoJSON text file")
        }
        return error("invalid JSON", "invalid JSON: expected \(wanted)\(place) but found \(describe(b))")
    }

    // MARK: Values

    /// Parses one whole value after white space.
    func parseValue(depth: Int = 0) throws -> JSONNode {
        let b = try skipSpace()
        let line = self.line, column = self.column
        guard let b else { throw unexpected(nil, wanted: "a value", context: "") }
        switch b {
        case UInt8(ascii: "{"):
            guard depth < JSONStreamParser.maximumDepth else {
                throw error("invalid JSON", "JSON nested deeper than \(JSONStreamParser.maximumDepth) levels")
            }
            advance(b)
            var members: [(key: String, value: JSONNode)] = []
            if try consume(UInt8(ascii: "}")) { return JSONNode(.object(members), line: line, column: column) }
            repeat {
                let key = try parseKey(context: "in an object")
                try expect(UInt8(ascii: ":"), context: "after an object key")
                members.append((key, try parseValue(depth: depth + 1)))
            } while try separator(close: UInt8(ascii: "}"), context: "in an object")
            return JSONNode(.object(members), line: line, column: column)
        case UInt8(ascii: "["):
            guard depth < JSONStreamParser.maximumDepth else {
                throw error("invalid JSON", "JSON nested deeper than \(JSONStreamParser.maximumDepth) levels")
            }
            advance(b)
            var elements: [JSONNode] = []
            if try consume(UInt8(ascii: "]")) { return JSONNode(.array(elements), line: line, column: column) }
            repeat {
                elements.append(try parseValue(depth: depth + 1))
            } while try separator(close: UInt8(ascii: "]"), context: "in an array")
            return JSONNode(.array(elements), line: line, column: column)
        case UInt8(ascii: "\""):
            return JSONNode(.string(try parseString()), line: line, column: column)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
            return JSONNode(try parseNumber(), line: line, column: column)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return JSONNode(try parseWord(), line: line, column: column)
        default:
            throw unexpected(b, wanted: "a value", context: "")
        }
    }

    /// After an element: true on ',', false on `close`, an error otherwise.
    package func separator(close: UInt8, context: String) throws -> Bool {
        let b = try skipSpace()
        if b == UInt8(ascii: ",") { advance(b!); return true }
        if b == close { advance(close); return false }
        throw unexpected(b, wanted: "',' or '\(Character(Unicode.Scalar(close)))'", context: context)
    }

    /// An object key: a string after white space.
    func parseKey(context: String) throws -> String {
        let b = try skipSpace()
        guard b == UInt8(ascii: "\"") else { throw unexpected(b, wanted: "a quoted key", context: context) }
        return try parseString()
    }

    /// A string starting at the opening quote.
    func parseString() throws -> String {
        guard let q = try peek(), q == UInt8(ascii: "\"") else {
            throw unexpected(try peek(), wanted: "'\"'", context: "")
        }
        advance(q)
        scratch.removeAll(keepingCapacity: true)
        while true {
            // Plain characters are copied a run at a time from the chunk.
            if let c = chunk, position < c.count {
                var i = position
                while i < c.count {
                    let b = c[i]
                    if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                    i += 1
                }
                if i > position {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: c[position..<i]))
                    column += i - position
                    position = i
                    if scratch.count > JSONStreamParser.maximumStringLength {
                        throw error(
                            "invalid JSON", "string longer than \(JSONStreamParser.maximumStringLength / 1024) KiB")
                    }
                    continue
                }
            }
            guard let b = try peek() else { throw unexpected(nil, wanted: "'\"'", context: "inside a string") }
            if b == UInt8(ascii: "\"") { advance(b); break }
            if b < 0x20 {
                if b == 0 { throw unexpected(0, wanted: "", context: "") }
                throw error("invalid JSON", "invalid JSON: unescaped control character in a string")
            }
            advance(b)
            if b == UInt8(ascii: "\\") {
                guard let e = try peek() else { throw unexpected(nil, wanted: "an escape", context: "inside a string") }
                advance(e)
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by \u and a low one.
                        if try peek() == UInt8(ascii: "\\") {
                            advance(UInt8(ascii: "\\"))
                            guard try peek() == UInt8(ascii: "u") else {
                                throw error("invalid JSON", "invalid JSON: lone surrogate in a string")
                            }
                            advance(UInt8(ascii: "u"))
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else {
                                throw error("invalid JSON", "invalid JSON: lone surrogate in a string")
                            }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalar = 0xFFFD
                        }
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        scalar = 0xFFFD
                    }
                    scratch.append(contentsOf: Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8))
                default:
                    throw error("invalid JSON", "invalid JSON: unknown escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            } else {
                scratch.append(b)
            }
            if scratch.count > JSONStreamParser.maximumStringLength {
                throw error("invalid JSON", "string longer than \(JSONStreamParser.maximumStringLength / 1024) KiB")
            }
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    private func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let h = try peek() else { throw unexpected(nil, wanted: "a hex digit", context: "inside a string") }
            let d: UInt32
            switch h {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(h - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(h - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(h - UInt8(ascii: "A") + 10)
            default: throw unexpected(h, wanted: "a hex digit", context: "in a \\u escape")
            }
            advance(h)
            v = v * 16 + d
        }
        return v
    }

    /// A number token (lenient about its form; checked by ``NumberParser``).
    private func parseNumber() throws -> JSONValue {
        scratch.removeAll(keepingCapacity: true)
        let line = self.line, column = self.column
        while let b = try peek() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                scratch.append(b)
                advance(b)
                if scratch.count > 64 { throw error("invalid JSON", "invalid JSON: number too long") }
                continue
            case UInt8(ascii: "I"), UInt8(ascii: "N"):
                // -Infinity, +Infinity (and a signed NaN) from lenient writers.
                guard scratch == [UInt8(ascii: "-")] || scratch == [UInt8(ascii: "+")] else { break }
                let negative = scratch == [UInt8(ascii: "-")]
                let word = try parseWord()
                guard case .number(let v) = word else {
                    throw SyntaxError(
                        line: line, column: column, reason: "invalid JSON",
                        message: "invalid JSON: malformed number")
                }
                return .number(negative ? -v : v)
            default:
                break
            }
            break
        }
        let parsed = scratch.withUnsafeBufferPointer { NumberParser.parse($0) }
        switch parsed {
        case .number(let v), .infinite(let v): return .number(v)
        default:
            throw SyntaxError(
                line: line, column: column, reason: "invalid JSON",
                message: "invalid JSON: malformed number '\(String(decoding: scratch, as: UTF8.self))'")
        }
    }

    /// true, false, null, and the lenient NaN / Infinity.
    private func parseWord() throws -> JSONValue {
        let line = self.line, column = self.column
        var word = ""
        while let b = try peek(),
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
        {
            advance(b)
            word.unicodeScalars.append(Unicode.Scalar(b))
            if word.count > 16 { break }
        }
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case "NaN": return .number(.nan)
        case "Infinity": return .number(.infinity)
        default:
            throw SyntaxError(
                line: line, column: column, reason: "invalid JSON",
                message: "invalid JSON: unexpected word '\(word)'")
        }
    }
}
