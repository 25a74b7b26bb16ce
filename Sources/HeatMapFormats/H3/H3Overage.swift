import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Carrying a position that lies past its face's edge onto the neighbouring face.
enum H3Overage {
    package enum Kind { case none, faceEdge, newFace }

    /// Moves `f` (a Class II position at `resolution`) onto the face it
    /// really lies on. `substrate` is the 3× finer vertex grid;
    /// `pentagonLeading4` adjusts for a pentagon's missing k sequence.
    static func adjust(_ f: inout FaceIJK, resolution: Int, pentagonLeading4: Bool, substrate: Bool) -> Kind {
        var maxDim = H3Constants.maxDimByClassIIResolution[resolution]
        if substrate { maxDim *= 3 }
        var ijk = f.coord
        let sum = ijk.i + ijk.j + ijk.k
        if substrate && sum == maxDim { return .faceEdge }
        guard sum > maxDim else { return .none }
        let quadrant: H3FaceTables.Quadrant
        if ijk.k > 0 {
            if ijk.j > 0 {
                quadrant = .jk
            } else {
                quadrant = .ki
                if pentagonLeading4 {
                    let origin = CoordIJK(maxDim, 0, 0)
                    ijk = (ijk - origin).normalized().rotated60cw() + origin
                    ijk = ijk.normalized()
                }
            }
        } else {
            quadrant = .ij
        }
        let orient = H3FaceTables.neighbors[f.face][quadrant.rawValue]
        for _ in 0..<orient.ccwRotations { ijk = ijk.rotated60ccw() }
        var unitScale = H3Constants.unitScaleByClassIIResolution[resolution]
        if substrate { unitScale *= 3 }
        ijk = (ijk + orient.translate * unitScale).normalized()
        f = FaceIJK(face: orient.face, coord: ijk)
        if substrate && ijk.i + ijk.j + ijk.k == maxDim { return .faceEdge }
        return .newFace
    }

    /// A pentagon vertex may need several hops.
    static func adjustPentagonVertex(_ f: inout FaceIJK, resolution: Int) {
        while adjust(&f, resolution: resolution, pentagonLeading4: false, substrate: true) == .newFace {}
    }
}
