import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

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
///
/// The bytes are kept in chunks (16 MiB), not one array: a
/// growing array would copy everything it holds each time it doubles —
/// a gigabyte in one uninterruptible step, late in a large export — and
/// need room for both copies while it does. The String is made in one
/// copy at the end.
final class ByteCollector: RewritableByteSink {
    /// Bytes per chunk.
    let chunkSize: Int

    private var chunks: [[UInt8]] = []
    package private(set) var count = 0

    package var offset: Int? { count }

    package init(chunkSize: Int = 1 << 24) {
        self.chunkSize = chunkSize
    }

    deinit {
        // A writer that failed or was cancelled leaves up to gigabytes
        // here: freed off the caller's path, so the throw is not held up.
        if count >= chunkSize { DeferredRelease.release(chunks) }
    }

    package func write(_ chunk: UnsafeRawBufferPointer) throws {
        var rest = chunk[...]
        while !rest.isEmpty {
            if chunks.isEmpty || chunks[chunks.count - 1].count == chunkSize {
                // Grown as written (a small text stays small), by doubling
                // up to the chunk size.
                chunks.append([])
            }
            let room = chunkSize - chunks[chunks.count - 1].count
            let part = rest.prefix(room)
            chunks[chunks.count - 1].append(contentsOf: part)
            rest = rest.dropFirst(part.count)
            count += part.count
        }
    }

    package func overwrite(at offset: Int, with bytes: UnsafeRawBufferPointer) {
        precondition(offset >= 0 && offset + bytes.count <= count)
        for (k, byte) in bytes.enumerated() {
            let at = offset + k
            chunks[at / chunkSize][at % chunkSize] = byte
        }
    }

    package func truncate(to offset: Int) {
        precondition(offset >= 0 && offset <= count)
        let kept = (offset + chunkSize - 1) / chunkSize
        chunks.removeSubrange(kept...)
        if kept > 0 { chunks[kept - 1].removeSubrange((offset - (kept - 1) * chunkSize)...) }
        count = offset
    }

    /// The text collected (the bytes are given up).
    func takeString() -> String {
        let total = count
        let text = String(unsafeUninitializedCapacity: total) { buffer in
            var at = 0
            for chunk in chunks {
                _ = UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(from: chunk)
                at += chunk.count
            }
            return total
        }
        chunks = []
        count = 0
        return text
    }
}
