import Foundation

/// A small SVG text builder: elements with escaped attributes and text,
/// pixel numbers with at most two decimals. Output depends only on the
/// calls made, so pictures are byte-for-byte deterministic.
struct SVGWriter {
    private(set) var text = ""

    /// Pixel-space number: two decimals, trailing zeros dropped.
    static func px(_ v: Double) -> String { NumberText.fixed(v, decimals: 2) }

    mutating func raw(_ s: String) { text += s }

    /// `<name a="v" …>` (or `/>` when `selfClosing`); values are escaped.
    mutating func open(_ name: String, _ attributes: [(String, String)], selfClosing: Bool = false) {
        text += "<" + name
        for (k, v) in attributes { text += " " + k + "=\"" + MarkupEscaping.attribute(v) + "\"" }
        text += selfClosing ? "/>\n" : ">"
    }

    mutating func close(_ name: String) { text += "</" + name + ">\n" }

    /// A self-closing element.
    mutating func element(_ name: String, _ attributes: [(String, String)]) {
        open(name, attributes, selfClosing: true)
    }

    /// `<text …>escaped</text>`.
    mutating func textElement(_ content: String, _ attributes: [(String, String)]) {
        open("text", attributes)
        text += MarkupEscaping.text(content)
        close("text")
    }

    /// Fill attributes of a colour: `fill` plus `fill-opacity` when not opaque.
    static func fill(_ c: HeatMapColor, opacity: Double = 1) -> [(String, String)] {
        let a = c.alpha * opacity
        return a < 1 ? [("fill", c.hex), ("fill-opacity", NumberText.fixed(a, decimals: 3))] : [("fill", c.hex)]
    }

    /// Stroke attributes of a colour: `stroke` plus `stroke-opacity` when not opaque.
    static func stroke(_ c: HeatMapColor, width: Double) -> [(String, String)] {
        var a: [(String, String)] = [("stroke", c.hex), ("stroke-width", px(width))]
        if c.alpha < 1 { a.append(("stroke-opacity", NumberText.fixed(c.alpha, decimals: 3))) }
        return a
    }
}

/// Path data ("M1 2L3 4 5 6Z") built from pixel points, with consecutive
/// points that round to the same pixel position (0.01 px) dropped.
struct SVGPathData {
    private(set) var text = ""

    var isEmpty: Bool { text.isEmpty }

    /// Adds a ring (closed with "Z") or a line; rings of fewer than three
    /// distinct rounded points and lines of fewer than two are skipped,
    /// as they draw nothing. O(points).
    mutating func add(_ points: [(x: Double, y: Double)], closed: Bool) {
        var keys: [(Int64, Int64)] = []
        keys.reserveCapacity(points.count)
        for p in points {
            guard p.x.isFinite, p.y.isFinite else { continue }
            let k = (Int64((min(max(p.x, -1e9), 1e9) * 100).rounded()), Int64((min(max(p.y, -1e9), 1e9) * 100).rounded()))
            if let last = keys.last, last == k { continue }
            keys.append(k)
        }
        if closed, keys.count > 1, keys[0] == keys[keys.count - 1] { keys.removeLast() }
        guard keys.count >= (closed ? 3 : 2) else { return }
        func num(_ v: Int64) -> String { NumberText.fixed(Double(v) / 100, decimals: 2) }
        var s = "M" + num(keys[0].0) + " " + num(keys[0].1) + "L"
        for (i, k) in keys.dropFirst().enumerated() {
            if i > 0 { s += " " }
            s += num(k.0) + " " + num(k.1)
        }
        if closed { s += "Z" }
        text += s
    }
}
