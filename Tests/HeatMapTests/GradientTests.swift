import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct GradientTests {
    func close(_ a: HeatMapColor, _ b: HeatMapColor, _ tol: Double = 1e-9) -> Bool {
        abs(a.red - b.red) <= tol && abs(a.green - b.green) <= tol && abs(a.blue - b.blue) <= tol
            && abs(a.alpha - b.alpha) <= tol
    }

    @Test func builtInGradientsHaveTheApplePackageStops() {
        #expect(HeatMapGradient.thermal.colors.count == 7)
        #expect(HeatMapGradient.thermal.colors.map(\.alpha) == [0, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
        #expect(
            HeatMapGradient.thermal.colors.map(\.hex)
                == ["#007aff", "#007aff", "#32ade6", "#34c759", "#ffcc00", "#ff9500", "#ff3b30"])
        #expect(HeatMapGradient.warm.colors.map(\.hex) == ["#ffcc00", "#ffcc00", "#ff9500", "#ff3b30", "#ff3b30"])
        #expect(HeatMapGradient.warm.colors.map(\.alpha) == [0, 0.4, 0.6, 0.8, 1])
        #expect(HeatMapGradient.cool.colors.map(\.hex) == ["#32ade6", "#32ade6", "#007aff", "#af52de", "#af52de"])
        let mono = HeatMapGradient.monochrome(.red)
        #expect(mono.colors.count == 6)
        #expect(mono.colors.map(\.alpha).map { ($0 * 10).rounded() / 10 } == [0, 0.2, 0.4, 0.6, 0.8, 1])
        #expect(Set(mono.colors.map(\.hex)) == ["#ff3b30"])
    }

    @Test(arguments: [
        HeatMapGradient.thermal, .warm, .cool, .monochrome(.indigo),
        HeatMapGradient(colors: [.black, .white])!
    ])
    func everyStopIsHitExactly(gradient: HeatMapGradient) {
        let n = gradient.colors.count
        for (i, stop) in gradient.colors.enumerated() {
            #expect(close(gradient.color(for: Double(i) / Double(n - 1)), stop, 1e-12))
        }
        // Out-of-range and NaN fractions clamp to the ends.
        #expect(gradient.color(for: -3) == gradient.colors[0])
        #expect(gradient.color(for: 7) == gradient.colors[n - 1])
        #expect(gradient.color(for: .nan) == gradient.colors[0])
    }

    @Test func blendsInOKLab() {
        // Mid-way between black and white is OKLab L = 0.5: linear 0.125, sRGB 0.3886 → #636363,
        // darker than sRGB's #808080 and lighter than linear light's #bcbcbc.
        let grey = HeatMapGradient(colors: [.black, .white])!.color(for: 0.5)
        #expect(grey.hex == "#636363")
        #expect(abs(grey.red - 0.388_572) < 1e-4)
        // Known OKLab of pure sRGB red: L 0.62796, a 0.22486, b 0.12585.
        let lab = OKLab(HeatMapColor(red: 1, green: 0, blue: 0))
        #expect(abs(lab.l - 0.627_96) < 1e-4 && abs(lab.a - 0.224_86) < 1e-4 && abs(lab.b - 0.125_85) < 1e-4)
        // And back again.
        #expect(close(lab.color(alpha: 1), HeatMapColor(red: 1, green: 0, blue: 0), 1e-6))
    }

    @Test func fadingFromTransparentKeepsTheHue() {
        // Premultiplied blending: a fade from clear (black, alpha 0) to red stays red.
        let fade = HeatMapGradient(colors: [.clear, .red])!
        let mid = fade.color(for: 0.5)
        #expect(mid.hex == HeatMapColor.red.hex)
        #expect(abs(mid.alpha - 0.5) < 1e-12)
        // Thermal's first segment is blue throughout.
        #expect(HeatMapGradient.thermal.color(for: 1.0 / 12).hex == "#007aff")
        #expect(abs(HeatMapGradient.thermal.color(for: 1.0 / 12).alpha - 0.2) < 1e-12)
    }

    @Test func thermalAtKnownValues() {
        let t = HeatMapGradient.thermal
        #expect(t.color(for: 0).alpha == 0)
        #expect(t.color(for: 1).hex == "#ff3b30" && t.color(for: 1).alpha == 0.9)
        #expect(t.color(for: 0.5).hex == "#34c759" && t.color(for: 0.5).alpha == 0.6)
        #expect(t.color(at: 0.5) == t.color(for: 0.5))
        // Between stops the alpha is linear.
        #expect(abs(t.color(for: 0.75).alpha - 0.75) < 1e-12)
    }

    @Test func fewerThanTwoColoursIsNoGradient() {
        #expect(HeatMapGradient(colors: []) == nil)
        #expect(HeatMapGradient(colors: [.red]) == nil)
        #expect(HeatMapGradient(colors: [.red, .blue])?.colors == [.red, .blue])
    }

    @Test func levelColoursSpreadOverTheGradientAndNeverVanish() {
        let g = HeatMapGradient.thermal
        #expect(g.color(forLevel: 0, of: 10) == g.color(for: 0.1))
        #expect(g.color(forLevel: 9, of: 10) == g.color(for: 1))
        #expect(g.color(forLevel: 0, of: 1) == g.color(for: 1))
        for level in 0..<10 { #expect(g.color(forLevel: level, of: 10).alpha > 0) }
        // Out-of-range levels clamp rather than trap.
        #expect(g.color(forLevel: 42, of: 3) == g.color(for: 1))
        #expect(g.color(forLevel: -1, of: 3) == g.color(for: 1.0 / 3))
        #expect(g.color(forLevel: 0, of: 0) == g.color(for: 1))
    }

    @Test func parsesTheToolsGradientWords() throws {
        #expect(try HeatMapGradient(parsing: "thermal") == .thermal)
        #expect(try HeatMapGradient(parsing: " Warm ") == .warm)
        #expect(try HeatMapGradient(parsing: "cool") == .cool)
        #expect(try HeatMapGradient(parsing: "monochrome:#d7301f") == .monochrome(HeatMapColor(hex: "#d7301f")!))
        #expect(try HeatMapGradient(parsing: "monochrome:red") == .monochrome(.red))
        let custom = try HeatMapGradient(parsing: "#ffffff00,#F00,#0000ff")
        #expect(custom.colors.map(\.hex) == ["#ffffff", "#ff0000", "#0000ff"])
        #expect(custom.colors[0].alpha == 0)
        for bad in ["", "#12345", "monochrome", "monochrome:", "#ff0000", "#ff0000,nope", "rainbow", "#ff0000,,#00ff00"]
        {
            #expect(throws: HeatMapRenderError.self, "\(bad)") { try HeatMapGradient(parsing: bad) }
        }
    }

    @Test func coloursParseAndPrint() {
        #expect(HeatMapColor(hex: "#FF8000")?.hex == "#ff8000")
        #expect(HeatMapColor(hex: "0a0b0c80")?.alpha == 128.0 / 255)
        #expect(HeatMapColor(hex: "#abc")?.hex == "#aabbcc")
        #expect(HeatMapColor(hex: "#ggg") == nil)
        #expect(HeatMapColor(hex: "+12345") == nil)
        #expect(HeatMapColor(parsing: "Clear") == .clear)
        #expect(HeatMapColor.blue.opacity(0.4).opacity(0.5).alpha == 0.2)
        #expect(HeatMapColor.blue.opacity(0.4).withAlpha(0.9).alpha == 0.9)
        #expect(
            HeatMapColor(red: .nan, green: 2, blue: -1, alpha: .infinity)
                == HeatMapColor(red: 0, green: 1, blue: 0, alpha: 0))
        #expect(HeatMapGradient.thermal.description == "HeatMapGradient.thermal (7 stops)")
    }
}
