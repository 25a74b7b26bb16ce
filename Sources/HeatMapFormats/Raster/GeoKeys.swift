import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A GeoTIFF key directory (GeoTIFF 1.1; docs/formats.md): keys with a short value, a
/// double (in GeoDoubleParams) or text (in GeoAsciiParams, '|'-terminated).
struct GeoKeys: Sendable, Hashable {
    package enum Value: Sendable, Hashable {
        case short(UInt16)
        case double(Double)
        case text(String)
    }

    static let modelType: UInt16 = 1024, rasterType: UInt16 = 1025, citation: UInt16 = 1026
    static let geographicType: UInt16 = 2048, geogCitation: UInt16 = 2049, geodeticDatum: UInt16 = 2050
    static let primeMeridian: UInt16 = 2051, angularUnits: UInt16 = 2054, ellipsoid: UInt16 = 2056
    static let semiMajor: UInt16 = 2057, semiMinor: UInt16 = 2058, inverseFlattening: UInt16 = 2059
    static let projectedType: UInt16 = 3072, projCitation: UInt16 = 3073, projection: UInt16 = 3074
    static let coordTransform: UInt16 = 3075, linearUnits: UInt16 = 3076
    static let stdParallel1: UInt16 = 3078, natOriginLong: UInt16 = 3080, natOriginLat: UInt16 = 3081
    static let falseEasting: UInt16 = 3082, falseNorthing: UInt16 = 3083
    static let centerLong: UInt16 = 3088, centerLat: UInt16 = 3089, scaleAtNatOrigin: UInt16 = 3092
    static let userDefined: UInt16 = 32767
    static let lambertAzimEqualArea: UInt16 = 10, equirectangularTransform: UInt16 = 17

    var entries: [UInt16: Value] = [:]

    package subscript(key: UInt16) -> Value? {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    package func short(_ key: UInt16) -> Int? {
        if case .short(let v)? = entries[key] { return Int(v) }
        return nil
    }

    func double(_ key: UInt16) -> Double? {
        switch entries[key] {
        case .double(let v)?: return v
        case .short(let v)?: return Double(v)
        default: return nil
        }
    }

    /// The keys of a CRS (PixelIsArea).
    package init(crs: RasterCRS) {
        entries[GeoKeys.rasterType] = .short(1)
        let userSphere: [UInt16: Value] = [
            GeoKeys.geographicType: .short(GeoKeys.userDefined),
            GeoKeys.geogCitation: .text("Authalic sphere (area of WGS 84), R = 6371007.181 m"),
            GeoKeys.geodeticDatum: .short(GeoKeys.userDefined),
            GeoKeys.primeMeridian: .short(8901),
            GeoKeys.angularUnits: .short(9102),
            GeoKeys.ellipsoid: .short(GeoKeys.userDefined),
            GeoKeys.semiMajor: .double(PlaneProjection.authalicRadius),
            GeoKeys.semiMinor: .double(PlaneProjection.authalicRadius)
        ]
        // A user-defined projection on the authalic sphere, in metres,
        // centred on (lat, lon).
        func userProjected(_ citation: String, transform: UInt16, lat: Double, lon: Double) {
            entries.merge(userSphere) { a, _ in a }
            entries[GeoKeys.modelType] = .short(1)
            entries[GeoKeys.citation] = .text(citation)
            entries[GeoKeys.projectedType] = .short(GeoKeys.userDefined)
            entries[GeoKeys.projection] = .short(GeoKeys.userDefined)
            entries[GeoKeys.coordTransform] = .short(transform)
            entries[GeoKeys.linearUnits] = .short(9001)
            entries[GeoKeys.centerLat] = .double(lat)
            entries[GeoKeys.centerLong] = .double(lon)
            entries[GeoKeys.falseEasting] = .double(0)
            entries[GeoKeys.falseNorthing] = .double(0)
        }
        switch crs {
        case let .lambertAzimuthalEqualArea(lat, lon):
            userProjected(
                "Lambert azimuthal equal-area on the authalic sphere (HeatMap)",
                transform: GeoKeys.lambertAzimEqualArea, lat: lat, lon: lon)
        case let .equirectangular(lat, lon):
            userProjected(
                "Equirectangular on the authalic sphere (HeatMap)",
                transform: GeoKeys.equirectangularTransform, lat: lat, lon: lon)
            entries[GeoKeys.stdParallel1] = .double(lat)
        case .webMercator:
            entries = GeoKeys(crs: crs.withEPSGCode.crs).entries
        case let .epsg(code):
            if RasterCRS.isGeographicCode(code) {
                entries[GeoKeys.modelType] = .short(2)
                entries[GeoKeys.geographicType] = .short(UInt16(clamping: code))
            } else {
                entries[GeoKeys.modelType] = .short(1)
                entries[GeoKeys.projectedType] = .short(UInt16(clamping: code))
            }
        }
    }

    package init() {}

    /// The three tag payloads: the directory (shorts), doubles, and text.
    func encoded() -> (directory: [UInt16], doubles: [Double], ascii: String) {
        var directory: [UInt16] = [1, 1, 0, UInt16(entries.count)]
        var doubles: [Double] = []
        var ascii = ""
        for key in entries.keys.sorted() {
            switch entries[key]! {
            case .short(let v): directory += [key, 0, 1, v]
            case .double(let v):
                directory += [key, 34736, 1, UInt16(doubles.count)]
                doubles.append(v)
            case .text(let s):
                let clean = s.replacingOccurrences(of: "|", with: "/")
                directory += [key, 34737, UInt16(clean.utf8.count + 1), UInt16(ascii.utf8.count)]
                ascii += clean + "|"
            }
        }
        return (directory, doubles, ascii)
    }

    /// Reads a key directory; `doubles` and `ascii` are the other two tags.
    package init(directory: [Int], doubles: [Double], ascii: String) throws {
        guard directory.count >= 4 else { throw RasterCodecError("GeoTIFF: GeoKeyDirectory is too short") }
        let count = directory[3]
        guard directory.count >= 4 + 4 * count else { throw RasterCodecError("GeoTIFF: GeoKeyDirectory is truncated") }
        let text = Array(ascii.utf8)
        for k in 0..<count {
            let key = UInt16(clamping: directory[4 + 4 * k]), location = directory[5 + 4 * k]
            let n = directory[6 + 4 * k], offset = directory[7 + 4 * k]
            switch location {
            case 0: entries[key] = .short(UInt16(clamping: offset))
            case 34736:
                guard offset >= 0, offset < doubles.count else { continue }
                entries[key] = .double(doubles[offset])
            case 34737:
                guard offset >= 0, n >= 1, offset + n <= text.count + 1 else { continue }
                let slice = text[offset..<min(offset + n, text.count)]
                entries[key] = .text(
                    String(decoding: slice, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "|\0")))
            default: continue
            }
        }
    }
}
