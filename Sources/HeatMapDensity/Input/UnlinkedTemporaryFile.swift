import Foundation

/// A file in `$TMPDIR` (or /tmp) that has no name: made by `mkstemp` and
/// unlinked at once, so the kernel frees it when its descriptor is closed,
/// whatever ends the process.
package enum UnlinkedTemporaryFile {
    /// Opens a new such file; `prefix` names it while it briefly has a name.
    /// - Returns: its descriptor, read-write.
    /// - Throws: ``InputError`` naming the folder when it cannot be made.
    package static func open(prefix: String) throws -> Int32 {
        let dir = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((dir + "/" + prefix + "-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else {
            throw InputError(
                file: dir, line: 0, column: "", reason: "temporary file",
                message: "cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return made
    }
}
