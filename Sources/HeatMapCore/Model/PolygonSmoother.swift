import Foundation

/// How contour rings are smoothed after extraction.
public enum PolygonSmoother: Sendable, Hashable {
    /// Rings are left as marching squares traced them.
    case none
    /// Chaikin corner cutting: every edge is replaced by its points at ¼ and
    /// ¾, `iterations` times (clamped to 0...8). Each iteration doubles the
    /// vertex count; iterations beyond 2 stop on a piece once its edges are
    /// under 1/16 of a grid cell, so more than 5 change nothing.
    case chaikin(iterations: Int = 2)

    /// The number of corner-cutting passes this smoother applies.
    public var iterations: Int {
        switch self {
        case .none: return 0
        case .chaikin(let n): return min(max(n, 0), 8)
        }
    }
}

extension PolygonSmoother: CustomStringConvertible {
    public var description: String {
        switch self {
        case .none: return "none"
        case .chaikin(let n): return "chaikin(\(n))"
        }
    }
}
