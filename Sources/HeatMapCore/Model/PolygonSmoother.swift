import Foundation

/// How contour rings are smoothed after extraction.
public enum PolygonSmoother: Sendable, Hashable {
    /// Rings are left as marching squares traced them.
    case none
    /// Chaikin corner cutting: every edge is replaced by its points at ¼ and
    /// ¾, `iterations` times (clamped to 0...8). The first two iterations
    /// double the vertex count; beyond them a vertex is split only while it
    /// lies 1/64 of a grid cell or more from the smooth limit curve, so
    /// more iterations add vertices only at tight bends.
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
