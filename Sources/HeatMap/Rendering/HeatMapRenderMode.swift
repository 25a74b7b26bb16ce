import Foundation

/// How contours are drawn.
public enum HeatMapRenderMode: Sendable, Hashable {
    /// Filled bands.
    case filled
    /// Only the contour lines, `lineWidth` pixels wide; `color` nil draws
    /// each line in its level's gradient colour.
    case isolines(lineWidth: Double = 1.5, color: HeatMapColor? = nil)
    /// Filled bands with contour lines on top.
    case filledWithIsolines(lineWidth: Double = 1, color: HeatMapColor? = nil)
}
