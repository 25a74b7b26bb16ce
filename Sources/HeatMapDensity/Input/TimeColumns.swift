import HeatMapCore

/// Where each point's time is read from: one column (ISO 8601 text, or
/// Unix seconds or milliseconds), or calendar parts in several columns
/// (year, month, day, hour, minute; the later ones may be left out).
/// Times are seconds since 1970-01-01T00:00:00Z (UTC).
public enum TimeColumns: Sendable, Hashable {
    /// How a single time column is written.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// `2021-06-01`, `2021-06-01T12:30:00Z`, `2021-06-01 12:30:00.250+02:00`;
        /// no offset means UTC.
        case iso8601 = "iso"
        /// Seconds since 1970-01-01T00:00:00Z.
        case epoch
        /// Milliseconds since 1970-01-01T00:00:00Z.
        case epochMilliseconds = "epoch-ms"
    }

    /// The calendar parts, in order.
    public static let partNames = ["year", "month", "day", "hour", "minute"]

    /// One column in `format`.
    case column(String, format: Format)
    /// 1 to 5 columns: year[, month[, day[, hour[, minute]]]]; a missing
    /// part is its smallest value (month 1, day 1, hour 0, minute 0).
    case parts([String])

    /// The column names read, in order.
    public var names: [String] {
        switch self {
        case .column(let name, _): return [name]
        case .parts(let names): return names
        }
    }
}
