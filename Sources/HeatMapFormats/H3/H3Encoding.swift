import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Face positions to H3 indexes and back.
enum H3Encoding {
    /// The cell index of a face position at a resolution (nil when the
    /// position is off the face's lookup range, which no point on the sphere gives).
    package static func index(of f: FaceIJK, resolution res: Int) -> UInt64? {
        var h = H3Bits.settingResolution(H3Bits.initial, res)
        if res == 0 {
            guard f.coord.i <= 2, f.coord.j <= 2, f.coord.k <= 2 else { return nil }
            return H3Bits.settingBaseCell(h, H3BaseCellTables.baseCell(at: f).cell)
        }
        var ijk = f.coord
        var r = res - 1
        while r >= 0 {
            let last = ijk
            let center: CoordIJK
            if H3Constants.isClassIII(r + 1) {
                ijk = ijk.upAperture7()
                center = ijk.downAperture7()
            } else {
                ijk = ijk.upAperture7r()
                center = ijk.downAperture7r()
            }
            guard let d = (last - center).digit() else { return nil }
            h = H3Bits.settingDigit(h, r + 1, d)
            r -= 1
        }
        guard ijk.i <= 2, ijk.j <= 2, ijk.k <= 2 else { return nil }
        let base = FaceIJK(face: f.face, coord: ijk)
        let (cell, rotations) = H3BaseCellTables.baseCell(at: base)
        h = H3Bits.settingBaseCell(h, cell)
        let data = H3BaseCellTables.cells[cell]
        if data.isPentagon {
            if H3Bits.leadingNonZeroDigit(h) == 1 {
                let cw = data.clockwiseOffsetFaces
                h = (cw.0 == f.face || cw.1 == f.face) ? H3Bits.rotated60cw(h) : H3Bits.rotated60ccw(h)
            }
            for _ in 0..<rotations { h = H3Bits.rotatedPentagon60ccw(h) }
        } else {
            for _ in 0..<rotations { h = H3Bits.rotated60ccw(h) }
        }
        return h
    }

    /// The cell containing a point given in radians.
    @inline(__always) package static func index(lat: Double, lon: Double, resolution: Int) -> UInt64? {
        let (face, v) = H3FaceProjection.hexPoint(H3Vector(lat: lat, lon: lon), resolution: resolution)
        return index(of: FaceIJK(face: face, coord: v.cell()), resolution: resolution)
    }

    /// The face position of a valid cell index, on the face its centre lies on.
    static func faceIJK(of h0: UInt64) -> FaceIJK {
        var h = h0
        let baseCell = H3Bits.baseCell(h)
        let data = H3BaseCellTables.cells[baseCell]
        if data.isPentagon && H3Bits.leadingNonZeroDigit(h) == 5 { h = H3Bits.rotated60cw(h) }
        var f = data.home
        let res = H3Bits.resolution(h)
        let possibleOverage = data.isPentagon || !(res == 0 || f.coord == .zero)
        if res > 0 {
            for r in 1...res {
                f.coord = H3Constants.isClassIII(r) ? f.coord.downAperture7() : f.coord.downAperture7r()
                f.coord = f.coord.neighbor(H3Bits.digit(h, r))
            }
        }
        guard possibleOverage else { return f }
        let original = f.coord
        var adjRes = res
        if H3Constants.isClassIII(res) {
            f.coord = f.coord.downAperture7r()
            adjRes += 1
        }
        let leading4 = data.isPentagon && H3Bits.leadingNonZeroDigit(h) == 4
        if H3Overage.adjust(&f, resolution: adjRes, pentagonLeading4: leading4, substrate: false) != .none {
            if data.isPentagon {
                while H3Overage.adjust(&f, resolution: adjRes, pentagonLeading4: false, substrate: false) != .none {}
            }
            if adjRes != res { f.coord = f.coord.upAperture7r() }
        } else if adjRes != res {
            f.coord = original
        }
        return f
    }
}
