import Foundation
import HeatMap

/// One frame's GeoJSON features, cut out of the FeatureCollection the
/// library's writer made for that frame alone, each feature's properties
/// led by the frame's `frame`, `start` and `end`.
///
/// Frames are independent once the shared thresholds are known, so the
/// framed export makes several at once and writes them in order; this is
/// what a frame comes to in between. The cutting works on the bytes (the
/// writer puts one feature a line, each opening with the same marker), so
/// it costs a copy of the frame's text.
struct FrameFeatures {
    /// The frame's collection as the writer made it.
    private let text: [UInt8]
    /// Its features: each line's range, and whether it opens with the marker.
    private var lines: [(range: Range<Int>, opens: Bool)] = []
    /// What goes after each marker.
    private let properties: [UInt8]
    /// The frame's bbox member, if its collection had one.
    var box: FramedExport.BoundingBox?

    /// Whether the frame has no feature.
    var isEmpty: Bool { lines.isEmpty }

    /// What opens every feature the writer makes.
    static let marker = Array("{\"type\":\"Feature\",\"properties\":{".utf8)
    private static let featuresMember = Array(",\"features\":[".utf8)
    private static let bboxMember = Array("\"bbox\":[".utf8)

    /// The features of `collection` (one FeatureCollection's text) with
    /// `properties` (`"frame":…,"start":…,"end":…,`) to be put first in each.
    init(collection text: [UInt8], properties: [UInt8]) {
        self.text = text
        self.properties = properties
        guard let open = FrameFeatures.find(FrameFeatures.featuresMember, in: text[...], from: 0) else { return }
        if let b = FrameFeatures.find(FrameFeatures.bboxMember, in: text[..<open], from: 0),
            let close = text[b..<open].firstIndex(of: UInt8(ascii: "]"))
        {
            box = FramedExport.BoundingBox(member: String(decoding: text[b...close], as: UTF8.self))
        }
        var start = open + FrameFeatures.featuresMember.count
        var end = text.count
        // The collection ends "]}" after the last feature, with white space around.
        while end > start, FrameFeatures.isSpace(text[end - 1]) { end -= 1 }
        guard end - start >= 2, text[end - 2] == UInt8(ascii: "]"), text[end - 1] == UInt8(ascii: "}") else { return }
        end -= 2
        while end > start, FrameFeatures.isSpace(text[end - 1]) { end -= 1 }
        while start < end, FrameFeatures.isSpace(text[start]) { start += 1 }
        let marker = FrameFeatures.marker
        var at = start
        while at < end {
            // A feature opens at the start and after each newline.
            let lineEnd = text[at..<end].firstIndex(of: UInt8(ascii: "\n")) ?? end
            let opens = lineEnd - at >= marker.count && text[at..<(at + marker.count)].elementsEqual(marker)
            lines.append((at..<lineEnd, opens))
            at = lineEnd + 1
        }
    }

    /// Writes the features, each after a newline, the properties put first in each.
    func write(to sink: ByteSink) throws {
        let marker = FrameFeatures.marker.count
        try text.withUnsafeBytes { text in
            try properties.withUnsafeBytes { properties in
                for (range, opens) in lines {
                    try FramedGrid.write("\n", to: sink)
                    if opens {
                        try sink.write(
                            UnsafeRawBufferPointer(rebasing: text[range.lowerBound..<(range.lowerBound + marker)]))
                        try sink.write(properties)
                        try sink.write(
                            UnsafeRawBufferPointer(rebasing: text[(range.lowerBound + marker)..<range.upperBound]))
                    } else {
                        try sink.write(UnsafeRawBufferPointer(rebasing: text[range]))
                    }
                }
            }
        }
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == UInt8(ascii: " ") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") || b == UInt8(ascii: "\t")
    }

    /// Where `needle` first occurs in `text` at or after `from`.
    private static func find(_ needle: [UInt8], in text: ArraySlice<UInt8>, from: Int) -> Int? {
        guard let first = needle.first else { return nil }
        var at = max(from, text.startIndex)
        while at + needle.count <= text.endIndex {
            guard let i = text[at...].firstIndex(of: first), i + needle.count <= text.endIndex else { return nil }
            if text[i..<(i + needle.count)].elementsEqual(needle) { return i }
            at = i + 1
        }
        return nil
    }

}

/// A frame's text in memory, which the library's writer can go back over
/// (so that it writes in one pass, as to a file).
final class FrameText: RewritableByteSink {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 20) { bytes.reserveCapacity(capacity) }

    var offset: Int? { bytes.count }

    func write(_ chunk: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: chunk) }

    func overwrite(at offset: Int, with chunk: UnsafeRawBufferPointer) throws {
        precondition(offset >= 0 && offset + chunk.count <= bytes.count)
        bytes.withUnsafeMutableBytes {
            UnsafeMutableRawBufferPointer(rebasing: $0[offset..<(offset + chunk.count)]).copyMemory(from: chunk)
        }
    }

    func truncate(to offset: Int) throws {
        precondition(offset >= 0 && offset <= bytes.count)
        bytes.removeSubrange(offset...)
    }
}
