import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A small SVG text builder: elements with escaped attributes and text,
/// pixel numbers with at most two decimals. Output depends only on the
/// calls made, so pictures are byte-for-byte deterministic.
package struct SVGWriter {
    package private(set) var text = ""

    /// Pixel-space number: two decimals, trailing zeros dropped.
    static func px(_ v: Double) -> String { NumberText.fixed(v, decimals: 2) }

    package mutating func raw(_ s: String) { text += s }

    /// `<name a="v" …>` (or `/>` when `selfClosing`); values are escaped.
    package mutating func open(_ name: String, _ attributes: [(String, String)], selfClosing: Bool = false) {
        text += "<" + name
        for (k, v) in attributes { text += " " + k + "=\"" + MarkupEscaping.attribute(v) + "\"" }
        text += selfClosing ? "/>\n" : ">"
    }

    package mutating func close(_ name: String) { text += "</" + name + ">\n" }

    /// A `<path>` whose `d` comes first and unescaped (path data is only
    /// digits, signs, spaces and commands), then the other attributes.
    package mutating func path(_ d: SVGPathData, _ attributes: [(String, String)]) {
        text += "<path d=\""
        text += d.text
        text += "\""
        for (k, v) in attributes { text += " " + k + "=\"" + MarkupEscaping.attribute(v) + "\"" }
        text += "/>\n"
    }

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
///
/// Written straight into UTF-8 bytes with integer arithmetic: pictures of
/// millions of vertices are common, and this is the renderer's hot loop.
package struct SVGPathData {
    private var bytes: [UInt8] = []
    private var keys: [(Int64, Int64)] = []

    package var isEmpty: Bool { bytes.isEmpty }
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Adds a ring (closed with "Z") or a line; rings of fewer than three
    /// distinct rounded points and lines of fewer than two are skipped,
    /// as they draw nothing. O(points).
    package mutating func add(_ points: [(x: Double, y: Double)], closed: Bool) {
        keys.removeAll(keepingCapacity: true)
        for p in points {
            guard p.x.isFinite, p.y.isFinite else { continue }
            let k = (
                Int64((min(max(p.x, -1e9), 1e9) * 100).rounded()), Int64((min(max(p.y, -1e9), 1e9) * 100).rounded())
            )
            if let last = keys.last, last == k { continue }
            keys.append(k)
        }
        if closed, keys.count > 1, keys[0] == keys[keys.count - 1] { keys.removeLast() }
        guard keys.count >= (closed ? 3 : 2) else { return }
        bytes.append(UInt8(ascii: "M"))
        for (i, k) in keys.enumerated() {
            if i == 1 { bytes.append(UInt8(ascii: "L")) } else if i > 1 { bytes.append(UInt8(ascii: " ")) }
            SVGPathData.append(k.0, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            SVGPathData.append(k.1, to: &bytes)
        }
        if closed { bytes.append(UInt8(ascii: "Z")) }
    }

    /// Appends hundredths as a decimal: 1250 → "12.5", -3 → "-0.03", 0 → "0".
    package static func append(_ hundredths: Int64, to out: inout [UInt8]) {
        var v = hundredths
        if v < 0 { out.append(UInt8(ascii: "-")); v = -v }
        let whole = v / 100, frac = Int(v % 100)
        appendInteger(whole, to: &out)
        if frac != 0 {
            out.append(UInt8(ascii: "."))
            out.append(UInt8(ascii: "0") + UInt8(frac / 10))
            if frac % 10 != 0 { out.append(UInt8(ascii: "0") + UInt8(frac % 10)) }
        }
    }

    private static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
        if n < 10 { out.append(UInt8(ascii: "0") + UInt8(n)); return }
        // Digits come out lowest first: write them, then reverse in place.
        let start = out.count
        var v = n
        while v > 0 { out.append(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 }
        out[start...].reverse()
    }
}
