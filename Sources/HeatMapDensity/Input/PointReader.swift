import Foundation
import HeatMapCore

/// Reads points from a CSV or GeoJSON file or standard input, whichever
/// the options, the file's extension or its first bytes say it is.
///
/// ```swift
/// let reader = try PointReader(path: "quakes.csv",
///     options: PointReaderOptions(columns: PointColumns(weight: "mag")))
/// while let p = try reader.next() { … }
/// ```
///
/// Memory is bounded by one chunk and one record (CSV) or one feature
/// (GeoJSON), whatever the file size.
public final class PointReader {
    private enum Kind {
        case csv(CSVPointReader)
        case geojson(GeoJSONPointReader)
    }

    private let kind: Kind
    private let source: ByteSource
    /// The format being read.
    public let format: InputFormat
    /// The name used in messages: the path, or "stdin".
    public var name: String { source.name }
    /// Whether the input is a regular file (so it can be read again).
    public var isRegularFile: Bool { source.isRegularFile }
    /// Bytes read so far.
    public var bytesRead: Int { source.bytesRead }
    /// The file's size, when it is a regular file.
    public var fileSize: Int? { source.fileSize }

    /// Opens `path` (nil or "-" for standard input) and, for CSV, reads the header.
    ///
    /// - Throws: ``InputError`` when the file cannot be opened, is empty or
    ///   binary, or lacks a needed column.
    public convenience init(path: String?, options: PointReaderOptions) throws {
        let forced: InputKind? = options.format.map { $0 == .geojson ? .geojson : .csv }
        try self.init(input: InputFile(path: path, forced: forced), options: options)
    }

    /// Reads points from an input already opened (and sniffed): the
    /// format is `options.format`, else the one its kind implies
    /// (``InputKind/sniff(_:name:)``).
    package init(input: InputFile, options: PointReaderOptions) throws {
        source = input.source
        if source.prefix.isEmpty {
            throw InputError(
                file: source.name, line: 1, column: "1", reason: "empty file",
                message: "empty file: expected CSV with a header row, or GeoJSON")
        }
        format = options.format ?? input.kind.pointFormat
        switch format {
        case .csv: kind = .csv(try CSVPointReader(source: source, options: options))
        case .geojson: kind = .geojson(GeoJSONPointReader(source: source, options: options))
        }
    }

    /// The next good point, or nil at the end.
    ///
    /// - Throws: ``InputError`` for a bad row (unless skipping) or bad structure.
    @inline(__always)
    public func next() throws -> InputPoint? {
        switch kind {
        case .csv(let r): return try r.next()
        case .geojson(let r): return try r.next()
        }
    }

    /// The CSV reader, past the header, when the input is CSV.
    var csvReader: CSVPointReader? {
        guard case .csv(let r) = kind else { return nil }
        return r
    }

    /// Rows left out under `skipInvalid`.
    public var rejections: InputRejections {
        switch kind {
        case .csv(let r): return r.rejections
        case .geojson(let r): return r.rejections
        }
    }

    /// Data rows (CSV) or positions (GeoJSON) seen, good and bad.
    public var rowsRead: Int {
        switch kind {
        case .csv(let r): return r.rowsRead
        case .geojson(let r): return r.rowsRead
        }
    }

    /// A description of the columns read, e.g. "lat, long, weight: wind".
    public var columnsDescription: String? {
        guard case .csv(let r) = kind else { return nil }
        var s = "\(r.header[r.latitudeColumn]), \(r.header[r.longitudeColumn])"
        if let w = r.weightColumn { s += ", weight: \(r.header[w])" }
        if let v = r.valueColumn { s += ", value: \(r.header[v])" }
        if let c = r.radiusColumn { s += ", radius: \(r.header[c])" }
        return s
    }
}
