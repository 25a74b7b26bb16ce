import HeatMap

/// The library's streaming writers write into an output file through its
/// buffered, all-or-nothing write (the file appears only at ``OutputFile/commit()``).
extension OutputFile: ByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes: bytes)
    }

    /// Opens `path` (nil: standard output), lets `body` write into it, and
    /// commits; on an error the target is left untouched.
    static func streaming(to path: String?, _ body: (OutputFile) throws -> Void) throws {
        try writing(to: path, body)
    }
}
