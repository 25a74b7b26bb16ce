/// The nodes of an axis within a reach of a position, by rounding to
/// nearest rather than by floor and ceiling: on baseline x86-64 (no
/// SSE4.1) Swift's floor and ceiling are calls, and a checked conversion
/// with a fix-up (``GaussianAxis/floor(_:)``) is a chain of a dozen
/// dependent instructions and branches; this is an add, a move and a
/// subtract per end, with no branch.
///
/// A node exactly `reach` away (to rounding) may fall either side, which
/// suits kernels that vanish at their reach: such a node adds nothing.
enum NodeSpan {
    /// 1.5 × 2⁵²: a double of magnitude below 2⁵¹ plus this is rounded to
    /// an integer (to nearest, ties to even), and the sum's low bits are
    /// that integer plus this one's.
    private static let shift = 6_755_399_441_055_744.0

    /// v rounded to the nearest integer (ties to even), for |v| < 2⁵¹.
    @inline(__always) static func rounded(_ v: Double) -> Int {
        Int(truncatingIfNeeded: (v + shift).bitPattern &- shift.bitPattern)
    }

    /// 1.5 × 2²³: the same for a float of magnitude below 2²².
    private static let floatShift: Float = 12_582_912

    /// v rounded to the nearest integer (ties to even), for |v| < 2²².
    @inline(__always) static func rounded(_ v: Float) -> Int {
        Int(truncatingIfNeeded: Int32(bitPattern: (v + floatShift).bitPattern &- floatShift.bitPattern))
    }

    /// ⌊v⌋ for |v| < 2⁵¹, exactly: a rounding and a comparison.
    @inline(__always) static func floor(_ v: Double) -> Int {
        let r = rounded(v)
        return Double(r) > v ? r &- 1 : r
    }

    /// The node nearest `position` (in nodes), the upper one at a tie,
    /// clamped to 0..<`count`: ``GaussianAxis/nearest(_:)``'s node, for
    /// |position| < 2⁵⁰.
    @inline(__always) static func nearest(to position: Double, count: Int) -> Int {
        min(max(floor(position + 0.5), 0), count - 1)
    }

    /// The first and last node in 0..<`count` within `reach` nodes of
    /// `position` (in nodes; lo > hi for none), a node at exactly `reach`
    /// either in or out. Requires |position| + reach < 2⁵⁰, which a point
    /// whose disc reaches the grid (``DiscRules/anchor(x:y:reach:xAxis:yAxis:)``)
    /// meets on any grid that fits in memory.
    @inline(__always) static func span(around position: Double, reach: Double, count: Int) -> (lo: Int, hi: Int) {
        // ⌈v⌉ = round(v + ½) and ⌊v⌋ = round(v − ½) but where v is a whole
        // number, that is, where the node lies at exactly the reach.
        (max(rounded(position - reach + 0.5), 0), min(rounded(position + reach - 0.5), count - 1))
    }
}
