import Testing

@testable import HeatMapContouring

/// The segment predicates against a plain definition: every turn in Int128
/// with checked arithmetic, all four computed, the cases decided in the
/// textbook order. Segments on a small lattice meet in every way (crossing,
/// touching at an end or inside, overlapping, collinear apart); the same
/// shapes are scaled past 2^31 and up to the 2^53 the positions stay below.
struct ExactPredicatesTests {
    private static func turn(_ a: FixedPoint, _ b: FixedPoint, _ c: FixedPoint) -> Int {
        let v = Int128(b.x - a.x) * Int128(c.y - a.y) - Int128(b.y - a.y) * Int128(c.x - a.x)
        return v > 0 ? 1 : (v < 0 ? -1 : 0)
    }

    private static func within(_ p: FixedPoint, _ a: FixedPoint, _ b: FixedPoint) -> Bool {
        p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y) && p.y <= max(a.y, b.y)
    }

    /// The contact as its definition reads.
    private static func reference(
        _ p1: FixedPoint, _ p2: FixedPoint, _ p3: FixedPoint, _ p4: FixedPoint
    ) -> ExactPredicates.Contact {
        let d1 = turn(p3, p4, p1), d2 = turn(p3, p4, p2), d3 = turn(p1, p2, p3), d4 = turn(p1, p2, p4)
        if d1 * d2 < 0 && d3 * d4 < 0 { return .cross }
        if d1 == 0 && d2 == 0 {
            let useX = abs(p1.x - p2.x) >= abs(p1.y - p2.y)
            let a0 = useX ? min(p1.x, p2.x) : min(p1.y, p2.y), a1 = useX ? max(p1.x, p2.x) : max(p1.y, p2.y)
            let b0 = useX ? min(p3.x, p4.x) : min(p3.y, p4.y), b1 = useX ? max(p3.x, p4.x) : max(p3.y, p4.y)
            let lo = max(a0, b0), hi = min(a1, b1)
            if lo < hi { return .overlap }
            if lo > hi { return .none }
            for p in [p1, p2] where p == p3 || p == p4 { return .point(p) }
            return .none
        }
        if d1 == 0 && within(p1, p3, p4) { return .point(p1) }
        if d2 == 0 && within(p2, p3, p4) { return .point(p2) }
        if d3 == 0 && within(p3, p1, p2) { return .point(p3) }
        if d4 == 0 && within(p4, p1, p2) { return .point(p4) }
        return .none
    }

    static let lattices: [[Int64]] = [
        [1, 0], [1 << 27, 12_345], [(1 << 30) / 5, -(1 << 30)], [1 << 33, 7], [(1 << 52) / 5, -(1 << 51)]
    ]

    @Test(arguments: lattices)
    func contactMatchesItsDefinition(lattice: [Int64]) {
        let scale = lattice[0], offset = lattice[1]
        var generator = SplitMix(seed: UInt64(bitPattern: scale &+ offset))
        func point() -> FixedPoint {
            FixedPoint(x: Int64(generator.next() % 5) * scale + offset, y: Int64(generator.next() % 5) * scale - offset)
        }
        var kinds = Set<String>()
        for _ in 0..<20_000 {
            let p1 = point(), p2 = point(), p3 = point(), p4 = point()
            guard p1 != p2, p3 != p4 else { continue }
            let expected = Self.reference(p1, p2, p3, p4)
            #expect(ExactPredicates.contact(p1, p2, p3, p4) == expected, "\(p1) \(p2) \(p3) \(p4)")
            kinds.insert("\(expected)".prefix(5).description)
        }
        // Every kind of meeting was tried.
        #expect(kinds.count == 4, "\(kinds)")
    }

    /// A spike as its definition reads: a → b → c comes straight back.
    private static func isSpike(_ a: FixedPoint, _ b: FixedPoint, _ c: FixedPoint) -> Bool {
        let ux = Int128(a.x - b.x), uy = Int128(a.y - b.y), vx = Int128(c.x - b.x), vy = Int128(c.y - b.y)
        return a == c || (ux * vy - uy * vx == 0 && ux * vx + uy * vy > 0)
    }

    @Test(arguments: lattices)
    func spikesMatchTheirDefinition(lattice: [Int64]) {
        let scale = lattice[0], offset = lattice[1]
        var generator = SplitMix(seed: UInt64(bitPattern: scale &- offset))
        func point() -> FixedPoint {
            FixedPoint(x: Int64(generator.next() % 5) * scale + offset, y: Int64(generator.next() % 5) * scale - offset)
        }
        var spikes = 0, others = 0
        for _ in 0..<20_000 {
            let a = point(), b = point(), c = point()
            let expected = Self.isSpike(a, b, c)
            #expect(ExactPredicates.isSpike(a, b, c) == expected, "\(a) \(b) \(c)")
            if expected { spikes += 1 } else { others += 1 }
        }
        #expect(spikes > 100 && others > 100)
    }

    @Test func turnsAtTheEdgeOfSixtyFourBits() {
        // Differences of ±(2^31 − 1) and −2^31: products up to 2^62, and a
        // difference of two of them just under 2^63.
        let big = Int64(1) << 31
        let cases: [(FixedPoint, FixedPoint, FixedPoint)] = [
            (FixedPoint(x: 0, y: 0), FixedPoint(x: -big, y: -big), FixedPoint(x: big - 1, y: -big)),
            (FixedPoint(x: 0, y: 0), FixedPoint(x: big - 1, y: -big), FixedPoint(x: -big, y: -big)),
            (FixedPoint(x: big, y: big), FixedPoint(x: 0, y: 0), FixedPoint(x: 2 * big - 1, y: 0)),
            (FixedPoint(x: 5, y: 5), FixedPoint(x: 5 + big, y: 5), FixedPoint(x: 5, y: 5 - big))
        ]
        for (a, b, c) in cases {
            #expect(ExactPredicates.orient(a, b, c) == Self.turn(a, b, c))
            #expect(ExactPredicates.orient(a, c, b) == Self.turn(a, c, b))
        }
    }

    @Test func turnsAtTheLimitOfThePositions() {
        // Positions just inside ±2^53: differences near 2^54, products near
        // 2^108, nearly collinear so that the last bits decide.
        let top = (Int64(1) << 53) - 1
        let cases: [(FixedPoint, FixedPoint, FixedPoint)] = [
            (FixedPoint(x: -top, y: -top), FixedPoint(x: top, y: top), FixedPoint(x: top - 1, y: top - 1)),
            (FixedPoint(x: -top, y: -top), FixedPoint(x: top, y: top), FixedPoint(x: top - 1, y: top)),
            (FixedPoint(x: -top, y: -top), FixedPoint(x: top, y: top - 1), FixedPoint(x: top - 1, y: top - 2)),
            (FixedPoint(x: top, y: -top), FixedPoint(x: -top, y: top), FixedPoint(x: 0, y: 1)),
            (FixedPoint(x: top, y: -top), FixedPoint(x: -top, y: top), FixedPoint(x: 0, y: 0))
        ]
        for (a, b, c) in cases {
            #expect(ExactPredicates.orient(a, b, c) == Self.turn(a, b, c))
            #expect(ExactPredicates.orient(a, c, b) == Self.turn(a, c, b))
            #expect(ExactPredicates.isSpike(a, b, c) == Self.isSpike(a, b, c))
            #expect(ExactPredicates.isSpike(b, a, c) == Self.isSpike(b, a, c))
        }
    }
}
