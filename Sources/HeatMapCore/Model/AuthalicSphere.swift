/// The sphere geographic distances are measured on: the one with the
/// WGS 84 ellipsoid's area.
package enum AuthalicSphere {
    /// Its radius in metres (``PlaneProjection/authalicRadius``).
    package static let radius = 6_371_007.181
}
