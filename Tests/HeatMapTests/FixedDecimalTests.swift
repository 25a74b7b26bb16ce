import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The word-at-a-time writer (``FixedDecimal``) writes the same bytes as
/// the digit-pair one it replaced (``ReferenceFixedDecimal``), for every
/// Int64 and decimals 0...18, and stays within its bytes and scratch.
@Suite struct FixedDecimalTests {
    /// The text of `n` at `decimals` by the writer; empty (never the
    /// reference's text) when it was longer than the most a number takes, or
    /// when a byte past the end or before the scratch in front was touched.
    private func written(_ n: Int64, _ decimals: Int) -> [UInt8] {
        let room = 64, guardBytes = 16
        var buffer = [UInt8](repeating: 0xEE, count: room + guardBytes)
        let text = buffer.withUnsafeMutableBufferPointer { b -> [UInt8] in
            let end = b.baseAddress! + room
            let start = FixedDecimal.of(decimals).write(n, endingAt: end)
            if end - start > FixedDecimal.maximumLength { return [] }
            return Array(UnsafeBufferPointer(start: start, count: end - start))
        }
        let front = room - text.count - FixedDecimal.scratchBytes
        if !buffer[room...].allSatisfy({ $0 == 0xEE }) || !buffer[..<front].allSatisfy({ $0 == 0xEE }) { return [] }
        return text
    }

    private func reference(_ n: Int64, _ decimals: Int) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { b in
            let end = b.baseAddress! + 40
            let start = ReferenceFixedDecimal.write(n, decimals: decimals, endingAt: end)
            return Array(UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    private func expectSame(_ n: Int64, _ decimals: Int) {
        let got = written(n, decimals), want = reference(n, decimals)
        #expect(
            got == want,
            "\(n) at \(decimals) decimals: \(String(decoding: got, as: UTF8.self)), not \(String(decoding: want, as: UTF8.self))"
        )
    }

    private static let powers: [Int64] = (0...18).map { k in (0..<k).reduce(1) { a, _ in a * 10 } }

    /// n × 10^k, when it fits.
    private func times(_ n: Int64, tenTo k: Int) -> Int64? {
        let (v, overflow) = n.multipliedReportingOverflow(by: Self.powers[k])
        return overflow ? nil : v
    }

    @Test(arguments: 0...18) func randomValuesOfEveryMagnitude(decimals: Int) {
        var rng = SplitMix(seed: UInt64(100 + decimals))
        for bits in 0...63 {
            for _ in 0..<12 {
                let magnitude = bits == 0 ? 0 : rng.next() >> UInt64(64 - bits)
                var n = Int64(truncatingIfNeeded: magnitude)
                if rng.next() & 1 == 1 { n = n == .min ? n : -n }
                expectSame(n, decimals)
                // Trailing zeros of every count, as rounding to fewer
                // decimals than the grid leaves.
                for k in 1...18 { if let v = times(n >> UInt64(min(3 * k, 63)), tenTo: k) { expectSame(v, decimals) } }
            }
        }
    }

    /// Longitudes and latitudes at 0...13 decimals on the 13-decimal grid:
    /// the exporter's numbers.
    @Test func lonLatOnTheGrid() {
        var rng = SplitMix(seed: 7)
        for precision in 0...13 {
            for _ in 0..<3000 {
                let v = rng.uniform(-180, 180) * Double(Self.powers[precision])
                let n = Int64(v.rounded()) * Self.powers[13 - precision]
                expectSame(n, 13)
            }
        }
    }

    @Test(arguments: 0...18) func edgeCases(decimals: Int) {
        var values: [Int64] = [0, 1, -1, 2, 9, 10, 11, 99, 100, 101, .max, .min, .max - 1, .min + 1]
        for k in 0...18 {
            let p = Self.powers[k]
            values += [p, -p, p - 1, -(p - 1), p + 1, -(p + 1)]
            // All-zero fractions: whole numbers of every length.
            for whole: Int64 in [1, 7, 123, 99_999_999, 100_000_000, 123_456_789_012] {
                if let v = times(whole, tenTo: decimals) { values += [v, -v, v + p, v - p] }
            }
            // No zero in the fraction; every count of trailing zeros.
            if let v = times(123_456_789_123_456_789 / Self.powers[k], tenTo: 0) { values += [v, -v] }
            if let v = times(987_654_321 % Self.powers[min(k, 9)] + 1, tenTo: 18 - k) { values += [v, -v] }
        }
        // Lengths crossing the 8-byte words: every count of digits, and the
        // fast path's limits (an integer part of 8 digits, a fraction of 8).
        var digits: Int64 = 0
        for _ in 0..<18 {
            digits = digits * 10 + 9
            values += [digits, -digits, digits / 9, digits - 1, digits + 1]
        }
        let kept = min(decimals, 8), dropped = decimals - kept
        for whole in [Self.powers[8] - 1, Self.powers[8]] {
            for fraction in [Int64(0), 1, Self.powers[kept] - 1] where fraction < max(Self.powers[kept], 1) {
                if let w = times(whole, tenTo: kept), let v = times(w + fraction, tenTo: dropped) {
                    values += [v, -v, v + 1, v - 1]
                }
            }
        }
        for n in values { expectSame(n, decimals) }
    }

    @Test func digitsOfEightDigitNumbers() {
        var rng = SplitMix(seed: 3)
        var xs: [UInt64] = [0, 1, 9, 10, 99, 100, 9_999, 10_000, 10_001, 99_999_999, 12_345_678, 87_654_321]
        xs += (0..<20_000).map { _ in rng.next() % 100_000_000 }
        for k in 0...7 { let p = UInt64(Self.powers[k]); xs += [p, p - 1, p + 1] }
        for x in xs {
            let word = FixedDecimal.digits(x)
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
            let text = String(x)
            let want = Array(repeating: UInt8(0), count: 8 - text.utf8.count) + text.utf8.map { $0 - UInt8(ascii: "0") }
            #expect(bytes == want, "\(x)")
        }
    }

    /// The positions text as the reference writes it.
    private func referencePositions(_ points: [FixedPoint], closing: Bool, decimals: Int) -> [UInt8] {
        var out: [UInt8] = []
        let all = closing && !points.isEmpty ? points + [points[0]] : points
        for (k, p) in all.enumerated() {
            out += Array((k > 0 ? ",[" : "[").utf8)
            out += reference(p.x, decimals) + Array(",".utf8) + reference(p.y, decimals) + Array("]".utf8)
        }
        return out
    }

    @Test(arguments: [false, true]) func positionsInBlocks(closing: Bool) {
        var rng = SplitMix(seed: closing ? 11 : 12)
        for decimals in [0, 6, 13, 18] {
            for count in [0, 1, 2, 1023, 1024, 1025, 2047, 2048, 2049, 3000] {
                // Mostly grid-rounded longitude/latitude, some any Int64
                // (the slow path), so that both meet inside a block.
                let points = (0..<count).map { _ -> FixedPoint in
                    if rng.next() % 8 == 0 {
                        return FixedPoint(
                            x: Int64(bitPattern: rng.next()), y: Int64(bitPattern: rng.next() >> (rng.next() % 64)))
                    }
                    // Six decimals on the grid (values below 9 at 18 decimals, to fit).
                    let spread = Self.powers[max(decimals - 6, 0)], range = decimals > 16 ? 9e6 : 180e6
                    return FixedPoint(
                        x: Int64(rng.uniform(-range, range).rounded()) * spread,
                        y: Int64(rng.uniform(-range / 2, range / 2).rounded()) * spread)
                }
                var blocks: [[UInt8]] = []
                JSONText.writePositions(points, closing: closing, decimals: decimals) { blocks.append(Array($0)) }
                let want = referencePositions(points, closing: closing, decimals: decimals)
                #expect(blocks.flatMap { $0 } == want, "\(count) positions at \(decimals) decimals")
                #expect(blocks.count == (count + (closing && count > 0 ? 1 : 0) + 1023) / 1024)
                #expect(blocks.allSatisfy { $0.count <= JSONText.blockBytes })
                var text = JSONText(reserving: 16)
                text.append(positions: points, closing: closing, decimals: decimals)
                #expect(text.bytes == Array("[".utf8) + want + Array("]".utf8))
            }
        }
    }

    @Test func singleNumbersAndPositions() {
        var rng = SplitMix(seed: 5)
        for _ in 0..<2000 {
            let n = Int64(bitPattern: rng.next()) >> (rng.next() % 64),
                m = Int64(bitPattern: rng.next()) >> (rng.next() % 64)
            let d = Int(rng.next() % 19)
            var text = JSONText(reserving: 16)
            text.append(fixed: n, decimals: d)
            #expect(text.bytes == reference(n, d))
            var position = JSONText(reserving: 16)
            position.append(x: n, y: m, decimals: d)
            #expect(
                position.bytes == Array("[".utf8) + reference(n, d) + Array(",".utf8) + reference(m, d)
                    + Array("]".utf8))
        }
    }
}
