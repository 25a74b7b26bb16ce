import HeatMap

/// Messages on standard error, each one line starting "contours: ".
///
/// Every message passes through ``visible(_:)``, so a file name, column
/// name or option value holding a newline or a terminal escape sequence
/// can neither break the line nor reach the terminal raw.
enum Console {
    /// Prints one message line.
    static func note(_ text: String) {
        StandardStreams.writeError(visible("contours: \(text)") + "\n")
    }

    /// Prints a message that is already a whole "contours: …" line.
    static func line(_ text: String) {
        StandardStreams.writeError(visible(text) + "\n")
    }

    /// `text` with control characters (C0, DEL, C1) written as escapes:
    /// `\n`, `\r`, `\t`, else `\xNN`.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            guard isControl(c) else { out.append(c); continue }
            let escape: String
            switch c {
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            default:
                let hex = String(c.value, radix: 16)
                escape = "\\x" + (hex.count < 2 ? "0" + hex : hex)
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    private static func isControl(_ c: Unicode.Scalar) -> Bool {
        c.value < 0x20 || c.value == 0x7f || (c.value >= 0x80 && c.value < 0xa0)
            || c.value == 0x2028 || c.value == 0x2029
    }

    /// Reports rows left out under --skip-invalid: how many, and per
    /// reason how many and where the first was.
    static func report(_ rejections: InputRejections, rows: Int) {
        guard !rejections.isEmpty else { return }
        let n = rejections.count
        note("skipped \(n) of \(rows) row\(rows == 1 ? "" : "s") (--skip-invalid):")
        for tally in rejections.tallies {
            note("  \(tally.count) × \(tally.first.reason); first: \(tally.first)")
        }
    }
}
