import Foundation
import HeatMap

/// Messages on standard error, each line starting "contours: ".
enum Console {
    /// Prints one message line.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data("contours: \(text)\n".utf8))
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
