import Foundation

/// A bench mode's arguments read one option at a time, with the one rule
/// for each kind of value and its message.
struct BenchArguments {
    private let arguments: [String]
    private var index = 0

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The option at hand, nil after the last.
    var option: String? { index < arguments.count ? arguments[index] : nil }

    /// Moves on to the next option.
    mutating func next() { index += 1 }

    /// The value after the option `name`.
    mutating func value(_ name: String) throws -> String {
        index += 1
        guard index < arguments.count else { throw BenchOptions.UsageError(description: "\(name) needs a value") }
        return arguments[index]
    }

    /// The value after `name` as a whole number of at least `minimum`.
    mutating func whole(_ name: String, minimum: Int = 1) throws -> Int {
        let text = try value(name)
        guard let v = Int(text), v >= minimum else {
            throw BenchOptions.UsageError(description: "\(name) must be a whole number ≥ \(minimum), not '\(text)'")
        }
        return v
    }

    /// The value after `name` as a finite number above zero.
    mutating func positive(_ name: String) throws -> Double {
        let text = try value(name)
        guard let v = Double(text), v.isFinite, v > 0 else {
            throw BenchOptions.UsageError(description: "\(name) must be a positive number, not '\(text)'")
        }
        return v
    }
}
