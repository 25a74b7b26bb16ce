import HeatMapCore
import HeatMapDensity

/// Contour geometry as writers read it: one level at a time, so a source
/// may hold every level made (``ContourSet``) or make each on demand
/// (``ContourPieces``) — the writer cannot tell them apart.
package protocol ContourSource: Sendable {
    /// Ascending thresholds, one per level.
    var thresholds: [Double] { get }
    /// The polygons of level `level` of `mode` (isolines give none).
    func polygons(_ mode: ContourMode, level: Int, control: ComputeControl) throws -> [PlanePolygon]
    /// The boundary rings of level `level`.
    func isolines(level: Int, control: ComputeControl) throws -> [[PlanePoint]]
    /// About how many vertices the polygons of level `level` of `mode`
    /// hold, without making them (for sharing work out ahead).
    func vertexEstimate(_ mode: ContourMode, level: Int) -> Int
    /// The polygons of ``polygons(_:level:control:)`` with every position
    /// as `geometry` unprojects it (``LonLatGeometry/raw(_:control:)``):
    /// what ``LonLatGeometry/polygon(raw:plane:control:)`` takes to output
    /// coordinates. `geometry` is that of the projection the contours are
    /// in. A source that shares rings between levels unprojects each once.
    func rawPolygons(_ mode: ContourMode, level: Int, geometry: LonLatGeometry, control: ComputeControl) throws
        -> [PlanePolygon]
    /// A guess at the largest |x| or |y| of any position, known without
    /// making a level (a grid's frame, which every contour lies within), for
    /// a writer that needs the magnitude before it reads the levels; nil
    /// when the levels are already made, so that reading them is cheap.
    var magnitudeGuess: Double? { get }
}

extension ContourSource {
    package var magnitudeGuess: Double? { nil }

    package func rawPolygons(
        _ mode: ContourMode, level: Int, geometry: LonLatGeometry, control: ComputeControl
    ) throws -> [PlanePolygon] {
        try polygons(mode, level: level, control: control).map { geometry.raw($0, control: control) }
    }
}

extension ContourSet: ContourSource {
    package func polygons(_ mode: ContourMode, level: Int, control: ComputeControl) throws -> [PlanePolygon] {
        let all = polygons(mode)
        return level < all.count ? all[level] : []
    }

    package func isolines(level: Int, control: ComputeControl) throws -> [[PlanePoint]] {
        level < isolines.count ? isolines[level] : []
    }

    package func vertexEstimate(_ mode: ContourMode, level: Int) -> Int {
        let all = polygons(mode)
        guard level < all.count else { return 0 }
        return all[level].reduce(0) { $0 + $1.exterior.count + $1.holes.reduce(0) { $0 + $1.count } }
    }
}
