import HeatMapCore
import HeatMapDensity

/// One unit of assembly work: a level (its polygons, or only its rings
/// when nothing but isolines is asked for) or a band with an upper level.
struct AssemblyTask: Sendable {
    package var level: Int
    var isBand: Bool
    /// Whether the rings are nested into polygons (isolines alone need only the rings).
    var needsPolygons: Bool

    /// The tasks that make `kinds`, levels first. The top band is the top
    /// level's polygons, so it comes from the level task.
    package static func list(levelCount: Int, kinds: ContourKinds) -> [AssemblyTask] {
        guard levelCount > 0 else { return [] }
        var tasks: [AssemblyTask] = []
        let polygons = kinds.contains(.levels)
        if polygons || kinds.contains(.isolines) {
            for l in 0..<levelCount {
                tasks.append(
                    AssemblyTask(
                        level: l, isBand: false,
                        needsPolygons: polygons || (kinds.contains(.bands) && l == levelCount - 1)))
            }
        } else if kinds.contains(.bands) {
            tasks.append(AssemblyTask(level: levelCount - 1, isBand: false, needsPolygons: true))
        }
        if kinds.contains(.bands) {
            for l in 0..<(levelCount - 1) { tasks.append(AssemblyTask(level: l, isBand: true, needsPolygons: true)) }
        }
        return tasks
    }
}
