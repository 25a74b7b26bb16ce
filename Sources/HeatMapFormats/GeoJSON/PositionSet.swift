import HeatMapContouring
import HeatMapCore

/// A few positions, asked about many times: a bit per position hash in
/// front of the set, so that a position not in it (nearly every one asked
/// about) is answered from one bit, without hashing it into the set.
///
/// A round of repair asks this of every position of a feature: whether
/// rounding it may have changed (its decimals were raised), so that only
/// the rings holding such a position are rounded again.
struct PositionSet {
    private var members: Set<PlanePoint>
    private var bits: [UInt64]
    private let mask: Int

    /// The set of `positions` (repeats allowed). O(n).
    init(_ positions: [PlanePoint]) {
        members = Set(positions)
        // About 16 bits a position: a miss reads a clear bit 15 times in 16.
        var size = 1024
        while size < 16 * members.count { size <<= 1 }
        mask = size - 1
        bits = [UInt64](repeating: 0, count: size / 64)
        for p in members {
            let h = Int(VertexPrecision.positionHash(p)) & mask
            bits[h >> 6] |= 1 << UInt64(h & 63)
        }
    }

    var isEmpty: Bool { members.isEmpty }

    @inline(__always) func contains(_ p: PlanePoint) -> Bool {
        let h = Int(VertexPrecision.positionHash(p)) & mask
        guard bits[h >> 6] & (1 << UInt64(h & 63)) != 0 else { return false }
        return members.contains(p)
    }

    /// Whether any position of `ring` is in the set. O(n).
    func meets(_ ring: [PlanePoint]) -> Bool {
        guard !members.isEmpty else { return false }
        return ring.contains { contains($0) }
    }
}
