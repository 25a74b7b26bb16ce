import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Builds the scene of a contour picture: one path per level (all its
/// polygons as subpaths, holes included, filled even-odd), then isolines.
enum ContourScene {
    package static func make(
        set: ContourSet, fallbackBox: PlaneBox, projection: PlaneProjection, units: String,
        style: HeatMapStyle, options: HeatMapRenderOptions, grid: DensityGrid? = nil
    ) -> PictureScene {
        let thresholds = set.thresholds
        let count = thresholds.count
        let mode = options.contourMode
        let polygons: [[PlanePolygon]] = mode == .levels ? set.levels : set.bands
        let fills = style.renderMode.fills && mode != .isolines
        var stroke = style.renderMode.isolineStroke
        if mode == .isolines && stroke == nil { stroke = (1, nil) }
        let lines = isolines(of: set)

        var box = PlaneBox.empty
        for level in polygons { for p in level { box.formUnion(p.bounds) } }
        if box.isEmpty { for level in lines { for ring in level { for p in ring { box.formUnion(p) } } } }
        if box.isEmpty { box = fallbackBox }

        let texts = HeatMapNumberFormat.strings(thresholds)
        var tips = TooltipData()
        for level in 0..<count {
            let range: String
            if mode == .bands && fills, level + 1 < count {
                range = HeatMapNumberFormat.join("\(texts[level]) – \(texts[level + 1])", units)
            } else {
                range = "≥ " + HeatMapNumberFormat.join(texts[level], units)
            }
            tips.levels.append(["Level \(level + 1) of \(count)", range])
        }

        let gradient = style.gradient
        let reducer = PictureComposer.dataReducer
        let draw: (inout SVGWriter, ViewTransform) -> Void = { w, t in
            if fills {
                for level in 0..<min(count, polygons.count) {
                    var d = SVGPathData()
                    for polygon in polygons[level] {
                        d.add(reducer.reduce(polygon.exterior.map(t.pixel), closed: true), closed: true)
                        for hole in polygon.holes {
                            d.add(reducer.reduce(hole.map(t.pixel), closed: true), closed: true)
                        }
                    }
                    guard !d.isEmpty else { continue }
                    var a: [(String, String)] = [("class", mode == .levels ? "level" : "band")]
                    a += SVGWriter.fill(gradient.color(forLevel: level, of: count))
                    a += [
                        ("fill-rule", "evenodd"), ("data-level", String(level)),
                        ("data-threshold", NumberText.data(thresholds[level]))
                    ]
                    if mode == .bands, level + 1 < count {
                        a.append(("data-upper", NumberText.data(thresholds[level + 1])))
                    }
                    w.path(d, a)
                }
            }
            if let (width, color) = stroke {
                for level in 0..<min(count, lines.count) {
                    var d = SVGPathData()
                    for ring in lines[level] { d.add(reducer.reduce(ring.map(t.pixel), closed: true), closed: true) }
                    guard !d.isEmpty else { continue }
                    let c = color ?? gradient.color(forLevel: level, of: count).withAlpha(1)
                    w.path(
                        d,
                        [
                            ("class", "isoline"), ("fill", "none"),
                            ("stroke-linejoin", "round")
                        ]
                            + SVGWriter.stroke(c, width: width)
                            + [
                                ("data-level", String(level)),
                                ("data-threshold", NumberText.data(thresholds[level]))
                            ])
                }
            }
        }
        let caption = grid.flatMap(KernelCaption.text)
        let legend = HeatMapLegend(thresholds: thresholds, units: units, gradient: gradient)
            .labels(options.legendLabels).title(options.legendTitle ?? caption).opacity(style.fillOpacity)
        let summary =
            "Contours: \(count) levels" + (units.isEmpty ? "" : " (\(units))")
            + (texts.isEmpty ? "" : ", thresholds " + texts.joined(separator: ", "))
            + (caption.map { "; " + $0 } ?? "")
        return PictureScene(
            dataBox: box, projection: projection, legend: count > 0 ? legend : nil,
            opacity: style.fillOpacity, drawData: draw, tooltips: tips, summary: summary,
            field: grid.flatMap(ValueField.init), valueUnits: units)
    }

    /// The set's isolines, or, where a level has none, the rings of its
    /// superlevel polygons (the same lines).
    package static func isolines(of set: ContourSet) -> [[[PlanePoint]]] {
        (0..<set.thresholds.count).map { level in
            if level < set.isolines.count, !set.isolines[level].isEmpty { return set.isolines[level] }
            guard level < set.levels.count else { return [] }
            return set.levels[level].flatMap { [$0.exterior] + $0.holes }
        }
    }
}

/// Builds the scene of a bin picture: one path per cell, coloured by its value.
enum BinScene {
    /// A figure for a tooltip: whole numbers up to six digits (215,000),
    /// else three decimals at most (4.434), six significant digits below 1.
    static func tooltipNumber(_ v: Double) -> String {
        guard v.isFinite, abs(v) >= 1 else { return HeatMapNumberFormat.string(v, significantDigits: 6) }
        let exponent = Int(floor(log10(abs(v))))
        return HeatMapNumberFormat.string(v, significantDigits: min(6, max(exponent + 4, 1)))
    }

    /// The mean of a cell's corners (its centre for a regular cell),
    /// rounded to a millionth of the cell's width so that a centre at 0
    /// reads 0, not 1e-17.
    package static func centre(_ corners: [PlanePoint]) -> PlanePoint {
        guard !corners.isEmpty else { return PlanePoint(x: 0, y: 0) }
        let n = Double(corners.count)
        var box = PlaneBox.empty
        for p in corners { box.formUnion(p) }
        let quantum = max(box.width, box.height) * 1e-6
        func round(_ v: Double) -> Double { quantum > 0 && quantum.isFinite ? (v / quantum).rounded() * quantum : v }
        return PlanePoint(x: round(corners.reduce(0) { $0 + $1.x } / n), y: round(corners.reduce(0) { $0 + $1.y } / n))
    }

    package static func make(
        layer: HeatMapBinLayer, style: HeatMapStyle, scale type: HeatMapScaleType,
        options: HeatMapRenderOptions
    ) -> PictureScene {
        let bins = layer.bins
        let scale = HeatMapColorScale(
            type: type, values: bins.filter { $0.count > 0 }.map(\.value),
            gradient: style.gradient)
        var box = PlaneBox.empty
        for b in bins { for p in b.corners { box.formUnion(p) } }
        var tips = TooltipData()
        let showValue = layer.valueName.lowercased() != "count"
        for b in bins {
            var lines: [String] = []
            if !b.id.isEmpty { lines.append(b.id) }
            lines.append("centre " + PlaceText.text(layer.projection, centre(b.corners)))
            lines.append("count: " + HeatMapNumberFormat.string(Double(b.count), significantDigits: 15))
            if showValue {
                let v =
                    b.count > 0 || b.value != 0
                    ? HeatMapNumberFormat.join(tooltipNumber(b.value), layer.units) : "—"
                lines.append("\(layer.valueName): \(v)")
            }
            for a in b.aggregates {
                lines.append("\(a.name): " + tooltipNumber(a.value))
            }
            tips.bins.append(lines)
        }
        let stroke = options.binStroke
        let draw: (inout SVGWriter, ViewTransform) -> Void = { w, t in
            for (i, b) in bins.enumerated() {
                var d = SVGPathData()
                d.add(b.corners.map(t.pixel), closed: true)
                guard !d.isEmpty else { continue }
                let color = b.count == 0 ? scale.zeroColor : scale.color(for: b.value)
                var a: [(String, String)] = [("class", "bin")] + SVGWriter.fill(color)
                if let s = stroke { a += SVGWriter.stroke(s, width: 0.5) }
                a += [("data-count", String(b.count)), ("data-value", NumberText.data(b.value)), ("data-i", String(i))]
                w.path(d, a)
            }
        }
        // Name the faint swatch for what it stands for: zero, cells without points, or both.
        let hasEmpty = bins.contains { $0.count == 0 }, hasZeroValue = bins.contains { $0.count > 0 && $0.value == 0 }
        let isCount = layer.valueName.lowercased() == "count"
        let zeroLabel = isCount || !hasEmpty ? "0" : (hasZeroValue ? "0 or empty" : "empty")
        let legend = HeatMapLegend(
            colorScale: scale, units: layer.units, showsZero: hasEmpty || hasZeroValue,
            zeroLabel: zeroLabel
        )
        .labels(options.legendLabels).title(options.legendTitle ?? layer.valueName).opacity(style.fillOpacity)
        let summary = "Bins: \(bins.count) cells, \(layer.valueName) on a \(type) scale"
        return PictureScene(
            dataBox: box, projection: layer.projection, legend: bins.isEmpty ? nil : legend,
            opacity: style.fillOpacity, drawData: draw, tooltips: tips, summary: summary)
    }
}
