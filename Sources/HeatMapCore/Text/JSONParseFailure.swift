import Foundation

/// Where Foundation's JSON parser stopped, as a line and column a reader
/// can find: its error names only a byte offset ("around character 15"),
/// which this turns into "line 2, column 4: invalid value".
package enum JSONParseFailure {
    /// The failure of `JSONSerialization` on `data` told as
    /// "line L, column C: what" (1-based; the column counts bytes), or its
    /// own words when it names no place. O(bytes before the place).
    package static func describe(_ error: Error, in data: Data) -> String {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        guard let detail, let offset = offset(in: detail) else {
            return detail ?? error.localizedDescription
        }
        let (line, column) = place(ofByte: offset, in: data)
        let what = detail.range(of: " around character").map { String(detail[..<$0.lowerBound]) } ?? detail
        return "line \(line), column \(column): \(what.prefix(1).lowercased() + what.dropFirst())"
    }

    /// The byte offset in "… around character N." (0-based), if named.
    static func offset(in detail: String) -> Int? {
        guard let range = detail.range(of: "around character ") else { return nil }
        return Int(detail[range.upperBound...].prefix { $0.isNumber })
    }

    /// The 1-based line and column of byte `offset` (the end of `data`
    /// when it lies past it).
    static func place(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        let end = min(max(offset, 0), data.count)
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
        }
        return (line, end - lineStart + 1)
    }
}
