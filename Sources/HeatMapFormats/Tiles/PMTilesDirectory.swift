import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A PMTiles v3 directory: entries in ascending tile id, serialised as a
/// count, then the ids as deltas, the run lengths, the lengths and the
/// offsets (0 when a tile follows the one before it, else offset + 1),
/// every number a varint, the whole gzipped.
struct PMTilesEntry: Sendable, Hashable {
    var tileID: UInt64
    /// From the start of the tile data section (or the leaf section).
    var offset: UInt64
    var length: UInt32
    /// Consecutive ids holding the same tile; 0 marks a leaf directory.
    var runLength: UInt32
}

enum PMTilesDirectory {
    /// The serialised, uncompressed directory of `entries` (at least one).
    static func serialise(_ entries: ArraySlice<PMTilesEntry>) -> [UInt8] {
        var w = ProtobufWriter()
        w.varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries {
            w.varint(e.tileID - last)
            last = e.tileID
        }
        for e in entries { w.varint(UInt64(e.runLength)) }
        for e in entries { w.varint(UInt64(e.length)) }
        var previous: PMTilesEntry?
        for e in entries {
            if let p = previous, e.offset == p.offset + UInt64(p.length) {
                w.varint(0)
            } else {
                w.varint(e.offset + 1)
            }
            previous = e
        }
        return w.bytes
    }

    /// The root directory and the leaf directories (empty when all entries
    /// fit in the root), gzipped, so that the header and root together stay
    /// within the first 16 KiB as readers fetch them. Leaves grow until
    /// the root of their pointers fits. O(entries · attempts).
    static func build(_ entries: [PMTilesEntry]) -> (root: [UInt8], leaves: [UInt8]) {
        let room = 16_384 - PMTilesHeader.size
        let whole = Gzip.compress(serialise(entries[...]))
        if whole.count <= room { return (whole, []) }
        var leafSize = max(4096, entries.count / 3000)
        while true {
            var leaves: [UInt8] = []
            var pointers: [PMTilesEntry] = []
            var start = 0
            while start < entries.count {
                let end = min(entries.count, start + leafSize)
                let leaf = Gzip.compress(serialise(entries[start..<end]))
                pointers.append(
                    PMTilesEntry(
                        tileID: entries[start].tileID, offset: UInt64(leaves.count),
                        length: UInt32(leaf.count), runLength: 0))
                leaves.append(contentsOf: leaf)
                start = end
            }
            let root = Gzip.compress(serialise(pointers[...]))
            if root.count <= room { return (root, leaves) }
            leafSize *= 2
        }
    }
}
