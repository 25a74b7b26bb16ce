import Foundation
import HeatMap

/// The app path as an app runs it on its main actor: `try await compute`,
/// then the polygons read (as a view drawing them would) and a tap
/// answered, while a ping sent every 4 ms measures how long the main actor
/// could not run.
@MainActor
enum AppPath {
    struct Figures {
        /// The longest a ping waited beyond its 4 ms (seconds), and the 99th percentile.
        /// On a loaded machine this includes waiting for a core.
        var longestStall = 0.0
        /// The CPU time of the app's own work on the main actor after
        /// `compute` returned (reading the polygons, the tap; seconds): what
        /// stalls the main actor, which a busy machine cannot inflate.
        var busy = 0.0
        var stall99 = 0.0
        var pings = 0
        /// The first `contours(containing:)` after `compute` (seconds).
        var firstTap = 0.0
        /// Reading `contours` and walking its rings' counts (seconds).
        var read = 0.0
        var polygons = 0
        var vertices = 0
    }

    /// Runs the path; `tap` is the coordinate asked about.
    static func run(
        _ readings: [StormReading], configuration: HeatMapConfiguration, tap: LocationCoordinate2D,
        clock: StageClock
    ) async throws -> (HeatMapContours, Figures) {
        var figures = Figures()
        let ping = Ping()
        let pinger = Task { @MainActor in await ping.run() }
        defer { pinger.cancel() }
        let contours = try await HeatMapContours.compute(
            from: readings, configuration: configuration,
            progress: { clock.note($0) })
        clock.mark("read")
        let cpu = ThreadClock.current
        var start = DispatchTime.now().uptimeNanoseconds
        let polygons = contours.contours
        figures.polygons = polygons.count
        figures.read = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        clock.mark("tap")
        start = DispatchTime.now().uptimeNanoseconds
        let hit = contours.contours(containing: tap)
        figures.firstTap = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        withExtendedLifetime(hit) {}
        figures.busy = ThreadClock.current - cpu
        // The bench's own tally of the vertices (a walk over every ring), off the main actor.
        figures.vertices = await Task.detached {
            polygons.reduce(0) { $0 + $1.coordinates.count + $1.interiorPolygons.reduce(0) { $0 + $1.count } }
        }.value
        // One more ping after the last step, so a stall at the end is seen.
        try? await Task.sleep(nanoseconds: 8_000_000)
        pinger.cancel()
        await pinger.value
        figures.longestStall = ping.longest
        figures.stall99 = ping.percentile(0.99)
        figures.pings = ping.waits.count
        return (contours, figures)
    }

    /// The longest wait of the same ping over half a second with nothing
    /// else to do: what the machine alone costs a waking thread (seconds).
    static func idleStall() async -> Double {
        let idle = Ping()
        let idler = Task { @MainActor in await idle.run() }
        try? await Task.sleep(nanoseconds: 500_000_000)
        idler.cancel()
        await idler.value
        return idle.longest
    }

    /// A main-actor task that wakes every 4 ms and notes how late it woke.
    @MainActor final class Ping {
        /// How late each wake was (seconds).
        var waits: [Double] = []
        var longest: Double { waits.max() ?? 0 }

        func percentile(_ q: Double) -> Double {
            let sorted = waits.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))]
        }

        func run() async {
            let period: UInt64 = 4_000_000
            while !Task.isCancelled {
                let asked = DispatchTime.now().uptimeNanoseconds
                do { try await Task.sleep(nanoseconds: period) } catch { return }
                let late = Double(DispatchTime.now().uptimeNanoseconds - asked - period) / 1e9
                waits.append(late)
            }
        }
    }
}
