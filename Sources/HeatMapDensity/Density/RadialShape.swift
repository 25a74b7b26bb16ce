import Foundation

/// A kernel's shape as a function of u² = (d / r)², for the disc splat:
/// one concrete type per kernel, so the splat's inner loop is specialised
/// (and vectorised) for each.
protocol RadialShape: Sendable {
    /// The reach in radii: 1 for the finite kernels (their support), 5/3
    /// for the Gaussian (5σ: beyond, it is below e^−12.5 ≈ 4e−6 of its peak).
    var reach: Double { get }
    /// The shape at u² ≤ reach², peak 1 at u² = 0.
    func value(_ u2: Double) -> Double
}

struct QuarticShape: RadialShape {
    var reach: Double { 1 }
    @inline(__always) func value(_ u2: Double) -> Double { let t = 1 - u2; return t * t }
}

struct EpanechnikovShape: RadialShape {
    var reach: Double { 1 }
    @inline(__always) func value(_ u2: Double) -> Double { 1 - u2 }
}

struct TriweightShape: RadialShape {
    var reach: Double { 1 }
    @inline(__always) func value(_ u2: Double) -> Double { let t = 1 - u2; return t * t * t }
}

struct TriangularShape: RadialShape {
    /// 1 − δ: the fall from the centre to the edge.
    let fall: Double
    var reach: Double { 1 }
    @inline(__always) func value(_ u2: Double) -> Double { 1 - fall * u2.squareRoot() }
}

struct UniformShape: RadialShape {
    var reach: Double { 1 }
    @inline(__always) func value(_ u2: Double) -> Double { 1 }
}

struct GaussianShape: RadialShape {
    var reach: Double { 5.0 / 3 }
    @inline(__always) func value(_ u2: Double) -> Double { exp(-4.5 * u2) }
}
