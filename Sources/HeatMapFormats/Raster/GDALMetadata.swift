import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The XML of GDAL's metadata tag (42112): dataset items, and band items
/// with a role (`description`, `unittype`) that `gdalinfo` shows.
struct GDALMetadata {
    var items: [(name: String, value: String)] = []
    var bandDescription: String?
    var bandUnit: String?

    var xml: String {
        var s = "<GDALMetadata>\n"
        for (name, value) in items {
            s += "  <Item name=\"\(MarkupEscaping.attribute(name))\">\(MarkupEscaping.text(value))</Item>\n"
        }
        if let d = bandDescription {
            s += "  <Item name=\"DESCRIPTION\" sample=\"0\" role=\"description\">\(MarkupEscaping.text(d))</Item>\n"
        }
        if let u = bandUnit {
            s += "  <Item name=\"UNITTYPE\" sample=\"0\" role=\"unittype\">\(MarkupEscaping.text(u))</Item>\n"
        }
        return s + "</GDALMetadata>"
    }

    /// Dataset items and band unit of GDAL metadata XML (a light reading:
    /// `<Item name="…" …>text</Item>` elements).
    package static func parse(_ xml: String) -> (items: [String: String], unit: String?) {
        var items: [String: String] = [:]
        var unit: String?
        var rest = Substring(xml)
        while let open = rest.range(of: "<Item ") {
            guard let close = rest[open.upperBound...].range(of: ">"),
                let end = rest[close.upperBound...].range(of: "</Item>")
            else { break }
            let attributes = rest[open.upperBound..<close.lowerBound]
            let value = unescape(String(rest[close.upperBound..<end.lowerBound]))
            if let n = attributes.range(of: "name=\""), let q = attributes[n.upperBound...].firstIndex(of: "\"") {
                let name = String(attributes[n.upperBound..<q])
                if attributes.contains("role=\"unittype\"") {
                    unit = value
                } else if !attributes.contains("sample=") {
                    items[name] = value
                }
            }
            rest = rest[end.upperBound...]
        }
        return (items, unit)
    }

    private static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
