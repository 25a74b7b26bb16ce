import HeatMap

/// Why the tool stops, and with which exit status.
enum ToolError: Error {
    /// The command line is wrong (exit 2). `command` names the help to point at.
    case usage(String, command: String?)
    /// The input data is bad (exit 1).
    case input(InputError)
    /// Anything else that failed (exit 1): a file that cannot be written, …
    case failure(String)

    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .input, .failure: return 1
        }
    }

    /// The one line printed on standard error.
    var line: String {
        switch self {
        case .usage(let message, let command):
            let help = command.map { "contours \($0) --help" } ?? "contours --help"
            return "contours: \(message); see '\(help)'"
        case .input(let error):
            return "contours: \(error)"
        case .failure(let message):
            return "contours: \(message)"
        }
    }
}

/// Levenshtein distance, for "did you mean" hints. O(a·b) on short words.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// The candidate closest to `word` when it is close enough to be a typo
/// (or `word` is a prefix of exactly one candidate).
func suggestion(for word: String, among candidates: [String]) -> String? {
    let prefixed = candidates.filter { $0.hasPrefix(word) && word.count >= 3 }
    if prefixed.count == 1 { return prefixed[0] }
    let scored = candidates.map { ($0, editDistance(word, $0)) }.sorted { $0.1 < $1.1 }
    guard let best = scored.first else { return nil }
    let limit = max(1, min(3, best.0.count / 3))
    return best.1 <= limit ? best.0 : nil
}
