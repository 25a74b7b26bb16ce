import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A cell of Uber's H3 grid (the hexagons warehouses, kepler.gl and deck.gl
/// speak): a 64-bit index whose ids, centres, boundaries and areas equal
/// the reference implementation's (`h3` 4.x).
///
/// Resolutions run 0 (122 cells, ~1,100 km across) to 15 (~1 m); each is
/// √7 finer than the last. Twelve cells per resolution are pentagons.
public struct H3Cell: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 64-bit index.
    public let rawValue: UInt64

    /// The finest resolution, 15.
    public static let maximumResolution = H3Constants.maxResolution

    /// A cell from its 64-bit index; nil unless ``isValid(_:)``.
    public init?(rawValue: UInt64) {
        guard H3Cell.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    @inline(__always) package init(unchecked rawValue: UInt64) { self.rawValue = rawValue }

    /// A cell from its hexadecimal form (as `h3` prints it, e.g.
    /// `"8928308280fffff"`; upper case and a `0x` prefix are accepted); nil
    /// unless it names a valid cell.
    public init?(_ text: some StringProtocol) {
        var t = Substring(text)
        if t.hasPrefix("0x") || t.hasPrefix("0X") { t = t.dropFirst(2) }
        guard !t.isEmpty, t.count <= 16, let v = UInt64(t, radix: 16) else { return nil }
        self.init(rawValue: v)
    }

    /// The cell containing a point at a resolution (0...15). O(resolution).
    /// - Returns: nil for a non-finite coordinate or a resolution out of range.
    public init?(latitude: Double, longitude: Double, resolution: Int) {
        guard latitude.isFinite, longitude.isFinite, (0...H3Cell.maximumResolution).contains(resolution),
            let h = H3Encoding.index(
                lat: H3Constants.radians(latitude), lon: H3Constants.radians(longitude),
                resolution: resolution)
        else { return nil }
        rawValue = h
    }

    /// Whether a 64-bit value is a valid H3 cell index: mode 1, reserved
    /// bits 0, base cell < 122, every digit up to the resolution 0...6 and
    /// every digit after it 7, and no pentagon with a leading k (1) digit.
    public static func isValid(_ h: UInt64) -> Bool {
        guard h >> 63 == 0, (h >> H3Bits.modeShift) & 0xF == 1, (h >> 56) & 7 == 0 else { return false }
        let base = H3Bits.baseCell(h)
        guard base < H3Constants.baseCellCount else { return false }
        let res = H3Bits.resolution(h)
        var leading = 0
        for r in 1...15 {
            let d = H3Bits.digit(h, r)
            if r <= res {
                if d == 7 { return false }
                if leading == 0 && d != 0 { leading = d }
            } else if d != 7 {
                return false
            }
        }
        return !(H3BaseCellTables.cells[base].isPentagon && leading == 1)
    }

    /// The 15-hex-digit form, lower case, as the reference prints it.
    public var description: String { String(rawValue, radix: 16) }

    /// The resolution, 0...15.
    public var resolution: Int { H3Bits.resolution(rawValue) }

    /// The resolution-0 cell this one descends from, 0...121.
    public var baseCellNumber: Int { H3Bits.baseCell(rawValue) }

    /// Whether the cell is one of the 12 pentagons of its resolution.
    public var isPentagon: Bool {
        H3BaseCellTables.cells[baseCellNumber].isPentagon && H3Bits.leadingNonZeroDigit(rawValue) == 0
    }

    /// Whether the resolution is Class III (odd; axes rotated ~19.1°).
    public var isClassIII: Bool { H3Constants.isClassIII(resolution) }

    /// The cell's centre (degrees).
    public var center: LocationCoordinate2D {
        let f = H3Encoding.faceIJK(of: rawValue)
        let g = H3FaceProjection.geo(HexPoint(f.coord), face: f.face, resolution: resolution, substrate: false)
        return LocationCoordinate2D(latitude: H3Constants.degrees(g.lat), longitude: H3Constants.degrees(g.lon))
    }

    /// The boundary (degrees, counter-clockwise, not closed): 6 or 5
    /// corners plus, at Class III resolutions, the vertices where an edge
    /// crosses an icosahedron edge (up to 10 in all).
    public var boundary: [LocationCoordinate2D] {
        H3Boundary.vertices(of: rawValue).map {
            LocationCoordinate2D(latitude: H3Constants.degrees($0.lat), longitude: H3Constants.degrees($0.lon))
        }
    }

    /// The exact area on the authalic sphere (R = 6,371.007 km), km²: the
    /// spherical polygon of ``boundary``, summed edge by edge.
    public var areaKm2: Double {
        areaRadians2 * H3Constants.earthRadiusKm * H3Constants.earthRadiusKm
    }

    /// The area on the unit sphere, steradians.
    public var areaRadians2: Double { H3Sphere.polygonArea(H3Boundary.vertices(of: rawValue)) }

    /// The ancestor at a coarser (or equal) resolution; nil when
    /// `resolution` is finer than the cell's or out of range.
    public func parent(at resolution: Int) -> H3Cell? {
        let res = self.resolution
        guard resolution >= 0, resolution <= res else { return nil }
        var h = H3Bits.settingResolution(rawValue, resolution)
        if resolution < res {
            for r in (resolution + 1)...res { h = H3Bits.settingDigit(h, r, 7) }
        }
        return H3Cell(unchecked: h)
    }

    /// The descendants at a finer (or equal) resolution, in ascending index
    /// order: 7 per step (6 below a pentagon, whose k child is missing).
    /// O(7^(resolution − self.resolution)); empty when `resolution` is coarser or out of range.
    public func children(at resolution: Int) -> [H3Cell] {
        let res = self.resolution
        guard resolution >= res, resolution <= H3Cell.maximumResolution else { return [] }
        var out: [H3Cell] = []
        let pentagon = isPentagon
        func descend(_ h: UInt64, _ r: Int, _ onPentagon: Bool) {
            if r == resolution {
                out.append(H3Cell(unchecked: h))
                return
            }
            let base = H3Bits.settingResolution(h, r + 1)
            for d in 0...6 {
                if onPentagon && d == 1 { continue }
                descend(H3Bits.settingDigit(base, r + 1, d), r + 1, onPentagon && d == 0)
            }
        }
        descend(rawValue, res, pentagon)
        return out
    }

    /// The cells sharing an edge with this one (6, or 5 around a pentagon), ascending.
    public var neighbors: [H3Cell] { H3Neighbors.neighbors(of: self) }

    /// Every cell within `k` steps (k ≥ 0), this one included, ascending —
    /// the set the reference's `grid_disk` returns. O(k²) cells.
    public func gridDisk(_ k: Int) -> [H3Cell] { H3Neighbors.disk(around: self, k: k) }

    public static func < (a: H3Cell, b: H3Cell) -> Bool { a.rawValue < b.rawValue }

    /// All 122 resolution-0 cells, ascending.
    public static var baseCells: [H3Cell] {
        (0..<H3Constants.baseCellCount).map { H3Cell(unchecked: H3Bits.settingBaseCell(H3Bits.initial, $0)) }
    }

    /// The 12 pentagons at a resolution, ascending.
    public static func pentagons(at resolution: Int) -> [H3Cell] {
        guard (0...maximumResolution).contains(resolution) else { return [] }
        return (0..<H3Constants.baseCellCount).filter { H3BaseCellTables.cells[$0].isPentagon }.map {
            var h = H3Bits.settingResolution(H3Bits.settingBaseCell(H3Bits.initial, $0), resolution)
            if resolution > 0 { for r in 1...resolution { h = H3Bits.settingDigit(h, r, 0) } }
            return H3Cell(unchecked: h)
        }
    }
}
