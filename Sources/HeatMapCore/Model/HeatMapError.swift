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
