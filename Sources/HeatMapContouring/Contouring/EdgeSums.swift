import HeatMapCore
import HeatMapDensity

/// Where each traced vertex lies along its edge, exactly, in 6 bytes.
///
/// A vertex at fraction f of an edge from node index i (the column of a
/// horizontal edge, the row of a vertical one) is placed at
/// `origin + (i + f) · spacing`; what is kept is the Double s = i + f as
/// that expression rounds it. For i ≥ ``exactFrom``, s − i is exact (s and
/// i are within a factor 2) and a whole number of ulps of i, at most
/// 2^52 / 32 = 2^47 of them: 48 bits give it back bit for bit. The few
/// vertices with smaller i keep s whole on the side.
struct EdgeSums: Sendable {
    /// (s − i) / ulp(i) per vertex, low 32 and high 16 bits (0 for side vertices).
    private var low: [UInt32] = []
    private var high: [UInt16] = []
    /// The vertices with i < ``exactFrom``, ascending, and their s.
    private var sideVertices: [Int32] = []
    private var sideSums: [Double] = []

    /// The least node index whose sums fit in 48 bits.
    static let exactFrom = 32

    /// The number of vertices.
    package var count: Int { low.count }

    package mutating func reserveCapacity(_ n: Int) {
        low.reserveCapacity(n)
        high.reserveCapacity(n)
    }

    /// Appends s = i + f (f in [0, 1]) for the next vertex, and gives s.
    @inline(__always) package mutating func append(_ f: Double, from i: Int) -> Double {
        let base = Double(i), s = base + f
        guard i >= Self.exactFrom else {
            sideVertices.append(Int32(truncatingIfNeeded: low.count))
            sideSums.append(s)
            low.append(0)
            high.append(0)
            return s
        }
        let m = UInt64((s - base) / Self.ulp(base))
        low.append(UInt32(truncatingIfNeeded: m))
        high.append(UInt16(truncatingIfNeeded: m >> 32))
        return s
    }

    /// The s of vertex `v`, on an edge from node index `i`.
    @inline(__always) package func sum(_ v: Int, from i: Int) -> Double {
        guard i >= Self.exactFrom else { return sideSum(v) }
        let base = Double(i)
        return base + Double(UInt64(high[v]) << 32 | UInt64(low[v])) * Self.ulp(base)
    }

    /// `x.ulp` for a normal x ≥ 1 (2^(exponent − 52)), without the checks
    /// for zero, subnormals and infinities.
    @inline(__always) private static func ulp(_ x: Double) -> Double {
        Double(bitPattern: (x.bitPattern & 0x7ff0_0000_0000_0000) - 52 << 52)
    }

    /// Removes the vertices from `start` on.
    package mutating func removeLast(from start: Int) {
        low.removeSubrange(start...)
        high.removeSubrange(start...)
        while let last = sideVertices.last, Int(last) >= start {
            sideVertices.removeLast()
            sideSums.removeLast()
        }
    }

    /// The s of a side vertex: a binary search, as they are few.
    private func sideSum(_ v: Int) -> Double {
        sideSums[sideVertices.firstPosition(notBelow: v)]
    }
}
