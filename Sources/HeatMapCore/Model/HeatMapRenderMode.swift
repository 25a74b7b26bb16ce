import Foundation

/// How contours are drawn, as in the Apple package.
///
/// ```swift
/// let lines = HeatMapStyle(renderMode: .isolines(lineWidth: 2))
/// let both = HeatMapStyle(renderMode: .filledWithIsolines(color: .white))
/// ```
public enum HeatMapRenderMode: Sendable, Hashable {
    /// Filled bands (the default).
    case filled
    /// Only the contour lines, `lineWidth` pixels wide; `color` nil draws
    /// each line in its level's gradient colour (made opaque, so that the
    /// faint low levels stay readable as lines).
    case isolines(lineWidth: Double = 1, color: HeatMapColor? = nil)
    /// Filled bands with the contour lines on top.
    case filledWithIsolines(lineWidth: Double = 1, color: HeatMapColor? = nil)

    /// Whether bands are filled.
    public var fills: Bool {
        switch self {
        case .filled, .filledWithIsolines: return true
        case .isolines: return false
        }
    }

    /// The line width and colour of isolines, or nil when none are drawn.
    public var isolineStroke: (lineWidth: Double, color: HeatMapColor?)? {
        switch self {
        case .filled: return nil
        case .isolines(let w, let c), .filledWithIsolines(let w, let c):
            return (w.isFinite ? max(w, 0) : 1, c)
        }
    }

    /// The mode from the tool's `--render` word: `filled`, `isolines` or
    /// `both`, with default line settings; nil otherwise.
    public init?(name: String) {
        switch name.lowercased() {
        case "filled", "fill", "bands": self = .filled
        case "isolines", "lines": self = .isolines()
        case "both", "filledwithisolines": self = .filledWithIsolines()
        default: return nil
        }
    }
}

extension HeatMapRenderMode: CustomStringConvertible {
    /// "filled", "isolines(1pt)", "filledWithIsolines(2pt, #ffffff)".
    public var description: String {
        switch self {
        case .filled: return "filled"
        case .isolines(let w, let c), .filledWithIsolines(let w, let c):
            let name = fills ? "filledWithIsolines" : "isolines"
            let width = HeatMapNumberFormat.string(w)
            return c.map { "\(name)(\(width)pt, \($0))" } ?? "\(name)(\(width)pt)"
        }
    }
}
