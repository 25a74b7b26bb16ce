import HeatMapContouring
import HeatMapCore
import HeatMapDensity
import Synchronization

/// Rounded features a writer made but could not write yet, kept packed
/// (``PackedPolygons``, about a third of their size as rings) within a
/// budget of bytes until they are taken (once each).
///
/// After a repair, the one-pass export goes on rounding the features after
/// it without writing them, so the planning can start from that round.
/// Most of them come out of the planning as that round made them; kept
/// here, they are written without being assembled, unprojected, rounded
/// and checked a second time. Features beyond the budget are made again.
/// Safe to use from several threads.
final class RoundedStash: Sendable {
    private struct State {
        package var packed: [Int: PackedPolygons] = [:]
        package var room: Int
    }

    private let state: Mutex<State>

    /// A stash for at most `bytes` bytes of packed features in all.
    package init(bytes: Int) {
        state = Mutex(State(room: max(0, bytes)))
    }

    /// Keeps feature `key`'s `polygons` if they fit in the room left.
    /// Packed outside the lock, so threads keep features side by side.
    func keep(_ polygons: [PrecisionRounding.Polygon], for key: Int) {
        guard state.withLock({ $0.room > 0 && $0.packed[key] == nil }) else { return }
        let packed = PackedPolygons(polygons)
        state.withLock { s in
            guard packed.bytes.count <= s.room, s.packed[key] == nil else { return }
            s.room -= packed.bytes.count
            s.packed[key] = packed
        }
    }

    /// Feature `key`'s kept polygons, given up by the stash; nil when not
    /// kept. Unpacked outside the lock.
    func take(_ key: Int) -> [PrecisionRounding.Polygon]? {
        state.withLock { $0.packed.removeValue(forKey: key) }?.polygons
    }

    /// The number of features kept and not yet taken.
    package var count: Int { state.withLock { $0.packed.count } }
}
