import Foundation

/// The colours that map levels (or bin values) from low to high.
///
/// The built-in gradients match the Apple package's: thermal (transparent →
/// blue → cyan → green → yellow → orange → red), warm, cool and monochrome.
public struct HeatMapGradient: Sendable, Hashable {
    /// The stops, low to high, evenly spaced.
    public let colors: [HeatMapColor]

    /// A gradient through `colors`; fewer than two colours are padded
    /// (one colour becomes transparent → that colour; none becomes thermal).
    public init(colors: [HeatMapColor]) {
        switch colors.count {
        case 0: self.colors = HeatMapGradient.thermal.colors
        case 1: self.colors = [colors[0].opacity(0), colors[0]]
        default: self.colors = colors
        }
    }

    /// Transparent → blue → cyan → green → yellow → orange → red.
    public static let thermal = HeatMapGradient(colors: [.clear, .blue, .cyan, .green, .yellow, .orange, .red])
    /// Transparent → yellow → orange → red.
    public static let warm = HeatMapGradient(colors: [.clear, .yellow, .orange, .red])
    /// Transparent → cyan → blue → purple.
    public static let cool = HeatMapGradient(colors: [.clear, .cyan, .blue, .purple])
    /// Transparent → `color` in six opacity steps.
    public static func monochrome(_ color: HeatMapColor) -> HeatMapGradient {
        HeatMapGradient(colors: (0...5).map { color.opacity(Double($0) / 5) })
    }

    /// The colour at `fraction` (0 = low, 1 = high), interpolated between
    /// the neighbouring stops in linear-light RGB with straight alpha.
    public func color(at fraction: Double) -> HeatMapColor {
        let f = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let scaled = f * Double(colors.count - 1)
        let i = min(Int(scaled), colors.count - 2)
        let t = scaled - Double(i)
        let a = colors[i], b = colors[i + 1]
        func lin(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        func srgb(_ c: Double) -> Double { c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055 }
        // A transparent stop takes the colour of its neighbour, so fading in
        // does not pass through grey.
        let ca = a.alpha == 0 ? b : a, cb = b.alpha == 0 ? a : b
        func mix(_ x: Double, _ y: Double) -> Double { srgb(lin(x) * (1 - t) + lin(y) * t) }
        return HeatMapColor(red: mix(ca.red, cb.red), green: mix(ca.green, cb.green), blue: mix(ca.blue, cb.blue),
                            alpha: a.alpha * (1 - t) + b.alpha * t)
    }

    /// The colour of level `level` of `levelCount`, as the Apple package
    /// spreads levels over the gradient: fraction level / (count − 1).
    public func color(forLevel level: Int, of levelCount: Int) -> HeatMapColor {
        guard levelCount > 1 else { return color(at: 1) }
        return color(at: Double(level) / Double(levelCount - 1))
    }
}
