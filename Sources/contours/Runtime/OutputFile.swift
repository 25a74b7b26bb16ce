#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Output written whole or not at all.
///
/// A file is written to a temporary file in the target's folder (so the
/// rename cannot cross file systems), flushed to disk, and renamed over
/// the target by ``commit()`` (the disk is handed the bytes as they come,
/// so that flush waits for little); a failure, a signal, or dropping the sink
/// without committing removes the temporary file and leaves any old
/// target untouched. Standard output, devices and pipes are written
/// directly. Writes are buffered (64 KiB).
///
/// Streaming use, for writers that produce their text piece by piece:
///
///     try OutputFile.writing(to: path) { out in
///         for feature in features { try out.write(feature.json) }
///     }
///
/// `writing` commits when the body returns and abandons when it throws;
/// with ``init(path:)`` the caller calls ``commit()`` itself.
///
/// A symbolic link given as the path is written through: the file it
/// points to is replaced and the link stays. A link to nothing is refused.
final class OutputFile {
    private let fd: Int32
    private let target: String?
    private let temporary: String?
    private let protected: Bool
    private var buffer: [UInt8] = []
    /// Bytes handed to the descriptor so far.
    private var flushed = 0
    /// Where the bytes not yet sent on their way to the disk begin.
    private var writebackStart = 0
    /// How many written bytes are sent to the disk at a time while writing,
    /// so that the flush before the rename waits for the last of them only.
    static let writebackChunk = 64 << 20
    private var done = false
    private var descriptorOpen = true

    /// The name used in messages.
    let name: String

    /// The temporary file's name in the target's folder: short, so any
    /// target name that fits in the folder gives one that fits too.
    static let temporaryTemplate = ".contours-XXXXXX"

    /// Opens `path` for writing through a temporary file, or standard
    /// output when `path` is nil.
    ///
    /// - Throws: ``ToolError/failure(_:)`` naming the path when its folder
    ///   is missing or not writable, it is a folder, or it is a link to nothing.
    init(path: String?) throws {
        buffer.reserveCapacity(1 << 16)
        name = path ?? "standard output"
        guard let path else {
            if StandardStreams.outputClosed {
                throw ToolError.failure("cannot write standard output: it is closed (give -o FILE)")
            }
            fd = STDOUT_FILENO
            target = nil
            temporary = nil
            protected = false
            return
        }
        let resolved = try OutputFile.resolve(path)
        var info = stat()
        let exists = stat(resolved, &info) == 0
        if exists, (info.st_mode & S_IFMT) == S_IFDIR {
            throw ToolError.failure("cannot write \(path): it is a folder")
        }
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            // A device or pipe (-o /dev/null, a FIFO) is written in place:
            // renaming a file over it would replace the device itself.
            let opened = open(resolved, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw ToolError.failure("cannot write \(path): \(OutputFile.systemError())") }
            fd = opened
            target = nil
            temporary = nil
            protected = false
            return
        }
        let folder = OutputFile.folder(of: resolved)
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
            throw ToolError.failure("cannot write \(path): there is no folder \(folder)")
        }
        var template = Array((folder + "/" + OutputFile.temporaryTemplate).utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else {
            throw ToolError.failure("cannot write \(path): \(OutputFile.systemError())")
        }
        let name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fd = made
        target = resolved
        temporary = name
        protected = Interruption.protect(name)
        // mkstemp makes the file 0600: a file replaced keeps its mode, a
        // new one gets the usual 0666 less the umask.
        if exists {
            fchmod(fd, info.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
    }

    deinit {
        if !done { abandon() }
    }

    /// Writes a whole output: opens `path`, runs `body`, commits when it
    /// returns and abandons (the old file untouched) when it throws.
    static func writing(to path: String?, _ body: (OutputFile) throws -> Void) throws {
        let out = try OutputFile(path: path)
        do {
            try body(out)
            try out.commit()
        } catch {
            out.abandon()
            throw error
        }
    }

    /// Writes `text` whole to `path` (or standard output).
    static func write(_ text: String, to path: String?) throws {
        try writing(to: path) { try $0.write(text) }
    }

    /// Whether the two paths name one file (same device and inode, through
    /// any links and `..`); false when either does not exist.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
    }

    /// The path to write: `path` itself, or what a symbolic link at
    /// `path` finally points to.
    private static func resolve(_ path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let real = realpath(path, nil) else {
            throw ToolError.failure("cannot write \(path): it is a symbolic link to a missing file")
        }
        defer { free(real) }
        return String(cString: real)
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Appends text.
    func write(_ text: String) throws {
        if text.utf8.count >= 1 << 16 {
            // Large texts (a whole grid) go straight out, not through a copy.
            try flush()
            var text = text
            try text.withUTF8 { try writeAll(UnsafeRawBufferPointer($0)) }
            return
        }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends bytes.
    func write(bytes: UnsafeRawBufferPointer) throws {
        if bytes.count >= 1 << 16 {
            try flush()
            try writeAll(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Bytes written so far, buffered ones included.
    var writtenBytes: Int { flushed + buffer.count }

    /// Whether written bytes can be rewritten or dropped: a temporary file.
    var isRewritable: Bool { temporary != nil }

    /// Writes `bytes` over those written from `offset` on (a temporary file only).
    func rewrite(at offset: Int, _ bytes: UnsafeRawBufferPointer) throws {
        precondition(isRewritable && offset >= 0 && offset + bytes.count <= writtenBytes)
        try flush()
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())")
            }
            done += n
        }
    }

    /// Drops what was written from `offset` on (a temporary file only).
    func cut(at offset: Int) throws {
        precondition(isRewritable && offset >= 0 && offset <= writtenBytes)
        try flush()
        guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) >= 0 else {
            throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())")
        }
        flushed = offset
        writebackStart = min(writebackStart, offset)
    }

    /// Writes out what is buffered.
    func flush() throws {
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ raw: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())")
            }
            offset += n
        }
        flushed += raw.count
        if temporary != nil, flushed - writebackStart >= Self.writebackChunk {
            // Advisory: Linux starts writing the range's dirty pages without
            // waiting, and lets go of the pages already written (the chunk
            // before), so the disk works while the rest is made and the
            // file's pages do not crowd the cache. Errors show in the fsync.
            let from = max(0, writebackStart - Self.writebackChunk)
            _ = posix_fadvise(fd, off_t(from), off_t(flushed - from), POSIX_FADV_DONTNEED)
            writebackStart = flushed
        }
    }

    /// Finishes the output: flushes, and renames the temporary file into place.
    func commit() throws {
        do {
            try flush()
            guard let temporary, let target else {
                if fd != STDOUT_FILENO { closeDescriptor() }
                done = true
                return
            }
            guard fsync(fd) == 0 || errno == EINVAL else {
                throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())")
            }
            guard closeDescriptor() else {
                throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())")
            }
            done = true
            guard rename(temporary, target) == 0 else {
                let why = OutputFile.systemError()
                unlink(temporary)
                if protected { Interruption.release() }
                throw ToolError.failure("cannot write \(name): \(why)")
            }
            if protected { Interruption.release() }
        } catch {
            abandon()
            throw error
        }
    }

    @discardableResult
    private func closeDescriptor() -> Bool {
        guard descriptorOpen else { return true }
        descriptorOpen = false
        return close(fd) == 0
    }

    /// Gives the output up: the temporary file is removed, the target untouched.
    func abandon() {
        guard !done else { return }
        done = true
        guard let temporary else { return }
        closeDescriptor()
        unlink(temporary)
        if protected { Interruption.release() }
    }

    /// Writes `bytes` whole to `path` (or standard output).
    static func write(bytes: [UInt8], to path: String?) throws {
        try writing(to: path) { out in try bytes.withUnsafeBytes { try out.write(bytes: $0) } }
    }
}
