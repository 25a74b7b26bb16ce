import Foundation

/// A small, fast, seedable random number generator (Steele et al.'s
/// SplitMix64): the same seed gives the same numbers on every machine, for
/// reproducible samples, tests and benchmarks. Not for cryptography.
package struct SplitMixGenerator: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// A generator starting from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits. O(1).
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    package mutating func nextUnit() -> Double { (Double(next() >> 11) + 1) / 9_007_199_254_740_992 }
}
