import Foundation
import HeatMapCore

/// A length of time on the UTC calendar: a whole number of seconds,
/// minutes, hours, days or weeks (fixed lengths), or of months or years
/// (calendar lengths: a month is from a date to the same date of the next
/// month). Written `30s`, `15min`, `6h`, `1d`, `7d`, `2w`, `1mo`, `1y`.
public struct TimeStep: Sendable, Hashable, CustomStringConvertible {
    /// The unit a step counts.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case second = "s", minute = "min", hour = "h", day = "d", week = "w", month = "mo", year = "y"

        /// Its length in seconds; nil for the calendar units.
        var seconds: Double? {
            switch self {
            case .second: return 1
            case .minute: return 60
            case .hour: return 3600
            case .day: return 86_400
            case .week: return 604_800
            case .month, .year: return nil
            }
        }
    }

    /// How many units, ≥ 1.
    public var count: Int
    /// The unit.
    public var unit: Unit

    /// The most units a step counts.
    public static let longest = 100_000

    /// A step of `count` (1 to ``longest``) `unit`s; the frames check it
    /// (``TimeFrameOptions/validate()``).
    public init(_ count: Int, _ unit: Unit) {
        self.count = count
        self.unit = unit
    }

    /// Reads `6h`, `1d`, `1mo`…; also the long unit names (`day`, `days`, `month`…).
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` naming what is wrong.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isNumber }
        let name = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let units: [String: Unit] = [
            "s": .second, "sec": .second, "second": .second, "seconds": .second,
            "min": .minute, "minute": .minute, "minutes": .minute,
            "h": .hour, "hour": .hour, "hours": .hour,
            "d": .day, "day": .day, "days": .day,
            "w": .week, "week": .week, "weeks": .week,
            "mo": .month, "month": .month, "months": .month,
            "y": .year, "year": .year, "years": .year
        ]
        guard let count = digits.isEmpty ? nil : Int(digits), let unit = units[name] else {
            throw HeatMapError.invalidConfiguration(
                "'\(text)': not a length of time; expected a whole number and a unit, as 6h, 1d, 7d, 1mo, 1y (units s, min, h, d, w, mo, y)"
            )
        }
        guard count >= 1 else {
            throw HeatMapError.invalidConfiguration(
                "'\(text)': no time at all (a step or window is at least 1\(unit.rawValue))")
        }
        guard count <= Self.longest else {
            throw HeatMapError.invalidConfiguration("'\(text)': too long (at most \(Self.longest)\(unit.rawValue))")
        }
        self.init(count, unit)
    }

    public var description: String { "\(count)\(unit.rawValue)" }

    /// Months the step spans, for the calendar units.
    private var months: Int? {
        switch unit {
        case .month: return count
        case .year: return 12 * count
        default: return nil
        }
    }

    /// `t` moved by `k` steps (k may be negative). Calendar steps keep the
    /// day of the month and the time of day (clamped to the month's end).
    public func advance(_ t: Double, by k: Int) -> Double {
        if let months { return UTCCalendar.adding(months: months * k, to: t) }
        return t + Double(k * count) * unit.seconds!
    }

    /// Where a window of `window` ends that opens `k` steps after `t`: one
    /// move from `t` when both count months, so that a month's end is
    /// clamped once (from January 31 by one-month steps the frames open on
    /// February 28 and March 31, and the one opening on February 28 ends on
    /// March 31, where the next opens, not on February 28 + 1 month =
    /// March 28); otherwise the window from where it opens.
    package func windowEnd(from t: Double, steps k: Int, window: TimeStep) -> Double {
        if let months, let span = window.months { return UTCCalendar.adding(months: months * k + span, to: t) }
        return window.advance(advance(t, by: k), by: 1)
    }

    /// `t` floored to the step's unit: the second, minute, hour, day
    /// (weeks too), first of the month, or first of the year, UTC.
    public func floor(_ t: Double) -> Double {
        switch unit {
        case .second: return t.rounded(.down)
        case .minute: return (t / 60).rounded(.down) * 60
        case .hour: return (t / 3600).rounded(.down) * 3600
        case .day, .week: return (t / 86_400).rounded(.down) * 86_400
        case .month, .year:
            let c = UTCCalendar.civil(t)
            return UTCCalendar.seconds(UTCCalendar.Civil(year: c.year, month: unit == .year ? 1 : c.month, day: 1))
        }
    }
}
