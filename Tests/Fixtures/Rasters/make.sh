#!/usr/bin/env bash
# Makes the raster fixtures of RasterReaderTests once, with GDAL 3.6
# (gdal-bin) and rasterio; the files are committed, so CI needs neither.
# Run from this folder: ./make.sh
set -euo pipefail
PY="${PY:-python3}"
# The source: a 40 x 30 field of two bumps and a dip, values -20 ... 1000,
# whole numbers (so every integer type holds them exactly), NoData -9999 at
# two cells. ESRI ASCII, row 0 the top.
"$PY" - <<'PYEOF'
import math
w, h = 40, 30
rows = []
for r in range(h):
    row = []
    for c in range(w):
        x, y = c + 0.5, h - r - 0.5
        v = 1000 * math.exp(-((x - 12) ** 2 + (y - 18) ** 2) / 40) + 600 * math.exp(-((x - 28) ** 2 + (y - 10) ** 2) / 25)
        v -= 300 * math.exp(-((x - 14) ** 2 + (y - 17) ** 2) / 4)
        v = round(v) - 20
        if (r, c) in ((0, 0), (15, 39)):
            v = -9999
        row.append(str(v))
    rows.append(" ".join(row))
open("source.asc", "w").write(f"ncols {w}\nnrows {h}\nxllcorner 0\nyllcorner 0\ncellsize 1\nNODATA_value -9999\n" + "\n".join(rows) + "\n")
PYEOF
T="gdal_translate -q"
# Geographic: 0.1 degree pixels, upper-left corner at 10 E, 50 N.
$T -ot Int16 -a_srs EPSG:4326 -a_ullr 10 50 14 47 -co COMPRESS=DEFLATE -co PREDICTOR=2 source.asc int16_deflate_4326.tif
# Web mercator, tiled 16 x 16, LZW with the floating-point predictor. (Not big-endian: GDAL 3.6
# itself reads its own big-endian predictor-3 files as zeros.)
$T -ot Float32 -a_srs EPSG:3857 -a_ullr 1000000 6000000 1400000 5700000 -co TILED=YES -co BLOCKXSIZE=16 -co BLOCKYSIZE=16 \
   -co COMPRESS=LZW -co PREDICTOR=3 source.asc float32_lzw_3857_tiled.tif
# Big-endian ("MM") Int16, LZW with the horizontal predictor.
$T -ot Int16 -a_srs EPSG:4326 -a_ullr 10 50 14 47 -co COMPRESS=LZW -co PREDICTOR=2 -co ENDIANNESS=BIG source.asc int16_lzw_bigendian_4326.tif
# UTM 33N, uncompressed strips of 7 rows.
$T -ot Float32 -a_srs EPSG:32633 -a_ullr 400000 5600000 440000 5570000 -co COMPRESS=NONE -co BLOCKYSIZE=7 source.asc float32_none_utm33.tif
# UTM 33S as Int32, DEFLATE, BigTIFF.
$T -ot Int32 -a_srs EPSG:32733 -a_ullr 400000 6000000 440000 5970000 -co COMPRESS=DEFLATE -co BIGTIFF=YES source.asc int32_deflate_utm33s_bigtiff.tif
# Float64, LZW, strips.
$T -ot Float64 -a_srs EPSG:4326 -a_ullr 10 50 14 47 -co COMPRESS=LZW source.asc float64_lzw_4326.tif
# Unsigned 16-bit, PackBits, no CRS (pixel coordinates).
$T -ot UInt16 -scale -9999 1000 0 11019 -a_nodata 0 -co COMPRESS=PACKBITS source.asc uint16_packbits_nocrs.tif
# Byte, DEFLATE, tiled; values clipped to 0...255 by -scale.
$T -ot Byte -scale -20 1000 1 255 -a_nodata 0 -a_srs EPSG:4326 -a_ullr 10 50 14 47 -co TILED=YES -co BLOCKXSIZE=16 -co BLOCKYSIZE=16 -co COMPRESS=DEFLATE source.asc byte_deflate_4326_tiled.tif
# Refused kinds: an unknown compression, a CRS the tool cannot place, a rotated geotransform, truncated and bad files.
$T -ot Float32 -a_srs EPSG:4326 -a_ullr 10 50 14 47 -co COMPRESS=ZSTD source.asc zstd.tif
$T -ot Float32 -a_srs EPSG:27700 -a_ullr 400000 300000 440000 270000 source.asc bng_27700.tif
"$PY" - <<'PYEOF'
import rasterio
from affine import Affine
with rasterio.open("source.asc") as src:
    data = src.read(1)
    profile = dict(driver="GTiff", width=src.width, height=src.height, count=1, dtype="float32", crs="EPSG:4326",
                   transform=Affine(0.1, 0.02, 10, 0.01, -0.1, 50))
with rasterio.open("rotated.tif", "w", **profile) as dst:
    dst.write(data.astype("float32"), 1)
PYEOF
head -c 700 float32_none_utm33.tif > truncated.tif
printf 'this is not a TIFF\n' > bad.tif
# ESRI ASCII with a .prj (UTM 33N), as GDAL writes it.
$T -of AAIGrid float32_none_utm33.tif utm33.asc
rm -f utm33.asc.aux.xml *.aux.xml
