import HeatMapCore

extension TIFFDirectoryBuilder {
    /// The GeoTIFF tags that place the grid: pixel scale, the tie point of
    /// the upper-left corner (pixels are areas, so half a cell out from the
    /// first node; `eastingOffset` shifts a CRS written with its EPSG code)
    /// and, with a CRS, its GeoKey directory.
    mutating func setGeoreferencing(_ g: GridGeometry, crs: RasterCRS?, eastingOffset: Double) {
        set(33550, .doubles([g.dx, g.dy, 0]))
        set(33922, .doubles([0, 0, 0, g.x0 - g.dx / 2 + eastingOffset, g.y0 + (Double(g.rows) - 0.5) * g.dy, 0]))
        if let crs {
            let keys = GeoKeys(crs: crs).encoded()
            set(34735, .shorts(keys.directory))
            if !keys.doubles.isEmpty { set(34736, .doubles(keys.doubles)) }
            if !keys.ascii.isEmpty { set(34737, .ascii(keys.ascii)) }
        }
    }
}
