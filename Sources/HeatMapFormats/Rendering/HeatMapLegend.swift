import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A colour legend, as the Apple package's `HeatMapLegend` view, that
/// renders to an SVG fragment instead of SwiftUI.
///
/// ```swift
/// let legend = HeatMapLegend(contours: contours)      // labels at the thresholds, with units
///     .axis(.horizontal)
/// let fragment = legend.svgFragment(x: 620, y: 40)    // a <g> to place in a picture
/// let picture = HeatMapLegend(gradient: .thermal, levelCount: 10)
///     .labels(.customLowHigh(low: "Cold", high: "Hot"))
///     .svg()                                          // a standalone SVG document
/// ```
///
/// Levels legends show one swatch per level, low at the bottom (vertical)
/// or left (horizontal), in the colours the renderer fills bands with;
/// threshold labels sit at the swatch boundaries: the label under a swatch
/// is its band's lower bound. Bin legends (``init(colorScale:units:showsZero:zeroLabel:)``)
/// show a continuous bar with ticks. Every text is XML-escaped.
public struct HeatMapLegend: Sendable, Hashable {
    /// The direction of the colour bar.
    public enum Axis: String, Sendable, Hashable, CaseIterable {
        /// Low at the bottom, high at the top (the default).
        case vertical
        /// Low at the left, high at the right.
        case horizontal
    }

    /// Which labels are shown along the bar (the Apple package's cases).
    public enum LabelVisibility: Sendable, Hashable {
        /// "Low" at the low end and "High" at the high end.
        case lowHigh
        /// Custom text at the low and high ends.
        case customLowHigh(low: String, high: String)
        /// The threshold values with units (ticks for bin legends); falls
        /// back to ``lowHigh`` when there are no thresholds (the default).
        case thresholds
        /// No labels.
        case hidden
    }

    enum Content: Sendable, Hashable {
        case levels(gradient: HeatMapGradient, count: Int, thresholds: [Double]?)
        case continuous(HeatMapColorScale, zeroLabel: String?)
    }

    let content: Content
    /// The unit of the values, e.g. "per km²" ("" for none).
    public private(set) var units: String
    /// The bar direction (default vertical).
    public private(set) var axisValue: Axis = .vertical
    /// The label mode (default thresholds).
    public private(set) var labelVisibility: LabelVisibility = .thresholds
    /// A caption above the bar, or nil.
    public private(set) var titleText: String?
    /// The opacity applied to the swatches (the style's fill opacity), 0...1.
    public private(set) var swatchOpacity: Double = 1
    /// The bar length in pixels (nil: 200 vertical, 260 horizontal).
    public private(set) var barLength: Double?

    /// A legend of `levelCount` levels of `gradient` with "Low"/"High"
    /// labels (there are no thresholds to show). `levelCount` is clamped to at least 1.
    public init(gradient: HeatMapGradient, levelCount: Int) {
        content = .levels(gradient: gradient, count: max(levelCount, 1), thresholds: nil)
        units = ""
    }

    /// A legend of computed contours: their gradient (from the
    /// configuration), level count, thresholds and units.
    public init(contours: HeatMapContours) {
        self.init(thresholds: contours.thresholds, units: contours.units, gradient: contours.gradient)
    }

    /// A legend of levels at `thresholds` (ascending) in `units`.
    public init(thresholds: [Double], units: String, gradient: HeatMapGradient = .thermal) {
        content = .levels(
            gradient: gradient, count: max(thresholds.count, 1),
            thresholds: thresholds.isEmpty ? nil : thresholds)
        self.units = units
    }

    /// A continuous legend of a bin colour scale, with round ticks in
    /// `units`; `showsZero` adds a swatch of the scale's zero colour,
    /// labelled `zeroLabel` ("0", or e.g. "empty" for cells without points).
    public init(colorScale: HeatMapColorScale, units: String = "", showsZero: Bool = false, zeroLabel: String = "0") {
        content = .continuous(colorScale, zeroLabel: showsZero ? zeroLabel : nil)
        self.units = units
    }

    /// The same legend along `axis`.
    public func axis(_ axis: Axis) -> HeatMapLegend {
        var copy = self
        copy.axisValue = axis
        return copy
    }

    /// The same legend with other labels.
    public func labels(_ visibility: LabelVisibility) -> HeatMapLegend {
        var copy = self
        copy.labelVisibility = visibility
        return copy
    }

    /// The same legend with a caption above the bar (nil for none).
    public func title(_ text: String?) -> HeatMapLegend {
        var copy = self
        copy.titleText = text
        return copy
    }

    /// The same legend with swatches at `opacity` (match the style's fill opacity).
    public func opacity(_ opacity: Double) -> HeatMapLegend {
        var copy = self
        copy.swatchOpacity = HeatMapColor.clampedOpacity(opacity)
        return copy
    }

    /// The same legend with a bar `length` pixels long (at least 40).
    public func length(_ length: Double) -> HeatMapLegend {
        var copy = self
        copy.barLength = length.isFinite ? max(length, 40) : nil
        return copy
    }

    /// The labels as drawn, low to high (after thinning for space).
    public var labelTexts: [String] { layout().labels.map(\.text) }

    /// The pixel size of the legend's box.
    public var size: (width: Double, height: Double) {
        let l = layout()
        return (l.width, l.height)
    }

    /// The legend as an SVG `<g>` element whose box's top-left corner is at (x, y).
    public func svgFragment(x: Double = 0, y: Double = 0) -> String {
        var w = SVGWriter()
        write(into: &w, x: x, y: y)
        return w.text
    }

    /// The legend as a standalone SVG document, with a small margin.
    public func svg() -> String {
        let l = layout(), pad = 8.0
        var w = SVGWriter()
        w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        w.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("width", SVGWriter.px(l.width + 2 * pad)), ("height", SVGWriter.px(l.height + 2 * pad)),
                ("viewBox", "0 0 \(SVGWriter.px(l.width + 2 * pad)) \(SVGWriter.px(l.height + 2 * pad))"),
                ("font-family", LegendMetrics.fontFamily)
            ])
        w.raw("\n")
        write(into: &w, x: pad, y: pad)
        w.close("svg")
        return w.text
    }

    package func write(into w: inout SVGWriter, x: Double, y: Double) {
        let l = layout()
        w.open(
            "g",
            [
                ("class", "legend"), ("transform", "translate(\(SVGWriter.px(x)) \(SVGWriter.px(y)))"),
                ("font-size", SVGWriter.px(LegendMetrics.fontSize))
            ])
        w.raw("\n")
        if let title = l.title {
            w.textElement(
                title,
                [
                    ("x", SVGWriter.px(l.titleX)), ("y", SVGWriter.px(LegendMetrics.fontSize)),
                    ("font-weight", "600"), ("fill", "#333333")
                ])
        }
        let bar = l.bar
        switch content {
        case .levels(let gradient, let count, _):
            for level in 0..<count {
                let (a, b) = (Double(level) / Double(count), Double(level + 1) / Double(count))
                let r = l.segment(from: a, to: b)
                w.element(
                    "rect",
                    [
                        ("x", SVGWriter.px(r.x)), ("y", SVGWriter.px(r.y)),
                        ("width", SVGWriter.px(r.width)), ("height", SVGWriter.px(r.height))
                    ]
                        + SVGWriter.fill(gradient.color(forLevel: level, of: count), opacity: swatchOpacity))
            }
        case .continuous(let scale, let zeroText):
            let id = "hm-legend-bar"
            w.open("defs", [])
            let vertical = axisValue == .vertical
            w.open(
                "linearGradient",
                [
                    ("id", id), ("x1", "0"), ("y1", vertical ? "1" : "0"),
                    ("x2", vertical ? "0" : "1"), ("y2", "0")
                ])
            for k in 0...16 {
                let p = Double(k) / 16
                let c = scale.color(atPosition: p)
                w.element(
                    "stop",
                    [
                        ("offset", NumberText.fixed(p, decimals: 4)), ("stop-color", c.hex),
                        ("stop-opacity", NumberText.fixed(c.alpha * swatchOpacity, decimals: 3))
                    ])
            }
            w.close("linearGradient")
            w.close("defs")
            w.element(
                "rect",
                [
                    ("x", SVGWriter.px(bar.x)), ("y", SVGWriter.px(bar.y)),
                    ("width", SVGWriter.px(bar.width)), ("height", SVGWriter.px(bar.height)),
                    ("fill", "url(#\(id))")
                ])
            if zeroText != nil, let z = l.zeroSwatch {
                w.element(
                    "rect",
                    [
                        ("x", SVGWriter.px(z.x)), ("y", SVGWriter.px(z.y)),
                        ("width", SVGWriter.px(z.width)), ("height", SVGWriter.px(z.height)),
                        ("stroke", "#999999"), ("stroke-width", "0.5")
                    ]
                        + SVGWriter.fill(scale.zeroColor, opacity: swatchOpacity))
            }
        }
        // A hairline frame shows where the transparent low end of the bar is.
        w.element(
            "rect",
            [
                ("x", SVGWriter.px(bar.x)), ("y", SVGWriter.px(bar.y)),
                ("width", SVGWriter.px(bar.width)), ("height", SVGWriter.px(bar.height)),
                ("fill", "none"), ("stroke", "#999999"), ("stroke-width", "0.5")
            ])
        for label in l.labels {
            let t = l.tick(at: label.position)
            w.element(
                "line",
                [
                    ("x1", SVGWriter.px(t.x1)), ("y1", SVGWriter.px(t.y1)),
                    ("x2", SVGWriter.px(t.x2)), ("y2", SVGWriter.px(t.y2)),
                    ("stroke", "#666666"), ("stroke-width", "0.75")
                ])
            let anchor = l.labelAnchor(for: label)
            w.textElement(
                label.text,
                [
                    ("x", SVGWriter.px(anchor.x)), ("y", SVGWriter.px(anchor.y)),
                    ("text-anchor", anchor.anchor), ("fill", "#333333")
                ])
        }
        if let z = l.zeroSwatch, let text = l.zeroLabel {
            let vertical = axisValue == .vertical
            w.textElement(
                text,
                [
                    ("x", SVGWriter.px(vertical ? z.maxX + 6 : z.x + z.width / 2)),
                    ("y", SVGWriter.px(vertical ? z.y + z.height / 2 + 4 : z.maxY + 4 + LegendMetrics.fontSize)),
                    ("text-anchor", vertical ? "start" : "middle"), ("fill", "#333333")
                ])
        }
        w.close("g")
    }
}

extension HeatMapLegend {
    /// Where the low and high ends of the bar lie, and their texts.
    struct Label: Hashable {
        /// Position along the bar, 0 (low) … 1 (high).
        var position: Double
        package var text: String
    }

    /// The resolved geometry of a legend, relative to its top-left corner.
    struct Layout {
        package var width: Double
        package var height: Double
        package var bar: PixelRect
        package var vertical: Bool
        var labels: [Label]
        package var title: String?
        var titleX: Double
        var zeroSwatch: PixelRect?
        var zeroLabel: String?

        /// The sub-rectangle of the bar between two positions.
        func segment(from a: Double, to b: Double) -> PixelRect {
            if vertical {
                return PixelRect(x: bar.x, y: bar.maxY - b * bar.height, width: bar.width, height: (b - a) * bar.height)
            }
            return PixelRect(x: bar.x + a * bar.width, y: bar.y, width: (b - a) * bar.width, height: bar.height)
        }

        /// A short tick mark outside the bar at a position.
        func tick(at p: Double) -> (x1: Double, y1: Double, x2: Double, y2: Double) {
            if vertical {
                let y = bar.maxY - p * bar.height
                return (bar.maxX, y, bar.maxX + 4, y)
            }
            let x = bar.x + p * bar.width
            return (x, bar.maxY, x, bar.maxY + 4)
        }

        func labelAnchor(for label: Label) -> (x: Double, y: Double, anchor: String) {
            if vertical {
                return (bar.maxX + 6, bar.maxY - label.position * bar.height + LegendMetrics.fontSize * 0.35, "start")
            }
            return (bar.x + label.position * bar.width, bar.maxY + 4 + LegendMetrics.fontSize, "middle")
        }
    }

    func layout() -> Layout {
        let vertical = axisValue == .vertical
        let fs = LegendMetrics.fontSize
        let length = barLength ?? (vertical ? 200 : 260)
        let thickness = 14.0
        var labels = candidateLabels(vertical: vertical, length: length)
        labels = LegendMetrics.thinned(labels, length: length, vertical: vertical)

        // Units go on each label when the bar is vertical (there is room to
        // the right); on a horizontal bar they go once, in the caption.
        var title = titleText
        if !vertical, !units.isEmpty, labelsShowValues {
            title = title.map { "\($0) (\(units))" } ?? units
        }
        let titleHeight = title == nil ? 0 : fs + 7
        let labelWidths = labels.map { LegendMetrics.textWidth($0.text) }
        let maxLabel = labelWidths.max() ?? 0
        var zeroLabel: String?
        if case .continuous(_, let text) = content { zeroLabel = text }
        let zeroGap = zeroLabel == nil ? 0.0 : 8 + 10

        if vertical {
            let top = titleHeight + fs / 2
            let bar = PixelRect(x: 0, y: top, width: thickness, height: length)
            let zero = zeroLabel == nil ? nil : PixelRect(x: 0, y: bar.maxY + 8, width: thickness, height: 10)
            let labelSpace =
                labels.isEmpty && zeroLabel == nil
                ? 0 : 6 + max(maxLabel, zeroLabel.map { LegendMetrics.textWidth($0) } ?? 0)
            let width = max(thickness + labelSpace, title.map(LegendMetrics.boldTextWidth) ?? 0)
            return Layout(
                width: width, height: bar.maxY + fs / 2 + zeroGap, bar: bar, vertical: true,
                labels: labels, title: title, titleX: 0, zeroSwatch: zero,
                zeroLabel: zeroLabel)
        }
        // The zero swatch sits left of the bar, its label centred under it.
        let zeroRoom = zeroLabel.map { max(14, LegendMetrics.textWidth($0)) + 10 } ?? 0
        let leftPad = (labelWidths.first.map { $0 / 2 } ?? 0) + zeroRoom
        let rightPad = labelWidths.last.map { $0 / 2 } ?? 0
        let bar = PixelRect(x: leftPad, y: titleHeight, width: length, height: thickness)
        let zero =
            zeroLabel == nil
            ? nil
            : PixelRect(x: (zeroRoom - 10) / 2 - 7, y: titleHeight, width: 14, height: thickness)
        let width = max(leftPad + length + rightPad, leftPad + (title.map(LegendMetrics.boldTextWidth) ?? 0))
        let labelHeight = labels.isEmpty && zeroLabel == nil ? 0 : 4 + fs + 3
        return Layout(
            width: width, height: titleHeight + thickness + labelHeight, bar: bar, vertical: false,
            labels: labels, title: title, titleX: leftPad,
            zeroSwatch: zero, zeroLabel: zeroLabel)
    }

    /// Whether the labels are numbers (so units belong with them).
    private var labelsShowValues: Bool {
        guard case .thresholds = labelVisibility else { return false }
        switch content {
        case .levels(_, _, let t): return t != nil
        case .continuous: return true
        }
    }

    private func candidateLabels(vertical: Bool, length: Double) -> [Label] {
        switch labelVisibility {
        case .hidden:
            return []
        case .lowHigh:
            return [Label(position: 0, text: "Low"), Label(position: 1, text: "High")]
        case .customLowHigh(let low, let high):
            return [Label(position: 0, text: low), Label(position: 1, text: high)]
        case .thresholds:
            switch content {
            case .levels(_, let count, let thresholds):
                guard let thresholds else {
                    return [Label(position: 0, text: "Low"), Label(position: 1, text: "High")]
                }
                let texts = HeatMapNumberFormat.strings(thresholds)
                return texts.enumerated().map { i, t in
                    Label(position: Double(i) / Double(count), text: vertical ? HeatMapNumberFormat.join(t, units) : t)
                }
            case .continuous(let scale, _):
                let ticks = scale.ticks(count: max(2, Int(length / (vertical ? 36 : 60))))
                let texts = HeatMapNumberFormat.strings(ticks)
                var out: [Label] = []
                for (v, t) in zip(ticks, texts) {
                    // Zero has no position on the scale itself; it sits at the low end.
                    let p = scale.position(of: v) ?? 0
                    out.append(Label(position: p, text: vertical ? HeatMapNumberFormat.join(t, units) : t))
                }
                return out
            }
        }
    }
}

/// Font and text-size estimates for laying out legends and captions
/// without a font engine: about 0.6 em per character at 11 px.
enum LegendMetrics {
    static let fontSize = 11.0
    static let fontFamily = "system-ui, -apple-system, 'Segoe UI', 'Helvetica Neue', Arial, sans-serif"

    /// Estimated width of `text` in pixels at `size`.
    static func textWidth(_ text: String, size: Double = fontSize) -> Double {
        Double(text.count) * size * 0.6
    }

    static func boldTextWidth(_ text: String) -> Double { textWidth(text) * 1.08 }

    /// Every k-th label (k as small as possible) so that neighbours do not
    /// overlap; the first label (the low end) is always kept.
    static func thinned(_ labels: [HeatMapLegend.Label], length: Double, vertical: Bool) -> [HeatMapLegend.Label] {
        guard labels.count > 1 else { return labels }
        for step in 1...labels.count {
            let kept = stride(from: 0, to: labels.count, by: step).map { labels[$0] }
            var fits = true
            for (a, b) in zip(kept, kept.dropFirst()) {
                let gap = (b.position - a.position) * length
                let need = vertical ? fontSize + 2 : (textWidth(a.text) + textWidth(b.text)) / 2 + 8
                if gap < need { fits = false; break }
            }
            if fits { return kept }
        }
        return [labels[0]]
    }
}
