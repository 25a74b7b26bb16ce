/// Least-significant-digit radix sort of unsigned keys: stable passes of at
/// most 13 bits through one scratch buffer, so the counts stay in the
/// cache; O(passes × (n + 2^13)) — for the millions of position hashes and
/// grid entries an export sorts, several times faster than a comparison
/// sort.
enum RadixSort {
    /// Below this many keys the standard sort wins.
    static let smallCount = 4096
    static let maximumDigitBits = 13

    /// Sorts `keys` ascending.
    static func sort(_ keys: inout [UInt32]) { sort(&keys, bits: 0..<32) }

    /// Sorts `keys` stably by their bits in `bits` (the others are not
    /// looked at: keys equal there keep their order).
    static func sort<Key: FixedWidthInteger & UnsignedInteger>(_ keys: inout [Key], bits: Range<Int>) {
        let n = keys.count
        let width = bits.clamped(to: 0..<Key.bitWidth).count
        guard n > 1, width > 0 else { return }
        let low = bits.lowerBound
        if n < smallCount {
            let mask = width == Key.bitWidth ? Key.max : (Key(1) << width) - 1
            // A stable comparison sort on the digits: ties keep their order.
            let indexed = keys.enumerated().sorted { a, b in
                let x = (a.element >> low) & mask, y = (b.element >> low) & mask
                return x != y ? x < y : a.offset < b.offset
            }
            keys = indexed.map(\.element)
            return
        }
        let passes = (width + maximumDigitBits - 1) / maximumDigitBits
        let digit = (width + passes - 1) / passes
        var scratch = [Key](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 1 << digit)
        keys.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { c in
                    for p in 0..<passes {
                        let shift = low + p * digit
                        let bitsHere = min(digit, width - p * digit)
                        if p % 2 == 0 { pass(from: a, to: b, shift: shift, bits: bitsHere, counts: c) }
                        else { pass(from: b, to: a, shift: shift, bits: bitsHere, counts: c) }
                    }
                    if passes % 2 == 1 { _ = a.update(fromContentsOf: b) }
                }
            }
        }
    }

    private static func pass<Key: FixedWidthInteger & UnsignedInteger>(
        from source: UnsafeMutableBufferPointer<Key>, to target: UnsafeMutableBufferPointer<Key>,
        shift: Int, bits: Int, counts: UnsafeMutableBufferPointer<Int>) {
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
}
