import Foundation

/// A point of a disc splat as the sort into row bands keeps it: its
/// centre and its radius, and whatever else its splat needs (``DiscPoint``,
/// ``BandPoint``). The sort writes every entry once to a place of its
/// band and the splat reads it once, so the fewer bytes, the less both
/// wait on memory.
protocol DiscCentre: BitwiseCopyable {
    var x: Double { get }
    var y: Double { get }
    /// The point's radius; `common` where every point has that one.
    func radius(or common: Double) -> Double
}

/// What the disc splat keeps of a point: its centre, how much (the weight
/// times the point's normalisation, see
/// ``DiscSplat/entry(at:x:y:weight:value:)``), and only what else the fill
/// needs.
protocol DiscPoint: DiscCentre {
    init(x: Double, y: Double, weight: Double, value: Double, radius: Double)
    var weight: Double { get }
    /// The point's value (the mean estimator); 0 where it is not kept.
    var value: Double { get }
}

/// A point of a splat with one radius for all, density only: 24 bytes.
struct DiscEntry: DiscPoint {
    var x: Double, y: Double, weight: Double

    @inline(__always) init(x: Double, y: Double, weight: Double, value: Double, radius: Double) {
        (self.x, self.y, self.weight) = (x, y, weight)
    }

    var value: Double { 0 }
    @inline(__always) func radius(or common: Double) -> Double { common }
}

/// A point with its own radius, density only: 32 bytes.
struct SizedDiscEntry: DiscPoint {
    var x: Double, y: Double, weight: Double, radius: Double

    @inline(__always) init(x: Double, y: Double, weight: Double, value: Double, radius: Double) {
        (self.x, self.y, self.weight, self.radius) = (x, y, weight, radius)
    }

    var value: Double { 0 }
    @inline(__always) func radius(or common: Double) -> Double { radius }
}

/// A point with its own radius and its value (the mean): 40 bytes.
struct ValuedDiscEntry: DiscPoint {
    var x: Double, y: Double, weight: Double, value: Double, radius: Double

    @inline(__always) init(x: Double, y: Double, weight: Double, value: Double, radius: Double) {
        (self.x, self.y, self.weight, self.value, self.radius) = (x, y, weight, value, radius)
    }

    @inline(__always) func radius(or common: Double) -> Double { radius }
}

/// The rules every disc splat sorts its points by (``DiscSplat``,
/// ``BandSplat``).
enum DiscRules {
    /// The node a disc of `reach` around (x, y) belongs to, or nil when its
    /// box misses the grid's: every point whose disc reaches a node, and a
    /// few whose box ends short of the next node (their deposit then
    /// writes nothing). Four comparisons, where the spans of the deposit
    /// would take four roundings.
    @inline(__always) static func anchor(
        x: Double, y: Double, reach: Double, xAxis: GaussianAxis, yAxis: GaussianAxis
    ) -> (row: Int, column: Int)? {
        guard reaches(x: x, y: y, reach: reach, xAxis: xAxis, yAxis: yAxis) else { return nil }
        // The disc reaches the grid, so the centre is within its reach of it.
        return (
            NodeSpan.nearest(to: yAxis.index(of: y), count: yAxis.count),
            NodeSpan.nearest(to: xAxis.index(of: x), count: xAxis.count)
        )
    }

    /// Whether ``anchor(x:y:reach:xAxis:yAxis:)`` gives a node: the four
    /// comparisons alone.
    @inline(__always) static func reaches(
        x: Double, y: Double, reach: Double, xAxis: GaussianAxis, yAxis: GaussianAxis
    ) -> Bool {
        yAxis.index(of: y + reach) >= 0 && yAxis.index(of: y - reach) <= Double(yAxis.count - 1)
            && xAxis.index(of: x + reach) >= 0 && xAxis.index(of: x - reach) <= Double(xAxis.count - 1)
    }

    /// The weight a point of radius r deposits when the finish normalises
    /// by r₀ (nil: raw values, the weight itself): w (r₀ / r)², so that the
    /// finish's c / (π r₀²) gives the point its own c / (π r²).
    @inline(__always) static func weight(_ w: Double, radius r: Double, normalisingRadius r0: Double?) -> Double {
        guard let r0 else { return w }
        return w * ((r0 / r) * (r0 / r))
    }
}

/// The exact splat of a radial kernel with a radius per point (or one for
/// all): every node within the point's reach gets w × shape((d / r)²),
/// computed from the distance itself, so the finite kernels are exact at
/// every node (a node at exactly d = r included) and the Gaussian is
/// exact to its 5σ truncation.
///
/// Per point: the squared x offsets of the columns it reaches, once; then
/// per row the chord of the disc, one contiguous loop of a multiply-add and
/// the shape that the compiler specialises for each ``RadialShape`` and
/// vectorises. A separable shape (the Gaussian) is taken once per column
/// and once per row, each node their product: no exponential per node.
/// O(N · (reach/δ)²), memory one grid.
///
/// Radii per point carry the density's normalisation in the weight: the
/// deposit adds w (r₀ / rᵢ)² × shape, so a finish that scales every node
/// by c / (π r₀²) gives each point its own c / (π rᵢ²). Raw values keep w.
/// `Entry` keeps what the fill needs of a point (``DiscPoint``): a radius
/// only when points have their own, a value only for the mean.
struct DiscSplat<Shape: RadialShape, Entry: DiscPoint>: RowDepositor {
    let shape: Shape
    /// Node positions (the radius-free parts of the axis are used).
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// The largest radius any point has.
    let maximumRadius: Double
    /// The radius the finish normalises by (r₀ above); nil for raw values.
    let normalisingRadius: Double?
    /// The radius of every point, when they have their own.
    let radii: UnsafePointer<Double>?
    /// The radius of every point when `radii` is nil.
    let radius: Double
    /// Σ w shape, row-major.
    let density: UnsafeMutablePointer<Double>
    /// Σ v w shape, or nil.
    let weightedValue: UnsafeMutablePointer<Double>?

    private var maximumReach: Double { shape.reach * maximumRadius }

    /// Column spans up to this many nodes are splatted whole on every row.
    static var narrow: Int { 64 }

    /// The squared x offsets of a point's columns, and for a separable
    /// shape its value at each as well.
    var scratchCount: Int {
        Int(min(2 * maximumReach / xAxis.step + 3, Double(xAxis.count))) * (shape.isSeparable ? 2 : 1)
    }

    var pollInterval: Int {
        let taps = (2 * maximumReach / xAxis.step + 1) * (2 * maximumReach / yAxis.step + 1)
        return Int(min(max(200_000 / taps, 1), 4096))
    }

    var reachRows: Int { Int(min(maximumReach / yAxis.step + 1, Double(yAxis.count))) + 1 }

    @inline(__always) func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        DiscRules.anchor(x: px, y: py, reach: maximumReach, xAxis: xAxis, yAxis: yAxis)
    }

    @inline(__always) func entry(x: Double, y: Double, weight: Double, value: Double) -> Entry {
        Entry(x: x, y: y, weight: weight, value: value, radius: radius)
    }

    @inline(__always) func entry(at i: Int, x: Double, y: Double, weight: Double, value: Double) -> Entry {
        guard let radii else { return entry(x: x, y: y, weight: weight, value: value) }
        let r = radii[i]
        let w = DiscRules.weight(weight, radius: r, normalisingRadius: normalisingRadius)
        return Entry(x: x, y: y, weight: w, value: value, radius: r)
    }

    @inline(__always) func deposit(_ p: Entry, scratch: UnsafeMutablePointer<Double>) {
        let w = p.weight
        guard w != 0 else { return }
        let r = p.radius(or: radius), reach = shape.reach * r
        let reachSquared = reach * reach
        let xs = xAxis.span(of: p.x, reach: reach), ys = yAxis.span(of: p.y, reach: reach)
        guard xs.lo <= xs.hi, ys.lo <= ys.hi else { return }
        let inverseRadiusSquared = 1 / (r * r)
        let columns = xAxis.count
        // Squared x offsets of the reached columns.
        let tx = scratch
        for c in xs.lo...xs.hi {
            let d = xAxis.origin + Double(c) * xAxis.step - p.x
            tx[c - xs.lo] = d * d
        }
        let shape = self.shape
        if shape.fadesAtEdge, weightedValue == nil {
            // u² in the scratch, and per row the shape of max(1 − u², 0):
            // no edge test, a loop the compiler vectorises.
            for k in 0...(xs.hi - xs.lo) { tx[k] *= inverseRadiusSquared }
            let width = xs.hi - xs.lo + 1
            if width <= DiscSplat.narrow {
                // Narrow discs: every row over the whole column span. The
                // nodes beyond the chord add max(…, 0) = 0; cheaper than
                // working the chord out per row.
                var dst = density + ys.lo * columns + xs.lo
                for row in ys.lo...ys.hi {
                    let dy = yAxis.origin + Double(row) * yAxis.step - p.y
                    let a = 1 - dy * dy * inverseRadiusSquared
                    if a > 0 {
                        for k in 0..<width { dst[k] += w * shape.value(oneMinus: max(a - tx[k], 0)) }
                    }
                    dst += columns
                }
                return
            }
            // Wide discs, chord by chord: the chord's ends from the
            // point's fractional column, widened by a node each way (the
            // shape's max(…, 0) makes the nodes past the edge add 0).
            let centre = xAxis.index(of: p.x), radiusInColumns = r / xAxis.step
            for row in ys.lo...ys.hi {
                let dy = yAxis.origin + Double(row) * yAxis.step - p.y
                let a = 1 - dy * dy * inverseRadiusSquared
                guard a >= 0 else { continue }
                let half = a.squareRoot() * radiusInColumns
                // Clamped before converting: a far point must not overflow Int.
                let upper = Double(xAxis.count)
                let c0 = max(Int(min(max(centre - half, -1), upper)), xs.lo)
                let c1 = min(Int(min(max(centre + half, -1), upper)) + 1, xs.hi)
                guard c0 <= c1 else { continue }
                let src = tx + (c0 - xs.lo)
                let dst = density + row * columns + c0
                for k in 0..<(c1 - c0 + 1) {
                    dst[k] += w * shape.value(oneMinus: max(a - src[k], 0))
                }
            }
            return
        }
        if shape.isSeparable {
            depositSeparable(p, w: w, xs: xs, ys: ys, inverseRadiusSquared: inverseRadiusSquared, scratch: scratch)
            return
        }
        for row in ys.lo...ys.hi {
            guard let (dy2, c0, c1) = chord(row: row, of: p, reachSquared: reachSquared, xs: xs) else { continue }
            let src = tx + (c0 - xs.lo)
            let dst = density + row * columns + c0
            let n = c1 - c0 + 1
            if let weightedValue {
                let dstV = weightedValue + row * columns + c0
                let wv = w * p.value
                for k in 0..<n {
                    let d2 = src[k] + dy2
                    let s = d2 <= reachSquared ? shape.value(d2 * inverseRadiusSquared) : 0
                    dst[k] += w * s
                    dstV[k] += wv * s
                }
            } else {
                for k in 0..<n {
                    let d2 = src[k] + dy2
                    let s = d2 <= reachSquared ? shape.value(d2 * inverseRadiusSquared) : 0
                    dst[k] += w * s
                }
            }
        }
    }

    /// Row `row`'s squared offset from `p` and the columns of `xs` its
    /// chord of the reach may hold, widened by a node each way (the
    /// callers' exact test is d² ≤ reach²); nil when the row holds none.
    @inline(__always) private func chord(row: Int, of p: Entry, reachSquared: Double, xs: (lo: Int, hi: Int))
        -> (dy2: Double, c0: Int, c1: Int)?
    {
        let dy = yAxis.origin + Double(row) * yAxis.step - p.y
        let dy2 = dy * dy
        let chordSquared = reachSquared - dy2
        guard chordSquared >= 0 else { return nil }
        let cs = xAxis.span(of: p.x, reach: chordSquared.squareRoot() + xAxis.step)
        let c0 = max(cs.lo, xs.lo), c1 = min(cs.hi, xs.hi)
        return c0 <= c1 ? (dy2, c0, c1) : nil
    }

    /// The deposit of a separable shape: its value at every reached column
    /// once (after their squared offsets in the scratch) and at every row
    /// once, then per node within the reach a product, where the shape of
    /// u² alone would be an exponential per node. The nodes are those of
    /// the general loop (d² ≤ reach², tested on the squared offsets); each
    /// value is the product of the two factors, within a few ulps of the
    /// shape of their sum.
    @inline(__always) private func depositSeparable(
        _ p: Entry, w: Double, xs: (lo: Int, hi: Int), ys: (lo: Int, hi: Int), inverseRadiusSquared: Double,
        scratch: UnsafeMutablePointer<Double>
    ) {
        let reach = shape.reach * p.radius(or: radius)
        let reachSquared = reach * reach
        let width = xs.hi - xs.lo + 1
        let tx = scratch, gx = scratch + width
        for k in 0..<width { gx[k] = shape.value(tx[k] * inverseRadiusSquared) }
        let columns = xAxis.count
        for row in ys.lo...ys.hi {
            guard let (dy2, c0, c1) = chord(row: row, of: p, reachSquared: reachSquared, xs: xs) else { continue }
            let src = tx + (c0 - xs.lo), factor = gx + (c0 - xs.lo)
            let dst = density + row * columns + c0
            let n = c1 - c0 + 1
            let wy = w * shape.value(dy2 * inverseRadiusSquared)
            if let weightedValue {
                let dstV = weightedValue + row * columns + c0
                let wvy = wy * p.value
                for k in 0..<n {
                    let s = src[k] + dy2 <= reachSquared ? factor[k] : 0
                    dst[k] += wy * s
                    dstV[k] += wvy * s
                }
            } else {
                for k in 0..<n {
                    let s = src[k] + dy2 <= reachSquared ? factor[k] : 0
                    dst[k] += wy * s
                }
            }
        }
    }
}
