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
    package func number(_ parsed: ParsedNumber, role: Role, text: @autoclosure () -> String) -> Result<Double, Problem> {
        let what = name(role)
        switch parsed {
        case .number(let v):
            return check(v, role: role, text: text)
        case .nan:
            return .failure(Problem(reason: "\(what) is NaN", message: "\(what) is NaN (\(quoted(text())))"))
        case .infinite:
            return .failure(Problem(reason: "\(what) is infinite",
                                    message: "\(what) is not finite (\(quoted(text())))"))
        case .empty:
            return .failure(Problem(reason: "\(what) is empty", message: "\(what) is empty"))
        case .missing:
            return .failure(Problem(reason: "\(what) is missing",
                                    message: "\(what) is missing (\(quoted(text())))"))
        case .invalid:
            return .failure(Problem(reason: "\(what) is not a number",
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
        }
        return .failure(Problem(reason: reason, message: message))
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
