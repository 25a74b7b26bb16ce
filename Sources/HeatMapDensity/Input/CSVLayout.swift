import HeatMapCore

/// Where a CSV file's point fields are and how to read them, as learned
/// from its header: everything a row parser needs, and nothing that
/// changes while rows are read, so any thread may parse rows with it.
package struct CSVLayout: Sendable, Hashable {
    /// The header's column names, trimmed.
    package var header: [String]
    /// The field separator.
    var delimiter: UInt8
    /// Index of the latitude (y) column.
    var latitudeColumn: Int
    /// Index of the longitude (x) column.
    var longitudeColumn: Int
    /// Index of the weight column, if any.
    package var weightColumn: Int?
    /// Index of the value column, if any.
    var valueColumn: Int?
    /// Index of the radius column (each a number > 0), if any.
    var radiusColumn: Int?
    /// Whether coordinates are degrees (range-checked) rather than planar.
    package var geographic: Bool
    /// Indexes of the time columns (``TimeColumns/names`` order); empty when no time is read.
    var timeColumns: [Int] = []
    /// How the time columns are read, when there are any.
    var time: TimeColumns?
    /// Whether a ',' inside a number is its decimal point (the delimiter is not a comma).
    var decimalComma: Bool { delimiter != UInt8(ascii: ",") }
    /// Fields a row needs to reach every column read.
    var neededFields: Int {
        ([latitudeColumn, longitudeColumn, weightColumn ?? 0, valueColumn ?? 0, radiusColumn ?? 0] + timeColumns)
            .max()! + 1
    }
}
