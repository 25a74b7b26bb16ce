import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Reads an ESRI ASCII grid (ncols, nrows, xllcorner|xllcenter,
/// yllcorner|yllcenter, cellsize or dx/dy, optional NODATA_value, then rows
/// from the top), with the CRS of the `.prj` beside it when there is one.
enum ASCIIGridReader {
    package static func read(_ data: [UInt8], name: String, prj: String?) throws -> RasterGrid {
        var header: [String: Double] = [:]
        var position = 0
        let n = data.count
        func token() -> Substring? {
            while position < n,
                data[position] == 0x20 || data[position] == 0x09 || data[position] == 0x0A || data[position] == 0x0D
            {
                position += 1
            }
            guard position < n else { return nil }
            let start = position
            while position < n,
                !(data[position] == 0x20 || data[position] == 0x09 || data[position] == 0x0A || data[position] == 0x0D)
            {
                position += 1
            }
            return Substring(String(decoding: data[start..<position], as: UTF8.self))
        }
        // Header lines: a name, then a number; the first token that is a number starts the values.
        var pending: Substring?
        while let t = token() {
            if let first = t.first, first.isLetter {
                guard let value = token(), let v = Double(value) else {
                    throw RasterCodecError("\(name): header '\(t)' has no number after it")
                }
                header[t.lowercased()] = v
            } else {
                pending = t
                break
            }
        }
        guard let ncols = header["ncols"], let nrows = header["nrows"], ncols >= 1, nrows >= 1,
            ncols == ncols.rounded(), nrows == nrows.rounded(), ncols * nrows <= 400_000_000
        else {
            throw RasterCodecError("\(name): not an ESRI ASCII grid (needs whole-number ncols and nrows)")
        }
        let w = Int(ncols), h = Int(nrows)
        let dx = header["cellsize"] ?? header["dx"], dy = header["cellsize"] ?? header["dy"]
        guard let dx, let dy, dx > 0, dy > 0 else {
            throw RasterCodecError("\(name): no positive cellsize (or dx and dy)")
        }
        let left: Double, bottom: Double
        if let x = header["xllcenter"] {
            left = x - dx / 2
        } else if let x = header["xllcorner"] {
            left = x
        } else {
            throw RasterCodecError("\(name): no xllcorner or xllcenter")
        }
        if let y = header["yllcenter"] {
            bottom = y - dy / 2
        } else if let y = header["yllcorner"] {
            bottom = y
        } else {
            throw RasterCodecError("\(name): no yllcorner or yllcenter")
        }
        var values = [Double](repeating: .nan, count: w * h)
        var k = 0
        var next = pending
        while k < w * h, let t = next ?? token() {
            next = nil
            guard let v = Double(t) else {
                throw RasterCodecError(
                    "\(name): value \(k + 1) (row \(k / w + 1), column \(k % w + 1)) is '\(t)', not a number")
            }
            values[k] = v
            k += 1
        }
        guard k == w * h else {
            throw RasterCodecError("\(name): \(k) values for \(w) × \(h) = \(w * h) cells (truncated file?)")
        }
        if let extra = next ?? token() {
            throw RasterCodecError(
                "\(name): more values than \(w) × \(h) = \(w * h) cells (value \(w * h + 1) is '\(extra)'); are ncols and nrows right?"
            )
        }
        let reference = prj.map(ProjectionText.reference) ?? .none
        return try RasterAssembly.grid(
            values: values, width: w, height: h, originX: left,
            originY: bottom + Double(h) * dy, stepX: dx, stepY: -dy,
            nodata: header["nodata_value"], reference: reference, units: nil,
            radius: nil, name: name)
    }
}

/// The CRS of WKT text (a `.prj`) or a PROJ string, as far as the package
/// knows it: its own sphere-based CRSs, and CRSs that carry an EPSG code.
enum ProjectionText {
    package static func reference(_ text: String) -> RasterGrid.Reference {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { return .none }
        if t.hasPrefix("+proj") || t.uppercased().hasPrefix("EPSG:") { return proj(t) }
        func parameter(_ names: [String]) -> Double? {
            for n in names {
                if let r = t.range(of: "PARAMETER[\"\(n)\",", options: .caseInsensitive) {
                    let rest = t[r.upperBound...]
                    if let end = rest.firstIndex(where: { $0 == "]" || $0 == "," }) { return Double(rest[..<end]) }
                }
            }
            return nil
        }
        let onSphere = t.contains("\(GridEncoding.number(PlaneProjection.authalicRadius)),0]")
        if onSphere, t.range(of: "Lambert_Azimuthal_Equal_Area", options: .caseInsensitive) != nil {
            return .known(
                .lambertAzimuthalEqualArea(
                    centreLatitude: parameter(["latitude_of_center", "latitude_of_origin"]) ?? 0,
                    centreLongitude: parameter(["longitude_of_center", "central_meridian"]) ?? 0))
        }
        if onSphere, t.range(of: "PROJECTION[\"Equirectangular\"]", options: .caseInsensitive) != nil {
            return .known(
                .equirectangular(
                    centreLatitude: parameter(["standard_parallel_1"]) ?? 0,
                    centreLongitude: parameter(["central_meridian"]) ?? 0))
        }
        if let r = t.range(of: "EXTENSION[\"PROJ4\",\"") {
            let rest = t[r.upperBound...]
            if let end = rest.firstIndex(of: "\""), case .known(let crs) = proj(String(rest[..<end])) {
                return .known(crs)
            }
        }
        if let zone = utmZone(t) { return .known(.epsg(zone)) }
        if let code = esriName(t) { return .known(.epsg(code)) }
        // The outermost AUTHORITY is the last one in WKT 1.
        if let r = t.range(of: "AUTHORITY[\"EPSG\",\"", options: [.backwards, .caseInsensitive]) {
            let rest = t[r.upperBound...]
            if let end = rest.firstIndex(of: "\""), let code = Int(rest[..<end]) {
                if code == 4326 || code == 3857 || UTMProjection(epsg: code) != nil { return .known(.epsg(code)) }
                return .unsupported("EPSG:\(code)")
            }
        }
        let name = t.split(separator: "\"").dropFirst().first.map(String.init) ?? String(t.prefix(60))
        return .unsupported("'\(name)'")
    }

    /// EPSG:4326 or EPSG:3857 for WKT that names them as ESRI (and GDAL's
    /// ESRI flavour) write them, without an AUTHORITY: a GEOGCS on the WGS 84
    /// datum in degrees from Greenwich, and a PROJCS on it with the
    /// auxiliary-sphere (or pseudo) Mercator.
    static func esriName(_ t: String) -> Int? {
        let lower = t.lowercased().replacingOccurrences(of: " ", with: "_")
        let wgs84 =
            lower.contains("datum[\"d_wgs_1984\"") || lower.contains("datum[\"wgs_1984\"")
            || lower.contains("datum[\"world_geodetic_system_1984\"")
        guard wgs84, !lower.contains("primem[") || lower.contains("primem[\"greenwich\",0") else { return nil }
        if lower.hasPrefix("geogcs["), lower.contains("unit[\"degree\"") { return 4326 }
        if lower.hasPrefix("projcs["),
            lower.contains("mercator_auxiliary_sphere") || lower.contains("pseudo_mercator")
                || lower.contains("web_mercator")
        {
            return 3857
        }
        return nil
    }

    /// The EPSG code of a WGS 84 UTM zone named as ESRI ("WGS_1984_UTM_Zone_33N") or
    /// EPSG ("WGS 84 / UTM zone 33N") name it, on a WGS 84 datum.
    static func utmZone(_ t: String) -> Int? {
        guard t.hasPrefix("PROJCS[\""), t.contains("WGS_1984") || t.contains("WGS 84") || t.contains("WGS84") else {
            return nil
        }
        let name = t.dropFirst(8).prefix { $0 != "\"" }.lowercased().replacingOccurrences(of: "_", with: " ")
        guard let r = name.range(of: "utm zone ") else { return nil }
        let rest = name[r.upperBound...]
        let digits = rest.prefix { $0.isNumber }
        guard let zone = Int(digits), (1...60).contains(zone) else { return nil }
        switch rest.dropFirst(digits.count).first {
        case "n": return 32600 + zone
        case "s": return 32700 + zone
        default: return nil
        }
    }

    /// `EPSG:N` or the PROJ strings ``RasterCRS/proj`` writes.
    package static func proj(_ t: String) -> RasterGrid.Reference {
        if t.uppercased().hasPrefix("EPSG:"), let code = Int(t.dropFirst(5)) {
            if code == 4326 || code == 3857 || UTMProjection(epsg: code) != nil { return .known(.epsg(code)) }
            return .unsupported("EPSG:\(code)")
        }
        var p: [String: String] = [:]
        for part in t.split(separator: " ") where part.hasPrefix("+") {
            let kv = part.dropFirst().split(separator: "=", maxSplits: 1)
            p[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
        }
        let lat = Double(p["lat_0"] ?? "0") ?? 0, lon = Double(p["lon_0"] ?? "0") ?? 0
        let offsets = (Double(p["x_0"] ?? "0") ?? 0) == 0 && (Double(p["y_0"] ?? "0") ?? 0) == 0
        let sphere = p["R"].flatMap(Double.init).map { abs($0 - PlaneProjection.authalicRadius) < 0.5 } ?? false
        switch p["proj"] {
        case "laea" where sphere && offsets:
            return .known(.lambertAzimuthalEqualArea(centreLatitude: lat, centreLongitude: lon))
        case "eqc" where sphere && offsets && (Double(p["lat_ts"] ?? "0") ?? 0) == lat:
            return .known(.equirectangular(centreLatitude: lat, centreLongitude: lon))
        case "merc" where p["a"] == "6378137" && p["b"] == "6378137" && offsets:
            return .known(lon == 0 ? .epsg(3857) : .webMercator(centreLongitude: lon))
        default:
            return .unsupported("'\(t)'")
        }
    }
}
