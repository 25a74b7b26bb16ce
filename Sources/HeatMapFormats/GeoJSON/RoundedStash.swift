import HeatMapContouring
import HeatMapCore
import HeatMapDensity
import Synchronization

/// Rounded features a writer made but could not write yet, kept within a
/// budget of bytes until they are taken (once each): as they are while
/// they fit, packed (``PackedPolygons``, about a third of their size as
/// rings) once they would not, so that more fit without the cost of
/// packing the few that fit anyway.
///
/// After a repair, the one-pass export goes on rounding the features after
/// it without writing them, so the planning can start from that round.
/// Most of them come out of the planning as that round made them; kept
/// here, they are written without being assembled, unprojected, rounded
/// and checked a second time. Features beyond the budget are made again.
/// Safe to use from several threads.
final class RoundedStash: Sendable {
    private struct State {
        package var kept: [Int: Kept] = [:]
        package var room: Int
    }

    private let state: Mutex<State>

    /// A stash for at most `bytes` bytes of packed features in all.
    package init(bytes: Int) {
        state = Mutex(State(room: max(0, bytes)))
    }

    private enum Kept {
        case plain([PrecisionRounding.Polygon])
        case packed(PackedPolygons)
    }

    /// Packed bytes a position is counted at when room is kept for the
    /// features still to come (contour positions pack into 4 to 6).
    static let packedBytesPerPosition = 6

    /// Keeps feature `key`'s `polygons` if they fit in the room left: as
    /// they are when that leaves room for `positionsToCome` more positions
    /// packed (the features the writer will still keep, by their
    /// estimates), else packed, so that early features kept as they are do
    /// not crowd out the later ones, which would then be made again.
    /// Packed outside the lock, so threads keep features side by side.
    func keep(_ polygons: [PrecisionRounding.Polygon], for key: Int, positionsToCome: Int = 0) {
        let plainBytes = Self.plainBytes(polygons)
        let reserved = Self.packedBytesPerPosition * max(0, positionsToCome)
        let asIs = state.withLock { s -> Bool? in
            guard s.room > 0, s.kept[key] == nil else { return nil }
            guard plainBytes <= s.room - reserved else { return false }
            s.room -= plainBytes
            s.kept[key] = .plain(polygons)
            return true
        }
        guard asIs == false else { return }
        keepPacked(polygons, for: key)
    }

    private func keepPacked(_ polygons: [PrecisionRounding.Polygon], for key: Int) {
        let packed = PackedPolygons(polygons)
        state.withLock { s in
            guard packed.bytes.count <= s.room, s.kept[key] == nil else { return }
            s.room -= packed.bytes.count
            s.kept[key] = .packed(packed)
        }
    }

    /// Keeps `polygons` for feature `key` in place of those kept for it
    /// before (a later round made it again), packed if they fit: replacing
    /// a feature then holds no more memory than keeping it did. Safe to
    /// call from several threads, each for a feature of its own.
    func replace(_ key: Int, with polygons: [PrecisionRounding.Polygon]) {
        forget(key)
        keepPacked(polygons, for: key)
    }

    /// Lets go of feature `key`'s polygons, if kept, and gives their bytes
    /// back to the budget.
    func forget(_ key: Int) {
        state.withLock { s in
            switch s.kept.removeValue(forKey: key) {
            case .plain(let polygons): s.room += Self.plainBytes(polygons)
            case .packed(let packed): s.room += packed.bytes.count
            case nil: break
            }
        }
    }

    /// The bytes of `polygons` as they are: their positions.
    private static func plainBytes(_ polygons: [PrecisionRounding.Polygon]) -> Int {
        MemoryLayout<FixedPoint>.stride * polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.points.count } }
    }

    /// Feature `key`'s kept polygons, given up by the stash; nil when not
    /// kept. Unpacked outside the lock.
    func take(_ key: Int) -> [PrecisionRounding.Polygon]? {
        switch state.withLock({ $0.kept.removeValue(forKey: key) }) {
        case .plain(let polygons): polygons
        case .packed(let packed): packed.polygons
        case nil: nil
        }
    }

    /// The number of features kept and not yet taken.
    package var count: Int { state.withLock { $0.kept.count } }
}
