import Foundation

/// What an input file holds, told from its first bytes (and, where they
/// do not say, its name): points, a cells table, or a raster.
///
/// This is the one place the tool and the library decide it, so that an
/// input is opened and sniffed once (``InputFile``): a stream (a pipe,
/// `/dev/stdin`, a process substitution) cannot be read twice.
package enum InputKind: Sendable, Hashable {
    /// Points in CSV.
    case csv
    /// Points in GeoJSON.
    case geojson
    /// A cells table of `contours sql` (a CSV whose header has the marker column).
    case cells
    /// A TIFF or GeoTIFF.
    case geotiff
    /// An ESRI ASCII grid.
    case asciiGrid
    /// The JSON grid of `contours grid`.
    case jsonGrid

    /// Whether the input is a raster, contoured as it is.
    package var isRaster: Bool {
        self == .geotiff || self == .asciiGrid || self == .jsonGrid
    }

    /// The point format to read the input as.
    var pointFormat: InputFormat {
        self == .geojson || self == .jsonGrid ? .geojson : .csv
    }

    /// What the first bytes say. In order: a TIFF's byte order mark, an
    /// ESRI grid's `ncols`/`nrows`, a JSON object with `columns` and `rows`
    /// and no feature (a JSON grid), any other JSON (GeoJSON), a CSV header
    /// with the cells marker; else the name's extension (`.tif`, `.tiff`,
    /// `.asc`, then the point formats'), else CSV. O(prefix).
    ///
    /// - Parameter name: the path, nil for standard input.
    package static func sniff(_ prefix: UnsafeBufferPointer<UInt8>, name: String?) -> InputKind {
        if prefix.count >= 4, (prefix[0] == 0x49 && prefix[1] == 0x49) || (prefix[0] == 0x4D && prefix[1] == 0x4D) {
            return .geotiff
        }
        let head = String(decoding: UnsafeBufferPointer(rebasing: prefix.prefix(4096)), as: UTF8.self)
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        let start = trimmed.prefix(5).lowercased()
        if start == "ncols" || start == "nrows" { return .asciiGrid }
        if trimmed.hasPrefix("{"), head.contains("\"columns\""), head.contains("\"rows\""), !head.contains("\"Feature")
        {
            return .jsonGrid
        }
        if InputFormat.byContent(prefix) == .geojson { return .geojson }
        if let line = firstLine(prefix), isCellsHeader(line) { return .cells }
        if let name {
            let lower = name.lowercased()
            if lower.hasSuffix(".tif") || lower.hasSuffix(".tiff") { return .geotiff }
            if lower.hasSuffix(".asc") { return .asciiGrid }
            if InputFormat.byExtension(name) == .geojson { return .geojson }
        }
        return .csv
    }

    /// Whether `prefix` is enough to sniff: the whole first line, and 4096
    /// bytes of a JSON object (whose keys may come in any order).
    static func hasEnough(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let newline = prefix.firstIndex(of: 0x0A) else { return false }
        let first = prefix.prefix(newline).first {
            $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        }
        return first != UInt8(ascii: "{") || prefix.count >= 4096
    }

    /// The column whose presence makes a CSV a cells table of `contours sql`.
    static let cellsMarker = "contours_cells"

    /// Whether a CSV header line has the ``cellsMarker`` column (any case,
    /// quoted or not, a CR before the line end ignored).
    static func isCellsHeader(_ line: Substring) -> Bool {
        line.split(separator: ",", omittingEmptySubsequences: false).contains { field in
            var f = field.trimmingCharacters(in: .whitespacesAndNewlines)
            if f.count >= 2, f.hasPrefix("\""), f.hasSuffix("\"") { f = String(f.dropFirst().dropLast()) }
            return f.lowercased() == cellsMarker
        }
    }

    private static func firstLine(_ prefix: UnsafeBufferPointer<UInt8>) -> Substring? {
        let end = prefix.firstIndex(of: 0x0A) ?? prefix.count
        guard let text = String(validating: UnsafeBufferPointer(rebasing: prefix[0..<end]), as: UTF8.self) else {
            return nil
        }
        return Substring(text)
    }
}

/// An input opened once, with its first bytes read and its kind sniffed
/// from them; the readers of points, cells and rasters go on from there
/// without opening or seeking it again, so streams work like files.
package final class InputFile {
    /// The bytes, from the start.
    package let source: ByteSource
    /// The path, nil for standard input.
    package let path: String?
    /// What the input holds: the format forced by the caller, or the sniffed one.
    package let kind: InputKind

    /// Opens `path` (nil or "-" for standard input) and sniffs it, unless
    /// `forced` says what it is.
    ///
    /// - Throws: ``InputError`` when the file cannot be opened or read.
    package init(path: String?, forced: InputKind? = nil) throws {
        let stdin = path == nil || path == "-"
        self.path = stdin ? nil : path
        source = try ByteSource(path: self.path)
        if let forced {
            kind = forced
        } else {
            try source.extendPrefix { !InputKind.hasEnough($0) }
            kind = InputKind.sniff(source.prefix, name: self.path)
        }
    }

    /// The name used in messages: the path, or "stdin".
    package var name: String { source.name }

    /// Whether the input can be opened again by its path and read from the
    /// start: a regular file named by a path that is not a descriptor's
    /// (`/dev/stdin`, `/dev/fd/N`, `/proc/…/fd/N` may name a file whose
    /// offset is not ours to rewind).
    var isRereadable: Bool {
        guard let path, source.isRegularFile else { return false }
        return !(path.hasPrefix("/dev/fd/") || path.hasPrefix("/dev/std") || path.hasPrefix("/proc/"))
    }

    /// Every byte of the input. O(bytes) memory.
    package func readAll() throws -> [UInt8] {
        try source.readToEnd()
    }
}
