import Foundation

/// Proleptic Gregorian calendar arithmetic in UTC, on seconds since
/// 1970-01-01T00:00:00Z (Unix time, leap seconds not counted): the days of
/// a date, the date of a day, adding months, flooring to a unit, and the
/// ISO 8601 text of an instant. Pure integer arithmetic (Hinnant's
/// `days_from_civil`), O(1), no Foundation calendar, so it is as fast on a
/// hot path as a division and the same on every platform.
package enum UTCCalendar {
    /// Seconds in a day.
    package static let day = 86_400.0

    /// A calendar date and time of day.
    package struct Civil: Sendable, Hashable {
        package var year: Int
        /// 1...12.
        package var month: Int
        /// 1...31.
        package var day: Int
        package var hour = 0
        package var minute = 0
        /// 0 ..< 61 (a leap second's 60 counts as the next minute's 0).
        package var second = 0.0

        package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
        }
    }

    /// Whether `year` is a leap year (proleptic Gregorian).
    @inline(__always)
    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days in `month` (1...12) of `year`.
    @inline(__always)
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date (negative before it). The month
    /// and day must be in range.
    @inline(__always)
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    package static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Seconds since the epoch of a UTC date and time (fields in range).
    @inline(__always)
    package static func seconds(_ c: Civil) -> Double {
        let whole = days(year: c.year, month: c.month, day: c.day) * 86_400 + c.hour * 3600 + c.minute * 60
        return Double(whole) + c.second
    }

    /// The UTC date and time of `seconds` since the epoch.
    package static func civil(_ seconds: Double) -> Civil {
        let dayIndex = (seconds / day).rounded(.down)
        var rest = seconds - dayIndex * day
        if rest >= day { rest = 0 }  // rounding at a day's end
        let d = date(days: Int(dayIndex))
        let wholeSeconds = Int(rest.rounded(.down))
        return Civil(
            year: d.year, month: d.month, day: d.day, hour: wholeSeconds / 3600,
            minute: wholeSeconds / 60 % 60, second: rest - Double(wholeSeconds / 60 * 60))
    }

    /// `seconds` moved by `months` calendar months, keeping the day of the
    /// month (clamped to the month's length: Jan 31 + 1 month is Feb 28 or
    /// 29) and the time of day.
    package static func adding(months: Int, to seconds: Double) -> Double {
        var c = civil(seconds)
        let index = c.year * 12 + (c.month - 1) + months
        c.year = index >= 0 ? index / 12 : (index - 11) / 12
        c.month = index - c.year * 12 + 1
        c.day = min(c.day, daysIn(month: c.month, year: c.year))
        return self.seconds(c)
    }

    /// The ISO 8601 text of `seconds`: `2020-03-01T06:00:00Z`, with the
    /// fraction of a second when there is one (up to milliseconds' digits
    /// and beyond, without trailing zeros; microseconds are the finest shown).
    package static func iso8601(_ seconds: Double) -> String {
        let c = civil(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var year = String(abs(c.year))
        while year.count < 4 { year = "0" + year }
        if c.year < 0 { year = "-" + year }
        let whole = Int(c.second.rounded(.down))
        var text = "\(year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(whole))"
        let micro = Int(((c.second - Double(whole)) * 1e6).rounded())
        if micro > 0, micro < 1_000_000 {
            var digits = String(micro)
            while digits.count < 6 { digits = "0" + digits }
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }
}
