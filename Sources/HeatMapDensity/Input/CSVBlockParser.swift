#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
    import HeatMapCore
#endif

/// Parses a block of plain CSV rows the quick way, or declines.
///
/// "Plain" is what almost every large file is: no quote characters, no
/// NUL bytes, LF or CRLF line ends, and rows whose every field is read by
/// the serial reader's quick path (``CSVPointReader``) without complaint.
/// For such a block the points are exactly the serial reader's, bit for
/// bit; for any other block ``parse(_:isLast:)`` returns nil, and the
/// caller reads that block with the serial reader, which says precisely
/// what is wrong. Blank lines are passed over and counted, as the
/// tokenizer does. Sendable and stateless, so blocks parse on any thread.
/// O(bytes), one pass over each field.
struct CSVBlockParser: Sendable {
    /// What a plain block held.
    struct Rows {
        /// The good points, in file order.
        package var points: PointBatch
        /// Data rows (every non-blank line).
        package var rows: Int
        /// Line ends passed (so the next block's first line is known).
        package var lines: Int
    }

    /// What a field is read for.
    private enum Role: UInt8 { case skip, latitude, longitude, weight, value, radius, time }

    /// Rows longer than this are left to the serial reader, which limits
    /// record length (far above this).
    static let longestRow = 4096

    private let layout: CSVLayout
    private let roles: [Role]
    /// Whether one column is read for two roles (the weight and the value,
    /// say): one role per field here, so the serial reader takes those rows.
    private let sharesColumns: Bool
    /// For each field, its place among the time columns (time fields only).
    private let timePart: [Int]
    private let timeReader: TimeFieldReader?

    /// A parser for rows laid out as `layout` says.
    package init(layout: CSVLayout) {
        self.layout = layout
        var roles = [Role](repeating: .skip, count: layout.header.count)
        roles[layout.latitudeColumn] = .latitude
        roles[layout.longitudeColumn] = .longitude
        if let w = layout.weightColumn { roles[w] = .weight }
        if let v = layout.valueColumn { roles[v] = .value }
        if let r = layout.radiusColumn { roles[r] = .radius }
        var timePart = [Int](repeating: 0, count: layout.header.count)
        for (k, c) in layout.timeColumns.enumerated() {
            roles[c] = .time
            timePart[c] = k
        }
        self.roles = roles
        let read =
            [layout.latitudeColumn, layout.longitudeColumn]
            + [layout.weightColumn, layout.valueColumn, layout.radiusColumn]
            .compactMap { $0 } + layout.timeColumns
        sharesColumns = Set(read).count < read.count
        self.timePart = timePart
        timeReader = layout.time.map { TimeFieldReader(columns: $0, decimalComma: layout.decimalComma) }
    }

    /// The rows of `bytes`, which start at a record boundary and end just
    /// after a line end (or, when `isLast`, at the end of the file); nil
    /// when anything in them needs the serial reader. ``padding`` bytes
    /// after the end must be readable (they are read, never used).
    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, isLast: Bool) -> Rows? {
        guard !sharesColumns else { return nil }
        guard let p = bytes.baseAddress, bytes.count > 0 else {
            return Rows(points: PointBatch(capacity: 0), rows: 0, lines: 0)
        }
        let n = bytes.count
        // Quotes (fields may span lines) and NULs (binary data) are the
        // serial reader's business; memchr finds them at memory speed.
        guard memchr(p, Int32(UInt8(ascii: "\"")), n) == nil, memchr(p, 0, n) == nil else { return nil }
        let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        let delimiter = layout.delimiter
        let decimalComma = layout.decimalComma
        let geographic = layout.geographic
        let neededFields = layout.neededFields
        let radii = layout.radiusColumn != nil
        let fieldLimit = roles.count
        var points = PointBatch(capacity: n / 20 + 1)
        var rows = 0, lines = 0
        var i = 0
        return roles.withUnsafeBufferPointer { roles -> Rows? in
            while i < n {
                let first = p[i]
                if first == lf || first == cr {
                    // A blank line.
                    if first == cr {
                        guard i + 1 < n, p[i + 1] == lf else { return nil }
                        i += 1
                    }
                    lines += 1
                    i += 1
                    continue
                }
                let rowStart = i
                var field = 0
                var latitude = 0.0, longitude = 0.0, weight = 1.0, value = Double.nan, radius = Double.nan
                // Where each time field is (at most five: year to minute).
                var timeSpans = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                while true {
                    // More fields than the header names: the serial reader decides.
                    guard field < fieldLimit else { return nil }
                    let role = roles[field]
                    if role == .skip {
                        while i < n, p[i] != delimiter, p[i] != lf, p[i] != cr { i += 1 }
                    } else if role == .time {
                        let start = i
                        while i < n, p[i] != delimiter, p[i] != lf, p[i] != cr { i += 1 }
                        withUnsafeMutableBytes(of: &timeSpans) { raw in
                            let spans = raw.bindMemory(to: Int.self)
                            spans[2 * timePart[field]] = start
                            spans[2 * timePart[field] + 1] = i
                        }
                    } else {
                        guard let v = number(p, &i, n, delimiter: delimiter, decimalComma: decimalComma) else {
                            return nil
                        }
                        switch role {
                        case .latitude: latitude = v
                        case .longitude: longitude = v
                        case .weight: weight = v
                        case .value: value = v
                        case .radius: radius = v
                        case .skip, .time: break
                        }
                    }
                    guard i < n, p[i] == delimiter else { break }
                    field += 1
                    i += 1
                }
                // The serial reader's quick path, test for test.
                guard field + 1 >= neededFields, i - rowStart <= CSVBlockParser.longestRow else { return nil }
                if geographic,
                    PointRule.isOutside(latitude: latitude)
                        || PointRule.isOutside(longitude: longitude)
                {
                    return nil
                }
                guard weight >= 0, !radii || !PointRule.isOutside(radius: radius, geographic: geographic) else {
                    return nil
                }
                var time = Double.nan
                if let timeReader {
                    let read = withUnsafeBytes(of: &timeSpans) { raw in
                        let spans = raw.bindMemory(to: Int.self)
                        return timeReader.time { k in
                            UnsafeBufferPointer(start: p + spans[2 * k], count: spans[2 * k + 1] - spans[2 * k])
                        }
                    }
                    guard case .success(let t) = read else { return nil }
                    time = t
                }
                var point = InputPoint(
                    latitude: latitude, longitude: longitude, weight: weight, value: value, time: time)
                point.radius = radius
                points.append(point)
                rows += 1
                if i == n {
                    // A last row without a line end ends only the file, and
                    // only whole: a short one is cut off (the serial reader says so).
                    guard isLast, field + 1 >= fieldLimit else { return nil }
                    break
                }
                if p[i] == cr {
                    // CRLF; a lone CR (old Mac line ends) is the serial reader's.
                    guard i + 1 < n, p[i + 1] == lf else { return nil }
                    i += 1
                }
                lines += 1
                i += 1
            }
            return Rows(points: points, rows: rows, lines: lines)
        }
    }

    /// The number in the field starting at `i`, leaving `i` at the byte
    /// that ends the field (delimiter, line end or the block's end); nil
    /// when it is not a finite number.
    ///
    /// Plain decimals (`-12.5`) are read as the bytes go by, taking
    /// ``NumberParser``'s digits and its fast path's arithmetic exactly;
    /// anything else (spaces, exponents, long mantissas, words) goes to
    /// ``NumberParser/parse(_:decimalComma:)`` itself.
    @inline(__always)
    private func number(
        _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int,
        delimiter: UInt8, decimalComma: Bool
    ) -> Double? {
        let start = i
        var j = i
        var negative = false
        if j < n, p[j] == UInt8(ascii: "-") || p[j] == UInt8(ascii: "+") {
            negative = p[j] == UInt8(ascii: "-")
            j += 1
        }
        // All digits, leading zeros too, make the mantissa: zeros add
        // nothing to it, so it is NumberParser's whenever there are at
        // most 19 digits (the fast path's condition; longer runs go there).
        let integer = CSVBlockParser.digits(p + j, limit: n - j, after: 0)
        var mantissa = integer.value
        var digits = integer.count, exponent = 0
        j += integer.count
        if j < n, p[j] == UInt8(ascii: ".") || (decimalComma && p[j] == UInt8(ascii: ",")) {
            j += 1
            let fraction = CSVBlockParser.digits(p + j, limit: n - j, after: mantissa)
            mantissa = fraction.value
            digits += fraction.count
            exponent = -fraction.count
            j += fraction.count
        }
        if digits > 0, digits <= 19, j == n || p[j] == delimiter || p[j] == 0x0A || p[j] == 0x0D,
            let v = NumberParser.exact(mantissa: mantissa, exponent: exponent, negative: negative)
        {
            i = j
            return v
        }
        while j < n, p[j] != delimiter, p[j] != 0x0A, p[j] != 0x0D { j += 1 }
        i = j
        if case .number(let v) = NumberParser.parse(
            UnsafeBufferPointer(start: p + start, count: j - start),
            decimalComma: decimalComma)
        {
            return v
        }
        return nil
    }

    /// 10^k for k in 0...8 (a switch compiles to a constant table).
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        default: return 100_000_000
        }
    }

    /// The run of ASCII digits at `p` (at most `limit` bytes): how many,
    /// and `prefix` followed by them as one number, modulo 2⁶⁴ (exact while
    /// there are at most 19 digits in all). Eight bytes at a time (SWAR):
    /// reads up to 7 bytes past the run, so the caller's buffer must have
    /// ``padding`` readable bytes after its end.
    @inline(__always)
    private static func digits(_ p: UnsafePointer<UInt8>, limit: Int, after prefix: UInt64) -> (
        count: Int, value: UInt64
    ) {
        var count = 0
        var value = prefix
        while true {
            let word = UInt64(littleEndian: UnsafeRawPointer(p + count).loadUnaligned(as: UInt64.self))
            let t = word &- 0x3030_3030_3030_3030
            // High bit of each byte that is not a digit: below '0' wraps
            // to ≥ 0xd0; above '9' reaches 0x80 once 0x76 is added. Borrows
            // and carries only run upwards, past the first such byte.
            let other = ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
            let run = min(other == 0 ? 8 : other.trailingZeroBitCount / 8, limit - count)
            guard run > 0 else { return (count, value) }
            // The run's digits in the high bytes, zeros (leading zeros) below.
            var v = t << UInt64(8 * (8 - run))
            v = v &* 10 &+ (v >> 8)
            let pairs: UInt64 = 0x0000_00FF_0000_00FF
            let high: UInt64 = 100 + (1_000_000 << 32), low: UInt64 = 1 + (10_000 << 32)
            let upper = (v & pairs) &* high
            let lower = ((v >> 16) & pairs) &* low
            v = (upper &+ lower) >> 32
            value = value &* powerOfTen(run) &+ v
            count += run
            if run < 8 { return (count, value) }
        }
    }

    /// Readable bytes ``parse(_:isLast:)`` needs after a block's end.
    package static let padding = 8
}
