import HeatMapCore
import HeatMapDensity

/// Marching-squares lookup tables for one cell.
///
/// A cell's corners are bottom-left (bit 1), bottom-right (2), top-right (4)
/// and top-left (8); a set bit means the corner's value is ≥ the threshold.
/// Bit 16 marks a saddle (codes 5 and 10) whose centre — the mean of the
/// four corners — is also inside, so the two inside corners are joined.
///
/// Sides are numbered counter-clockwise: 0 bottom, 1 right, 2 top, 3 left.
/// Every segment runs from an entry side to an exit side with the inside on
/// its left (so exteriors come out counter-clockwise). Going counter-clockwise
/// round the cell, an entry side goes from an inside corner to an outside
/// one and an exit side from outside to inside.
enum CellCases {
    /// The exit side of the segment entering through `side` in a cell of
    /// `code`, or −1 when no segment enters there. Indexed `code * 4 + side`.
    package static let exit: [Int8] = makeExitTable()

    /// The code left in a cell once the segment entering through `side` has
    /// been traced: 0 for one-segment cells, the code of the other segment
    /// alone for saddles. Indexed `code * 4 + side`.
    static let afterUse: [UInt8] = makeAfterUseTable()

    /// How many segments a cell of `code` holds (0, 1 or 2).
    static let segmentCount: [UInt8] = (0..<32).map { code in
        UInt8((0..<4).filter { exit[code * 4 + $0] >= 0 }.count)
    }

    /// The side of the neighbouring cell that a segment enters after
    /// leaving through `side`.
    @inline(__always) static func opposite(_ side: Int) -> Int { (side + 2) & 3 }

    private static func corners(_ code: Int) -> [Bool] {
        // Counter-clockwise: bl, br, tr, tl. Side s runs from corner s to corner s+1.
        [code & 1 != 0, code & 2 != 0, code & 4 != 0, code & 8 != 0]
    }

    private static func makeExitTable() -> [Int8] {
        var table = [Int8](repeating: -1, count: 32 * 4)
        for code in 0..<32 {
            let base = code & 15
            let joined = code & 16 != 0
            if joined && base != 5 && base != 10 { continue }
            let c = corners(base)
            let entries = (0..<4).filter { c[$0] && !c[($0 + 1) & 3] }
            let exits = (0..<4).filter { !c[$0] && c[($0 + 1) & 3] }
            if entries.count == 1 {
                table[code * 4 + entries[0]] = Int8(exits[0])
            } else if entries.count == 2 {
                // Saddle: a separated centre cuts each inside corner off on its
                // own (entry side s leaves through the side before it); a joined
                // centre cuts the outside corners off (s leaves through s + 1).
                for s in entries {
                    table[code * 4 + s] = Int8(joined ? (s + 1) & 3 : (s + 3) & 3)
                }
            }
        }
        return table
    }

    private static func makeAfterUseTable() -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 32 * 4)
        for code in 0..<32 {
            for side in 0..<4 where exit[code * 4 + side] >= 0 {
                let base = code & 15
                guard base == 5 || base == 10 else { continue }
                // The remaining segment of a saddle is the single-segment
                // cell that has exactly that segment.
                let other = (0..<4).first { $0 != side && exit[code * 4 + $0] >= 0 }!
                let out = Int(exit[code * 4 + other])
                table[code * 4 + side] = UInt8(
                    (0..<16).first { exit[$0 * 4 + other] == Int8(out) && segmentCountOf($0) == 1 }!)
            }
        }
        return table
    }

    private static func segmentCountOf(_ code: Int) -> Int {
        (0..<4).filter { exit[code * 4 + $0] >= 0 }.count
    }
}
