import Foundation
import HeatMapCore

/// Points from a file or standard input that can be passed over several
/// times in bounded memory.
///
/// ``read(path:options:control:)`` makes the first pass: it parses and
/// checks every row, and gathers ``statistics`` (count, latitude range,
/// longitude arc, weights). A regular CSV file is parsed on every core
/// (``CSVBlockReader``), with the points in file order as ever. Later
/// passes (``forEachBatch(control:_:)``) hand out the good points in
/// batches, from an anonymous temporary file of raw doubles (24–32 bytes
/// a point) written during the first pass, or — for regular files larger
/// than ``spoolLimit`` — by parsing the file again. Memory: O(batch),
/// never O(points); the spool lives in the page cache and on disk.
package final class StreamedPoints {
    /// How later passes get the points back.
    package enum Replay: Sendable, Hashable {
        /// Parse the file again (regular files only).
        case reparse
        /// Keep the checked points in a temporary file.
        case spool
    }

    /// Points handed out per batch (``PointBatch``'s standard size).
    static let batchSize = PointBatch.standardSize

    /// The largest regular file spooled by default (bytes). Reading the
    /// spool back costs a fraction of parsing again; beyond this size the
    /// temporary file (nearly as large as the input) would crowd the disk,
    /// and the file is parsed again instead.
    static let spoolLimit = 4 << 30

    /// The input's name for messages: the path, or "stdin".
    package let name: String
    /// The format read.
    package let format: InputFormat
    /// What the first pass learned.
    package let statistics: InputStatistics
    /// Rows left out under `skipInvalid`.
    package let rejections: InputRejections
    /// Rows (CSV) or positions (GeoJSON) seen, good and bad.
    package let rowsRead: Int
    /// The columns used (CSV), e.g. "lat, long, weight: wind".
    package let columnsDescription: String?
    /// How later passes read.
    package let replay: Replay

    /// For planar input (`options.geographic` false): the points' spread as
    /// read (x the longitude column, y the latitude one, as the planar
    /// projection maps them), so that finding a bandwidth takes no pass of
    /// its own.
    let planarSpread: BandwidthEstimator?

    private let path: String?
    private let options: PointReaderOptions
    /// Whether each point brings its own kernel radius (``PointColumns/radius``).
    package var carriesRadius: Bool { options.columns.radius != nil }
    private let spool: PointSpool?

    private init(
        name: String, format: InputFormat, statistics: InputStatistics, rejections: InputRejections,
        rowsRead: Int, columnsDescription: String?, replay: Replay, planarSpread: BandwidthEstimator?,
        path: String?, options: PointReaderOptions, spool: PointSpool?
    ) {
        self.name = name
        self.format = format
        self.statistics = statistics
        self.rejections = rejections
        self.rowsRead = rowsRead
        self.columnsDescription = columnsDescription
        self.replay = replay
        self.planarSpread = planarSpread
        self.path = path
        self.options = options
        self.spool = spool
    }

    /// Makes the first pass over `path` (nil or "-" for standard input).
    ///
    /// - Parameter replay: how later passes read; nil spools everything
    ///   but regular files larger than ``spoolLimit``, which are parsed
    ///   again (as is a regular file whose spool cannot be written).
    /// - Throws: ``InputError`` for the first bad row (unless skipping) or
    ///   bad structure; `CancellationError` when the control says stop.
    package static func read(
        path: String?, options: PointReaderOptions, replay: Replay? = nil,
        control: ComputeControl = .none
    ) throws -> StreamedPoints {
        let forced: InputKind? = options.format.map { $0 == .geojson ? .geojson : .csv }
        return try read(
            input: InputFile(path: path, forced: forced), options: options, replay: replay, control: control)
    }

    /// Makes the first pass over an input already opened and sniffed
    /// (see ``read(path:options:replay:control:)``). A stream is read once
    /// and spooled; only a regular file named by its path is read again.
    package static func read(
        input: InputFile, options: PointReaderOptions, replay: Replay? = nil,
        control: ComputeControl = .none
    ) throws -> StreamedPoints {
        let reader = try PointReader(input: input, options: options)
        // Standard input is spooled even when it is a file: it cannot be
        // opened again by name, and its offset is not ours to rewind.
        let path = input.isRereadable ? input.path : nil
        let named = path != nil
        let size = reader.fileSize.map { max($0, 1) }
        let large = (size ?? 0) > spoolLimit
        let rereadable = reader.isRegularFile && named
        var mode: Replay = rereadable ? (replay ?? (large ? .reparse : .spool)) : .spool
        var spool: PointSpool?
        // A file spooled by choice, not need, is parsed again if the spool
        // fails (a full disk): the run goes on, only slower.
        let optional = rereadable && replay == nil
        func spooling(_ step: (PointSpool) throws -> Void) throws {
            guard let s = spool else { return }
            do {
                try step(s)
            } catch {
                guard optional else { throw error }
                spool = nil
                mode = .reparse
            }
        }
        if mode == .spool {
            do {
                spool = try PointSpool(
                    withValues: options.columns.value != nil, withRadii: options.columns.radius != nil,
                    withTimes: options.columns.time != nil)
            } catch {
                guard optional else { throw error }
                mode = .reparse
            }
        }
        var statistics = InputStatistics()
        var spread = options.geographic ? nil : BandwidthEstimator()
        control.report(.read, 0)
        var rejections = reader.rejections
        var rowsRead = reader.rowsRead
        if named, reader.isRegularFile, let csv = reader.csvReader, let path {
            let blocks = CSVBlockReader(path: path, reader: csv, skipInvalid: options.skipInvalid)
            try blocks.forEachRun(control: control) { run in
                for i in 0..<run.count {
                    let p = run[i]
                    statistics.add(p)
                    spread?.add(x: p.longitude, y: p.latitude, weight: p.weight)
                }
                try spooling { try $0.append(run) }
                try control.checkCancellation()
                if let size { control.report(.read, Double(blocks.bytesDone) / Double(size)) }
            }
            rejections = blocks.rejections
            rowsRead = blocks.rowsRead
        } else {
            var sinceCheck = 0
            while let p = try reader.next() {
                statistics.add(p)
                spread?.add(x: p.longitude, y: p.latitude, weight: p.weight)
                try spooling { try $0.append(p) }
                sinceCheck += 1
                if sinceCheck == 16_384 {
                    sinceCheck = 0
                    try control.checkCancellation()
                    if let size { control.report(.read, Double(reader.bytesRead) / Double(size)) }
                }
            }
            rejections = reader.rejections
            rowsRead = reader.rowsRead
        }
        try spooling { try $0.flush() }
        control.report(.read, 1)
        return StreamedPoints(
            name: reader.name, format: reader.format, statistics: statistics,
            rejections: rejections, rowsRead: rowsRead,
            columnsDescription: reader.columnsDescription, replay: mode,
            planarSpread: spread, path: path, options: options, spool: spool)
    }

    /// The same points told as the input they were converted from: a tool
    /// that turns a user's file into a temporary one before reading it
    /// (e.g. H3 cells into their centres) names the user's file, its
    /// columns, rows and rejections in messages. O(1); the replay is shared.
    package func relabeled(
        name: String, columnsDescription: String?, rowsRead: Int,
        rejections: InputRejections
    ) -> StreamedPoints {
        StreamedPoints(
            name: name, format: format, statistics: statistics, rejections: rejections,
            rowsRead: rowsRead, columnsDescription: columnsDescription, replay: replay,
            planarSpread: planarSpread, path: path, options: options, spool: spool)
    }

    /// The number of good points.
    package var count: Int { statistics.count }

    /// Hands out every good point again, in batches of `size` (default
    /// ``batchSize``) points, in file order.
    ///
    /// - Throws: ``InputError`` when the file changed since the first
    ///   pass; `CancellationError` when the control says stop.
    package func forEachBatch(
        size: Int = StreamedPoints.batchSize, control: ComputeControl = .none,
        _ body: (PointBatch) throws -> Void
    ) throws {
        let size = max(size, 1)
        var batch = PointBatch(capacity: size)
        if let spool {
            try spool.forEachBatch(into: &batch, size: size, control: control, body)
            return
        }
        var again = options
        // Rows the first pass refused are passed over quietly this time.
        again.skipInvalid = true
        again.format = format
        let reader = try PointReader(path: path, options: again)
        var seen = 0
        func add(_ p: InputPoint) throws {
            batch.append(p)
            if batch.count == size {
                try control.checkCancellation()
                seen += batch.count
                try body(batch)
                batch.removeAll()
            }
        }
        let rejected: Int
        if let csv = reader.csvReader, let path {
            let blocks = CSVBlockReader(path: path, reader: csv, skipInvalid: true)
            try blocks.forEachRun(control: control) { run in
                for i in 0..<run.count { try add(run[i]) }
            }
            rejected = blocks.rejections.count
        } else {
            while let p = try reader.next() { try add(p) }
            rejected = reader.rejections.count
        }
        seen += batch.count
        if batch.count > 0 { try body(batch) }
        if seen != statistics.count || rejected != rejections.count {
            throw InputError(
                file: name, line: 0, column: "", reason: "input changed",
                message: "the file changed while it was being read (\(statistics.count) points,"
                    + " then \(seen))")
        }
    }
}
