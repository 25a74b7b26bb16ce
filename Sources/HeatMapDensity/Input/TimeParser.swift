import Foundation
import HeatMapCore

/// Reads times from field bytes into seconds since the epoch (UTC), with
/// no String, no Foundation formatter and no allocation: a few integer
/// operations a field (``UTCCalendar``).
package enum TimeParser {
    /// Why a field is not a time, for messages and counting.
    package enum Failure: Error, Sendable, Hashable {
        case empty
        case notADate
        case outOfRange(String)
    }

    /// An ISO 8601 date or date-time: `YYYY-MM-DD`, then optionally `T`
    /// (or a space) and `hh:mm[:ss[.fff…]]`, then optionally `Z` or an
    /// offset `±hh:mm`, `±hhmm` or `±hh`. Without an offset the time is UTC.
    /// Spaces around the text are ignored.
    package static func iso8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Double, Failure> {
        var lo = 0, hi = bytes.count
        while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 { lo += 1 }
        while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
        guard lo < hi else { return .failure(.empty) }
        var i = lo
        @inline(__always) func digits(_ n: Int) -> Int? {
            guard i + n <= hi else { return nil }
            var v = 0
            for k in i..<(i + n) {
                let d = bytes[k] &- 0x30
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += n
            return v
        }
        @inline(__always) func take(_ c: UInt8) -> Bool {
            guard i < hi, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), take(0x2D), let month = digits(2), take(0x2D), let day = digits(2) else {
            return .failure(.notADate)
        }
        guard (1...12).contains(month) else { return .failure(.outOfRange("month \(month)")) }
        guard day >= 1, day <= UTCCalendar.daysIn(month: month, year: year) else {
            return .failure(.outOfRange("day \(day) of \(year)-\(month < 10 ? "0" : "")\(month)"))
        }
        var civil = UTCCalendar.Civil(year: year, month: month, day: day)
        var offset = 0
        if i < hi {
            guard take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(0x20) else { return .failure(.notADate) }
            guard let hour = digits(2), take(0x3A), let minute = digits(2) else { return .failure(.notADate) }
            guard hour <= 23 else { return .failure(.outOfRange("hour \(hour)")) }
            guard minute <= 59 else { return .failure(.outOfRange("minute \(minute)")) }
            civil.hour = hour
            civil.minute = minute
            if take(0x3A) {
                guard let second = digits(2) else { return .failure(.notADate) }
                guard second <= 60 else { return .failure(.outOfRange("second \(second)")) }
                var fraction = 0.0
                if take(0x2E) || take(0x2C) {
                    var scale = 0.1
                    let start = i
                    while i < hi, bytes[i] &- 0x30 < 10 {
                        fraction += Double(bytes[i] &- 0x30) * scale
                        scale *= 0.1
                        i += 1
                    }
                    guard i > start else { return .failure(.notADate) }
                }
                civil.second = Double(second) + fraction
            }
            if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) {
                // UTC
            } else if i < hi, bytes[i] == 0x2B || bytes[i] == 0x2D {
                let sign = bytes[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2) else { return .failure(.notADate) }
                var om = 0
                if i < hi {
                    _ = take(0x3A)
                    guard let m = digits(2) else { return .failure(.notADate) }
                    om = m
                }
                guard oh <= 23, om <= 59 else { return .failure(.outOfRange("offset \(oh):\(om)")) }
                offset = sign * (oh * 3600 + om * 60)
            }
            guard i == hi else { return .failure(.notADate) }
        }
        // Local time = UTC + offset.
        return .success(UTCCalendar.seconds(civil) - Double(offset))
    }
}

extension TimeParser {
    /// ``iso8601(_:)`` of a string.
    package static func iso8601(_ text: String) -> Result<Double, Failure> {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { iso8601(UnsafeBufferPointer($0)) }
    }
}

/// Reads one row's time from its time fields as ``TimeColumns`` says,
/// with the problem and the part it is in when the row has no good time.
/// Shared by the serial and the block CSV readers, so both accept the same
/// rows bit for bit. Sendable and stateless.
struct TimeFieldReader: Sendable, Hashable {
    /// A bad time: which of the time columns (0-based, in ``TimeColumns/names``
    /// order), a fixed reason and the message.
    struct Problem: Error, Sendable {
        var part: Int
        var reason: String
        var message: String
    }

    let columns: TimeColumns
    let decimalComma: Bool

    /// The number of time columns.
    var partCount: Int { columns.names.count }

    /// The time of the row whose time fields `field(k)` gives (k in
    /// 0..<partCount); `quote` renders a field for messages.
    @inline(__always)
    func time(_ field: (Int) -> UnsafeBufferPointer<UInt8>) -> Result<Double, Problem> {
        switch columns {
        case .column(_, let format):
            let bytes = field(0)
            switch format {
            case .iso8601:
                switch TimeParser.iso8601(bytes) {
                case .success(let t): return .success(t)
                case .failure(.empty):
                    return .failure(Problem(part: 0, reason: "time is empty", message: "time is empty"))
                case .failure(.notADate):
                    return .failure(
                        Problem(
                            part: 0, reason: "time is not a date",
                            message:
                                "time is not an ISO 8601 date or date-time (YYYY-MM-DD[Thh:mm[:ss[.f]]][Z|±hh:mm]): \(Self.quoted(bytes))"
                        ))
                case .failure(.outOfRange(let what)):
                    return .failure(
                        Problem(
                            part: 0, reason: "time out of range",
                            message: "time \(Self.quoted(bytes)) has \(what), out of range"))
                }
            case .epoch, .epochMilliseconds:
                guard case .number(let v) = NumberParser.parse(bytes, decimalComma: decimalComma),
                    abs(v) < 1e17
                else {
                    let empty = NumberParser.parse(bytes) == .empty
                    return .failure(
                        Problem(
                            part: 0, reason: empty ? "time is empty" : "time is not a number",
                            message: empty
                                ? "time is empty"
                                : "time is not a number of \(format == .epoch ? "seconds" : "milliseconds") since 1970: \(Self.quoted(bytes))"
                        ))
                }
                return .success(format == .epoch ? v : v / 1000)
            }
        case .parts(let names):
            var values = (1975, 1, 1, 0, 0)
            for k in 0..<names.count {
                let bytes = field(k)
                let part = TimeColumns.partNames[k]
                guard case .number(let v) = NumberParser.parse(bytes, decimalComma: decimalComma) else {
                    let empty = NumberParser.parse(bytes) == .empty
                    return .failure(
                        Problem(
                            part: k, reason: empty ? "time is empty" : "time is not a number",
                            message: empty ? "\(part) is empty" : "\(part) is not a number: \(Self.quoted(bytes))"))
                }
                let range: ClosedRange<Double>
                switch k {
                case 0: range = -9999...9999
                case 1: range = 1...12
                case 2: range = 1...31
                case 3: range = 0...23
                default: range = 0...59
                }
                guard v == v.rounded(), range.contains(v) else {
                    return .failure(
                        Problem(
                            part: k, reason: "time out of range",
                            message:
                                "\(part) \(Self.quoted(bytes)) is not a whole number in \(Int(range.lowerBound))...\(Int(range.upperBound))"
                        ))
                }
                switch k {
                case 0: values.0 = Int(v)
                case 1: values.1 = Int(v)
                case 2: values.2 = Int(v)
                case 3: values.3 = Int(v)
                default: values.4 = Int(v)
                }
            }
            if names.count == 0 {
                return .failure(Problem(part: 0, reason: "time is empty", message: "no time column"))
            }
            if values.2 > UTCCalendar.daysIn(month: values.1, year: values.0) {
                return .failure(
                    Problem(
                        part: 2, reason: "time out of range",
                        message: "day \(values.2) is past the end of \(values.0)-\(values.1 < 10 ? "0" : "")\(values.1)"
                    ))
            }
            return .success(
                UTCCalendar.seconds(
                    UTCCalendar.Civil(
                        year: values.0, month: values.1, day: values.2,
                        hour: values.3, minute: values.4)))
        }
    }

    /// A field's text in quotes for a message, at most 40 characters.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return PointValidator(geographic: false).quoted(text)
    }
}
