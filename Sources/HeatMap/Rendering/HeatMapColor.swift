import Foundation

/// An sRGB colour with alpha, each component 0...1.
public struct HeatMapColor: Sendable, Hashable, Codable {
    /// Red, 0...1 (sRGB).
    public var red: Double
    /// Green, 0...1 (sRGB).
    public var green: Double
    /// Blue, 0...1 (sRGB).
    public var blue: Double
    /// Opacity, 0...1.
    public var alpha: Double

    /// Creates a colour; components are clamped to 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// A colour from "#RRGGBB" or "#RRGGBBAA" (the "#" is optional); nil if malformed.
    public init?(hex: String) {
        var s = Substring(hex.trimmingCharacters(in: .whitespaces))
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6 || s.count == 8, let v = UInt64(s, radix: 16) else { return nil }
        let n = s.count == 6 ? (v << 8) | 0xff : v
        self.init(red: Double((n >> 24) & 0xff) / 255, green: Double((n >> 16) & 0xff) / 255,
                  blue: Double((n >> 8) & 0xff) / 255, alpha: Double(n & 0xff) / 255)
    }

    /// "#rrggbb" (alpha is not included).
    public var hex: String {
        func byte(_ v: Double) -> String {
            let b = Int((v * 255).rounded())
            return String(b, radix: 16).leftPadded(to: 2)
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }

    /// The same colour with another opacity.
    public func opacity(_ alpha: Double) -> HeatMapColor {
        HeatMapColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Fully transparent black.
    public static let clear = HeatMapColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Black.
    public static let black = HeatMapColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = HeatMapColor(red: 1, green: 1, blue: 1)
    /// Blue.
    public static let blue = HeatMapColor(red: 0, green: 0, blue: 1)
    /// Cyan.
    public static let cyan = HeatMapColor(red: 0, green: 1, blue: 1)
    /// Green.
    public static let green = HeatMapColor(red: 0, green: 0.8, blue: 0)
    /// Yellow.
    public static let yellow = HeatMapColor(red: 1, green: 1, blue: 0)
    /// Orange.
    public static let orange = HeatMapColor(red: 1, green: 0.55, blue: 0)
    /// Red.
    public static let red = HeatMapColor(red: 1, green: 0, blue: 0)
    /// Purple.
    public static let purple = HeatMapColor(red: 0.5, green: 0, blue: 0.5)
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
