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
    /// Whether the shape is a function of t = 1 − u² that is 0 at t = 0:
    /// then ``value(oneMinus:)`` of max(t, 0) is the shape everywhere,
    /// edge and outside included, and the splat needs no edge test.
    var fadesAtEdge: Bool { get }
    /// The shape at t = 1 − u² ≥ 0, for shapes that fade at the edge.
    func value(oneMinus t: Double) -> Double
    /// Whether value(a + b) = value(a) × value(b) (the Gaussian's
    /// exp(−4.5 u²)): then a splat takes the shape once per column and
    /// once per row it reaches, and a product per node.
    var isSeparable: Bool { get }
}

extension RadialShape {
    var fadesAtEdge: Bool { false }
    var isSeparable: Bool { false }
    @inline(__always) func value(oneMinus t: Double) -> Double { value(1 - t) }
}

struct QuarticShape: RadialShape {
    var reach: Double { 1 }
    var fadesAtEdge: Bool { true }
    @inline(__always) func value(_ u2: Double) -> Double { let t = 1 - u2; return t * t }
    @inline(__always) func value(oneMinus t: Double) -> Double { t * t }
}

struct EpanechnikovShape: RadialShape {
    var reach: Double { 1 }
    var fadesAtEdge: Bool { true }
    @inline(__always) func value(_ u2: Double) -> Double { 1 - u2 }
    @inline(__always) func value(oneMinus t: Double) -> Double { t }
}

struct TriweightShape: RadialShape {
    var reach: Double { 1 }
    var fadesAtEdge: Bool { true }
    @inline(__always) func value(_ u2: Double) -> Double { let t = 1 - u2; return t * t * t }
    @inline(__always) func value(oneMinus t: Double) -> Double { t * t * t }
}

struct TriangularShape: RadialShape {
    /// 1 − δ: the fall from the centre to the edge.
    let fall: Double
    var reach: Double { 1 }
    @inline(__always) func value(_ u2: Double) -> Double { 1 - fall * u2.squareRoot() }
}

/// The triangular kernel of decay 0, 1 − u, as a function of t = 1 − u²:
/// 1 − √(1 − t), 0 at the edge and beyond (t = 0), so the splat takes it
/// with no edge test (on 10⁶ points 1.6 × faster at 6 cells than with
/// one, about the same at 20, where the square roots weigh most). A
/// triangular kernel with a step (0 < δ < 1) is not split into this cone
/// and δ times the uniform disc: the second splat cost more than the edge
/// test saves. Near the centre 1 − t loses its low bits (about 2⁻⁵³), so
/// the cone is within about 10⁻⁸ of its peak there.
struct ConeShape: RadialShape {
    var reach: Double { 1 }
    var fadesAtEdge: Bool { true }
    @inline(__always) func value(_ u2: Double) -> Double { 1 - u2.squareRoot() }
    @inline(__always) func value(oneMinus t: Double) -> Double { 1 - (1 - t).squareRoot() }
}

struct UniformShape: RadialShape {
    var reach: Double { 1 }
    @inline(__always) func value(_ u2: Double) -> Double { 1 }
}

struct GaussianShape: RadialShape {
    var reach: Double { 5.0 / 3 }
    var isSeparable: Bool { true }
    @inline(__always) func value(_ u2: Double) -> Double { exp(-4.5 * u2) }
}
