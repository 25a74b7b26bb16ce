import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Rounded polygons packed into bytes, to hold many features in little
/// memory: each ring's positions as differences from the one before,
/// divided by the largest power of ten that divides them all (a ring held
/// at 13 decimals but rounded to 6 has seven zeros to spare), in zigzag
/// LEB128 varints (the encoding of Protocol Buffers' `sint64`). Neighbouring
/// positions of a contour lie a fraction of a grid cell apart, so a
/// position takes about 4 to 6 bytes instead of the 16 of a ``FixedPoint``.
/// Unpacking gives back the very rings packed. O(positions) both ways.
struct PackedPolygons {
    /// The bytes: the polygon count, then per polygon its ring count, and
    /// per ring its decimals, its position count, the power of ten and the
    /// differences.
    private(set) var bytes: [UInt8]

    init(_ polygons: [PrecisionRounding.Polygon]) {
        var positions = 0
        for polygon in polygons { for ring in polygon { positions += ring.points.count } }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(6 * positions + 16)
        // Varints go through a small block on the stack, appended whole
        // when it fills: no worst-case buffer the size of the feature.
        let block = 1 << 14, margin = 64
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: block) { scratch in
            let start = scratch.baseAddress!, full = start + block - margin
            var out = start
            func spill() {
                bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: out - start))
                out = start
            }
            Self.put(UInt64(polygons.count), at: &out)
            for polygon in polygons {
                Self.put(UInt64(polygon.count), at: &out)
                for ring in polygon {
                    if out >= full { spill() }
                    Self.put(Self.zigzag(Int64(ring.decimals)), at: &out)
                    Self.put(UInt64(ring.points.count), at: &out)
                    let tens = TensDivisor.largest(dividing: ring.points)
                    Self.put(UInt64(tens.exponent), at: &out)
                    var x: Int64 = 0, y: Int64 = 0
                    for p in ring.points {
                        if out >= full { spill() }
                        Self.put(Self.zigzag(tens.quotient(p.x &- x)), at: &out)
                        Self.put(Self.zigzag(tens.quotient(p.y &- y)), at: &out)
                        (x, y) = (p.x, p.y)
                    }
                }
                if out >= full { spill() }
            }
            spill()
        }
        self.bytes = bytes
    }

    /// The polygons packed.
    var polygons: [PrecisionRounding.Polygon] {
        bytes.withUnsafeBufferPointer { buffer in
            var at = buffer.baseAddress!
            var polygons: [PrecisionRounding.Polygon] = []
            let count = Int(Self.take(&at))
            polygons.reserveCapacity(count)
            for _ in 0..<count {
                let rings = Int(Self.take(&at))
                var polygon: PrecisionRounding.Polygon = []
                polygon.reserveCapacity(rings)
                for _ in 0..<rings {
                    let decimals = Int(Self.unzigzag(Self.take(&at)))
                    let n = Int(Self.take(&at))
                    let scale = TensDivisor.powers[Int(Self.take(&at))]
                    let points = [FixedPoint](unsafeUninitializedCapacity: n) { points, made in
                        var x: Int64 = 0, y: Int64 = 0
                        for k in 0..<n {
                            x &+= Self.unzigzag(Self.take(&at)) &* scale
                            y &+= Self.unzigzag(Self.take(&at)) &* scale
                            points.initializeElement(at: k, to: FixedPoint(x: x, y: y))
                        }
                        made = n
                    }
                    polygon.append(FixedRing(points: points, decimals: decimals))
                }
                polygons.append(polygon)
            }
            return polygons
        }
    }

    @inline(__always) private static func zigzag(_ v: Int64) -> UInt64 {
        UInt64(bitPattern: (v &<< 1) ^ (v >> 63))
    }

    @inline(__always) private static func unzigzag(_ u: UInt64) -> Int64 {
        Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1)
    }

    /// Seven bits a byte, lowest first; the top bit says more follow.
    @inline(__always) private static func put(_ value: UInt64, at out: inout UnsafeMutablePointer<UInt8>) {
        var v = value
        while v >= 0x80 {
            out.pointee = UInt8(truncatingIfNeeded: v) | 0x80
            out += 1
            v >>= 7
        }
        out.pointee = UInt8(truncatingIfNeeded: v)
        out += 1
    }

    @inline(__always) private static func take(_ at: inout UnsafePointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = at.pointee
            at += 1
            value |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
