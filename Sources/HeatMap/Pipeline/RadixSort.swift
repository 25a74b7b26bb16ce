/// Least-significant-digit radix sort of unsigned keys: stable passes of
/// 16 bits through one scratch buffer, O(passes × (n + 2^16)) — for the
/// millions of position hashes and grid entries an export sorts, several
/// times faster than a comparison sort.
enum RadixSort {
    /// Below this many keys the standard sort wins (no 2^16 counts to clear).
    static let smallCount = 4096
    static let digitBits = 16

    /// Sorts `keys` ascending.
    static func sort(_ keys: inout [UInt32]) { sort(&keys, bits: 32) }

    /// Sorts `keys` ascending, given that none has a bit set at `bits` or above.
    static func sort<Key: FixedWidthInteger & UnsignedInteger>(_ keys: inout [Key], bits: Int) {
        let n = keys.count
        guard n >= smallCount else { keys.sort(); return }
        let passes = (min(bits, Key.bitWidth) + digitBits - 1) / digitBits
        guard passes > 0 else { return }
        var scratch = [Key](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 1 << digitBits)
        keys.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { c in
                    for p in 0..<passes {
                        if p % 2 == 0 { pass(from: a, to: b, shift: p * digitBits, counts: c) }
                        else { pass(from: b, to: a, shift: p * digitBits, counts: c) }
                    }
                    if passes % 2 == 1 { _ = a.update(fromContentsOf: b) }
                }
            }
        }
    }

    private static func pass<Key: FixedWidthInteger & UnsignedInteger>(
        from source: UnsafeMutableBufferPointer<Key>, to target: UnsafeMutableBufferPointer<Key>,
        shift: Int, counts: UnsafeMutableBufferPointer<Int>) {
        let mask = Key((1 << digitBits) - 1)
        counts.update(repeating: 0)
        for k in source { counts[Int((k >> shift) & mask)] += 1 }
        var total = 0
        for d in 0..<counts.count {
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
