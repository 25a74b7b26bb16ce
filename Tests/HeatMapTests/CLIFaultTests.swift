import Foundation
import Testing

/// Faults of the tool's surroundings, run through a shell so that streams
/// can be closed, filled or opened the wrong way and memory limited: each
/// gets its exit status and one line on stderr, never a signal, and no
/// input or earlier output is touched.
@Suite struct CLIFaultTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        /// A shell command; `$C` is the tool, the folder holds p.csv (three
        /// points) and old.geojson ("previous").
        var script: String
        var status: Int32
        /// Standard error must contain this (empty: stderr must be empty).
        var message: String
        var description: String { name }

        init(_ name: String, _ script: String, _ status: Int32, _ message: String) {
            self.name = name
            self.script = script
            self.status = status
            self.message = message
        }
    }

    static let points = "lat,lon\n1,2\n1.5,2.5\n2,2\n"

    static let cases: [Case] = [
        Case(
            "stdin closed", "$C export - -o old.geojson <&-", 1,
            "contours: cannot read standard input: it is closed (give INPUT as a file)"),
        Case("stdin closed, no INPUT", "$C export -o old.geojson <&-", 1, "standard input: it is closed"),
        Case(
            "stdin write-only", "$C info - 0>w.txt; s=$?; rm -f w.txt; exit $s", 1,
            "contours: stdin: read error: standard input is closed or not open for reading"),
        Case(
            "read error EIO", "$C export /proc/self/mem -o old.geojson", 1,
            "contours: /proc/self/mem: read error: Input/output error"),
        Case("stderr closed", "$C export /nonexistent.csv 2>&-", 1, ""),
        Case("stderr full", "$C export /nonexistent.csv 2>/dev/full", 1, ""),
        Case(
            "warning with stderr closed",
            "$C export p.csv -o new.geojson 2>&- && test -s new.geojson && rm new.geojson", 0, ""),
        Case(
            "stdout closed", "$C export p.csv >&-", 1,
            "contours: cannot write standard output: it is closed (give -o FILE)"),
        Case(
            "stdout full", "$C export p.csv >/dev/full", 1,
            "contours: cannot write standard output: No space left on device"),
        Case("help to a full stdout", "$C --help >/dev/full", 1, "cannot write standard output"),
        Case(
            "reader gone", "$C grid p.csv --resolution 600 | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}", 1,
            "contours: cannot write standard output: Broken pipe"),
        Case(
            "memory limit", "ulimit -v 1000000; $C export p.csv --resolution 10000 -o old.geojson", 1,
            "needs about"),
        Case(
            "memory limit, grid", "ulimit -v 400000; $C grid p.csv --resolution 10000 -o old.geojson", 1,
            "try a smaller --resolution"),
        Case(
            "output is the input", "$C export p.csv -o p.csv", 2,
            "contours: -o p.csv is an input; it would be overwritten"),
        Case(
            "output is the input through ..", "mkdir -p d; $C export p.csv -o d/../p.csv; s=$?; rmdir d; exit $s", 2,
            "(the same file as p.csv)"),
        Case(
            "output is the input through a link",
            "ln -s p.csv l.csv; $C export l.csv -o p.csv; s=$?; rm l.csv; exit $s", 2,
            "is an input (the same file as l.csv)"),
        Case(
            "output is a hard link to the input", "ln p.csv h.csv; $C export p.csv -o h.csv; s=$?; rm h.csv; exit $s",
            2,
            "is an input (the same file as p.csv)"),
        Case(
            "dangling link as output",
            "ln -s nothing.geojson d.geojson; $C export p.csv -o d.geojson; s=$?; rm d.geojson; exit $s", 1,
            "contours: cannot write d.geojson: it is a symbolic link to a missing file"),
        Case(
            "link as output is written through",
            "ln -s old.geojson l.geojson; $C export p.csv -o l.geojson 2>/dev/null; s=$?; test -L l.geojson && grep -q Feature old.geojson && echo previous > old.geojson; rm l.geojson; exit $s",
            0, ""),
        Case(
            "255-byte output name",
            "n=$(printf 'a%.0s' $(seq 1 247)).geojson; $C export p.csv -o $n 2>/dev/null; s=$?; test -s $n; t=$?; rm -f $n; exit $((s + t))",
            0, ""),
        Case(
            "escape sequence in a file name", "$C export \"$(printf '\\033]0;pwned\\007.csv')\"", 1,
            "contours: \\x1b]0;pwned\\x07.csv: cannot open: No such file or directory"),
        Case(
            "newline in a file name", "$C export \"$(printf 'new\\nline.csv')\"", 1,
            "contours: new\\nline.csv: cannot open"),
        Case(
            "escape sequence in a value", "$C export p.csv --resolution \"$(printf '\\033[2J')\"", 2,
            "contours: bad value '\\x1b[2J' for --resolution"),
        Case("newline in a value", "$C export p.csv --lat \"$(printf 'a\\nb')\"", 1, "a\\nb"),
        Case("newline in --at", "$C hit old.geojson --at \"$(printf '1\\n2')\"", 2, "bad value '1\\n2' for --at"),
        Case(
            "planar points beyond any bin size",
            "printf 'x,y\\n-1.7e308,-1.7e308\\n1.7e308,1.7e308\\n' | $C bin --planar -", 1,
            "contours: 2 of 2 points have x or y beyond ±4.49e+307, too large to bin at any size"),
        Case(
            "planar cells too small to draw", "printf 'x,y\\n0,0\\n1e-300,1e-300\\n' | $C bin --planar - --size 1e-300",
            1,
            "is too small to draw as geojson with 6 decimals (the cells would vanish); use a larger --size or --format csv"
        ),
        Case(
            "automatic bin size is drawable",
            "printf 'lat,lon\\n10,10\\n10.000000000001,10\\n' | $C bin - | grep -q Polygon", 0,
            ""),
        Case(
            "planar cells too small to draw, CSV keeps them",
            "test $(printf 'x,y\\n0,0\\n1e-300,1e-300\\n' | $C bin --planar - --format csv 2>/dev/null | wc -l) = 3", 0,
            ""),
        Case(
            "bin size below exact cell numbers",
            "printf 'lat,lon\\n-40,-100\\n40,100\\n' | $C bin - --size 1e-6 --format csv", 2,
            "bad value '1e-6' for --size: 2 of 2 points lie too far from the origin to number cells this small exactly; the smallest size the data allows is"
        ),
        Case(
            "include-empty beyond the limit",
            "printf 'lat,lon\\n-40,-100\\n40,100\\n' | $C bin - --size 1 --include-empty", 1,
            "contours: --include-empty: including empty cells would make about"),
        Case(
            "include-empty with --max-cells",
            "printf 'lat,lon\\n-40,-100\\n40,100\\n' | $C bin - --size 1 --include-empty --max-cells 10", 1,
            "(limit 10); use a larger bin size, or raise --max-cells"),
        Case(
            "bin size note and a failure", "$C bin p.csv -o /dev/full", 1,
            "contours: cannot write /dev/full: No space left on device"),
        Case(
            "radius beyond any grid", "$C export p.csv --radius 1e308 -o old.geojson", 2,
            "contours: bad value '1e308' for --radius: with --padding 1.5 the radius may be at most 3e+307 m"),
        Case(
            "padding beyond any grid", "$C export p.csv --radius 1000 --padding 1e308 -o old.geojson", 2,
            "contours: bad value '1e308' for --padding: with --radius 1000 the padding may be at most 4.49e+304"),
        Case(
            "padding beyond any grid, auto radius", "$C export p.csv --padding 1e308 -o old.geojson", 1,
            "with padding 1e+308 makes the grid wider than the largest number (about 1.8e308): the radius must be at most"
        ),
        Case(
            "custom levels outside the grid's range",
            "$C export p.csv --spacing custom:3,2,1 -o new.geojson; s=$?; rm -f new.geojson; exit $s", 0,
            "contours: no custom level (3, 2, 1) lies inside the grid's range 0 … "),
        Case(
            "cut-off last row through a pipe", "printf 'lat,lon,depth\\n1,2,3\\n2,2.' | $C export - -o old.geojson", 1,
            "contours: stdin:3:depth: last row has 2 fields but the header has 3, and no line end: the input looks cut off"
        ),
        Case(
            "concatenated GeoJSON",
            "printf '{\"type\":\"Point\",\"coordinates\":[1,2]}{\"type\":\"Point\",\"coordinates\":[1,2]}' | $C export - -o old.geojson",
            1,
            "contours: stdin:1:37: a second JSON value on the line where the previous one ended"),
        Case(
            "one H3 cell of resolution 15",
            "printf 'h3,count\\n8f283082aa20c00,1\\n' > c.csv; $C export c.csv --h3 h3 -o new.geojson; s=$?; rm -f c.csv new.geojson; exit $s",
            0,
            "contours: c.csv: only one point; the map is a single kernel around it"),
        Case(
            "info names the H3 input",
            "printf 'h3,count\\n8f283082aa20c00,1\\n' > c.csv; $C info c.csv --h3 h3 2>/dev/null | grep -qx 'input *c.csv (CSV: h3: h3, weight: count)'; s=$?; rm -f c.csv; exit $s",
            0, ""),
        Case(
            "bad H3 row names the input",
            "printf 'h3,count\\nzz,1\\n' > c.csv; $C export c.csv --h3 h3 -o old.geojson; s=$?; rm -f c.csv; exit $s",
            1,
            "contours: c.csv:2:h3:"),
        // Issue 32: streams as INPUT and -o naming a descriptor.
        Case("process substitution as INPUT", "$C info <(cat p.csv) | grep -q '3 used of 3 read'", 0, ""),
        Case("/dev/stdin as INPUT", "cat p.csv | $C info /dev/stdin | grep -q '3 used of 3 read'", 0, ""),
        Case(
            "FIFO as INPUT", "mkfifo f; cat p.csv > f & $C info f | grep -q '3 used of 3 read'; s=$?; rm -f f; exit $s",
            0, ""),
        Case(
            "-o /dev/stdout after a header",
            "{ echo HEADER; $C export p.csv -o /dev/stdout 2>/dev/null; } > got; test \"$(head -1 got)\" = HEADER && grep -q Feature got; s=$?; rm -f got; exit $s",
            0, ""),
        Case(
            "-o /dev/fd/1 appended to a log",
            "echo OLD > got; $C export p.csv -o /dev/fd/1 >> got 2>/dev/null; test \"$(head -1 got)\" = OLD && grep -q Feature got; s=$?; rm -f got; exit $s",
            0, ""),
        Case(
            "-o a descriptor that is not open", "$C export p.csv -o /dev/fd/9", 1,
            "contours: cannot write /dev/fd/9: descriptor 9 is not open"),
        Case(
            "file-size limit", "ulimit -f 1; $C grid p.csv --resolution 600 -o big.json", 1,
            "contours: cannot write big.json: the file-size limit was reached (ulimit -f)"),
        Case(
            "two latitude columns", "printf 'lat,lat,lon\\n1,2,3\\n' | $C info -", 1,
            "contours: stdin:1:lat: 2 columns could be the latitude: 'lat' (column 1), 'lat' (column 2); pick one with --lat NAME"
        ),
        Case(
            "lat, LON and lon", "printf 'lat,LON,lon\\n1,2,3\\n' | $C info -", 1,
            "2 columns could be the longitude: 'LON' (column 2), 'lon' (column 3); pick one with --lon NAME"),
        Case(
            "byte 0xFF shown as itself", "printf 'lat,lon\\n1\\377,2\\n' | $C info -", 1,
            "contours: stdin:2:lat: latitude is not a number: \"1\\xff\""),
        Case(
            "equirectangular past the pole",
            "printf 'lat,lon\\n90,0\\n89.999,50\\n' | $C export - --projection equirectangular -o old.geojson", 1,
            "past the pole, in the equirectangular projection"),
        Case(
            "web mercator round the globe",
            "printf 'lat,lon\\n0,0\\n10,90\\n-10,180\\n5,-90\\n' | $C export - --projection web-mercator --radius 5000km -o old.geojson",
            1, "degrees of longitude, more than the globe, in the web-mercator projection"),
        Case(
            "interval with a far offset",
            "$C export p.csv --interval 1 --offset 1e16 -o new.geojson; s=$?; rm -f new.geojson; exit $s", 0,
            "contours: no level of --interval 1 --offset 1e+16 lies inside the grid's range"),
        Case(
            "too many interval levels", "$C export p.csv --interval 1e-12 -o old.geojson", 2,
            "(at most 1000, as --levels); use a larger interval"),
        Case(
            "ESRI grid with extra values",
            "printf 'ncols 2\\nnrows 2\\nxllcorner 0\\nyllcorner 0\\ncellsize 1\\n1 2\\n3 4\\n5\\n' > x.asc; $C export x.asc -o old.geojson; s=$?; rm -f x.asc; exit $s",
            1, "contours: x.asc: more values than 2 × 2 = 4 cells (value 5 is '5'); are ncols and nrows right?"),
        Case(
            "hit on a bare Feature",
            "printf '%s' '{\"type\":\"Feature\",\"properties\":{\"level\":0,\"threshold\":1},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}}' > c.geojson; $C hit c.geojson --planar --at 0.5,0.2; s=$?; rm -f c.geojson; exit $s",
            1, "expected a FeatureCollection of contour features (as 'contours export' writes), found a bare Feature"),
        Case(
            "hit on an open ring",
            "printf '%s' '{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"level\":0,\"threshold\":1},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,1]]]}}]}' > c.geojson; $C hit c.geojson --planar --at 0.5,0.2; s=$?; rm -f c.geojson; exit $s",
            1, "a ring must end at the position it starts from (RFC 7946: a closed ring)"),
        Case(
            "hit without thresholds",
            "printf '%s' '{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"level\":0},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}}]}' > c.geojson; $C hit c.geojson --planar --at 0.5,0.2; s=$?; rm -f c.geojson; exit $s",
            1, "contour feature (level 0) without a numeric 'threshold' property")
    ]

    @Test(arguments: cases)
    func fault(_ c: Case) throws {
        let folder = try ScratchFolder()
        try folder.write("p.csv", CLIFaultTests.points)
        try folder.write("old.geojson", "previous\n")
        let executable = try #require(Tool.executable, "build the tool first")
        let run = try Tool.run(
            ["-c", "C='\(executable.path)'; " + c.script], temporary: folder.path,
            directory: folder.path, shell: true)
        #expect(!run.signalled, "\(c.name): crashed")
        #expect(run.status == c.status, "\(c.name): status \(run.status), stderr \(run.stderr)")
        if c.message.isEmpty {
            #expect(run.stderr.isEmpty || c.status == 0, "\(c.name): \(run.stderr)")
        } else {
            #expect(run.stderr.contains(c.message), "\(c.name): \(run.stderr)")
        }
        #expect(run.stderrLines.count <= 1, "\(c.name): \(run.stderr)")
        #expect(folder.read("p.csv") == CLIFaultTests.points, "\(c.name): the input changed")
        #expect(folder.read("old.geojson") == "previous\n", "\(c.name): the old output changed")
        #expect(Set(folder.contents()) == ["old.geojson", "p.csv"], "\(c.name): left \(folder.contents())")
    }
}
