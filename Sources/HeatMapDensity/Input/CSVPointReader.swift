import Foundation
import HeatMapCore

/// Reads points from CSV text with a header row, one row at a time.
///
/// Columns are found by name (``PointColumns``); each value is parsed
/// from the record's bytes. A bad row throws an ``InputError`` naming the
/// file, line and column — or, with ``PointReaderOptions/skipInvalid``, is
/// counted in ``rejections`` and passed over. Structural problems (no
/// header, a missing column, an unterminated quote, binary data) always
/// throw. Memory: one chunk plus one record. O(bytes).
package final class CSVPointReader {
    /// The header's column names, trimmed.
    package let header: [String]
    /// Index of the latitude (y) column.
    let latitudeColumn: Int
    /// Index of the longitude (x) column.
    let longitudeColumn: Int
    /// Index of the weight column, if any.
    package let weightColumn: Int?
    /// Index of the value column, if any.
    let valueColumn: Int?
    /// Index of the radius column (each > 0), if any.
    let radiusColumn: Int?
    /// Indexes of the time columns, in ``TimeColumns/names`` order (empty without a time).
    let timeColumns: [Int]
    /// Rows passed over under `skipInvalid`.
    package private(set) var rejections = InputRejections()
    /// Data rows seen (good and bad).
    package private(set) var rowsRead = 0

    let tokenizer: CSVTokenizer
    /// The name used in messages.
    let fileName: String
    private let validator: PointValidator
    private let skipInvalid: Bool
    private let neededFields: Int
    private let decimalComma: Bool
    private let geographic: Bool
    private let timeReader: TimeFieldReader?

    /// Opens the reader and reads the header.
    ///
    /// - Throws: ``InputError`` for an empty file, UTF-16 text, binary
    ///   data, or a column that the header lacks.
    package init(source: ByteSource, options: PointReaderOptions) throws {
        try Self.refuseUTF16(source)
        fileName = source.name
        tokenizer = CSVTokenizer(source: source)
        validator = PointValidator(geographic: options.geographic)
        skipInvalid = options.skipInvalid
        geographic = options.geographic
        decimalComma = tokenizer.delimiter != UInt8(ascii: ",")
        let hasHeader: Bool
        do {
            hasHeader = try tokenizer.next()
        } catch let error as CSVTokenizer.SyntaxError {
            throw CSVPointReader.describe(error, file: source.name, header: [])
        }
        guard hasHeader else {
            throw InputError(
                file: source.name, line: 1, column: "1", reason: "empty file",
                message: "empty file: expected a header row naming the columns")
        }
        let headerLine = tokenizer.line
        var names: [String] = []
        for k in 0..<tokenizer.fieldCount {
            // Control characters never occur in a real header: this is binary noise.
            if let bad = tokenizer.field(k).first(where: {
                ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7f
            }) {
                throw InputError(
                    file: source.name, line: headerLine, column: String(k + 1), reason: "binary data",
                    message: String(format: "binary data (byte 0x%02x in the header row):", bad)
                        + " this is not a CSV text file")
            }
            names.append(tokenizer.string(k).trimmingCharacters(in: .whitespaces))
        }
        header = names

        let file = source.name
        // Two columns answering one name is a choice the reader will not
        // make silently: the message lists them and the option that picks one.
        func only(_ matches: [Int], role: String, option: String) throws -> Int? {
            guard matches.count > 1 else { return matches.first }
            let listed = matches.prefix(4).map { "'\(names[$0])' (column \($0 + 1))" }.joined(separator: ", ")
            throw InputError(
                file: file, line: headerLine, column: names[matches[0]], reason: "ambiguous column",
                message: "\(matches.count) columns could be the \(role): \(listed); pick one with \(option) NAME"
                    + (Set(matches.map { names[$0] }).count < matches.count ? " (or rename the repeated one)" : ""))
        }
        func find(_ wanted: String?, defaults: [String], role: String, option: String) throws -> Int {
            if let wanted {
                if let k = try only(names.indices.filter { names[$0] == wanted }, role: role, option: option) {
                    return k
                }
                let folded = wanted.lowercased()
                if let k = try only(
                    names.indices.filter { names[$0].lowercased() == folded }, role: role, option: option)
                {
                    return k
                }
                throw InputError(
                    file: file, line: headerLine, column: wanted, reason: "missing column",
                    message: "no column '\(wanted)' for the \(role) in the header"
                        + " (columns: \(CSVPointReader.list(names)))")
            }
            for candidate in defaults {
                if let k = try only(
                    names.indices.filter { names[$0].lowercased() == candidate }, role: role, option: option)
                {
                    return k
                }
            }
            throw InputError(
                file: file, line: headerLine, column: defaults[0], reason: "missing column",
                message: "no \(role) column: looked for \(defaults.joined(separator: ", ")) in the header"
                    + " (columns: \(CSVPointReader.list(names))); name it with \(option) NAME")
        }
        let lat = options.geographic ? "latitude" : "y"
        let lon = options.geographic ? "longitude" : "x"
        latitudeColumn = try find(
            options.columns.latitude, defaults: PointColumns.latitudeNames,
            role: lat, option: "--lat")
        longitudeColumn = try find(
            options.columns.longitude, defaults: PointColumns.longitudeNames,
            role: lon, option: "--lon")
        weightColumn = try options.columns.weight.map {
            try find($0, defaults: [$0], role: "weight", option: "--weight")
        }
        valueColumn = try options.columns.value.map {
            try find($0, defaults: [$0], role: "value", option: "--value")
        }
        radiusColumn = try options.columns.radius.map {
            try find($0, defaults: [$0], role: "radius", option: "--radius-column")
        }
        if let r = radiusColumn, r == valueColumn {
            throw InputError(
                file: file, line: headerLine, column: names[r], reason: "column read twice",
                message: "column '\(names[r])' is named both for the value (--value) and the radius (--radius-column)")
        }
        timeColumns = try (options.columns.time?.names ?? []).map {
            try find($0, defaults: [$0], role: "time", option: "--time")
        }
        let comma = tokenizer.delimiter != UInt8(ascii: ",")
        timeReader = options.columns.time.map { TimeFieldReader(columns: $0, decimalComma: comma) }
        neededFields =
            ([latitudeColumn, longitudeColumn, weightColumn ?? 0, valueColumn ?? 0, radiusColumn ?? 0] + timeColumns)
            .max()! + 1
    }

    /// Goes on reading rows of a file whose header `layout` describes,
    /// from `source`, which starts at a record boundary on line `line`
    /// (a resumption point, ``CSVTokenizer/resumption``, of an earlier reader).
    package init(continuing layout: CSVLayout, source: ByteSource, line: Int, skipInvalid: Bool) {
        fileName = source.name
        tokenizer = CSVTokenizer(source: source, delimiter: layout.delimiter, line: line)
        validator = PointValidator(geographic: layout.geographic)
        self.skipInvalid = skipInvalid
        geographic = layout.geographic
        decimalComma = layout.decimalComma
        header = layout.header
        latitudeColumn = layout.latitudeColumn
        longitudeColumn = layout.longitudeColumn
        weightColumn = layout.weightColumn
        valueColumn = layout.valueColumn
        radiusColumn = layout.radiusColumn
        timeColumns = layout.timeColumns
        timeReader = layout.time.map { TimeFieldReader(columns: $0, decimalComma: layout.decimalComma) }
        neededFields = layout.neededFields
    }

    /// The columns read and how, for parsers that work on the same file.
    package var layout: CSVLayout {
        CSVLayout(
            header: header, delimiter: tokenizer.delimiter, latitudeColumn: latitudeColumn,
            longitudeColumn: longitudeColumn, weightColumn: weightColumn, valueColumn: valueColumn,
            radiusColumn: radiusColumn, geographic: geographic, timeColumns: timeColumns,
            time: timeReader?.columns)
    }

    private static func list(_ names: [String]) -> String {
        let shown = names.prefix(12).map { $0.isEmpty ? "(empty)" : $0 }.joined(separator: ", ")
        return names.count > 12 ? shown + ", …" : (shown.isEmpty ? "none" : shown)
    }

    /// The name of field `k` for messages: its header name, else its number.
    private func columnName(_ k: Int) -> String {
        k < header.count && !header[k].isEmpty ? header[k] : String(k + 1)
    }

    /// Refuses UTF-16 text in one line that says how to make it UTF-8.
    /// - Throws: ``InputError`` at line 1 when `source` starts like UTF-16.
    package static func refuseUTF16(_ source: ByteSource) throws {
        guard let encoding = utf16(source.prefix) else { return }
        throw InputError(
            file: source.name, line: 1, column: "1", reason: "not UTF-8",
            message: "\(encoding) text: save it as UTF-8 (for example iconv -f UTF-16 -t UTF-8)")
    }

    /// "UTF-16LE" or "UTF-16BE" when `prefix` starts like UTF-16 text (what
    /// spreadsheets save as "Unicode text"): a byte-order mark, or ASCII
    /// with a NUL byte after or before each character. Nil otherwise.
    static func utf16(_ prefix: UnsafeBufferPointer<UInt8>) -> String? {
        guard prefix.count >= 2 else { return nil }
        if prefix[0] == 0xFF, prefix[1] == 0xFE { return "UTF-16LE" }
        if prefix[0] == 0xFE, prefix[1] == 0xFF { return "UTF-16BE" }
        // Without a mark: the first characters ASCII, each with a NUL.
        let pairs = min(prefix.count / 2, 8)
        guard pairs >= 2 else { return nil }
        let pattern = (0..<pairs).map { (prefix[2 * $0] == 0, prefix[2 * $0 + 1] == 0) }
        if pattern.allSatisfy({ !$0.0 && $0.1 }) { return "UTF-16LE" }
        if pattern.allSatisfy({ $0.0 && !$0.1 }) { return "UTF-16BE" }
        return nil
    }

    /// A tokenizer's error as one line naming the file, line and column
    /// (the header's name for the column once it is known).
    package static func describe(_ error: CSVTokenizer.SyntaxError, file: String, header: [String]) -> InputError {
        func name(_ field: Int) -> String {
            field - 1 < header.count && field >= 1 && !header[field - 1].isEmpty ? header[field - 1] : String(field)
        }
        switch error {
        case .unterminatedQuote(let line, let field):
            return InputError(
                file: file, line: line, column: name(field), reason: "unterminated quote",
                message: "unterminated quoted field: the quote opened here never closes")
        case .binaryData(let line, let field):
            return InputError(
                file: file, line: line, column: name(field), reason: "binary data",
                message: "binary data (a NUL byte): this is not a CSV text file")
        case .recordTooLong(let line, let field):
            return InputError(
                file: file, line: line, column: name(field), reason: "row too long",
                message: "row longer than \(CSVTokenizer.maximumRecordLength / 1024) KiB"
                    + " (an unterminated quote?)")
        }
    }

    /// The next good point, or nil at the end of the input.
    ///
    /// - Throws: ``InputError`` for a bad row (unless skipping) or a
    ///   structural problem.
    package func next() throws -> InputPoint? {
        while true {
            switch try nextRecord() {
            case .point(let point): return point
            case .skipped: continue
            case .end: return nil
            }
        }
    }

    /// What one record held.
    enum Record {
        /// A good point.
        case point(InputPoint)
        /// A bad row, counted in ``rejections`` (only under `skipInvalid`).
        case skipped
        /// The end of the input.
        case end
    }

    /// Reads one record (blank lines before it are passed over).
    ///
    /// - Throws: ``InputError`` for a bad row (unless skipping) or a
    ///   structural problem.
    func nextRecord() throws -> Record {
        let more: Bool
        do {
            more = try tokenizer.next()
        } catch let error as CSVTokenizer.SyntaxError {
            throw CSVPointReader.describe(error, file: fileName, header: header)
        }
        guard more else { return .end }
        rowsRead += 1
        let outcome: Result<InputPoint, InputError>
        if tokenizer.endedWithoutLineEnd, tokenizer.fieldCount < header.count {
            outcome = .failure(truncatedLastRow())
        } else if let point = quickRow() {
            return .point(point)
        } else {
            outcome = row()
        }
        switch outcome {
        case .success(let point):
            return .point(point)
        case .failure(let error):
            guard skipInvalid else { throw error }
            rejections.record(error)
            return .skipped
        }
    }

    /// The point of a well-formed row, without building any message; nil
    /// when anything is off (then ``row()`` says what).
    @inline(__always)
    private func quickRow() -> InputPoint? {
        let count = tokenizer.fieldCount
        guard count >= neededFields, count <= header.count else { return nil }
        @inline(__always) func number(_ k: Int) -> Double? {
            if case .number(let v) = NumberParser.parse(tokenizer.field(k), decimalComma: decimalComma) { return v }
            return nil
        }
        guard let lat = number(latitudeColumn), let lon = number(longitudeColumn) else { return nil }
        if geographic,
            PointRule.isOutside(latitude: lat)
                || PointRule.isOutside(longitude: lon)
        {
            return nil
        }
        var weight = 1.0
        if let w = weightColumn {
            guard let v = number(w), v >= 0 else { return nil }
            weight = v
        }
        var value = Double.nan
        if let c = valueColumn {
            guard let v = number(c) else { return nil }
            value = v
        }
        var radius = Double.nan
        if let c = radiusColumn {
            guard let v = number(c), !PointRule.isOutside(radius: v, geographic: geographic) else { return nil }
            radius = v
        }
        var time = Double.nan
        if let timeReader {
            guard case .success(let t) = timeReader.time({ tokenizer.field(timeColumns[$0]) }) else { return nil }
            time = t
        }
        var point = InputPoint(latitude: lat, longitude: lon, weight: weight, value: value, time: time)
        point.radius = radius
        return point
    }

    /// A last row cut short: fewer fields than the header and no line end,
    /// as when a pipe or a copy stops mid-row. Even if the columns used are
    /// there, the value in the last one may have been cut.
    private func truncatedLastRow() -> InputError {
        let count = tokenizer.fieldCount
        return InputError(
            file: fileName, line: tokenizer.line, column: columnName(count), reason: "truncated last row",
            message: "last row has \(count) field\(count == 1 ? "" : "s") but the header has \(header.count),"
                + " and no line end: the input looks cut off")
    }

    /// The point of a row, or the error that names what is wrong with it.
    private func row() -> Result<InputPoint, InputError> {
        let line = tokenizer.line
        let count = tokenizer.fieldCount
        if count < neededFields {
            let missing =
                ([latitudeColumn, longitudeColumn, weightColumn, valueColumn, radiusColumn] + timeColumns.map { $0 })
                .compactMap { $0 }.filter { $0 >= count }.min() ?? count
            return .failure(
                InputError(
                    file: fileName, line: line, column: columnName(missing), reason: "short row",
                    message: "short row: \(count) field\(count == 1 ? "" : "s") but the header has \(header.count);"
                        + " no value for '\(columnName(missing))'"))
        }
        if count > header.count {
            for k in header.count..<count where tokenizer.field(k).contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                return .failure(
                    InputError(
                        file: fileName, line: line, column: String(k + 1), reason: "too many fields",
                        message: "row has \(count) fields but the header has \(header.count)"
                            + " (an unquoted delimiter inside a value?)"))
            }
        }
        func number(_ k: Int, _ role: PointValidator.Role) -> Result<Double, InputError> {
            let field = tokenizer.field(k)
            let parsed = NumberParser.parse(field, decimalComma: decimalComma)
            let text = { String(decoding: field, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
            return validator.number(parsed, role: role, text: text(), bytes: field).mapError {
                InputError(file: fileName, line: line, column: columnName(k), reason: $0.reason, message: $0.message)
            }
        }
        do {
            let lat = try number(latitudeColumn, .latitude).get()
            let lon = try number(longitudeColumn, .longitude).get()
            let weight = try weightColumn.map { try number($0, .weight).get() } ?? 1
            let value = try valueColumn.map { try number($0, .value).get() } ?? .nan
            let radius = try radiusColumn.map { try number($0, .radius).get() } ?? .nan
            var time = Double.nan
            if let timeReader {
                switch timeReader.time({ tokenizer.field(timeColumns[$0]) }) {
                case .success(let t): time = t
                case .failure(let p):
                    throw InputError(
                        file: fileName, line: line, column: columnName(timeColumns[p.part]),
                        reason: p.reason, message: p.message)
                }
            }
            var point = InputPoint(latitude: lat, longitude: lon, weight: weight, value: value, time: time)
            point.radius = radius
            return .success(point)
        } catch let error as InputError {
            return .failure(error)
        } catch {
            return .failure(InputError(file: fileName, line: line, column: "", reason: "\(error)", message: "\(error)"))
        }
    }
}
