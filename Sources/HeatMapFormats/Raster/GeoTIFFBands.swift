import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A Cloud-Optimized GeoTIFF with one band per grid — the frames of a
/// time series — written as ``GeoTIFFWriter`` writes one band, with the
/// bands stored apart (PlanarConfiguration 2): every directory first,
/// then the tiles, smallest overview first, each level band by band.
/// Grids are added one at a time and their compressed tiles wait in a
/// temporary file until the directories that point into them are
/// written, so memory is one grid and its tiles however many bands.
package struct GeoTIFFBands {
    private let geometry: GridGeometry
    private let options: GeoTIFFWriter.Options
    private let tile: Int
    /// Width and height of each level, full resolution first.
    private let sizes: [(width: Int, height: Int)]
    /// The compressed tiles, band by band, each band level by level.
    private let spool: TileSpool
    /// tileSizes[level][band] = the byte counts of that band's tiles, row-major.
    private var tileSizes: [[[Int]]]
    /// blocks[level][band] = where that band's tiles of that level start in the spool.
    private var blocks: [[UInt64]]
    private var descriptions: [String] = []
    private var bandItems: [[(name: String, value: String)]] = []
    private var hasNoData = false
    private var first: DensityGrid?

    /// Bands of grids with `geometry`.
    /// - Throws: ``InputError`` when the temporary file cannot be made.
    package init(geometry: GridGeometry, options: GeoTIFFWriter.Options) throws {
        self.geometry = geometry
        self.options = options
        tile = max(geometry.columns, geometry.rows) > 512 ? 512 : 256
        var sizes = [(geometry.columns, geometry.rows)]
        if max(geometry.columns, geometry.rows) > 512 {
            while max(sizes.last!.0, sizes.last!.1) > tile {
                sizes.append(((sizes.last!.0 + 1) / 2, (sizes.last!.1 + 1) / 2))
            }
        }
        self.sizes = sizes.map { (width: $0.0, height: $0.1) }
        tileSizes = Array(repeating: [], count: sizes.count)
        blocks = Array(repeating: [], count: sizes.count)
        spool = try TileSpool()
    }

    /// The number of bands added.
    package var count: Int { descriptions.count }

    /// Adds `grid` as the next band, described as `description` (GDAL's
    /// band description) with `items` as its own metadata.
    /// - Throws: ``HeatMapError`` when the temporary file cannot be written.
    package mutating func add(
        _ grid: DensityGrid, description: String, items: [(name: String, value: String)] = []
    ) throws {
        precondition(grid.geometry == geometry, "every band has the same grid")
        if first == nil { first = grid }
        if grid.values.contains(where: { $0.isNaN }) { hasNoData = true }
        var levels = [RasterLevel(topDown: grid)]
        while levels.count < sizes.count { levels.append(levels.last!.halved()) }
        let tile = self.tile, sample = options.sampleType
        for (k, level) in levels.enumerated() {
            let across = (level.width + tile - 1) / tile, down = (level.height + tile - 1) / tile
            var tiles = [[UInt8]](repeating: [], count: across * down)
            tiles.withUnsafeMutableBufferPointer { out in
                let results = UncheckedSendable(out)
                Parallel.forEach(across * down) { j in
                    results.value[j] = level.compressedTile(tx: j % across, ty: j / across, size: tile, sample: sample)
                }
            }
            blocks[k].append(spool.count)
            tileSizes[k].append(tiles.map(\.count))
            for t in tiles { try spool.append(t) }
        }
        descriptions.append(description)
        bandItems.append(items)
    }

    /// Writes the file, in pieces handed to `write`: the directories, then
    /// the tiles from the temporary file.
    /// - Throws: ``RasterCodecError`` with no band, or when the file would
    ///   pass 4 GiB; what `write` throws; ``HeatMapError`` when the
    ///   temporary file cannot be read.
    package func write(to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let grid = first else { throw RasterCodecError("GeoTIFF: no band to write") }
        let g = geometry
        let bands = descriptions.count
        let sample = options.sampleType
        let (crs, xOffset) = (options.crs ?? RasterCRS.of(grid.projection)).map { $0.withEPSGCode } ?? (nil, 0)
        var metadata = GeoTIFFWriter.metadata(grid, crs: crs, software: options.software)
        metadata.bandDescription = nil
        metadata.bandUnit = nil
        var xml = metadata.xml
        xml.removeLast("</GDALMetadata>".count)
        for b in 0..<bands {
            xml +=
                "  <Item name=\"DESCRIPTION\" sample=\"\(b)\" role=\"description\">\(MarkupEscaping.text(descriptions[b]))</Item>\n"
            xml +=
                "  <Item name=\"UNITTYPE\" sample=\"\(b)\" role=\"unittype\">\(MarkupEscaping.text(grid.units))</Item>\n"
            for item in bandItems[b] {
                xml +=
                    "  <Item name=\"\(MarkupEscaping.attribute(item.name))\" sample=\"\(b)\">\(MarkupEscaping.text(item.value))</Item>\n"
            }
        }
        xml += "</GDALMetadata>"

        var directories: [TIFFDirectoryBuilder] = []
        for (k, size) in sizes.enumerated() {
            var d = TIFFDirectoryBuilder()
            let tiles = tileSizes[k].reduce(0) { $0 + $1.count }
            d.set(254, .longs([k == 0 ? 0 : 1]))
            d.set(256, .longs([UInt32(size.width)]))
            d.set(257, .longs([UInt32(size.height)]))
            d.set(258, .shorts([UInt16](repeating: UInt16(sample.bytes * 8), count: bands)))
            d.set(259, .shorts([8]))
            d.set(262, .shorts([1]))
            d.set(277, .shorts([UInt16(bands)]))
            d.set(284, .shorts([2]))
            // Bands past the first are plain data (ExtraSamples 0), not colour.
            if bands > 1 { d.set(338, .shorts([UInt16](repeating: 0, count: bands - 1))) }
            d.set(317, .shorts([3]))
            d.set(322, .shorts([UInt16(tile)]))
            d.set(323, .shorts([UInt16(tile)]))
            d.set(324, .longs([UInt32](repeating: 0, count: tiles)))
            d.set(325, .longs(tileSizes[k].flatMap { $0.map { UInt32($0) } }))
            d.set(339, .shorts([UInt16](repeating: 3, count: bands)))
            if hasNoData { d.set(42113, .ascii("nan")) }
            if k == 0 {
                d.set(305, .ascii(options.software))
                d.set(42112, .ascii(xml))
                d.setGeoreferencing(g, crs: crs, eastingOffset: xOffset)
            }
            directories.append(d)
        }
        let ghost = GeoTIFFWriter.ghostHeader()
        var offset = 8 + ghost.count
        var directoryOffsets: [Int] = []
        for d in directories {
            offset += offset & 1
            directoryOffsets.append(offset)
            offset += d.size
        }
        // Tile data: the smallest level first, each level band by band.
        var tileOffsets = [[UInt32]](repeating: [], count: sizes.count)
        for k in stride(from: sizes.count - 1, through: 0, by: -1) {
            for band in tileSizes[k] {
                for size in band {
                    tileOffsets[k].append(UInt32(truncatingIfNeeded: offset))
                    offset += size
                }
            }
        }
        guard offset < Int(UInt32.max) else {
            throw RasterCodecError("GeoTIFF: \(offset) bytes is more than a classic TIFF holds (4 GiB)")
        }
        for k in sizes.indices { directories[k].set(324, .longs(tileOffsets[k])) }
        var out: [UInt8] = [0x49, 0x49, 42, 0]
        withUnsafeBytes(of: UInt32(directoryOffsets[0]).littleEndian) { out += $0 }
        out += ghost
        for (k, d) in directories.enumerated() {
            if out.count < directoryOffsets[k] { out.append(0) }
            out += d.bytes(at: directoryOffsets[k], next: k + 1 < directories.count ? directoryOffsets[k + 1] : 0)
        }
        try out.withUnsafeBytes { try write($0) }
        for k in stride(from: sizes.count - 1, through: 0, by: -1) {
            for (band, start) in blocks[k].enumerated() {
                let length = UInt64(tileSizes[k][band].reduce(0, +))
                try spool.copy(start..<start + length, to: write)
            }
        }
    }
}
