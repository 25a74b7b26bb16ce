import HeatMapContouring
import HeatMapCore

/// A few positions, asked about many times: a bit per position hash in
/// front of the set (a ``PositionTable``, hashed the same way), so that a
/// position not in it (nearly every one asked about) is answered from one
/// bit, without looking it up.
///
/// A round of repair asks this of every position of a feature: whether
/// rounding it may have changed (its decimals were raised), so that only
/// the rings holding such a position are rounded again.
struct PositionSet {
    private var members = PositionTable()
    private var bits: [UInt64]
    private let mask: Int

    /// The set of `positions` (repeats allowed). O(n).
    init(_ positions: [PlanePoint]) {
        for p in positions { members.set(p, 0) }
        // About 16 bits a position: a miss reads a clear bit 15 times in 16.
        var size = 1024
        while size < 16 * members.count { size <<= 1 }
        mask = size - 1
        var bits = [UInt64](repeating: 0, count: size / 64)
        members.forEach { p, _ in
            let h = Int(VertexPrecision.positionHash(p)) & (size - 1)
            bits[h >> 6] |= 1 << UInt64(h & 63)
        }
        self.bits = bits
    }

    var isEmpty: Bool { members.isEmpty }

    @inline(__always) func contains(_ p: PlanePoint) -> Bool {
        let h = Int(VertexPrecision.positionHash(p)) & mask
        guard bits[h >> 6] & (1 << UInt64(h & 63)) != 0 else { return false }
        return members[p] != nil
    }

    /// Whether any position of `ring` is in the set. O(n).
    func meets(_ ring: [PlanePoint]) -> Bool {
        guard !members.isEmpty else { return false }
        return ring.contains { contains($0) }
    }
}
