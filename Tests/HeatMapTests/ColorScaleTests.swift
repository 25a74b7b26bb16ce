import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct ColorScaleTests {
    @Test func linearPositions() {
        let s = HeatMapColorScale(type: .linear, domain: 0...100)
        #expect(s.position(of: 25) == 0.25)
        #expect(s.position(of: 100) == 1)
        #expect(s.position(of: 250) == 1)  // clamped
        #expect(s.position(of: -5) == 0)
        #expect(s.position(of: 0) == nil)  // zero has the zero colour
        #expect(s.position(of: .nan) == nil)
    }

    @Test func logPositions() {
        let s = HeatMapColorScale(type: .log, domain: 1...1000)
        #expect(abs(s.position(of: 10)! - 1.0 / 3) < 1e-12)
        #expect(abs(s.position(of: 100)! - 2.0 / 3) < 1e-12)
        #expect(s.position(of: -4) == nil)
        #expect(s.color(for: -4) == s.zeroColor)
    }

    /// Swift Charts: y = a · sign(x) · log(1 + |x · slopeAtZero|) + b.
    func symlog(_ x: Double, _ s: Double) -> Double {
        (x < 0 ? -1 : 1) * Foundation.log(1 + abs(x * s))
    }

    @Test(arguments: [(1.0, -50.0, 1000.0), (0.5, -100.0, 100.0), (0.01, 3.0, 5000.0), (20, -1, 1)])
    func symmetricLogFollowsTheSwiftChartsFormula(slope: Double, lo: Double, hi: Double) {
        let s = HeatMapColorScale(type: .symmetricLog(slopeAtZero: slope), domain: lo...hi)
        for k in 0...20 {
            let v = lo + (hi - lo) * Double(k) / 20
            guard v != 0 else { continue }
            // The position is the formula mapped affinely (a, b) onto 0...1.
            let expected = (symlog(v, slope) - symlog(lo, slope)) / (symlog(hi, slope) - symlog(lo, slope))
            #expect(abs(s.position(of: v)! - expected) < 1e-12, "v = \(v)")
        }
        // Transform and inverse agree.
        for v in [-123.4, -1, 0, 0.001, 7, 1e6] {
            let t = HeatMapScaleType.symmetricLog(slopeAtZero: slope)
            #expect(abs(t.inverse(t.transform(v)!) - v) <= 1e-9 * max(1, abs(v)))
        }
    }

    @Test func symmetricLogNearZeroIsLinearWithTheGivenSlope() {
        let t = HeatMapScaleType.symmetricLog(slopeAtZero: 4)
        let h = 1e-7
        #expect(abs(t.transform(h)! / h - 4) < 1e-5)
        #expect(t.transform(-3) == -t.transform(3)!)
        #expect(HeatMapScaleType.symmetricLog == .symmetricLog(slopeAtZero: 1))
        // A non-positive slope is not a scale; it falls back to 1.
        #expect(HeatMapScaleType.symmetricLog(slopeAtZero: -2) == .symmetricLog)
        #expect(HeatMapScaleType.symmetricLog(slopeAtZero: .nan) == .symmetricLog)
    }

    @Test func zeroGetsAFaintTransparentColour() {
        let s = HeatMapColorScale(type: .linear, domain: 1...10, gradient: .thermal)
        #expect(s.color(for: 0) == s.zeroColor)
        #expect(s.zeroColor.hex == HeatMapColor.blue.hex)
        #expect(s.zeroColor.alpha == 0.08)
        // The smallest non-zero value gets thermal's first visible stop (blue at 0.4).
        #expect(s.color(for: 1) == HeatMapGradient.thermal.colors[1])
        #expect(s.color(for: 1).alpha > s.zeroColor.alpha)
        #expect(s.color(for: 10) == HeatMapGradient.thermal.colors[6])
        // Half-way runs along the six visible stops: 2.5 stops up, between cyan and green.
        let visible = HeatMapGradient(colors: Array(HeatMapGradient.thermal.colors.dropFirst()))!
        #expect(s.color(for: 5.5) == visible.color(for: 0.5))
        // A two-stop fade from transparent starts a tenth of the way up instead.
        let fade = HeatMapColorScale(domain: 1...10, gradient: HeatMapGradient(colors: [.clear, .red])!)
        #expect(fade.lowEnd == 0.1 && fade.color(for: 1).alpha == 0.1)
        let custom = HeatMapColorScale(domain: 1...2, zeroColor: .clear, lowEnd: 0.5)
        #expect(custom.color(for: 0) == .clear)
        #expect(custom.lowEnd == 0.5 && custom.color(for: 1) == visible.color(for: 0.5))
    }

    @Test func domainFromValuesSkipsZerosAndNonFinite() {
        let s = HeatMapColorScale(type: .linear, values: [0, 3, .nan, 12, -2, .infinity])
        #expect(s.domain == -2...12)
        let l = HeatMapColorScale(type: .log, values: [0, 3, 12, -2])
        #expect(l.domain == 3...12)
        let none = HeatMapColorScale(type: .linear, values: [])
        #expect(none.domain == 0...1)
        // A one-value domain puts that value at the top, not at NaN.
        let one = HeatMapColorScale(type: .linear, values: [5, 5])
        #expect(one.position(of: 5) == 1)
    }

    @Test func ticksAreRoundNumbers() {
        let lin = HeatMapColorScale(type: .linear, domain: 0...1).ticks(count: 5)
        #expect(lin == [0, 0.2, 0.4, 0.6, 0.8, 1])
        #expect(
            HeatMapColorScale(type: .linear, domain: 0.1...0.35).ticks(count: 5) == [0.1, 0.15, 0.2, 0.25, 0.3, 0.35])
        #expect(HeatMapColorScale(type: .log, domain: 1...1000).ticks(count: 5) == [1, 10, 100, 1000])
        #expect(HeatMapColorScale(type: .log, domain: 1...52).ticks(count: 8) == [1, 2, 5, 10, 20, 50])
        let sym = HeatMapColorScale(type: .symmetricLog, domain: -1000...1000).ticks(count: 9)
        #expect(sym.contains(0) && sym.contains(1000) && sym.contains(-1000))
        #expect(sym == sym.sorted())
        let degenerate = HeatMapColorScale(type: .linear, domain: 4...4).ticks()
        #expect(degenerate == [4])
    }

    @Test func scaleNamesParse() {
        #expect(HeatMapScaleType(name: "linear") == .linear)
        #expect(HeatMapScaleType(name: "LOG") == .log)
        #expect(HeatMapScaleType(name: "symlog") == .symmetricLog)
        #expect(HeatMapScaleType(name: "symlog:0.25") == .symmetricLog(slopeAtZero: 0.25))
        #expect(HeatMapScaleType(name: "symlog:-1") == nil)
        #expect(HeatMapScaleType(name: "sqrt") == nil)
        #expect(HeatMapScaleType.symmetricLog(slopeAtZero: 0.5).description == "symmetricLog(slopeAtZero: 0.5)")
    }

    /// The GeoJSON bin rule: every value gets a place, 0...1.
    @Test func fractionsOfBinFills() {
        #expect(HeatMapScaleType.linear.fraction(of: 25, in: 0...100) == 0.25)
        #expect(HeatMapScaleType.linear.fraction(of: 0, in: 0...100) == 0)  // zero is placed, not special
        #expect(HeatMapScaleType.linear.fraction(of: 250, in: 0...100) == 1)
        #expect(HeatMapScaleType.linear.fraction(of: 5, in: 5...5) == 0)  // degenerate range
        #expect(HeatMapScaleType.log.fraction(of: 10, in: 1...100) == 0.5)
        #expect(HeatMapScaleType.log.fraction(of: 0, in: 1...100) == 0)
        #expect(HeatMapScaleType.log.fraction(of: -3, in: 1...100) == 0)
        // A range down to 0 starts a billionth of its top (at most 1) up: 1e-9 ... 100.
        let f = HeatMapScaleType.log.fraction(of: 1, in: 0...100)
        #expect(abs(f - log(1 / 1e-9) / log(100 / 1e-9)) < 1e-12)
        let s = HeatMapScaleType.symmetricLog(slopeAtZero: 2)
        #expect(abs(s.fraction(of: 3, in: -3...3) - 1) < 1e-15)
        #expect(abs(s.fraction(of: 0, in: -3...3) - 0.5) < 1e-15)
        #expect(abs(s.fraction(of: 1, in: 0...3) - log1p(2) / log1p(6)) < 1e-15)
        for v in [Double.nan, -.infinity] { #expect(HeatMapScaleType.linear.fraction(of: v, in: 0...1) == 0) }
    }

    /// Pictures and GeoJSON place a non-zero value inside a positive range
    /// alike: one transform under both.
    @Test(arguments: [HeatMapScaleType.linear, .log, .symmetricLog, .symmetricLog(slopeAtZero: 0.01)])
    func picturesAndFillsAgree(type: HeatMapScaleType) {
        var rng = SplitMix(seed: 5)
        for _ in 0..<500 {
            let lo = rng.uniform(0.5, 50), hi = lo + rng.uniform(1, 1000), v = rng.uniform(lo, hi)
            let picture = HeatMapColorScale(type: type, domain: lo...hi).position(of: v)!
            #expect(abs(picture - type.fraction(of: v, in: lo...hi)) < 1e-12)
        }
    }
}
