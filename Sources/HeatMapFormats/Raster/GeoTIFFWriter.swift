import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Cloud-Optimized GeoTIFF of a density grid.
///
/// Layout (as `rio cogeo validate` and GDAL's COG driver expect): the TIFF
/// header, GDAL's structural-metadata "ghost" text, then every image file
/// directory (full resolution first, then each overview, halving), then the
/// tile data — the smallest overview's first, the full image's last — so a
/// reader fetching the header range knows where every tile is. Tiles are
/// 256 × 256 (512 × 512 for grids over 512 cells a side), each row
/// through the floating-point predictor (3), then DEFLATE. Overviews
/// (for grids over 512 cells a side, until one tile holds the level)
/// average 2 × 2 blocks of defined values. Rows are written top-down
/// (highest y first), and pixel (0, 0)'s corner is (x0 − dx/2, y0 + (rows − ½)·dy),
/// so values sit at pixel centres as in the JSON grid.
public enum GeoTIFFWriter {
    /// The sample type of the raster.
    public enum SampleType: Sendable, Hashable {
        /// 32-bit floats (default): 7 significant digits, half the size.
        case float32
        /// 64-bit floats: every value as computed.
        case float64

        package var bytes: Int { self == .float32 ? 4 : 8 }
    }

    /// What to write besides the values.
    public struct Options: Sendable, Hashable {
        /// The sample type.
        public var sampleType: SampleType
        /// The CRS to state; nil takes the grid's projection's (none for planar).
        public var crs: RasterCRS?
        /// The program named in the Software tag and the metadata.
        public var software: String

        /// Creates options.
        public init(sampleType: SampleType = .float32, crs: RasterCRS? = nil, software: String = "HeatMap") {
            self.sampleType = sampleType
            self.crs = crs
            self.software = software
        }
    }

    /// The bytes of the GeoTIFF of `grid`. O(cells) time and memory; tiles
    /// are compressed on every core.
    /// - Throws: ``RasterCodecError`` when the file would pass 4 GiB.
    public static func encode(_ grid: DensityGrid, options: Options = Options()) throws -> [UInt8] {
        let g = grid.geometry
        let tile = max(g.columns, g.rows) > 512 ? 512 : 256
        var levels: [RasterLevel] = [RasterLevel(topDown: grid)]
        if max(g.columns, g.rows) > 512 {
            while max(levels.last!.width, levels.last!.height) > tile { levels.append(levels.last!.halved()) }
        }
        let hasNoData = grid.values.contains { $0.isNaN }
        // Compress every tile of every level.
        var jobs: [(level: Int, tx: Int, ty: Int)] = []
        for (k, level) in levels.enumerated() {
            for ty in 0..<((level.height + tile - 1) / tile) {
                for tx in 0..<((level.width + tile - 1) / tile) { jobs.append((k, tx, ty)) }
            }
        }
        var compressed = [[UInt8]](repeating: [], count: jobs.count)
        let sample = options.sampleType
        compressed.withUnsafeMutableBufferPointer { out in
            let results = UncheckedSendable(out)
            Parallel.forEach(jobs.count) { j in
                let job = jobs[j]
                results.value[j] = levels[job.level].compressedTile(tx: job.tx, ty: job.ty, size: tile, sample: sample)
            }
        }

        let (crs, xOffset) = (options.crs ?? RasterCRS.of(grid.projection)).map { $0.withEPSGCode } ?? (nil, 0)
        var directories: [TIFFDirectoryBuilder] = []
        var jobStart = 0
        var firstJob: [Int] = []
        for (k, level) in levels.enumerated() {
            var d = TIFFDirectoryBuilder()
            let tiles = ((level.height + tile - 1) / tile) * ((level.width + tile - 1) / tile)
            firstJob.append(jobStart)
            d.set(254, .longs([k == 0 ? 0 : 1]))
            d.set(256, .longs([UInt32(level.width)]))
            d.set(257, .longs([UInt32(level.height)]))
            d.set(258, .shorts([UInt16(sample.bytes * 8)]))
            d.set(259, .shorts([8]))
            d.set(262, .shorts([1]))
            d.set(277, .shorts([1]))
            d.set(284, .shorts([1]))
            d.set(317, .shorts([3]))
            d.set(322, .shorts([UInt16(tile)]))
            d.set(323, .shorts([UInt16(tile)]))
            d.set(324, .longs([UInt32](repeating: 0, count: tiles)))
            d.set(325, .longs((jobStart..<(jobStart + tiles)).map { UInt32(compressed[$0].count) }))
            d.set(339, .shorts([3]))
            if hasNoData { d.set(42113, .ascii("nan")) }
            if k == 0 {
                d.set(305, .ascii(options.software))
                d.set(42112, .ascii(metadata(grid, crs: crs, software: options.software).xml))
                d.setGeoreferencing(g, crs: crs, eastingOffset: xOffset)
            }
            directories.append(d)
            jobStart += tiles
        }

        let ghost = ghostHeader()
        var offset = 8 + ghost.count
        var directoryOffsets: [Int] = []
        for d in directories {
            offset += offset & 1
            directoryOffsets.append(offset)
            offset += d.size
        }
        // Tile data: the smallest level first.
        var tileOffsets = [Int](repeating: 0, count: jobs.count)
        for k in stride(from: levels.count - 1, through: 0, by: -1) {
            let end = k + 1 < levels.count ? firstJob[k + 1] : jobs.count
            for j in firstJob[k]..<end {
                tileOffsets[j] = offset
                offset += compressed[j].count
            }
        }
        guard offset < Int(UInt32.max) else {
            throw RasterCodecError("GeoTIFF: \(offset) bytes is more than a classic TIFF holds (4 GiB)")
        }
        for k in levels.indices {
            let end = k + 1 < levels.count ? firstJob[k + 1] : jobs.count
            directories[k].set(324, .longs((firstJob[k]..<end).map { UInt32(tileOffsets[$0]) }))
        }
        var out: [UInt8] = [0x49, 0x49, 42, 0]
        withUnsafeBytes(of: UInt32(directoryOffsets[0]).littleEndian) { out += $0 }
        out += ghost
        out.reserveCapacity(offset)
        for (k, d) in directories.enumerated() {
            if out.count < directoryOffsets[k] { out.append(0) }
            out += d.bytes(at: directoryOffsets[k], next: k + 1 < directories.count ? directoryOffsets[k + 1] : 0)
        }
        for k in stride(from: levels.count - 1, through: 0, by: -1) {
            let end = k + 1 < levels.count ? firstJob[k + 1] : jobs.count
            for j in firstJob[k]..<end { out += compressed[j] }
        }
        return out
    }

    /// GDAL's structural metadata, which tells GDAL the IFDs come first.
    static func ghostHeader() -> [UInt8] {
        let body = "LAYOUT=IFDS_BEFORE_DATA\nBLOCK_ORDER=ROW_MAJOR\nKNOWN_INCOMPATIBLE_EDITION=NO\n"
        let head = "GDAL_STRUCTURAL_METADATA_SIZE=\(String(format: "%06d", body.utf8.count)) bytes\n"
        return Array((head + body).utf8)
    }

    static func metadata(_ grid: DensityGrid, crs: RasterCRS?, software: String) -> GDALMetadata {
        var m = GDALMetadata()
        let unit = grid.projection.isGeographic ? "m" : "units"
        m.items = [
            ("ESTIMATOR", grid.estimator.rawValue),
            ("UNITS", grid.units),
            ("RADIUS", "\(GridEncoding.number(grid.radius)) \(unit)"),
            ("SIGMA", "\(GridEncoding.number(grid.radius / grid.kernel.radiusPerSigma)) \(unit)"),
            (
                "KERNEL",
                (grid.kernel == .gaussian ? "gaussian, sigma = radius / 3" : "\(grid.kernel.name), support = radius")
                    + (grid.kernelValues == .raw ? ", raw values (weight × shape)" : "")
            ),
            ("PROJECTION", grid.projection.kind.rawValue),
            ("CRS", crs?.proj ?? "none"),
            ("SOFTWARE", software)
        ]
        if grid.projection.isGeographic {
            m.items.insert(
                (
                    "CENTRE",
                    "\(GridEncoding.number(grid.projection.centreLatitude)), \(GridEncoding.number(grid.projection.centreLongitude))"
                ), at: 6)
        }
        if let radii = grid.pointRadii {
            func n(_ v: Double) -> String { GridEncoding.number(v) }
            let text: String
            switch radii {
            case .perPoint(let smallest, let largest):
                text = "per point, \(n(smallest)) to \(n(largest)) \(unit)"
            case .adaptive(let sensitivity, let trim, let a):
                text =
                    "adaptive (Abramson), sensitivity \(n(sensitivity)), trim \(n(trim)); RADIUS is the pilot's; "
                    + "local radii \(n(a.smallest)) to \(n(a.largest)) \(unit), geometric mean \(n(a.geometricMean)) \(unit)"
            }
            m.items.insert(("RADII", text), at: m.items.firstIndex { $0.0 == "KERNEL" }.map { $0 + 1 } ?? 4)
        }
        m.bandDescription = grid.estimator == .mean ? "kernel-weighted mean" : "kernel density"
        m.bandUnit = grid.units
        return m
    }
}

/// One resolution level of a raster, rows top-down.
struct RasterLevel {
    package let width: Int
    package let height: Int
    /// Row-major, row 0 the top (highest y); NaN undefined.
    package let values: [Double]

    package init(width: Int, height: Int, values: [Double]) {
        self.width = width
        self.height = height
        self.values = values
    }

    /// The grid's values with the row order flipped (grids keep row 0 lowest).
    package init(topDown grid: DensityGrid) {
        let g = grid.geometry
        var v = [Double](repeating: 0, count: g.count)
        for r in 0..<g.rows {
            let from = (g.rows - 1 - r) * g.columns
            for c in 0..<g.columns { v[r * g.columns + c] = grid.values[from + c] }
        }
        self.init(width: g.columns, height: g.rows, values: v)
    }

    /// Half the size (rounded up): each pixel the mean of the defined values of its 2 × 2 block.
    func halved() -> RasterLevel {
        let w = (width + 1) / 2, h = (height + 1) / 2
        var out = [Double](repeating: .nan, count: w * h)
        for r in 0..<h {
            for c in 0..<w {
                var sum = 0.0, n = 0
                for dr in 0..<2 where 2 * r + dr < height {
                    for dc in 0..<2 where 2 * c + dc < width {
                        let v = values[(2 * r + dr) * width + 2 * c + dc]
                        if !v.isNaN { sum += v; n += 1 }
                    }
                }
                if n > 0 { out[r * w + c] = sum / Double(n) }
            }
        }
        return RasterLevel(width: w, height: h, values: out)
    }

    /// The DEFLATE stream of one tile after the floating-point predictor;
    /// cells past the raster's edge are 0.
    func compressedTile(tx: Int, ty: Int, size: Int, sample: GeoTIFFWriter.SampleType) -> [UInt8] {
        let b = sample.bytes
        var raw = [UInt8](repeating: 0, count: size * size * b)
        raw.withUnsafeMutableBytes { p in
            for r in 0..<size {
                let row = ty * size + r
                guard row < height else { break }
                for c in 0..<size {
                    let col = tx * size + c
                    guard col < width else { break }
                    let v = values[row * width + col]
                    let at = (r * size + c) * b
                    if b == 4 {
                        p.storeBytes(of: Float(v).bitPattern.littleEndian, toByteOffset: at, as: UInt32.self)
                    } else {
                        p.storeBytes(of: v.bitPattern.littleEndian, toByteOffset: at, as: UInt64.self)
                    }
                }
            }
        }
        TIFFPredictor.applyFloatingPoint(&raw, rows: size, width: size, samples: 1, bytes: b)
        return DeflateEncoder.zlib(raw, maxChain: 16)
    }
}
