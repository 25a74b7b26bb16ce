import HeatMap

/// The library's streaming writers write into an output file through its
/// buffered, all-or-nothing write (the file appears only at ``OutputFile/commit()``).
extension OutputFile: RewritableByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes: bytes)
    }

    /// Only the temporary file of a named output can go back; standard
    /// output, pipes and devices are written in order.
    var offset: Int? { isRewritable ? writtenBytes : nil }

    func overwrite(at offset: Int, with bytes: UnsafeRawBufferPointer) throws {
        try rewrite(at: offset, bytes)
    }

    func truncate(to offset: Int) throws {
        try cut(at: offset)
    }

    /// Opens `path` (nil: standard output), lets `body` write into it, and
    /// commits; on an error the target is left untouched.
    static func streaming(to path: String?, _ body: (OutputFile) throws -> Void) throws {
        try writing(to: path, body)
    }
}
