import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// What an archive holds.
public struct HeatMapTilesSummary: Sendable, Hashable {
    /// Tiles a reader can ask for and get (repeats counted each time).
    public var tiles: Int
    /// Distinct tile contents stored.
    public var contents: Int
    /// Tiles per zoom, lowest zoom first.
    public var tilesPerZoom: [Int]
    /// The largest tile, gzipped, in bytes.
    public var largestTile: Int
}

extension HeatMapTiles {
    /// Writes every tile of ``zooms`` as a PMTiles v3 archive (gzipped
    /// tiles and directories, Hilbert tile ids, metadata with
    /// `vector_layers`, bounds, centre and the legend) to `sink`, off the
    /// caller's actor; cancelling the task throws `CancellationError`.
    /// Empty tiles are left out; tiles wholly inside one band are stored
    /// once. Memory: one block of 8 × 8 tiles per core, and the tiles'
    /// directory entries; the tile data waits in a temporary file.
    @discardableResult
    public func write(to sink: ByteSink) async throws -> HeatMapTilesSummary {
        nonisolated(unsafe) let sink = sink
        return try await BackgroundWork.run { control in try self.write(to: sink, control: control) }
    }

    /// ``write(to:)`` on the calling thread (blocks on every core).
    package func write(to sink: ByteSink, control: ComputeControl) throws -> HeatMapTilesSummary {
        let writer = try PMTilesWriter()
        var summary = HeatMapTilesSummary(tiles: 0, contents: 0, tilesPerZoom: [], largestTile: 0)
        let perZoom = zooms.map { blocks(z: $0) }
        let total = perZoom.reduce(0) { $0 + $1.count }
        var done = 0
        try control.begin(.export)
        for (k, z) in zooms.enumerated() {
            let blocks = perZoom[k]
            var count = 0
            try Parallel.ordered(
                blocks.count, cost: { blocks[$0].columns * blocks[$0].rows * 24 },
                budget: 256 << 20, control: control,
                make: { try self.tiles(of: blocks[$0], control: control) },
                consume: { _, tiles in
                    for t in tiles {
                        try writer.add(z: z, x: t.x, y: t.y, gzipped: t.bytes)
                        summary.largestTile = max(summary.largestTile, t.bytes.count)
                    }
                    count += tiles.count
                    done += 1
                    control.report(.export, Double(done) / Double(max(total, 1)))
                })
            summary.tilesPerZoom.append(count)
            summary.tiles += count
        }
        summary.contents = Int(writer.storedContents)
        try writer.finish(header: header, metadata: Array(metadata.utf8), to: sink)
        return summary
    }

    /// Every non-empty tile of `block`, gzipped, with its stored column.
    func tiles(of block: TileBlock, control: ComputeControl) throws -> [(x: Int, y: Int, bytes: [UInt8])] {
        let values = try field.values(block, control: control)
        let n = TileLattice.tileNodes, side = 1 << block.z
        var out: [(x: Int, y: Int, bytes: [UInt8])] = []
        var tile = [Double](repeating: 0, count: n * n)
        for ty in 0..<block.height {
            for tx in 0..<block.width {
                try control.checkCancellation()
                let c0 = tx * TileLattice.cellsPerTile, r0 = ty * TileLattice.cellsPerTile
                for r in 0..<n {
                    let from = (r0 + r) * block.columns + c0
                    for c in 0..<n { tile[r * n + c] = values[from + c] }
                }
                guard
                    let encoded = try encode(tile, z: block.z, x: block.x0 + tx, y: block.y0 + ty, control: control)
                else { continue }
                let x = ((block.x0 + tx) % side + side) % side
                out.append((x, block.y0 + ty, encoded.gzipped))
            }
        }
        return out
    }

    /// West, south, east, north of what the tiles cover, in degrees (the
    /// whole ±180° when it crosses the antimeridian; the whole map when
    /// nothing is covered: no point, or none with weight).
    var bounds: (Double, Double, Double, Double) {
        let box = field.worldBox
        guard !holdsNothing(box) else { return PMTilesHeader.world }
        var west = WebMercator.longitude(u: box.minU), east = WebMercator.longitude(u: box.maxU)
        if west < -180 || east > 180 || east - west >= 360 { (west, east) = (-180, 180) }
        let south = WebMercator.latitude(v: min(box.maxV, 1)), north = WebMercator.latitude(v: max(box.minV, 0))
        return (west, south, east, north)
    }

    /// The middle of ``bounds`` (longitude 0 and latitude 0 when nothing
    /// is covered).
    var centre: (longitude: Double, latitude: Double) {
        let box = field.worldBox
        guard !holdsNothing(box) else { return (0, 0) }
        var u = (box.minU + box.maxU) / 2
        u -= floor(u)
        return (WebMercator.longitude(u: u), WebMercator.latitude(v: min(max((box.minV + box.maxV) / 2, 0), 1)))
    }

    var header: PMTilesHeader {
        var h = PMTilesHeader()
        h.minZoom = zooms.lowerBound
        h.maxZoom = zooms.upperBound
        h.bounds = bounds
        h.centreZoom = zooms.lowerBound
        h.centre = centre
        return h
    }

    /// The archive's JSON metadata: TileJSON's keys, and the legend.
    var metadata: String {
        // Every digit: the legend's thresholds are the features' own.
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        func quoted(_ s: String) -> String { JSONEscaping.quoted(s) }
        let b = bounds, c = centre
        let range = "\"minzoom\":\(zooms.lowerBound),\"maxzoom\":\(zooms.upperBound)"
        var layers = [
            "{\"id\":\"bands\",\"description\":\"density bands: level, its lower threshold and upper bound\","
                + "\"fields\":{\"level\":\"Number\",\"threshold\":\"Number\",\"upper\":\"Number\",\"units\":\"String\","
                + "\"fill\":\"String\"},\(range)}"
        ]
        if let bins {
            layers.append(
                "{\"id\":\"bins\",\"description\":\"the points binned in \(bins.shape == .h3 ? "H3 cells" : "hexagons") sized per zoom: count, weight, weight per km²\","
                    + "\"fields\":{\"count\":\"Number\",\"weight\":\"Number\",\"density\":\"Number\",\"units\":\"String\","
                    + "\"level\":\"Number\",\"fill\":\"String\"},\(range)}")
        }
        if legend.isolines {
            layers.append(
                "{\"id\":\"isolines\",\"description\":\"the lines at each threshold\","
                    + "\"fields\":{\"level\":\"Number\",\"threshold\":\"Number\",\"units\":\"String\"},\(range)}")
        }
        let legendJSON =
            "{\"thresholds\":[\(thresholds.map(number).joined(separator: ","))],"
            + "\"colors\":[\(legend.fills.map(quoted).joined(separator: ","))],"
            + "\"units\":\(quoted(units)),\"radius\":\(number(radius)),\"radius_units\":\"m\","
            + "\"kernel\":\(quoted(kernel.name)),"
            + (kernel.isFinite ? "" : "\"sigma\":\(number(radius / 3)),")
            + "\"values\":\(quoted(kernelValues == .raw ? "raw" : "density")),"
            + (pointRadii.map { "\"radii\":\(GridEncoding.json($0))," } ?? "")
            + "\"estimator\":\(quoted(estimator == .mean ? "mean" : "density"))}"
        return "{\"name\":\"contours\",\"format\":\"pbf\",\"type\":\"overlay\","
            + "\"description\":\"Kernel density bands, contoured at every zoom with one radius and one set of thresholds\","
            + "\(range),\"bounds\":\"\(number(b.0)),\(number(b.1)),\(number(b.2)),\(number(b.3))\","
            + "\"center\":\"\(number(c.longitude)),\(number(c.latitude)),\(zooms.lowerBound)\","
            + "\"vector_layers\":[\(layers.joined(separator: ","))],\"legend\":\(legendJSON)}"
    }
}
