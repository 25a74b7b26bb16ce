import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Stops the tool at once on any terminating signal that can be caught,
/// removing the named temporary output file if one exists at that moment
/// (docs/faults.md#signals-and-limits).
///
/// The handler does only what is async-signal-safe: `unlinkat` of a name
/// prepared beforehand in a fixed buffer, relative to the output folder's
/// descriptor (so a folder renamed during the run is cleaned up too), a
/// prepared message for a CPU limit, then `_exit`: 128 + the signal (130
/// for SIGINT, 143 for SIGTERM), or 1 for SIGXCPU, which is a limit
/// reached, not a request. Most of the time there is no name to remove:
/// outputs are unnamed (`O_TMPFILE`) until the last moment, and input
/// spools are unlinked as soon as they are made.
///
/// SIGXFSZ is ignored, so a write past `ulimit -f` fails with EFBIG and is
/// reported as one line like any write error.
enum Interruption {
    /// The signals that would end the process: each removes the temporary
    /// file and exits. (SIGKILL and SIGSTOP cannot be caught; an unnamed
    /// output needs no cleanup for them.)
    static let terminating: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
        SIGVTALRM, SIGPROF, SIGTRAP, SIGSYS, SIGPWR, SIGSTKFLT
    ]

    private static let capacity = 4096
    nonisolated(unsafe) private static let path: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: capacity + 1)
        p.initialize(repeating: 0, count: capacity + 1)
        return p
    }()
    private static let armed = Atomic<Bool>(false)
    private static let folder = Atomic<Int32>(AT_FDCWD)

    private static let cpuMessage: [UInt8] = Array(
        "contours: stopped: the CPU time limit was reached (ulimit -t)\n".utf8)
    nonisolated(unsafe) private static let cpuLine: UnsafeMutableBufferPointer<UInt8> = {
        let p = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: cpuMessage.count)
        _ = p.initialize(from: cpuMessage)
        return p
    }()

    /// Installs the handlers.
    ///
    /// A blocked mask inherited from the parent (some launchers block
    /// everything in their worker threads) is lifted for these signals, so
    /// Ctrl-C works. While one handler runs, the others wait, so two quick
    /// signals end with the first one's status.
    static func install() {
        _ = path  // allocate before any signal can arrive
        _ = cpuLine
        var all = sigset_t()
        sigemptyset(&all)
        for sig in terminating { sigaddset(&all, sig) }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in terminating {
            var current = sigaction()
            sigaction(sig, nil, &current)
            // A signal ignored at start stays ignored, as POSIX has it for
            // every tool: `nohup` ignores SIGHUP so the job outlives the
            // terminal, and a shell without job control starts `cmd &` with
            // SIGINT and SIGQUIT ignored so that Ctrl-C stops only the
            // foreground job. SIG_IGN is the handler address 1.
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                if Interruption.armed.load(ordering: .acquiring) {
                    unlinkat(Interruption.folder.load(ordering: .acquiring), Interruption.path, 0)
                }
                if sig == SIGXCPU {
                    _ = write(STDERR_FILENO, Interruption.cpuLine.baseAddress, Interruption.cpuLine.count)
                    _exit(1)
                }
                _exit(128 + sig)
            }
            action.sa_mask = all
            action.sa_flags = 0
            sigaction(sig, &action, nil)
            sigaddset(&unblock, sig)
        }
        signal(SIGXFSZ, SIG_IGN)
        warnBeforeCPULimit()
        sigaddset(&unblock, SIGXFSZ)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Arms a CPU-time timer that raises SIGXCPU half a second before the
    /// hard CPU limit: when the soft limit equals the hard one (as
    /// `ulimit -t` sets them), the kernel sends SIGKILL, not SIGXCPU, and
    /// the job would end without a word.
    private static func warnBeforeCPULimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit) == 0,
            limit.rlim_max < rlim_t(Int32.max)
        else { return }  // RLIM_INFINITY is the largest value
        var event = sigevent()
        event.sigev_notify = Int32(SIGEV_SIGNAL)
        event.sigev_signo = SIGXCPU
        var timer: timer_t?
        guard timer_create(CLOCK_PROCESS_CPUTIME_ID, &event, &timer) == 0 else { return }
        // Half a second early (half the limit when it is 1 s): several
        // threads spend CPU time together between the timer and the handler.
        let hard = Int(limit.rlim_max) * 1_000_000_000
        let nanoseconds = max(hard - min(500_000_000, hard / 2), 1)
        var due = itimerspec()
        due.it_value = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        timer_settime(timer, TIMER_ABSTIME, &due, nil)
    }

    /// Registers the file `name` in the folder open as `folderDescriptor`
    /// to remove if a signal arrives. Returns false when the name is too
    /// long to register.
    static func protect(_ name: String, in folderDescriptor: Int32) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count <= capacity else { return false }
        armed.store(false, ordering: .releasing)
        for (k, b) in bytes.enumerated() { path[k] = CChar(bitPattern: b) }
        path[bytes.count] = 0
        folder.store(folderDescriptor, ordering: .releasing)
        armed.store(true, ordering: .releasing)
        return true
    }

    /// Forgets the registered file (it was renamed into place or removed).
    static func release() {
        armed.store(false, ordering: .releasing)
    }
}
