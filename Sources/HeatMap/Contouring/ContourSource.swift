/// Contour geometry as writers read it: one level at a time, so a source
/// may hold every level made (``ContourSet``) or make each on demand
/// (``ContourPieces``) — the writer cannot tell them apart.
protocol ContourSource: Sendable {
    /// Ascending thresholds, one per level.
    var thresholds: [Double] { get }
    /// The polygons of level `level` of `mode` (isolines give none).
    func polygons(_ mode: ContourMode, level: Int, control: ComputeControl) throws -> [PlanePolygon]
    /// The boundary rings of level `level`.
    func isolines(level: Int, control: ComputeControl) throws -> [[PlanePoint]]
}

extension ContourSet: ContourSource {
    func polygons(_ mode: ContourMode, level: Int, control: ComputeControl) throws -> [PlanePolygon] {
        let all = polygons(mode)
        return level < all.count ? all[level] : []
    }

    func isolines(level: Int, control: ComputeControl) throws -> [[PlanePoint]] {
        level < isolines.count ? isolines[level] : []
    }
}
