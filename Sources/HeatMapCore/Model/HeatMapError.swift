import Foundation

/// Why input was refused.
public enum HeatMapError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A point has a bad coordinate, weight or value: its index (0-based),
    /// and what is wrong.
    case invalidPoint(index: Int, reason: String)
    /// A setting is out of its domain: which, and why.
    case invalidConfiguration(String)
    /// A stage needs more memory than the process may still take: bytes
    /// needed, bytes available, and the stage.
    case outOfMemory(needed: Int, available: Int, what: String)

    public var description: String {
        switch self {
        case .invalidPoint(let i, let reason): return "point \(i): \(reason)"
        case .invalidConfiguration(let why): return "invalid configuration: \(why)"
        case .outOfMemory(let needed, let available, let what):
            return "\(what) needs about \(MemoryBudget.text(needed)) of memory, "
                + "but only \(MemoryBudget.text(available)) is available"
        }
    }
}

extension HeatMapError {
    /// The error of sums that pass the largest double: the weights (or,
    /// for a mean or a bin, the values) are too large to add up — in a
    /// grid's nodes, or in a bin's cell when `cells`.
    package static func sumsOverflow(values: Bool = false, cells: Bool = false) -> HeatMapError {
        let what = values ? "weights or values" : "weights"
        let sums = cells ? "a cell's sum passes" : "the grid's sums pass"
        return .invalidConfiguration(
            "the \(what) are too large: \(sums) the largest double (about 1.8e308); scale the \(what) down")
    }
}
