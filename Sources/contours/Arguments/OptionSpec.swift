/// One command-line option as the parser and `--help` see it, whatever its
/// value's type: its name, placeholder, help, example, the default help
/// states, and how a value is read. Made by an ``Option`` or a ``Flag``,
/// which are where options are declared (``Options``).
struct OptionSpec: Sendable {
    /// The long name with dashes, e.g. "--radius".
    let name: String
    /// A one-letter alias with its dash, e.g. "-o".
    let short: String?
    /// The value's placeholder ("R|auto|scott|silverman"); nil for a flag.
    let value: String?
    /// What the option does (one or two sentences), without its default.
    let help: String
    /// The default as help states it ("1.5", "standard output"); nil when
    /// help states none (flags, options that are off unless given).
    let defaultText: String?
    /// A worked example of its use.
    let example: String
    /// Whether it may be given more than once.
    let repeatable: Bool
    /// Reads one value, or says why it is refused; nil for a flag.
    let read: (@Sendable (String, ValueContext) throws -> any Sendable)?

    /// The value taken when the option is given without one (the next
    /// argument is its value only when it reads as a number); nil when a
    /// value is required.
    var bareValue: String? = nil

    var takesValue: Bool { read != nil }

    /// The help text with its default, as `--help` prints it.
    var helpText: String {
        guard let defaultText else { return help }
        return help + " Default: " + defaultText + "."
    }
}

/// What an option value is read in the light of: values in coordinate
/// units (--at, --size) read differently for planar input.
struct ValueContext: Sendable {
    /// False with --planar or --projection planar.
    var geographic: Bool
}

/// Why a value is refused.
enum ValueRefusal: Error {
    /// The reason, as in "bad value 'ten' for --levels: REASON (e.g. …)".
    case because(String)
    /// The whole message, for values whose own parser names the fault.
    case message(String)
}

/// An option as a command lists it (``Option`` or ``Flag``).
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

extension OptionDeclaration {
    /// The long name with dashes, e.g. "--radius".
    var name: String { spec.name }
}

/// A flag: an option without a value, off unless given.
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    init(_ name: String, short: String? = nil, help: String, example: String) {
        spec = OptionSpec(
            name: name, short: short, value: nil, help: help, defaultText: nil, example: example,
            repeatable: false, read: nil)
    }
}

/// An option with a value of type `Value`: its name, placeholder, help,
/// default and reading, declared once (``Options``). The parser reads
/// every value given with `read` before a command runs, so a bad value
/// is refused with one line before any input is read;
/// ``ParsedArguments`` then hands out typed values.
struct Option<Value: Sendable>: OptionDeclaration {
    private(set) var spec: OptionSpec
    /// The value when the option is not given.
    let defaultValue: Value

    /// - Parameters:
    ///   - defaultText: the default as help states it; nil states none.
    ///   - read: the value of one text, or a ``ValueRefusal``.
    init(
        _ name: String, short: String? = nil, value placeholder: String, repeatable: Bool = false,
        default defaultValue: Value, defaultText: String?, help: String, example: String,
        read: @escaping @Sendable (String, ValueContext) throws -> Value
    ) {
        spec = OptionSpec(
            name: name, short: short, value: placeholder, help: help, defaultText: defaultText,
            example: example, repeatable: repeatable, read: { try read($0, $1) })
        self.defaultValue = defaultValue
    }
}

extension Option {
    /// The option, which may also be given without a value: then it reads
    /// `text` (`--adaptive` alone is `--adaptive 0.5`).
    func valueOptional(_ text: String) -> Option {
        var copy = self
        copy.spec.bareValue = text
        return copy
    }

    /// Free text (a title, a file name, units): nil unless given.
    static func text(
        _ name: String, short: String? = nil, value: String = "TEXT", defaultText: String? = nil,
        help: String, example: String
    ) -> Option<String?> {
        Option<String?>(
            name, short: short, value: value, default: nil, defaultText: defaultText, help: help,
            example: example
        ) { text, _ in text }
    }

    /// A column (or property) name: not blank; nil unless given.
    static func column(_ name: String, defaultText: String? = nil, help: String, example: String) -> Option<String?> {
        Option<String?>(
            name, value: "NAME", default: nil, defaultText: defaultText, help: help,
            example: example
        ) { text, _ in
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValueRefusal.because("expected a column name")
            }
            return text
        }
    }

    /// One of the given words (any case), each standing for a value;
    /// help states the default as the first word standing for it (then
    /// `defaultNote`), unless `defaultText` says it otherwise.
    static func choice(
        _ name: String, value placeholder: String? = nil, _ words: [(String, Value)],
        default defaultValue: Value, defaultNote: String = "", defaultText: String? = nil,
        help: String, example: String
    ) -> Option<Value> where Value: Equatable {
        let shown = defaultText ?? words.first { $0.1 == defaultValue }.map { $0.0 + defaultNote }
        return Option(
            name, value: placeholder ?? words.map(\.0).joined(separator: "|"), default: defaultValue,
            defaultText: shown, help: help, example: example
        ) { text, _ in
            try pick(text, words)
        }
    }

    /// A whole number in `range`; help states the default, then
    /// `defaultNote`, unless `defaultText` says it otherwise.
    static func integer(
        _ name: String, value placeholder: String, in range: ClosedRange<Int>,
        default defaultValue: Int, defaultNote: String = "", defaultText: String? = nil,
        help: String, example: String
    ) -> Option<Int> {
        Option<Int>(
            name, value: placeholder, default: defaultValue,
            defaultText: defaultText ?? "\(defaultValue)\(defaultNote)",
            help: help, example: example
        ) { text, _ in try wholeNumber(text, in: range) }
    }

    /// A whole number in `range`, nil unless given (its default depends on the data).
    static func integer(
        _ name: String, value placeholder: String, in range: ClosedRange<Int>, defaultText: String?,
        help: String, example: String
    ) -> Option<Int?> {
        Option<Int?>(
            name, value: placeholder, default: nil, defaultText: defaultText, help: help,
            example: example
        ) { text, _ in try wholeNumber(text, in: range) }
    }

    /// A finite number from `minimum` (above it when `open`) to `maximum`.
    static func number(
        _ name: String, value placeholder: String, minimum: Double, open: Bool = false,
        maximum: Double? = nil, default defaultValue: Double, help: String,
        example: String
    ) -> Option<Double> {
        Option<Double>(
            name, value: placeholder, default: defaultValue,
            defaultText: ArgumentValues.text(defaultValue), help: help, example: example
        ) { text, _ in
            try finiteNumber(text, minimum: minimum, open: open, maximum: maximum)
        }
    }

    /// A finite number from `minimum` (above it when `open`), nil unless given.
    static func number(
        _ name: String, value placeholder: String, minimum: Double, open: Bool = false,
        help: String, example: String
    ) -> Option<Double?> {
        Option<Double?>(
            name, value: placeholder, default: nil, defaultText: nil, help: help,
            example: example
        ) { text, _ in
            try finiteNumber(text, minimum: minimum, open: open, maximum: nil)
        }
    }
}

// The readers the constructors share.

/// The value of the word `text` (any case) among `words`, with a "did you
/// mean" for a near miss.
func pick<T>(_ text: String, _ words: [(String, T)]) throws -> T {
    if let hit = words.first(where: { $0.0 == text.lowercased() }) { return hit.1 }
    let names = words.map(\.0)
    var why = "expected one of \(names.joined(separator: ", "))"
    if let guess = suggestion(for: text.lowercased(), among: names) { why += "; did you mean \(guess)?" }
    throw ValueRefusal.because(why)
}

/// A whole number in `range`.
func wholeNumber(_ text: String, in range: ClosedRange<Int>) throws -> Int {
    guard let n = Int(text.trimmingCharacters(in: .whitespaces)) else {
        throw ValueRefusal.because("expected a whole number")
    }
    guard range.contains(n) else {
        throw ValueRefusal.because("expected a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return n
}

/// A finite number of at least `minimum` (strictly above when `open`) and
/// at most `maximum`.
func finiteNumber(_ text: String, minimum: Double, open: Bool, maximum: Double?) throws -> Double {
    guard let x = ArgumentValues.number(text) else { throw ValueRefusal.because("expected a number") }
    guard x.isFinite else { throw ValueRefusal.because("expected a finite number") }
    if open ? x <= minimum : x < minimum {
        throw ValueRefusal.because("expected a number \(open ? ">" : ">=") \(ArgumentValues.text(minimum))")
    }
    if let maximum, x > maximum {
        throw ValueRefusal.because(
            "expected a number from \(ArgumentValues.text(minimum)) to \(ArgumentValues.text(maximum))")
    }
    return x
}
