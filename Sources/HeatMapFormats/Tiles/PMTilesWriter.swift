import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Writes a PMTiles v3 archive of gzipped vector tiles: tiles are added in
/// any order (spooled to a temporary file, so memory holds only their
/// entries), identical small tiles are stored once, and ``finish(to:)``
/// sorts the entries, merges consecutive ids holding the same bytes into
/// run lengths and writes header, root directory, metadata, leaf
/// directories and tile data in that order.
final class PMTilesWriter {
    private let spool: TileSpool
    private var entries: [PMTilesEntry] = []
    /// Tiles stored once, by their bytes: the small ones, which is where
    /// repeats are (a tile wholly inside one band is a square).
    private var stored: [[UInt8]: (offset: UInt64, length: UInt32)] = [:]
    private var contents: UInt64 = 0
    /// Only tiles up to this size are looked up for repeats.
    static let repeatLimit = 2048

    init() throws {
        spool = try TileSpool()
    }

    /// Adds tile z/x/y, already gzipped (empty tiles are left out by the caller).
    func add(z: Int, x: Int, y: Int, gzipped bytes: [UInt8]) throws {
        let id = HilbertTileID.id(z: z, x: x, y: y)
        if bytes.count <= Self.repeatLimit, let seen = stored[bytes] {
            entries.append(PMTilesEntry(tileID: id, offset: seen.offset, length: seen.length, runLength: 1))
            return
        }
        let place = (offset: spool.count, length: UInt32(bytes.count))
        try spool.append(bytes)
        contents += 1
        if bytes.count <= Self.repeatLimit { stored[bytes] = place }
        entries.append(PMTilesEntry(tileID: id, offset: place.offset, length: place.length, runLength: 1))
    }

    /// The number of distinct tile contents stored so far.
    var storedContents: UInt64 { contents }

    /// Writes the archive. `header` gives zooms, bounds and centre; the
    /// sections and counts are filled in here.
    func finish(header: PMTilesHeader, metadata: [UInt8], to sink: ByteSink) throws {
        entries.sort { $0.tileID < $1.tileID }
        var merged: [PMTilesEntry] = []
        merged.reserveCapacity(entries.count)
        var clustered = true, end: UInt64 = 0
        for e in entries {
            if var last = merged.last, last.offset == e.offset, last.length == e.length,
                last.tileID + UInt64(last.runLength) == e.tileID
            {
                last.runLength += 1
                merged[merged.count - 1] = last
                continue
            }
            // Clustered: each new content follows the one before it in id
            // order; repeats point back.
            if e.offset == end { end += UInt64(e.length) } else if e.offset > end { clustered = false }
            merged.append(e)
        }
        entries = []
        var h = header
        let directories =
            merged.isEmpty
            ? (root: Gzip.compress([0]), leaves: [UInt8]())
            : PMTilesDirectory.build(merged)
        let meta = Gzip.compress(metadata)
        h.rootOffset = UInt64(PMTilesHeader.size)
        h.rootLength = UInt64(directories.root.count)
        h.metadataOffset = h.rootOffset + h.rootLength
        h.metadataLength = UInt64(meta.count)
        h.leavesOffset = h.metadataOffset + h.metadataLength
        h.leavesLength = UInt64(directories.leaves.count)
        h.dataOffset = h.leavesOffset + h.leavesLength
        h.dataLength = spool.count
        h.addressedTiles = merged.reduce(0) { $0 + UInt64($1.runLength) }
        h.tileEntries = UInt64(merged.count)
        h.tileContents = contents
        h.clustered = clustered
        for part in [h.bytes, directories.root, meta, directories.leaves] {
            try part.withUnsafeBytes { try sink.write($0) }
        }
        try spool.copy { try sink.write($0) }
    }
}
