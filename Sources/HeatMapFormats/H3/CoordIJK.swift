import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Hexagon coordinates on one icosahedron face: three axes 120° apart
/// (i, j, k), normalized so that every component is ≥ 0 and at least one is 0.
struct CoordIJK: Hashable, Sendable {
    package var i: Int
    package var j: Int
    package var k: Int

    @inline(__always) package init(_ i: Int, _ j: Int, _ k: Int) {
        self.i = i
        self.j = j
        self.k = k
    }

    static let zero = CoordIJK(0, 0, 0)
    /// The unit vector of each digit 0...6 (centre, k, j, jk, i, ik, ij).
    static let unitVectors: [CoordIJK] = [
        CoordIJK(0, 0, 0), CoordIJK(0, 0, 1), CoordIJK(0, 1, 0), CoordIJK(0, 1, 1),
        CoordIJK(1, 0, 0), CoordIJK(1, 0, 1), CoordIJK(1, 1, 0)
    ]

    @inline(__always) static func + (a: CoordIJK, b: CoordIJK) -> CoordIJK { CoordIJK(a.i + b.i, a.j + b.j, a.k + b.k) }
    @inline(__always) static func - (a: CoordIJK, b: CoordIJK) -> CoordIJK { CoordIJK(a.i - b.i, a.j - b.j, a.k - b.k) }
    @inline(__always) static func * (a: CoordIJK, s: Int) -> CoordIJK { CoordIJK(a.i * s, a.j * s, a.k * s) }

    /// The same position with non-negative components, one of them 0.
    @inline(__always) package func normalized() -> CoordIJK {
        var c = self
        if c.i < 0 { c.j -= c.i; c.k -= c.i; c.i = 0 }
        if c.j < 0 { c.i -= c.j; c.k -= c.j; c.j = 0 }
        if c.k < 0 { c.i -= c.k; c.j -= c.k; c.k = 0 }
        let m = Swift.min(c.i, c.j, c.k)
        if m > 0 { c.i -= m; c.j -= m; c.k -= m }
        return c
    }

    /// The digit of a unit vector (nil when this is not one). The unit
    /// vectors are the binary numbers of their digits: digit = 4i + 2j + k.
    @inline(__always) func digit() -> Int? {
        let c = normalized()
        guard c.i | c.j | c.k <= 1, c.i >= 0, c.j >= 0, c.k >= 0 else { return nil }
        return c.i << 2 | c.j << 1 | c.k
    }

    /// i·a + j·b + k·c, normalized: a change of basis.
    @inline(__always) private func combine(_ a: CoordIJK, _ b: CoordIJK, _ c: CoordIJK) -> CoordIJK {
        (a * i + b * j + c * k).normalized()
    }

    /// The centre of this cell in the next finer counter-clockwise aperture-7 grid.
    @inline(__always) func downAperture7() -> CoordIJK {
        combine(CoordIJK(3, 0, 1), CoordIJK(1, 3, 0), CoordIJK(0, 1, 3))
    }
    /// The centre of this cell in the next finer clockwise aperture-7 grid.
    @inline(__always) func downAperture7r() -> CoordIJK {
        combine(CoordIJK(3, 1, 0), CoordIJK(0, 3, 1), CoordIJK(1, 0, 3))
    }
    /// The centre in the next finer counter-clockwise aperture-3 grid.
    @inline(__always) func downAperture3() -> CoordIJK {
        combine(CoordIJK(2, 0, 1), CoordIJK(1, 2, 0), CoordIJK(0, 1, 2))
    }
    /// The centre in the next finer clockwise aperture-3 grid.
    @inline(__always) func downAperture3r() -> CoordIJK {
        combine(CoordIJK(2, 1, 0), CoordIJK(0, 2, 1), CoordIJK(1, 0, 2))
    }
    /// Rotated 60° counter-clockwise.
    @inline(__always) func rotated60ccw() -> CoordIJK {
        combine(CoordIJK(1, 1, 0), CoordIJK(0, 1, 1), CoordIJK(1, 0, 1))
    }
    /// Rotated 60° clockwise.
    @inline(__always) func rotated60cw() -> CoordIJK {
        combine(CoordIJK(1, 0, 1), CoordIJK(1, 1, 0), CoordIJK(0, 1, 1))
    }

    /// The parent cell in the counter-clockwise aperture-7 grid one step coarser.
    @inline(__always) func upAperture7() -> CoordIJK {
        let a = i - k, b = j - k
        return CoordIJK(Self.roundSeventh(3 * a - b), Self.roundSeventh(a + 2 * b), 0).normalized()
    }

    /// The parent cell in the clockwise aperture-7 grid one step coarser.
    @inline(__always) func upAperture7r() -> CoordIJK {
        let a = i - k, b = j - k
        return CoordIJK(Self.roundSeventh(2 * a + b), Self.roundSeventh(3 * b - a), 0).normalized()
    }

    /// n / 7 rounded to the nearest integer: n/7 is never a tie, so this is
    /// ⌊(n + 3) / 7⌋.
    @inline(__always) private static func roundSeventh(_ n: Int) -> Int {
        let m = n + 3
        let q = m / 7
        return m % 7 < 0 ? q - 1 : q
    }

    /// The neighbour in a digit's direction (the cell itself for digit 0).
    @inline(__always) func neighbor(_ digit: Int) -> CoordIJK {
        digit > 0 && digit < 7 ? (self + CoordIJK.unitVectors[digit]).normalized() : self
    }
}

/// A cell position on a given icosahedron face.
struct FaceIJK: Hashable, Sendable {
    var face: Int
    var coord: CoordIJK
}
