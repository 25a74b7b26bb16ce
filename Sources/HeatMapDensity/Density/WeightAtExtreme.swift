/// The largest (or smallest) value seen and the weight of the values
/// exactly equal to it: what a tally of one block keeps so that a
/// quantile at an end, or the share of the radii trimmed to the largest,
/// needs no second pass. Tallies of blocks merge by adding one another.
struct WeightAtExtreme {
    /// Whether this keeps the largest value (else the smallest).
    let largest: Bool
    /// The extreme so far (−∞ or +∞ before any value).
    private(set) var value: Double
    /// The weight of the values equal to it.
    private(set) var weight = 0.0

    init(largest: Bool) {
        self.largest = largest
        value = largest ? -.infinity : .infinity
    }

    /// Counts `v` of weight `w`; another tally's extreme and weight merge the same way.
    @inline(__always) mutating func add(_ v: Double, weight w: Double) {
        if largest ? v > value : v < value {
            (value, weight) = (v, w)
        } else if v == value {
            weight += w
        }
    }
}
