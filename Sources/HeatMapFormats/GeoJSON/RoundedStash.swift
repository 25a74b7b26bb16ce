import HeatMapContouring
import HeatMapCore
import HeatMapDensity
import Synchronization

/// Rounded features a writer made but could not write yet, kept within a
/// budget of positions until they are taken (once each).
///
/// After a repair, the one-pass export goes on rounding the features after
/// it without writing them, so the planning can start from that round.
/// Most of them come out of the planning as that round made them; kept
/// here, they are written without being assembled, unprojected, rounded
/// and checked a second time. Features beyond the budget are made again.
/// Safe to use from several threads.
final class RoundedStash: Sendable {
    private struct State {
        package var polygons: [Int: [PrecisionRounding.Polygon]] = [:]
        package var room: Int
    }

    private let state: Mutex<State>

    /// A stash for at most `positions` positions in all.
    package init(positions: Int) {
        state = Mutex(State(room: max(0, positions)))
    }

    /// Keeps feature `key`'s `polygons` if they fit in the room left.
    func keep(_ polygons: [PrecisionRounding.Polygon], for key: Int) {
        let positions = polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.points.count } }
        state.withLock { s in
            guard positions <= s.room, s.polygons[key] == nil else { return }
            s.room -= positions
            s.polygons[key] = polygons
        }
    }

    /// Feature `key`'s kept polygons, given up by the stash; nil when not kept.
    func take(_ key: Int) -> [PrecisionRounding.Polygon]? {
        state.withLock { $0.polygons.removeValue(forKey: key) }
    }

    /// The number of features kept and not yet taken.
    package var count: Int { state.withLock { $0.polygons.count } }
}
