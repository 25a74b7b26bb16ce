#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The three standard streams, made safe to use whatever state the
/// caller left them in.
///
/// A stream may be closed (`2>&-`), full (`2>/dev/full`), a pipe whose
/// reader is gone, or open the wrong way (`0>file`). None of that may
/// kill the run: messages are written with `write(2)` and a failure to
/// write one is ignored (the exit status still tells), and SIGPIPE is
/// ignored so a vanished reader shows up as EPIPE, an ordinary error.
enum StandardStreams {
    /// Which of 0, 1, 2 were closed when the tool started.
    nonisolated(unsafe) private(set) static var closedAtStart: Set<Int32> = []

    /// Puts /dev/null on any closed standard descriptor (so no file the
    /// tool opens later lands on 0, 1 or 2 and gets written by mistake),
    /// remembering which were closed, and ignores SIGPIPE. Call first.
    static func secure() {
        for fd: Int32 in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            closedAtStart.insert(fd)
            let opened = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether standard input was closed when the tool started.
    static var inputClosed: Bool { closedAtStart.contains(STDIN_FILENO) }
    /// Whether standard output was closed when the tool started.
    static var outputClosed: Bool { closedAtStart.contains(STDOUT_FILENO) }

    /// Writes `text` to standard error as it is, ignoring any failure.
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
