import Foundation

/// The colours that map levels (or bin values) from low to high.
///
/// The built-in gradients have the Apple package's stops: each starts
/// transparent and grows more opaque toward the high end, so low densities
/// let the basemap show through.
///
/// ```swift
/// let custom = HeatMapGradient(colors: [.clear, .blue.opacity(0.3), .green.opacity(0.6), .red])!
/// let fill = HeatMapGradient.thermal.color(for: 0.5)
/// ```
///
/// Colours between stops are blended in OKLab (a perceptual space) with
/// premultiplied alpha, so a fade from transparent keeps its hue and a
/// blend of two hues does not pass through grey. (The Apple package blends
/// in sRGB; the stops themselves are hit exactly either way.)
public struct HeatMapGradient: Sendable, Hashable {
    /// The stops, low to high, evenly spaced.
    public let colors: [HeatMapColor]

    /// A gradient through `colors`, low to high, evenly spaced; nil when
    /// fewer than two colours are given, as in the Apple package (one
    /// colour is not a gradient: ``monochrome(_:)`` fades one in).
    public init?(colors: [HeatMapColor]) {
        guard colors.count >= 2 else { return nil }
        self.colors = colors
    }

    /// Stops known to be valid (two or more).
    package init(validStops: [HeatMapColor]) {
        precondition(validStops.count >= 2, "a gradient needs two stops")
        colors = validStops
    }

    /// Transparent → blue → cyan → green → yellow → orange → red, growing
    /// from 0.4 to 0.9 opacity (the default, as in the Apple package).
    public static let thermal = HeatMapGradient(validStops: [
        .blue.opacity(0), .blue.opacity(0.4), .cyan.opacity(0.5), .green.opacity(0.6),
        .yellow.opacity(0.7), .orange.opacity(0.8), .red.opacity(0.9)
    ])

    /// Transparent → yellow → orange → red.
    public static let warm = HeatMapGradient(validStops: [
        .yellow.opacity(0), .yellow.opacity(0.4), .orange.opacity(0.6), .red.opacity(0.8), .red
    ])

    /// Transparent → cyan → blue → purple.
    public static let cool = HeatMapGradient(validStops: [
        .cyan.opacity(0), .cyan.opacity(0.4), .blue.opacity(0.6), .purple.opacity(0.8), .purple
    ])

    /// Transparent → `color`, in six evenly spaced opacity steps.
    public static func monochrome(_ color: HeatMapColor) -> HeatMapGradient {
        HeatMapGradient(validStops: (0...5).map { color.opacity(Double($0) / 5) })
    }

    /// The colour at `fraction` (0 = low, 1 = high; clamped, NaN counts as 0). O(1).
    ///
    /// The name of the Apple package's method.
    public func color(for fraction: Double) -> HeatMapColor {
        let f = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let scaled = f * Double(colors.count - 1)
        let i = min(Int(scaled), colors.count - 2)
        return HeatMapGradient.blend(colors[i], colors[i + 1], scaled - Double(i))
    }

    /// The colour at `fraction`; the same as ``color(for:)``.
    public func color(at fraction: Double) -> HeatMapColor { color(for: fraction) }

    /// The colour of level `level` (0-based) of `levelCount` levels: the
    /// gradient at (level + 1) / levelCount.
    ///
    /// Unlike the Apple package, which uses level / (levelCount − 1) and so
    /// draws the lowest band fully transparent with the built-in gradients,
    /// every level here is visible: the lowest is faint, the highest gets
    /// the last stop. A single level gets the last stop. Legends use the
    /// same colours. O(1).
    public func color(forLevel level: Int, of levelCount: Int) -> HeatMapColor {
        guard levelCount > 0 else { return color(for: 1) }
        let l = min(max(level, 0), levelCount - 1)
        return color(for: Double(l + 1) / Double(levelCount))
    }

    /// The gradient that bin values run along: without a transparent
    /// lowest stop (when three or more stops remain a gradient), so the
    /// emptiest occupied bin still shows. Bin pictures and bin GeoJSON both
    /// colour through it, so they agree.
    package var visibleForBins: HeatMapGradient {
        guard colors.count > 2, colors[0].alpha == 0 else { return self }
        return HeatMapGradient(validStops: Array(colors.dropFirst()))
    }

    /// Premultiplied-alpha blend of two stops in OKLab, `t` of the way from `a` to `b`.
    static func blend(_ a: HeatMapColor, _ b: HeatMapColor, _ t: Double) -> HeatMapColor {
        if t <= 0 { return a }
        if t >= 1 { return b }
        let alpha = a.alpha + (b.alpha - a.alpha) * t
        let la = OKLab(a), lb = OKLab(b)
        // With both stops transparent there is nothing to weight by: blend straight.
        let wa = (a.alpha + b.alpha) > 0 ? a.alpha : 1, wb = (a.alpha + b.alpha) > 0 ? b.alpha : 1
        let w = wa * (1 - t) + wb * t
        let mixed = OKLab(
            l: (la.l * wa * (1 - t) + lb.l * wb * t) / w,
            a: (la.a * wa * (1 - t) + lb.a * wb * t) / w,
            b: (la.b * wa * (1 - t) + lb.b * wb * t) / w)
        return mixed.color(alpha: alpha)
    }
}

extension HeatMapGradient {
    /// A gradient from its text form, as the tool's `--gradient` takes it:
    /// `thermal`, `warm`, `cool`, `monochrome:#RRGGBB` (or a colour name),
    /// or a comma-separated list of two or more colours (`#c1,#c2,…`;
    /// "#RRGGBBAA" carries opacity, names such as `clear` or `red` work too).
    ///
    /// - Throws: ``HeatMapRenderError/invalidGradient(_:)`` naming what is wrong.
    public init(parsing text: String) throws {
        let spec = text.trimmingCharacters(in: .whitespaces)
        switch spec.lowercased() {
        case "thermal": self = .thermal; return
        case "warm": self = .warm; return
        case "cool": self = .cool; return
        default: break
        }
        if spec.lowercased().hasPrefix("monochrome") {
            let rest = spec.dropFirst("monochrome".count)
            guard rest.hasPrefix(":"), let c = HeatMapColor(parsing: String(rest.dropFirst())) else {
                throw HeatMapRenderError.invalidGradient(
                    "'\(text)': monochrome needs a colour, as in monochrome:#d7301f")
            }
            self = .monochrome(c)
            return
        }
        let parts = spec.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var stops: [HeatMapColor] = []
        for (i, part) in parts.enumerated() {
            guard let c = HeatMapColor(parsing: part) else {
                throw HeatMapRenderError.invalidGradient(
                    "'\(text)': colour \(i + 1) '\(part)' is not #RRGGBB, #RRGGBBAA or a colour name "
                        + "(gradients: thermal, warm, cool, monochrome:#RRGGBB, #c1,#c2,…)")
            }
            stops.append(c)
        }
        guard stops.count >= 2 else {
            throw HeatMapRenderError.invalidGradient("'\(text)': a custom gradient needs at least two colours")
        }
        self.init(validStops: stops)
    }
}

extension HeatMapGradient: CustomStringConvertible {
    /// "HeatMapGradient.thermal (7 stops)", as in the Apple package.
    public var description: String {
        let name: String
        if self == .thermal {
            name = "thermal"
        } else if self == .warm {
            name = "warm"
        } else if self == .cool {
            name = "cool"
        } else {
            name = "custom"
        }
        return "HeatMapGradient.\(name) (\(colors.count) stops)"
    }
}
