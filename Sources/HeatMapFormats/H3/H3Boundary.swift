import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A cell's boundary: its 6 (or 5) corners counter-clockwise, plus, at
/// Class III resolutions, a vertex wherever an edge crosses an icosahedron
/// edge (each side of it is projected from its own face).
enum H3Boundary {
    /// Corners of an origin-centred cell on the substrate grid (aperture
    /// 3 then 3r, and 7r more at Class III), counter-clockwise from the i axis.
    private static let classIICorners = [
        CoordIJK(2, 1, 0), CoordIJK(1, 2, 0), CoordIJK(0, 2, 1), CoordIJK(0, 1, 2), CoordIJK(1, 0, 2), CoordIJK(2, 0, 1)
    ]
    private static let classIIICorners = [
        CoordIJK(5, 4, 0), CoordIJK(1, 5, 0), CoordIJK(0, 5, 4), CoordIJK(0, 1, 5), CoordIJK(4, 0, 5), CoordIJK(5, 0, 1)
    ]

    /// The boundary of a valid cell, radians.
    package static func vertices(of h: UInt64) -> [(lat: Double, lon: Double)] {
        let f = H3Encoding.faceIJK(of: h)
        let res = H3Bits.resolution(h)
        let pentagon = H3BaseCellTables.cells[H3Bits.baseCell(h)].isPentagon && H3Bits.leadingNonZeroDigit(h) == 0
        return pentagon ? pentagonVertices(f, resolution: res) : hexagonVertices(f, resolution: res)
    }

    /// The substrate-grid corners of the cell at `f` and the substrate's (Class II) resolution.
    private static func corners(_ f: FaceIJK, resolution: Int, count: Int) -> ([FaceIJK], Int) {
        var c = f.coord.downAperture3().downAperture3r()
        var res = resolution
        let classIII = H3Constants.isClassIII(resolution)
        if classIII {
            c = c.downAperture7r()
            res += 1
        }
        let offsets = classIII ? classIIICorners : classIICorners
        return ((0..<count).map { FaceIJK(face: f.face, coord: (c + offsets[$0]).normalized()) }, res)
    }

    /// The corners of the face triangle in a Class II substrate plane, for the edge in a quadrant.
    private static func faceEdge(_ quadrant: H3FaceTables.Quadrant?, resolution: Int) -> (HexPoint, HexPoint) {
        let maxDim = Double(H3Constants.maxDimByClassIIResolution[resolution])
        let yScale = 3 * H3Constants.sqrt3Over2 * maxDim
        let v0 = HexPoint(x: 3 * maxDim, y: 0)
        let v1 = HexPoint(x: -1.5 * maxDim, y: yScale)
        let v2 = HexPoint(x: -1.5 * maxDim, y: -yScale)
        switch quadrant {
        case .ij: return (v0, v1)
        case .jk: return (v1, v2)
        default: return (v2, v0)
        }
    }

    private static func hexagonVertices(_ center: FaceIJK, resolution res: Int) -> [(lat: Double, lon: Double)] {
        let (verts, adjRes) = corners(center, resolution: res, count: 6)
        var out: [(lat: Double, lon: Double)] = []
        out.reserveCapacity(10)
        var lastFace = -1
        var lastOverage = H3Overage.Kind.none
        for vert in 0..<7 {
            let v = vert % 6
            var f = verts[v]
            let overage = H3Overage.adjust(&f, resolution: adjRes, pentagonLeading4: false, substrate: true)
            if H3Constants.isClassIII(res) && vert > 0 && f.face != lastFace && lastOverage != .faceEdge {
                let orig0 = HexPoint(verts[(v + 5) % 6].coord)
                let orig1 = HexPoint(verts[v].coord)
                let face2 = lastFace == center.face ? f.face : lastFace
                let (e0, e1) = faceEdge(H3FaceTables.quadrant(from: center.face, to: face2), resolution: adjRes)
                let inter = HexPoint.intersection(orig0, orig1, e0, e1)
                if !inter.almostEquals(orig0) && !inter.almostEquals(orig1) {
                    out.append(H3FaceProjection.geo(inter, face: center.face, resolution: adjRes, substrate: true))
                }
            }
            if vert < 6 {
                out.append(H3FaceProjection.geo(HexPoint(f.coord), face: f.face, resolution: adjRes, substrate: true))
            }
            lastFace = f.face
            lastOverage = overage
        }
        return out
    }

    private static func pentagonVertices(_ center: FaceIJK, resolution res: Int) -> [(lat: Double, lon: Double)] {
        let (verts, adjRes) = corners(center, resolution: res, count: 5)
        var out: [(lat: Double, lon: Double)] = []
        out.reserveCapacity(10)
        var last = verts[0]
        for vert in 0..<6 {
            var f = verts[vert % 5]
            H3Overage.adjustPentagonVertex(&f, resolution: adjRes)
            if H3Constants.isClassIII(res) && vert > 0 {
                // carry the last vertex onto this vertex's face and cut the face edge between them
                let orig0 = HexPoint(last.coord)
                let toLast = H3FaceTables.quadrant(from: f.face, to: last.face)
                let orient = H3FaceTables.neighbors[f.face][toLast?.rawValue ?? 0]
                var ijk = f.coord
                for _ in 0..<orient.ccwRotations { ijk = ijk.rotated60ccw() }
                ijk = (ijk + orient.translate * (H3Constants.unitScaleByClassIIResolution[adjRes] * 3)).normalized()
                let orig1 = HexPoint(ijk)
                let (e0, e1) = faceEdge(H3FaceTables.quadrant(from: orient.face, to: f.face), resolution: adjRes)
                let inter = HexPoint.intersection(orig0, orig1, e0, e1)
                out.append(H3FaceProjection.geo(inter, face: orient.face, resolution: adjRes, substrate: true))
            }
            if vert < 5 {
                out.append(H3FaceProjection.geo(HexPoint(f.coord), face: f.face, resolution: adjRes, substrate: true))
            }
            last = f
        }
        return out
    }
}
