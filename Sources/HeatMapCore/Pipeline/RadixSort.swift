/// Radix sort of unsigned keys, stable: keys wider than one digit (13 bits)
/// are first spread by their top 11 bits into buckets (one pass over memory),
/// then each bucket — small enough to stay in the cache — is sorted by the
/// remaining bits with least-significant-digit passes sized to the bucket;
/// keys that fit in the cache all together take those passes at once.
/// O(n × passes + 2^13); for the millions of position hashes and grid
/// entries an export sorts, several times faster than a comparison sort,
/// and about one trip through memory whatever the width.
package enum RadixSort {
    /// Below this many keys the standard sort wins.
    static let smallCount = 4096
    static let maximumDigitBits = 13
    /// The top digit that spreads wide keys into buckets: narrower than a
    /// full digit, so the spreading pass writes to fewer places at once.
    static let topDigitBits = 11
    /// Buckets up to this size are sorted by insertion.
    static let insertionCount = 32
    /// Up to this many keys (half a megabyte of 64-bit keys) are sorted by
    /// passes over all of them, not spread into buckets first.
    static let cacheCount = 1 << 16

    /// Sorts `keys` ascending.
    package static func sort(_ keys: inout [UInt32]) { sort(keys: &keys, bits: 0..<32) }

    /// Sorts 64-bit `keys` stably by their bits in `bits`. A concrete entry
    /// point, so callers in other modules run the code specialized here
    /// (the generic one would run unspecialized across the module boundary).
    package static func sort(_ keys: inout [UInt64], bits: Range<Int>) { sort(keys: &keys, bits: bits) }

    /// Sorts `keys` stably by their bits in `bits` (the others are not
    /// looked at: keys equal there keep their order).
    static func sort<Key: FixedWidthInteger & UnsignedInteger>(keys: inout [Key], bits: Range<Int>) {
        let n = keys.count
        let range = bits.clamped(to: 0..<Key.bitWidth)
        guard n > 1, !range.isEmpty else { return }
        if n < smallCount {
            let mask = digitMask(Key.self, range.count)
            let low = range.lowerBound
            // A stable comparison sort on the digits: ties keep their order.
            let indexed = keys.enumerated().sorted { a, b in
                let x = (a.element >> low) & mask, y = (b.element >> low) & mask
                return x != y ? x < y : a.offset < b.offset
            }
            keys = indexed.map(\.element)
            return
        }
        // Every pass writes all of its target, so the scratch needs no zeros.
        var scratch = [Key](unsafeUninitializedCapacity: n) { _, count in count = n }
        var counts = [Int](repeating: 0, count: (1 << maximumDigitBits) + 1)
        keys.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { c in
                    if range.count <= maximumDigitBits || n <= cacheCount {
                        sortBucket(a, into: b, 0..<n, bits: range, counts: c)
                        _ = a.update(fromContentsOf: b)
                        return
                    }
                    // The top digit spreads the keys into buckets in the scratch
                    // buffer; each bucket is sorted back into place.
                    let top = topDigitBits, topShift = range.upperBound - top
                    let buckets = 1 << top
                    pass(from: a, to: b, shift: topShift, bits: top, counts: c)
                    // After the pass, c[d] is where bucket d ends.
                    var bounds = [Int](repeating: 0, count: buckets + 1)
                    for d in 0..<buckets { bounds[d + 1] = c[d] }
                    for d in 0..<buckets where bounds[d + 1] > bounds[d] {
                        sortBucket(
                            b, into: a, bounds[d]..<bounds[d + 1],
                            bits: range.lowerBound..<topShift, counts: c)
                    }
                }
            }
        }
    }

    /// Sorts `source[slots]` stably by `bits` into `target[slots]`.
    private static func sortBucket<Key: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafeMutableBufferPointer<Key>, into target: UnsafeMutableBufferPointer<Key>,
        _ slots: Range<Int>, bits: Range<Int>, counts: UnsafeMutableBufferPointer<Int>
    ) {
        let m = slots.count
        let mask = digitMask(Key.self, bits.count), low = bits.lowerBound
        if m <= insertionCount {
            for i in slots {
                let k = source[i], d = (k >> low) & mask
                var j = i
                while j > slots.lowerBound, (target[j - 1] >> low) & mask > d {
                    target[j] = target[j - 1]
                    j -= 1
                }
                target[j] = k
            }
            return
        }
        // Digits about as wide as the bucket is long, so the counts stay small.
        let width = bits.count
        let wanted = min(maximumDigitBits, max(4, Int.bitWidth - m.leadingZeroBitCount - 1))
        let passes = (width + wanted - 1) / wanted
        let digit = (width + passes - 1) / passes
        let s = UnsafeMutableBufferPointer(rebasing: source[slots])
        let t = UnsafeMutableBufferPointer(rebasing: target[slots])
        for p in 0..<passes {
            let shift = low + p * digit, bitsHere = min(digit, width - p * digit)
            if p % 2 == 0 {
                pass(from: s, to: t, shift: shift, bits: bitsHere, counts: counts)
            } else {
                pass(from: t, to: s, shift: shift, bits: bitsHere, counts: counts)
            }
        }
        if passes % 2 == 0 { _ = t.update(fromContentsOf: s) }
    }

    /// One stable counting pass by the digit at `shift`; afterwards
    /// `counts[d]` is the end of digit d's keys in `target`.
    private static func pass<Key: FixedWidthInteger & UnsignedInteger>(
        from source: UnsafeMutableBufferPointer<Key>, to target: UnsafeMutableBufferPointer<Key>,
        shift: Int, bits: Int, counts: UnsafeMutableBufferPointer<Int>
    ) {
        let mask = Key((1 << bits) - 1)
        let buckets = 1 << bits
        for d in 0..<buckets { counts[d] = 0 }
        for k in source { counts[Int((k >> shift) & mask)] += 1 }
        var total = 0
        for d in 0..<buckets {
            let c = counts[d]
            counts[d] = total
            total += c
        }
        for k in source {
            let d = Int((k >> shift) & mask)
            target[counts[d]] = k
            counts[d] += 1
        }
    }

    private static func digitMask<Key: FixedWidthInteger & UnsignedInteger>(_: Key.Type, _ width: Int) -> Key {
        width >= Key.bitWidth ? Key.max : (Key(1) << width) - 1
    }
}
