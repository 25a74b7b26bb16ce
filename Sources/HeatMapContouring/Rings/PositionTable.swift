import HeatMapCore

/// Positions and their decimals, for ``VertexPrecision`` (and a set of
/// positions, for the repairs): an open-addressed
/// table (linear probing, at most half full) hashed with
/// ``VertexPrecision/positionHash(_:)``.
///
/// A noisy field's repairs raise hundreds of thousands of positions and
/// then ask about each of them several times a round; the standard
/// dictionary's seeded hash costs several times the rest of a lookup.
/// Positions compare as `PlanePoint` does (−0 equals 0; a NaN is never
/// found, so each one added is an entry of its own, as in a dictionary).
package struct PositionTable {
    private var keys: [PlanePoint] = []
    /// The decimals of the key in the same slot; ``empty`` for a free slot.
    private var values: [Int16] = []
    package private(set) var count = 0
    private static let empty = Int16.min

    package init() {}

    package var isEmpty: Bool { count == 0 }

    /// The decimals of `p`, or nil when it is not in the table.
    @inline(__always) package subscript(p: PlanePoint) -> Int? {
        guard count > 0 else { return nil }
        let mask = values.count - 1
        var slot = Int(VertexPrecision.positionHash(p)) & mask
        while true {
            let v = values[slot]
            if v == Self.empty { return nil }
            if keys[slot] == p { return Int(v) }
            slot = (slot + 1) & mask
        }
    }

    /// Sets the decimals of `p` (decimals fit 16 bits: −300…15).
    package mutating func set(_ p: PlanePoint, _ decimals: Int) {
        if 2 * (count + 1) > values.count { grow() }
        let mask = values.count - 1
        var slot = Int(VertexPrecision.positionHash(p)) & mask
        while true {
            let v = values[slot]
            if v == Self.empty {
                keys[slot] = p
                values[slot] = Int16(decimals)
                count += 1
                return
            }
            if keys[slot] == p {
                values[slot] = Int16(decimals)
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// Calls `body` with every position and its decimals (in no set order).
    package func forEach(_ body: (PlanePoint, Int) throws -> Void) rethrows {
        guard count > 0 else { return }
        for slot in values.indices where values[slot] != Self.empty { try body(keys[slot], Int(values[slot])) }
    }

    /// The table as a dictionary (for tests and callers that want one).
    package var dictionary: [PlanePoint: Int] {
        var out: [PlanePoint: Int] = [:]
        out.reserveCapacity(count)
        forEach { p, d in out[p] = d }
        return out
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let size = max(64, oldValues.count * 2)
        keys = [PlanePoint](repeating: PlanePoint(x: 0, y: 0), count: size)
        values = [Int16](repeating: Self.empty, count: size)
        let mask = size - 1
        for k in oldValues.indices where oldValues[k] != Self.empty {
            var slot = Int(VertexPrecision.positionHash(oldKeys[k])) & mask
            while values[slot] != Self.empty { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[k]
            values[slot] = oldValues[k]
        }
    }
}
