import Foundation

/// Escaping of user and data text (titles, column names, units, values)
/// for SVG, HTML and XML metadata, so that no text can become markup:
/// `<script>alert(1)</script>` shows as those characters. Data inside a
/// `<script>` element is JSON: ``JSONEscaping`` with its `.script` context.
package enum MarkupEscaping {
    /// Character data for XML or HTML: `&`, `<`, `>` as entities; characters
    /// XML 1.0 forbids (most C0 controls, lone surrogates, U+FFFE/U+FFFF)
    /// become U+FFFD so the document always parses. O(n).
    package static func text(_ s: String) -> String { escaped(s, attribute: false) }

    /// An attribute value (to go between double quotes): as ``text(_:)``,
    /// plus both quote marks, and tab/newline/return as character
    /// references so attribute normalisation keeps them. O(n).
    package static func attribute(_ s: String) -> String { escaped(s, attribute: true) }

    private static func escaped(_ s: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&#39;"
            case "\t" where attribute: out += "&#9;"
            case "\n" where attribute: out += "&#10;"
            case "\r" where attribute: out += "&#13;"
            default: out.unicodeScalars.append(allowed(u) ? u : "\u{FFFD}")
            }
        }
        return out
    }

    /// Whether XML 1.0 allows the character.
    private static func allowed(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
