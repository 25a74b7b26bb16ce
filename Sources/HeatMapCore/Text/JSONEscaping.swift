import Foundation

/// JSON string literals, written one way for every JSON the package makes
/// (GeoJSON properties, grid JSON, the tool's reports, data inside HTML).
package enum JSONEscaping {
    /// Where the literal is read.
    package enum Context: Sendable {
        /// Plain JSON: only what JSON requires is escaped (quote, backslash,
        /// C0 controls), so non-ASCII text stays readable.
        case json
        /// Inside an HTML `<script>` element: also `<`, `>`, `&`, DEL,
        /// U+2028 and U+2029 as `\uXXXX`, so no `</script>` or `<!--` can
        /// appear, and U+FFFE/U+FFFF (which XML forbids) as U+FFFD.
        case script
    }

    /// `s` as a JSON string literal, with its quotes. O(n).
    package static func quoted(_ s: String, for context: Context = .json) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 2)
        append(quoted: s, for: context, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal (UTF-8, with its quotes). O(n).
    package static func append(quoted s: String, for context: Context = .json, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22: bytes.append(contentsOf: [92, 34])
            case 0x5c: bytes.append(contentsOf: [92, 92])
            case 0x0a: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0d: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                appendEscape(u.value, to: &bytes)
            case _ where context == .json:
                UTF8.encode(u) { bytes.append($0) }
            case 0x3c, 0x3e, 0x26, 0x7f, 0x2028, 0x2029:
                appendEscape(u.value, to: &bytes)
            case 0xfffe, 0xffff:
                UTF8.encode("\u{FFFD}") { bytes.append($0) }
            default:
                UTF8.encode(u) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `\u` and four lower-case hex digits of a code point below U+10000.
    private static func appendEscape(_ v: UInt32, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [
            92, UInt8(ascii: "u"),
            hex[Int(v >> 12 & 15)], hex[Int(v >> 8 & 15)],
            hex[Int(v >> 4 & 15)], hex[Int(v & 15)]
        ])
    }
}
