import Foundation

/// An sRGB colour with straight (not premultiplied) alpha, each component 0...1.
///
/// Stands in for SwiftUI's `Color` on Linux, so code written for the Apple
/// package (`.blue.opacity(0.4)`, `.clear`) ports unchanged. The named
/// colours are Apple's light-mode system colours, so gradients look as
/// they do on Apple platforms.
public struct HeatMapColor: Sendable, Hashable, Codable {
    /// Red, 0...1 (sRGB).
    public var red: Double
    /// Green, 0...1 (sRGB).
    public var green: Double
    /// Blue, 0...1 (sRGB).
    public var blue: Double
    /// Opacity, 0...1.
    public var alpha: Double

    /// Creates a colour; components are clamped to 0...1 (non-finite ones become 0).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// A colour from 0...255 sRGB bytes.
    public init(red8: Int, green8: Int, blue8: Int, alpha: Double = 1) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255, alpha: alpha)
    }

    /// A colour from "#RGB", "#RRGGBB" or "#RRGGBBAA" (the "#" is optional,
    /// hex digits in either case); nil if malformed.
    public init?(hex: String) {
        var s = Substring(hex.trimmingCharacters(in: .whitespaces))
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.allSatisfy(\.isHexDigit) else { return nil }
        if s.count == 3 {
            // "#abc" is shorthand for "#aabbcc".
            s = Substring(s.map { "\($0)\($0)" }.joined())
        }
        guard s.count == 6 || s.count == 8, let v = UInt64(s, radix: 16) else { return nil }
        let n = s.count == 6 ? (v << 8) | 0xff : v
        self.init(
            red: Double((n >> 24) & 0xff) / 255, green: Double((n >> 16) & 0xff) / 255,
            blue: Double((n >> 8) & 0xff) / 255, alpha: Double(n & 0xff) / 255)
    }

    /// A colour from a hex form (see ``init(hex:)``) or one of the names
    /// below ("red", "clear", …, case-insensitive); nil otherwise.
    public init?(parsing text: String) {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = HeatMapColor.named[key] {
            self = named
        } else {
            self.init(hex: key)
        }
    }

    /// "#rrggbb", lower case (alpha is not included; see ``opacityText``).
    public var hex: String {
        func byte(_ v: Double) -> String {
            let b = Int((v * 255).rounded())
            return String(b, radix: 16).leftPadded(to: 2)
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }

    /// The opacity as short text for SVG/CSS ("0.4", "1").
    public var opacityText: String { NumberText.fixed(alpha, decimals: 3) }

    /// The same colour with its opacity multiplied by `opacity`, as
    /// SwiftUI's `Color.opacity(_:)` does (`.blue.opacity(0.4)` is blue at 0.4).
    public func opacity(_ opacity: Double) -> HeatMapColor {
        HeatMapColor(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }

    /// The same colour with its opacity replaced by `alpha`.
    public func withAlpha(_ alpha: Double) -> HeatMapColor {
        HeatMapColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Fully transparent black (SwiftUI's `Color.clear`).
    public static let clear = HeatMapColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Black.
    public static let black = HeatMapColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = HeatMapColor(red: 1, green: 1, blue: 1)
    /// Apple system gray (142, 142, 147).
    public static let gray = HeatMapColor(red8: 142, green8: 142, blue8: 147)
    /// Apple system blue (0, 122, 255).
    public static let blue = HeatMapColor(red8: 0, green8: 122, blue8: 255)
    /// Apple system cyan (50, 173, 230).
    public static let cyan = HeatMapColor(red8: 50, green8: 173, blue8: 230)
    /// Apple system teal (48, 176, 199).
    public static let teal = HeatMapColor(red8: 48, green8: 176, blue8: 199)
    /// Apple system mint (0, 199, 190).
    public static let mint = HeatMapColor(red8: 0, green8: 199, blue8: 190)
    /// Apple system green (52, 199, 89).
    public static let green = HeatMapColor(red8: 52, green8: 199, blue8: 89)
    /// Apple system yellow (255, 204, 0).
    public static let yellow = HeatMapColor(red8: 255, green8: 204, blue8: 0)
    /// Apple system orange (255, 149, 0).
    public static let orange = HeatMapColor(red8: 255, green8: 149, blue8: 0)
    /// Apple system red (255, 59, 48).
    public static let red = HeatMapColor(red8: 255, green8: 59, blue8: 48)
    /// Apple system pink (255, 45, 85).
    public static let pink = HeatMapColor(red8: 255, green8: 45, blue8: 85)
    /// Apple system purple (175, 82, 222).
    public static let purple = HeatMapColor(red8: 175, green8: 82, blue8: 222)
    /// Apple system indigo (88, 86, 214).
    public static let indigo = HeatMapColor(red8: 88, green8: 86, blue8: 214)
    /// Apple system brown (162, 132, 94).
    public static let brown = HeatMapColor(red8: 162, green8: 132, blue8: 94)

    /// The names ``init(parsing:)`` knows.
    package static let named: [String: HeatMapColor] = [
        "clear": .clear, "black": .black, "white": .white, "gray": .gray, "grey": .gray,
        "blue": .blue, "cyan": .cyan, "teal": .teal, "mint": .mint, "green": .green,
        "yellow": .yellow, "orange": .orange, "red": .red, "pink": .pink, "purple": .purple,
        "indigo": .indigo, "brown": .brown
    ]
}

extension HeatMapColor {
    /// The opacity rule of every output (pictures, legends, GeoJSON
    /// `fill-opacity`, configurations and styles): clamped to 0...1,
    /// anything non-finite is 1.
    package static func clampedOpacity(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), 1) : 1
    }
}

extension HeatMapColor: CustomStringConvertible {
    /// "#rrggbb", with "@alpha" when not opaque.
    public var description: String { alpha < 1 ? "\(hex)@\(opacityText)" : hex }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
