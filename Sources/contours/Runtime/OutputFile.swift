#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Output written whole or not at all (§12).
///
/// A file is written to a temporary file in the same folder (so the
/// rename cannot cross file systems), flushed to disk, and renamed over
/// the target by ``commit()``; a failure, a signal, or dropping the sink
/// without committing removes the temporary file. Standard output is
/// written directly. Writes are buffered (64 KiB).
final class OutputFile {
    private let fd: Int32
    private let target: String?
    private let temporary: String?
    private let protected: Bool
    private var buffer: [UInt8] = []
    private var done = false

    /// The name used in messages.
    let name: String

    /// Opens `path` for writing through a temporary file, or standard
    /// output when `path` is nil.
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
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
            throw ToolError.failure("cannot write \(path): there is no folder \(folder)")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ToolError.failure("cannot write \(path): it is a folder")
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            // A device or pipe (-o /dev/null, a FIFO) is written in place:
            // renaming a file over it would replace the device itself.
            let opened = open(path, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw ToolError.failure("cannot write \(path): \(OutputFile.systemError())") }
            fd = opened
            target = nil
            temporary = nil
            protected = false
            return
        }
        var template = Array((folder + "/." + url.lastPathComponent + ".tmp-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else {
            throw ToolError.failure("cannot write \(path): \(OutputFile.systemError())")
        }
        let name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fd = made
        target = path
        temporary = name
        protected = Interruption.protect(name)
        // mkstemp makes the file 0600; output gets the usual 0666 less the umask.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
    }

    deinit {
        if !done { abandon() }
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
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
    }

    /// Finishes the output: flushes, and renames the temporary file into place.
    func commit() throws {
        do {
            try flush()
            guard let temporary, let target else {
                if fd != STDOUT_FILENO { close(fd) }
                done = true
                return
            }
            guard fsync(fd) == 0 || errno == EINVAL else {
                throw ToolError.failure("cannot write \(target): \(OutputFile.systemError())")
            }
            close(fd)
            done = true
            guard rename(temporary, target) == 0 else {
                let why = OutputFile.systemError()
                unlink(temporary)
                if protected { Interruption.release() }
                throw ToolError.failure("cannot write \(target): \(why)")
            }
            if protected { Interruption.release() }
        } catch {
            abandon()
            throw error
        }
    }

    /// Gives the output up: the temporary file is removed, the target untouched.
    func abandon() {
        guard !done else { return }
        done = true
        guard let temporary else { return }
        close(fd)
        unlink(temporary)
        if protected { Interruption.release() }
    }

    /// Writes `text` whole to `path` (or standard output).
    static func write(_ text: String, to path: String?) throws {
        let out = try OutputFile(path: path)
        try out.write(text)
        try out.commit()
    }
}
