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

/// A sink that keeps everything, for the APIs that return one String.
final class ByteCollector: ByteSink {
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
