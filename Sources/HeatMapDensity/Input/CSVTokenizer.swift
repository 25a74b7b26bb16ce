import Foundation
import HeatMapCore

/// Splits CSV text into records, one at a time, from a ``ByteSource``.
///
/// RFC 4180 plus what real files hold: comma, semicolon or tab delimiters;
/// quoted fields with embedded delimiters, doubled quotes and line breaks;
/// LF, CRLF or CR line ends; a UTF-8 byte-order mark; blank lines skipped.
/// Text after a closing quote is kept (`"a"b` reads as `ab`), as most
/// readers do. Memory is one chunk plus one record (at most
/// ``maximumRecordLength`` bytes). O(bytes).
package final class CSVTokenizer {
    /// The longest record accepted; longer ones are an error (usually an
    /// unterminated quote that swallowed the rest of the file).
    static let maximumRecordLength = 1 << 20

    /// A fatal problem with the file's structure (not with one value).
    package enum SyntaxError: Error, Sendable, Hashable {
        /// A quoted field opened on `line` (field `field`, 1-based) never closes.
        case unterminatedQuote(line: Int, field: Int)
        /// A NUL byte: binary data, not text.
        case binaryData(line: Int, field: Int)
        /// A record longer than ``maximumRecordLength``.
        case recordTooLong(line: Int, field: Int)
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    private let source: ByteSource
    /// The field separator.
    let delimiter: UInt8
    private var chunk: UnsafeBufferPointer<UInt8>?
    private var position = 0
    private var started = false
    private var finished = false

    // The record's bytes and field ends. Read on every field access, so
    // dynamic exclusivity checks are off: both are private to this class,
    // which is not Sendable and never re-enters itself.
    @exclusivity(unchecked) private var storage: UnsafeMutableBufferPointer<UInt8>
    private var length = 0
    @exclusivity(unchecked) private var ends: [Int] = []
    /// 1-based line on which the current record starts.
    package private(set) var line = 0
    private var nextLine = 1
    private var afterCR = false

    /// Reads records from `source`, which must not have been read from yet.
    /// The delimiter is `delimiter`, or sniffed from the header line.
    package init(source: ByteSource, delimiter: UInt8? = nil) {
        self.source = source
        let prefix = source.prefix
        let bom = CSVTokenizer.hasBOM(prefix)
        self.delimiter =
            delimiter
            ?? CSVTokenizer.sniffDelimiter(
                UnsafeBufferPointer(rebasing: prefix[(bom ? 3 : 0)...]))
        storage = .allocate(capacity: 4096)
    }

    /// Reads records from `source`, which starts mid-file at a record
    /// boundary (a ``resumption`` of an earlier tokenizer) on line `line`:
    /// no byte-order mark is looked for, and lines count on from `line`.
    package init(source: ByteSource, delimiter: UInt8, line: Int) {
        self.source = source
        self.delimiter = delimiter
        storage = .allocate(capacity: 4096)
        started = true
        nextLine = line
    }

    /// Where the next record starts, when the tokenizer stands at a clean
    /// record boundary: the byte offset in the file (counting from the
    /// source's ``ByteSource/startOffset``) and the line. Another tokenizer
    /// started there with ``init(source:delimiter:line:)`` reads the same
    /// records this one would. Nil after a record ended by a lone CR whose
    /// following byte is not yet read (rare; the next record will do).
    var resumption: (offset: Int, line: Int)? {
        let count = chunk?.count ?? 0
        var offset = source.startOffset + source.bytesRead - (count - position)
        if afterCR {
            // A CR ended the record: the boundary is past its LF, if one follows.
            guard position < count else { return nil }
            if chunk![position] == 0x0A { offset += 1 }
        }
        return (offset, nextLine)
    }

    deinit { storage.deallocate() }

    /// The number of fields in the current record.
    package var fieldCount: Int { ends.count }

    /// Whether the current record ended at the end of the input with no
    /// line end after it (the last line of a file, or a cut-off one).
    private(set) var endedWithoutLineEnd = false

    /// The bytes of field `k` (0-based) of the current record, unquoted.
    package func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
        let start = k == 0 ? 0 : ends[k - 1]
        return UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[start..<ends[k]])
    }

    /// Field `k` as a String (invalid UTF-8 repaired).
    package func string(_ k: Int) -> String {
        String(decoding: field(k), as: UTF8.self)
    }

    /// Whether the first bytes are a UTF-8 byte-order mark.
    static func hasBOM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// The delimiter of a header line: whichever of comma, semicolon and
    /// tab occurs most often outside quotes on the first line that is not
    /// blank (comma when none does, or on a tie with it). Blank lines before
    /// the header are skipped, as ``next()`` skips them.
    static func sniffDelimiter(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var comma = 0, semicolon = 0, tab = 0
        var quoted = false
        var header = false
        for b in bytes {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if quoted { continue }
            if b == 0x0A || b == 0x0D {
                if header { break }
                continue
            }
            header = true
            switch b {
            case UInt8(ascii: ","): comma += 1
            case UInt8(ascii: ";"): semicolon += 1
            case 0x09: tab += 1
            default: break
            }
        }
        if tab > comma && tab >= semicolon { return 0x09 }
        if semicolon > comma { return UInt8(ascii: ";") }
        return UInt8(ascii: ",")
    }

    /// Reads the next non-blank record. Returns false at the end of the input.
    ///
    /// - Throws: ``SyntaxError`` for an unterminated quote, binary data or
    ///   an over-long record; ``InputError`` when reading fails.
    package func next() throws -> Bool {
        guard !finished else { return false }
        // The hot state lives in locals (stored back on every exit), so the
        // byte loop pays no exclusivity checks on class properties.
        var ends = self.ends
        self.ends = []
        ends.removeAll(keepingCapacity: true)
        var storage = self.storage
        var length = 0
        var nextLine = self.nextLine
        var afterCR = self.afterCR
        var line = nextLine
        var bytes = chunk ?? UnsafeBufferPointer(start: nil, count: 0)
        var i = position
        defer {
            self.ends = ends
            self.storage = storage
            self.length = length
            self.nextLine = nextLine
            self.afterCR = afterCR
            self.line = line
            self.chunk = bytes
            self.position = i
        }
        var state = State.fieldStart
        var hasContent = false
        var quoteLine = 0
        let quote = UInt8(ascii: "\""), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        let delimiter = self.delimiter

        while true {
            if i >= bytes.count {
                guard let next = try source.nextChunk() else { break }
                bytes = next
                i = 0
                if !started {
                    started = true
                    if CSVTokenizer.hasBOM(next) { i = 3 }
                }
                continue
            }
            let n = bytes.count
            while i < n {
                if state == .unquoted || state == .fieldStart {
                    // Fast scan of plain field bytes up to the next special one.
                    let start = i
                    while i < n {
                        let b = bytes[i]
                        if b == delimiter || b == lf || b == cr || b == quote || b == 0 { break }
                        if length == storage.count {
                            storage = try CSVTokenizer.grow(storage, line: line, field: ends.count + 1)
                        }
                        storage[length] = b
                        length += 1
                        i += 1
                    }
                    if i > start {
                        state = .unquoted
                        hasContent = true
                        afterCR = false
                        if i == n { break }
                    }
                }
                let b = bytes[i]
                i += 1
                let wasCR = afterCR
                afterCR = false
                if b == 0 {
                    throw SyntaxError.binaryData(line: nextLine, field: ends.count + 1)
                }
                switch state {
                case .quoted:
                    if b == quote {
                        state = .quoteInQuoted
                    } else {
                        if b == cr { nextLine += 1; afterCR = true } else if b == lf && !wasCR { nextLine += 1 }
                        if length == storage.count {
                            storage = try CSVTokenizer.grow(storage, line: line, field: ends.count + 1)
                        }
                        storage[length] = b
                        length += 1
                    }
                    continue
                case .quoteInQuoted:
                    if b == quote {
                        if length == storage.count {
                            storage = try CSVTokenizer.grow(storage, line: line, field: ends.count + 1)
                        }
                        storage[length] = quote
                        length += 1
                        state = .quoted
                        continue
                    }
                    // The field's closing quote: what follows is read as unquoted.
                    state = .unquoted
                case .fieldStart, .unquoted:
                    break
                }
                // Unquoted text, a field's first byte, or just after a closing quote.
                if b == delimiter {
                    ends.append(length)
                    state = .fieldStart
                    hasContent = true
                } else if b == lf || b == cr {
                    if b == lf && wasCR && !hasContent && state == .fieldStart && length == 0 && ends.isEmpty {
                        // The LF of a CRLF whose CR ended the previous record.
                        line = nextLine
                        continue
                    }
                    nextLine += 1
                    if b == cr { afterCR = true }
                    if hasContent || state != .fieldStart {
                        ends.append(length)
                        return true
                    }
                    // A blank line: the next record starts on the next line.
                    line = nextLine
                } else if b == quote && state == .fieldStart {
                    state = .quoted
                    quoteLine = nextLine
                    hasContent = true
                } else {
                    if length == storage.count {
                        storage = try CSVTokenizer.grow(storage, line: line, field: ends.count + 1)
                    }
                    storage[length] = b
                    length += 1
                    state = .unquoted
                    hasContent = true
                }
            }
        }
        finished = true
        endedWithoutLineEnd = true
        if state == .quoted {
            throw SyntaxError.unterminatedQuote(line: quoteLine, field: ends.count + 1)
        }
        if hasContent || state != .fieldStart {
            ends.append(length)
            return true
        }
        return false
    }

    /// A buffer twice the size holding the same bytes (the old one is freed).
    private static func grow(
        _ storage: UnsafeMutableBufferPointer<UInt8>, line: Int,
        field: Int
    ) throws -> UnsafeMutableBufferPointer<UInt8> {
        guard storage.count < CSVTokenizer.maximumRecordLength else {
            throw SyntaxError.recordTooLong(line: line, field: field)
        }
        let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: storage.count * 2)
        _ = bigger.initialize(from: storage)
        storage.deallocate()
        return bigger
    }
}
