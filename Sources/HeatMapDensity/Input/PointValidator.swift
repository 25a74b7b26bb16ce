import Foundation
import HeatMapCore

/// Turns parsed fields into a checked point, or says what is wrong (docs/density-model.md, docs/faults.md).
///
/// Shared by the CSV and GeoJSON readers, so both word their messages the
/// same way: the role ("latitude", "weight"…), the offending text, and a
/// fixed ``InputError/reason`` for counting. The ranges and their reasons
/// are ``PointRule``'s; the reasons here are the text's own (empty,
/// missing, not a number).
struct PointValidator: Sendable {
    typealias Role = PointRule.Field

    package let geographic: Bool

    package func name(_ role: Role) -> String { role.name(geographic: geographic) }

    /// A problem found in one field: the reason (fixed) and the message.
    struct Problem: Error, Sendable {
        package var reason: String
        package var message: String
    }

    /// The number in `parsed`, or the problem with it. `text` is the
    /// field's text, quoted in messages.
    package func number(
        _ parsed: ParsedNumber, role: Role, text: @autoclosure () -> String,
        bytes: UnsafeBufferPointer<UInt8>? = nil
    ) -> Result<Double, Problem> {
        let what = name(role)
        // The field's own bytes when known, so a byte that is not UTF-8
        // shows as itself (0xFF as \xff), not as the replacement character.
        func quoted(_ text: String) -> String { bytes.map(Self.quoted(bytes:)) ?? self.quoted(text) }
        switch parsed {
        case .number(let v):
            return check(v, role: role, text: text)
        case .nan:
            return .failure(Problem(reason: "\(what) is NaN", message: "\(what) is NaN (\(quoted(text())))"))
        case .infinite:
            return .failure(
                Problem(
                    reason: "\(what) is infinite",
                    message: "\(what) is not finite (\(quoted(text())))"))
        case .empty:
            return .failure(Problem(reason: "\(what) is empty", message: "\(what) is empty"))
        case .missing:
            return .failure(
                Problem(
                    reason: "\(what) is missing",
                    message: "\(what) is missing (\(quoted(text())))"))
        case .invalid:
            return .failure(
                Problem(
                    reason: "\(what) is not a number",
                    message: "\(what) is not a number: \(quoted(text()))"))
        }
    }

    /// Range checks on a finite number (``PointRule/outside(_:_:geographic:)``,
    /// worded with the field's text).
    package func check(_ v: Double, role: Role, text: () -> String) -> Result<Double, Problem> {
        guard let reason = PointRule.outside(v, role, geographic: geographic) else { return .success(v) }
        let message: String
        switch role {
        case .latitude: message = "latitude \(text()) is outside \(PointRule.latitudeRange)"
        case .longitude: message = "longitude \(text()) is outside \(PointRule.longitudeRange)"
        case .weight, .value: message = "\(name(role)) \(text()) is negative"
        case .radius:
            message =
                v > 0
                ? "radius \(text()) m is wider than half the globe's circumference (20015 km; radii are in metres)"
                : "radius \(text()) is not > 0 (a kernel radius must be positive)"
        }
        return .failure(Problem(reason: reason, message: message))
    }

    /// The bytes of a field in double quotes, trimmed of spaces and tabs,
    /// shortened to 40 characters: UTF-8 shown as text (control characters
    /// escaped), any other byte as `\xNN`.
    static func quoted(bytes field: UnsafeBufferPointer<UInt8>) -> String {
        var lo = 0, hi = field.count
        while lo < hi, field[lo] == 0x20 || field[lo] == 0x09 { lo += 1 }
        while hi > lo, field[hi - 1] == 0x20 || field[hi - 1] == 0x09 { hi -= 1 }
        var out = "\"", shown = 0, i = lo
        while i < hi {
            if shown == 40 { out += "…"; break }
            shown += 1
            let b = field[i]
            let length =
                b < 0x80 ? 1 : b >= 0xC2 && b < 0xE0 ? 2 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xF0 && b < 0xF5 ? 4 : 0
            if length > 1, i + length <= hi,
                let text = String(validating: UnsafeBufferPointer(rebasing: field[i..<(i + length)]), as: UTF8.self)
            {
                out += escaped(text.unicodeScalars.first!)
                i += length
            } else if length == 1 {
                out += escaped(Unicode.Scalar(b))
                i += 1
            } else {
                out += String(format: "\\x%02x", b)
                i += 1
            }
        }
        return out + "\""
    }

    private static func escaped(_ c: Unicode.Scalar) -> String {
        switch c {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            if c.value < 0x20 || c.value == 0x7f || (c.value >= 0x80 && c.value < 0xa0) {
                return String(format: "\\x%02x", c.value)
            }
            return String(c)
        }
    }

    /// `text` in double quotes, shortened to 40 characters, control
    /// characters escaped, so a message stays one readable line.
    package func quoted(_ text: String) -> String {
        var out = "\""
        for (k, c) in text.unicodeScalars.enumerated() {
            if k == 40 { out += "…"; break }
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 || c.value == 0x7f || (c.value >= 0x80 && c.value < 0xa0) || c.value == 0xfffd {
                    out += String(format: "\\x%02x", c.value & 0xff)
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }
}
