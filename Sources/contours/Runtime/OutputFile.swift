import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Output written whole or not at all.
///
/// A file is written to an unnamed temporary file in the target's folder
/// (`O_TMPFILE`; so the rename cannot cross file systems, and a process
/// killed by any signal, SIGKILL included, leaves nothing), flushed to
/// disk, and linked into place by ``commit()`` (the disk is handed the
/// bytes as they come, so that flush waits for little). Where the file
/// system has no unnamed files, a named `.contours-XXXXXX` is used and
/// removed on failure and on every terminating signal (``Interruption``).
/// A failure, a signal, or dropping the sink without committing leaves any
/// old target untouched. The folder is held open, so a folder renamed
/// during the run gets the output (or loses the temporary file) where it
/// now is. Writes are buffered (64 KiB).
///
/// Standard output, a descriptor named as a path (`/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`: the descriptor itself, so an appended
/// or shared file keeps what was there), devices, FIFOs and sockets are
/// written directly, in order (docs/faults.md#output-files).
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
    private let ownsDescriptor: Bool
    /// The target folder, open, for a file written through a temporary one.
    private let folder: Int32
    /// The target's name in `folder`.
    private let target: String?
    /// The temporary file's name in `folder`, nil while it is unnamed.
    private var temporary: String?
    private var protected = false
    private var buffer: [UInt8] = []
    /// Bytes handed to the descriptor so far.
    private var flushed = 0
    /// Where the bytes not yet sent on their way to the disk begin.
    private var writebackStart = 0
    /// How many written bytes are sent to the disk at a time while writing,
    /// so that the flush before the rename waits for the last of them only:
    /// a few milliseconds of disk whatever the file's size (a 33 MB file
    /// waited 12–14 ms for all of it, docs/performance.md), and the pages
    /// let go of early.
    static let writebackChunk = 8 << 20
    private var done = false
    private var descriptorOpen = true

    /// The name used in messages.
    let name: String

    // Linux's values (the same on x86-64 and ARM64), which Glibc's module
    // does not export: O_PATH, O_TMPFILE (with O_DIRECTORY), AT_EMPTY_PATH.
    private static let pathOnly: Int32 = 0o10000000
    private static let unnamed: Int32 = 0o20000000 | O_DIRECTORY
    private static let emptyPath: Int32 = 0x1000

    /// The temporary file's name in the target's folder: short, so any
    /// target name that fits in the folder gives one that fits too.
    static let temporaryPrefix = ".contours-"

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
            ownsDescriptor = false
            (folder, target) = (-1, nil)
            return
        }
        if let number = OutputFile.descriptor(named: path) {
            // The descriptor itself, not the file reopened through /proc:
            // a reopened file would start at offset 0 and lose what an
            // appending or shared descriptor put before.
            if StandardStreams.closedAtStart.contains(number) {
                throw ToolError.failure("cannot write \(path): descriptor \(number) is closed")
            }
            let copy = fcntl(number, F_DUPFD_CLOEXEC, 3)
            guard copy >= 0 else {
                throw ToolError.failure("cannot write \(path): descriptor \(number) is not open")
            }
            fd = copy
            ownsDescriptor = true
            (folder, target) = (-1, nil)
            return
        }
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists, (info.st_mode & S_IFMT) == S_IFDIR {
            throw ToolError.failure("cannot write \(path): it is a folder")
        }
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            // A device, FIFO or socket is written in place: renaming a file
            // over it would replace the device itself. Opening a FIFO waits
            // for a reader; a signal ends that wait like any other.
            fd = try OutputFile.openInPlace(path, socket: (info.st_mode & S_IFMT) == S_IFSOCK)
            ownsDescriptor = true
            (folder, target) = (-1, nil)
            return
        }
        let resolved = try OutputFile.resolve(path)
        let (folderPath, base) = OutputFile.split(resolved)
        let folder = open(folderPath, OutputFile.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ENOENT || errno == ENOTDIR {
                throw ToolError.failure("cannot write \(path): there is no folder \(folderPath)")
            }
            throw ToolError.failure("cannot write \(path): \(OutputFile.systemError())")
        }
        // mkstemp-like files are 0600: a file replaced keeps its mode, a new
        // one gets the usual 0666 less the umask (which open applies).
        let mode: mode_t = exists ? info.st_mode & 0o7777 : 0o666
        var made = openat(folder, ".", OutputFile.unnamed | O_WRONLY | O_CLOEXEC, mode)
        var named: String?
        if made < 0 {
            guard errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL || errno == ENOENT else {
                let why = OutputFile.systemError()
                close(folder)
                throw ToolError.failure("cannot write \(path): \(why)")
            }
            // No unnamed files here: a named one, removed on any signal.
            do {
                (made, named) = try OutputFile.createNamed(in: folder, mode: mode)
            } catch {
                close(folder)
                throw ToolError.failure("cannot write \(path): \(error)")
            }
        }
        fd = made
        ownsDescriptor = true
        self.folder = folder
        self.target = base
        if exists { fchmod(fd, mode) }
        if let named {
            temporary = named
            protected = Interruption.protect(named, in: folder)
        }
    }

    /// The descriptor a path names (`/dev/stdin`, `/dev/stdout`,
    /// `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N` of
    /// this process), also through symbolic links to them; nil for other paths.
    static func descriptor(named path: String) -> Int32? {
        var current = path
        for _ in 0..<16 {
            switch current {
            case "/dev/stdin": return 0
            case "/dev/stdout": return 1
            case "/dev/stderr": return 2
            default: break
            }
            for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(getpid())/fd/"]
            where current.hasPrefix(prefix) {
                let rest = current.dropFirst(prefix.count)
                if !rest.isEmpty, rest.count <= 9, rest.allSatisfy(\.isASCII), rest.allSatisfy(\.isNumber) {
                    return Int32(rest)
                }
            }
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
            var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &bytes, Int(PATH_MAX))
            guard n > 0 else { return nil }
            let link = String(decoding: bytes[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : split(current).folder + "/" + link
        }
        return nil
    }

    /// Opens a device or FIFO for writing, or connects to a socket.
    private static func openInPlace(_ path: String, socket isSocket: Bool) throws -> Int32 {
        if isSocket {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else { throw ToolError.failure("cannot write \(path): \(systemError())") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            let room = MemoryLayout.size(ofValue: address.sun_path) - 1
            guard bytes.count <= room else {
                close(s)
                throw ToolError.failure("cannot write \(path): the socket's path is too long to connect to")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (k, b) in bytes.enumerated() { raw[k] = b }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard connected == 0 else {
                let why = systemError()
                close(s)
                throw ToolError.failure("cannot write \(path): \(why)")
            }
            return s
        }
        while true {
            let opened = open(path, O_WRONLY | O_CLOEXEC)
            if opened >= 0 { return opened }
            if errno == EINTR { continue }
            throw ToolError.failure("cannot write \(path): \(systemError())")
        }
    }

    /// Makes a new file `.contours-XXXXXX` in `folder`; returns it open and its name.
    private static func createNamed(in folder: Int32, mode: mode_t) throws -> (Int32, String) {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let name =
                temporaryPrefix + String((0..<6).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
            let made = openat(folder, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
            if made >= 0 { return (made, name) }
            if errno != EEXIST { throw ToolError.failure(systemError()) }
        }
        throw ToolError.failure("no free temporary name")
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

    /// The folder and the name of a path.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        return (folder, String(path[path.index(after: slash)...]))
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
    var isRewritable: Bool { target != nil }

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
                throw ToolError.failure(writeFailure())
            }
            offset += n
        }
        flushed += raw.count
        if target != nil, flushed - writebackStart >= Self.writebackChunk {
            // Advisory: Linux starts writing the range's dirty pages without
            // waiting, and lets go of the pages already written (the chunk
            // before), so the disk works while the rest is made and the
            // file's pages do not crowd the cache. Errors show in the fsync.
            let from = max(0, writebackStart - Self.writebackChunk)
            _ = posix_fadvise(fd, off_t(from), off_t(flushed - from), POSIX_FADV_DONTNEED)
            writebackStart = flushed
        }
    }

    /// The message for a failed write: EFBIG is the file-size limit.
    private func writeFailure() -> String {
        if errno == EFBIG { return "cannot write \(name): the file-size limit was reached (ulimit -f)" }
        return "cannot write \(name): \(OutputFile.systemError())"
    }

    /// Finishes the output: flushes, and puts the temporary file in place.
    func commit() throws {
        do {
            try flush()
            guard let target else {
                if ownsDescriptor { closeDescriptor() }
                done = true
                return
            }
            guard fsync(fd) == 0 || errno == EINVAL else {
                throw ToolError.failure(writeFailure())
            }
            if temporary == nil {
                try link(as: target)
            } else {
                try rename(to: target)
            }
            done = true
            closeDescriptor()
            close(folder)
        } catch {
            abandon()
            throw error
        }
    }

    /// Gives the unnamed file the name `target`: linked straight to it when
    /// it is new, else linked to a temporary name (removed on any signal)
    /// that is renamed over it, which replaces the old file in one step.
    private func link(as target: String) throws {
        if linkUnnamed(to: target) { return }
        guard errno == EEXIST else { throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())") }
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let candidate =
                OutputFile.temporaryPrefix
                + String((0..<6).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
            // Registered before it exists: removing a name not made yet is harmless.
            protected = Interruption.protect(candidate, in: folder)
            temporary = candidate
            if linkUnnamed(to: candidate) { return try rename(to: target) }
            temporary = nil
            if protected { Interruption.release(); protected = false }
            if errno != EEXIST { break }
        }
        throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())")
    }

    /// Links the unnamed file as `name` in the folder; false (errno set) when it cannot.
    private func linkUnnamed(to name: String) -> Bool {
        // Through /proc, which needs no privilege; AT_EMPTY_PATH needs
        // CAP_DAC_READ_SEARCH, so it is the fallback when /proc is missing.
        if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", folder, name, AT_SYMLINK_FOLLOW) == 0 { return true }
        guard errno == ENOENT else { return false }
        return linkat(fd, "", folder, name, OutputFile.emptyPath) == 0
    }

    /// Renames the named temporary file over `target`.
    private func rename(to target: String) throws {
        guard let temporary else { return }
        guard renameat(folder, temporary, folder, target) == 0 else {
            throw ToolError.failure("cannot write \(name): \(OutputFile.systemError())")
        }
        self.temporary = nil
        if protected { Interruption.release(); protected = false }
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
        if let temporary { unlinkat(folder, temporary, 0) }
        temporary = nil
        if protected { Interruption.release(); protected = false }
        if ownsDescriptor { closeDescriptor() }
        if folder >= 0 { close(folder) }
    }

    /// Writes `bytes` whole to `path` (or standard output).
    static func write(bytes: [UInt8], to path: String?) throws {
        try writing(to: path) { out in try bytes.withUnsafeBytes { try out.write(bytes: $0) } }
    }
}
