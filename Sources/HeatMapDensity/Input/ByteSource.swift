import Foundation
import HeatMapCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file or standard input read in fixed-size chunks with `read(2)`, so a
/// file of any size is read in bounded memory (one chunk, 256 KiB).
///
/// The first chunk is read on opening, so the caller can sniff the format
/// (``prefix``) before reading; ``nextChunk()`` hands it out first.
package final class ByteSource {
    /// The size of every read, in bytes.
    package static let chunkSize = 256 * 1024

    /// The name used in messages: the path, or "stdin".
    package let name: String
    /// The path, or nil for standard input.
    package let path: String?
    /// Whether the input is a regular file (which can be read again from the start).
    package let isRegularFile: Bool
    /// The file's size in bytes when it is a regular file, else nil.
    let fileSize: Int?

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var pendingCount: Int
    private var firstChunkPending = true
    /// Whether `read(2)` has returned 0.
    package private(set) var reachedEnd = false
    /// Bytes handed out so far.
    package private(set) var bytesRead: Int = 0

    /// Where in the file the first byte handed out lies (0 unless opened
    /// with ``init(path:startingAt:)``).
    let startOffset: Int

    /// Opens a file, or standard input for the path `-` (or nil).
    ///
    /// - Throws: ``InputError`` naming the path when it cannot be opened or is a directory.
    package convenience init(path: String?) throws {
        try self.init(path: path, startingAt: 0)
    }

    /// Opens a file and reads it from byte `offset` on (standard input,
    /// which cannot seek, only from 0).
    ///
    /// - Throws: ``InputError`` naming the path when it cannot be opened or is a directory.
    package init(path: String?, startingAt offset: Int) throws {
        let isStdin = path == nil || path == "-"
        self.path = isStdin ? nil : path
        self.name = isStdin ? "stdin" : path!
        if isStdin {
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            let opened = open(path!, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else {
                throw InputError(
                    file: path!, line: 0, column: "", reason: "cannot open",
                    message: "cannot open: \(String(cString: strerror(errno)))")
            }
            fd = opened
            ownsDescriptor = true
        }
        var info = stat()
        let statOK = fstat(fd, &info) == 0
        let mode = statOK ? (info.st_mode & S_IFMT) : 0
        if statOK, mode == S_IFDIR {
            if ownsDescriptor { close(fd) }
            throw InputError(file: name, line: 0, column: "", reason: "cannot open", message: "is a directory")
        }
        isRegularFile = statOK && mode == S_IFREG
        fileSize = isRegularFile ? Int(info.st_size) : nil
        startOffset = isStdin ? 0 : offset
        if startOffset > 0, lseek(fd, off_t(startOffset), SEEK_SET) < 0 {
            let reason = String(cString: strerror(errno))
            if ownsDescriptor { close(fd) }
            throw InputError(file: name, line: 0, column: "", reason: "read error", message: "cannot seek: \(reason)")
        }
        buffer = .allocate(capacity: ByteSource.chunkSize)
        pendingCount = 0
        // Every stored property is set, so a throw from here on runs
        // deinit, which frees the buffer and closes the descriptor.
        pendingCount = try fill(from: 0)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// The first bytes of the input (up to one chunk), for format sniffing.
    package var prefix: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[0..<(firstChunkPending ? pendingCount : 0)])
    }

    /// Reads more into ``prefix`` (which holds what the first read gave:
    /// from a pipe, possibly a few bytes) while `needsMore` says so, up to
    /// one chunk or the end. For sniffing a stream without reading it twice.
    ///
    /// - Throws: ``InputError`` when `read(2)` fails.
    func extendPrefix(while needsMore: (UnsafeBufferPointer<UInt8>) -> Bool) throws {
        guard firstChunkPending else { return }
        while !reachedEnd, pendingCount < buffer.count, needsMore(prefix) {
            pendingCount += try fill(from: pendingCount)
        }
    }

    /// Every byte not yet handed out, to the end. O(bytes) memory: for
    /// inputs read whole (rasters, cells tables, basemaps).
    ///
    /// - Throws: ``InputError`` when `read(2)` fails.
    package func readToEnd() throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let size = fileSize { bytes.reserveCapacity(max(0, size - startOffset)) }
        while let chunk = try nextChunk() { bytes.append(contentsOf: chunk) }
        return bytes
    }

    /// The next chunk, valid until the following call; nil at the end.
    ///
    /// - Throws: ``InputError`` when `read(2)` fails.
    func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        let count: Int
        if firstChunkPending {
            firstChunkPending = false
            count = pendingCount
        } else {
            count = reachedEnd ? 0 : try fill(from: 0)
        }
        guard count > 0 else { return nil }
        bytesRead += count
        return UnsafeBufferPointer(rebasing: buffer[0..<count])
    }

    /// Fills the buffer from `start` with up to the rest of one chunk
    /// (files: all of it unless at the end; pipes: whatever one read
    /// returns). Returns the byte count, 0 at the end.
    private func fill(from start: Int) throws -> Int {
        var filled = start
        while filled < buffer.count {
            let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                // A descriptor closed by the caller (`<&-`) or opened for
                // writing only reads as EBADF: say what that means.
                let why =
                    code == EBADF
                    ? (fd == STDIN_FILENO
                        ? "standard input is closed or not open for reading"
                        : "not open for reading")
                    : String(cString: strerror(code))
                throw InputError(
                    file: name, line: 0, column: "", reason: "read error",
                    message: "read error: \(why)")
            }
            if n == 0 {
                reachedEnd = true
                break
            }
            filled += n
            // A pipe or terminal delivers what it has; going on with it keeps
            // an interactive reader (queries typed line by line) answering.
            if !isRegularFile { break }
        }
        return filled - start
    }
}
