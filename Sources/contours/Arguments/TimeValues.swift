import HeatMap

extension OptionValues {
    /// A step or window: `6h`, `1d`, `1mo`…, at least one second.
    static func timeStep(_ text: String) throws -> TimeStep {
        do {
            return try TimeStep(parsing: text)
        } catch HeatMapError.invalidConfiguration(let why) {
            throw ValueRefusal.because(why.replacingOccurrences(of: "'\(text)': ", with: ""))
        }
    }

    /// An ISO 8601 date or date-time, as seconds since the epoch.
    static func instant(_ text: String) throws -> Double {
        switch TimeParser.iso8601(text) {
        case .success(let t): return t
        case .failure(.outOfRange(let what)): throw ValueRefusal.because("\(what) is out of range")
        case .failure:
            throw ValueRefusal.because("expected an ISO 8601 date or date-time, as 2020-01-01 or 2020-01-01T06:00:00Z")
        }
    }
}
