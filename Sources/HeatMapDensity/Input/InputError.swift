import Foundation
import HeatMapCore

/// A problem with input data, located in its file.
///
/// Printed as `FILE:LINE:COLUMN: message`, where LINE is the 1-based line
/// of the file and COLUMN the column name (CSV), the field number when the
/// header has no name for it, or the character position in the line
/// (GeoJSON). Parts that do not apply (a file that cannot be opened has no
/// line) are left out.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path, or "stdin".
    public var file: String
    /// 1-based line number; 0 when the problem is not on one line.
    public var line: Int
    /// Column name, field number or character position; empty when none.
    public var column: String
    /// A short, fixed category ("latitude outside [-90, 90]"), used to
    /// count skipped rows by reason.
    public var reason: String
    /// What is wrong, with the offending value.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, column: String, reason: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
        self.message = message
    }

    /// `FILE:LINE:COLUMN` (the parts that apply).
    public var location: String {
        var s = file
        if line > 0 { s += ":\(line)" }
        if !column.isEmpty { s += ":\(column)" }
        return s
    }

    public var description: String { "\(location): \(message)" }
}

/// Rows left out under `--skip-invalid`: how many, why, and where the
/// first of each kind was.
public struct InputRejections: Sendable, Hashable {
    /// One reason's tally.
    public struct Tally: Sendable, Hashable {
        /// How many rows were left out for this reason.
        public var count: Int
        /// The first such row's error.
        public var first: InputError
    }

    /// Tallies by reason, in the order reasons were first met.
    public private(set) var tallies: [Tally] = []
    private var slot: [String: Int] = [:]

    /// Creates an empty record.
    public init() {}

    /// Counts one rejected row.
    public mutating func record(_ error: InputError) {
        if let k = slot[error.reason] {
            tallies[k].count += 1
        } else {
            slot[error.reason] = tallies.count
            tallies.append(Tally(count: 1, first: error))
        }
    }

    /// Adds the tallies of `later`, rows met after all of these (so a
    /// reason's first row stays the first met).
    public mutating func merge(_ later: InputRejections) {
        for tally in later.tallies {
            if let k = slot[tally.first.reason] {
                tallies[k].count += tally.count
            } else {
                slot[tally.first.reason] = tallies.count
                tallies.append(tally)
            }
        }
    }

    /// The number of rows left out.
    public var count: Int { tallies.reduce(0) { $0 + $1.count } }
    /// Whether no row was left out.
    public var isEmpty: Bool { tallies.isEmpty }
    /// Counts by reason, as ``InputSummary/rejected`` holds them.
    public var byReason: [String: Int] {
        Dictionary(tallies.map { ($0.first.reason, $0.count) }, uniquingKeysWith: +)
    }
}
