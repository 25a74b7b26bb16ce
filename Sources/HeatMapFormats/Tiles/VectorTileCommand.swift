import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The geometry commands of a Mapbox Vector Tile (2.1, §4.3): a command
/// integer (id in the low 3 bits, repeat count above), then each
/// parameter as the zigzag of its delta from the cursor, which carries on
/// across rings and parts of a feature.
struct VectorTileGeometry {
    enum Command: UInt32 {
        case moveTo = 1, lineTo = 2, closePath = 7
    }

    private(set) var integers: [UInt32] = []
    private var cursorX: Int32 = 0, cursorY: Int32 = 0

    private mutating func command(_ command: Command, count: Int) {
        integers.append(command.rawValue & 0x7 | UInt32(count) << 3)
    }

    private mutating func move(to p: TilePoint) {
        integers.append(ProtobufWriter.zigzag(p.x &- cursorX))
        integers.append(ProtobufWriter.zigzag(p.y &- cursorY))
        cursorX = p.x
        cursorY = p.y
    }

    /// A closed ring given without its closing vertex (3 or more points).
    mutating func ring(_ ring: [TilePoint]) {
        line(ring)
        command(.closePath, count: 1)
    }

    /// An open line (2 or more points).
    mutating func line(_ points: [TilePoint]) {
        guard let first = points.first else { return }
        command(.moveTo, count: 1)
        move(to: first)
        command(.lineTo, count: points.count - 1)
        for p in points.dropFirst() { move(to: p) }
    }
}

/// A vertex in tile coordinates: integers of the tile's extent, x to the
/// right, y down.
struct TilePoint: Hashable, Sendable {
    var x: Int32
    var y: Int32
}
