import Foundation

/// Escaping of user and data text (titles, column names, units, values)
/// for SVG, HTML and inline script data, so that no text can become
/// markup or code: `<script>alert(1)</script>` shows as those characters.
enum MarkupEscaping {
    /// Character data for XML or HTML: `&`, `<`, `>` as entities; characters
    /// XML 1.0 forbids (most C0 controls, lone surrogates, U+FFFE/U+FFFF)
    /// become U+FFFD so the document always parses. O(n).
    static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(allowed(u) ? u : "\u{FFFD}")
            }
        }
        return out
    }

    /// An attribute value (to go between double quotes): as ``text(_:)``,
    /// plus both quote marks, and tab/newline/return as character
    /// references so attribute normalisation keeps them. O(n).
    static func attribute(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(allowed(u) ? u : "\u{FFFD}")
            }
        }
        return out
    }

    /// A JSON string literal (with its quotes) that is also safe inside an
    /// HTML `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 are written
    /// as `\uXXXX`, so no `</script>` or `<!--` can appear. O(n).
    static func jsonString(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                out += "\\u" + String(u.value, radix: 16).leftPadded(to: 4)
            default:
                if u.value < 0x20 || u.value == 0x7f {
                    out += "\\u" + String(u.value, radix: 16).leftPadded(to: 4)
                } else {
                    out.unicodeScalars.append(allowed(u) ? u : "\u{FFFD}")
                }
            }
        }
        return out + "\""
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
