import Foundation

/// What happened to the input: how many points were used and why others
/// were left out.
public struct InputSummary: Sendable, Hashable {
    /// Points that entered the computation.
    public var used: Int
    /// Points left out, by reason ("latitude outside [-90, 90]" → count).
    public var rejected: [String: Int]

    /// Creates a summary.
    public init(used: Int = 0, rejected: [String: Int] = [:]) {
        self.used = used
        self.rejected = rejected
    }

    /// The number of points left out.
    public var rejectedCount: Int { rejected.values.reduce(0, +) }
}
