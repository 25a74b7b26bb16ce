import Foundation

/// Where a streaming writer puts its output: the bytes in order, a chunk at
/// a time (a file, a pipe, a socket, memory).
///
/// ```swift
/// final class Collector: ByteSink {
///     var bytes: [UInt8] = []
///     func write(_ chunk: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: chunk) }
/// }
/// let sink = Collector()
/// try GeoJSONExport.write(contours, to: sink)
/// ```
public protocol ByteSink: AnyObject {
    /// Takes the next bytes of the output (UTF-8 text). The buffer is only
    /// valid during the call. A thrown error stops the writer, which
    /// rethrows it.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that can go back over what it took: a file, or memory. A writer
/// that streams before it knows everything (the bbox at the top, whether
/// a repair will change a feature already written) fills a slot in later,
/// or starts again from an earlier offset.
package protocol RewritableByteSink: ByteSink {
    /// Bytes taken so far, or nil when this sink cannot go back (a pipe, a terminal).
    var offset: Int? { get }
    /// Writes `bytes` over those already taken from `offset` on.
    func overwrite(at offset: Int, with bytes: UnsafeRawBufferPointer) throws
    /// Drops every byte from `offset` on; the next write continues there.
    func truncate(to offset: Int) throws
}

/// A sink that keeps everything, for the APIs that return one String.
final class ByteCollector: RewritableByteSink {
    var offset: Int? { bytes.count }

    func overwrite(at offset: Int, with chunk: UnsafeRawBufferPointer) {
        bytes.replaceSubrange(offset..<(offset + chunk.count), with: chunk)
    }

    func truncate(to offset: Int) {
        bytes.removeSubrange(offset...)
    }

    private(set) var bytes: [UInt8] = []

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
    }

    /// The text collected (the bytes are given up).
    func takeString() -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        bytes = []
        return text
    }
}
