import Foundation
import HeatMapCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the rows of a regular CSV file on every core, handing out the
/// points in file order, exactly as ``CSVPointReader`` would.
///
/// The file is read in groups of blocks of ``blockSize`` bytes cut at line
/// ends. While the blocks of one group are parsed in parallel by
/// ``CSVBlockParser``, the previous group's points go to the caller (in
/// order, on one thread at a time). A block the quick parser declines (a
/// quote, a bad row, an odd line end) is read by the serial reader instead,
/// from the block's start to the first record boundary at or past its end,
/// so errors, line numbers, rejections and `skipInvalid` are the serial
/// reader's. When that boundary is not the end of the block (a quoted field
/// ran on), blocks parsed ahead are dropped and reading goes on from it.
///
/// Memory: one group of raw bytes (2 blocks per core, at most 16 blocks)
/// plus the points of two groups (32 bytes a point, about 1.2 × the text
/// for short rows): some 7 × ``blockSize``, 28 MB, per core. O(bytes).
final class CSVBlockReader {
    /// Bytes per block: large enough that the parallel steps are few, small
    /// enough that two groups of points stay a few tens of megabytes.
    static let blockSize = 4 << 20

    /// The name used in messages.
    package let name: String
    /// Rows passed over under `skipInvalid`.
    package private(set) var rejections: InputRejections
    /// Data rows seen (good and bad).
    package private(set) var rowsRead: Int
    /// Bytes of the file whose points have been handed out.
    private(set) var bytesDone = 0
    /// Blocks handed out from the quick parser, and read by the serial reader.
    private(set) var quickBlocks = 0, serialBlocks = 0

    private let path: String
    private let header: CSVPointReader
    private let parser: CSVBlockParser
    private let layout: CSVLayout
    private let skipInvalid: Bool
    private let blockSize: Int
    private let groupBlocks: Int

    /// A block of a group: where it lies in the file and in the group's
    /// buffer, and what the quick parser made of it.
    private struct Block {
        /// File offsets of its first byte and one past its last.
        package var start: Int, end: Int
        /// Offset of its first byte in the group's buffer.
        var bufferOffset: Int
        /// Whether it ends at the end of the file.
        package var isLast: Bool
        /// The parsed rows; nil when the serial reader must read it.
        package var rows: CSVBlockParser.Rows?
    }

    /// Reads the rows after the header that `reader` (of the file at
    /// `path`) has just read.
    ///
    /// - Parameter blockSize: bytes per block (tests make it small).
    package init(path: String, reader: CSVPointReader, skipInvalid: Bool, blockSize: Int = CSVBlockReader.blockSize) {
        self.path = path
        self.name = reader.fileName
        header = reader
        layout = reader.layout
        parser = CSVBlockParser(layout: layout)
        self.skipInvalid = skipInvalid
        self.blockSize = max(blockSize, 1)
        groupBlocks = min(2 * Parallel.workerCount, 16)
        rejections = reader.rejections
        rowsRead = reader.rowsRead
    }

    /// Hands every good point to `body`, in runs, in file order.
    ///
    /// - Throws: ``InputError`` for the first bad row (unless skipping) or
    ///   bad structure, or when reading fails; `CancellationError`; what
    ///   `body` throws.
    func forEachRun(control: ComputeControl, _ body: (PointBatch) throws -> Void) throws {
        guard var position = header.tokenizer.resumption else {
            // The header ended oddly (a lone CR at a chunk's end): read serially.
            _ = try serial(header, until: Int.max, body)
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw InputError(
                file: name, line: 0, column: "", reason: "cannot open",
                message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let padded = UnsafeMutableBufferPointer<UInt8>.allocate(
            capacity: groupBlocks * blockSize + CSVBlockParser.padding)
        padded.initialize(repeating: 0)
        defer { padded.deallocate() }
        let buffer = UnsafeMutableBufferPointer(rebasing: padded[0..<(groupBlocks * blockSize)])

        var pending: [Block] = []
        while true {
            try control.checkCancellation()
            let readAt = pending.last?.end ?? position.offset
            let group = try readGroup(fd, at: readAt, into: buffer)
            let parsed = UnsafeMutableBufferPointer<CSVBlockParser.Rows?>.allocate(capacity: max(group.count, 1))
            parsed.initialize(repeating: nil)
            defer { parsed.deinitialize(); parsed.deallocate() }
            var next: (offset: Int, line: Int)? = position
            // Task 0 hands out the previous group while the others parse this one.
            try Parallel.forEach(group.count + 1) { k in
                if k == 0 {
                    next = try consume(pending, from: position, body)
                } else {
                    let block = group[k - 1]
                    let bytes = UnsafeBufferPointer(
                        rebasing: buffer[block.bufferOffset..<(block.bufferOffset + block.end - block.start)])
                    parsed[k - 1] = parser.parse(bytes, isLast: block.isLast)
                }
            }
            guard let reached = next else { return }
            position = reached
            bytesDone = position.offset
            if let first = group.first, first.start == position.offset {
                pending = group.enumerated().map { k, block in
                    var block = block
                    block.rows = parsed[k]
                    return block
                }
            } else if group.isEmpty && position.offset == readAt {
                return
            } else {
                // A serial read ran past the blocks read ahead: read on from where it stopped.
                pending = []
            }
        }
    }

    /// Hands out `blocks` (contiguous, the first starting at `position`)
    /// and returns where the reading stands after them, or nil at the end
    /// of the file. Stops early when a serial read runs past a block's end.
    private func consume(
        _ blocks: [Block], from position: (offset: Int, line: Int),
        _ body: (PointBatch) throws -> Void
    ) throws -> (offset: Int, line: Int)? {
        var position = position
        for block in blocks {
            guard position.offset == block.start else { break }
            if let rows = block.rows {
                if rows.points.count > 0 { try body(rows.points) }
                quickBlocks += 1
                rowsRead += rows.rows
                position = (block.end, position.line + rows.lines)
            } else {
                let source = try ByteSource(path: path, startingAt: position.offset)
                let reader = CSVPointReader(
                    continuing: layout, source: source, line: position.line,
                    skipInvalid: skipInvalid)
                serialBlocks += 1
                guard let reached = try serial(reader, until: block.end, body) else { return nil }
                position = reached
            }
        }
        return position
    }

    /// Reads records with `reader` until it stands at a record boundary at
    /// or past file offset `end`; returns that boundary, or nil at the end
    /// of the file. Adds its rows and rejections to this reader's.
    private func serial(
        _ reader: CSVPointReader, until end: Int,
        _ body: (PointBatch) throws -> Void
    ) throws -> (offset: Int, line: Int)? {
        let rowsBefore = reader.rowsRead, rejectionsBefore = reader.rejections.count
        defer {
            rowsRead += reader.rowsRead - rowsBefore
            if reader.rejections.count > rejectionsBefore { rejections.merge(reader.rejections) }
        }
        var batch = PointBatch(capacity: PointBatch.standardSize)
        while true {
            if let boundary = reader.tokenizer.resumption, boundary.offset >= end {
                if batch.count > 0 { try body(batch) }
                return boundary
            }
            switch try reader.nextRecord() {
            case .point(let p):
                batch.append(p)
                if batch.count == PointBatch.standardSize {
                    try body(batch)
                    batch.removeAll()
                }
            case .skipped:
                continue
            case .end:
                if batch.count > 0 { try body(batch) }
                return nil
            }
        }
    }

    /// Reads up to one group's bytes from `offset` and cuts them into
    /// blocks ending at line ends. The last bytes of a group that do not
    /// end a line are left for the next group; a block's worth of bytes
    /// without a line end becomes a block for the serial reader. Empty at
    /// the end of the file.
    private func readGroup(_ fd: Int32, at offset: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws
        -> [Block]
    {
        var got = 0
        while got < buffer.count {
            let n = pread(fd, buffer.baseAddress! + got, buffer.count - got, off_t(offset + got))
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(
                    file: name, line: 0, column: "", reason: "read error",
                    message: "read error: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            got += n
        }
        let atEnd = got < buffer.count
        var blocks: [Block] = []
        var s = 0
        while s < got {
            var e = min(s + blockSize, got)
            if e == got && atEnd {
                blocks.append(Block(start: offset + s, end: offset + e, bufferOffset: s, isLast: true))
                break
            }
            // The last line end in the block (a row's length back, at most).
            var newline = e - 1
            while newline >= s, buffer[newline] != 0x0A { newline -= 1 }
            guard newline >= s else {
                if blocks.isEmpty {
                    // No line end in a whole block: the serial reader copes (or says what is wrong).
                    blocks.append(Block(start: offset + s, end: offset + e, bufferOffset: s, isLast: false))
                }
                break
            }
            e = newline + 1
            blocks.append(Block(start: offset + s, end: offset + e, bufferOffset: s, isLast: false))
            s = e
        }
        return blocks
    }
}
