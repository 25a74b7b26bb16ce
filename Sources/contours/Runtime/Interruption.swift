#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Stops the tool at once on Ctrl-C (and SIGTERM, SIGHUP),
/// removing the temporary output file if one is being written.
///
/// The handler does only what is async-signal-safe: `unlink` of a path
/// prepared beforehand in a fixed buffer, then `_exit(128 + signal)`
/// (130 for SIGINT). Temporary input spools need no cleanup: they are
/// unlinked as soon as they are made.
enum Interruption {
    private static let capacity = 4096
    nonisolated(unsafe) private static let path: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: capacity + 1)
        p.initialize(repeating: 0, count: capacity + 1)
        return p
    }()
    private static let armed = Atomic<Bool>(false)

    /// Installs the handlers.
    ///
    /// A signal the parent set to be ignored stays ignored (a background
    /// job of a script must not die on the terminal's Ctrl-C). A blocked
    /// mask inherited from the parent (some launchers block everything in
    /// their worker threads) is lifted for these signals, so Ctrl-C works.
    static func install() {
        _ = path  // allocate before any signal can arrive
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var current = sigaction()
            sigaction(sig, nil, &current)
            // SIG_IGN is the handler address 1.
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                if Interruption.armed.load(ordering: .acquiring) { unlink(Interruption.path) }
                _exit(128 + sig)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, nil)
            sigaddset(&unblock, sig)
        }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Registers the file to remove if a signal arrives. Returns false when
    /// the path is too long to register (the caller then writes directly).
    static func protect(_ file: String) -> Bool {
        let bytes = Array(file.utf8)
        guard bytes.count <= capacity else { return false }
        armed.store(false, ordering: .releasing)
        for (k, b) in bytes.enumerated() { path[k] = CChar(bitPattern: b) }
        path[bytes.count] = 0
        armed.store(true, ordering: .releasing)
        return true
    }

    /// Forgets the registered file (it was renamed into place or removed).
    static func release() {
        armed.store(false, ordering: .releasing)
    }
}
