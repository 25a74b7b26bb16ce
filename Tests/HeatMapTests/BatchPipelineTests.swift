import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The producer thread of the density passes: order, and errors from
/// either side, as a serial loop would have them.
@Suite struct BatchPipelineTests {
    struct Stop: Error, Equatable { let at: Int }

    @Test func itemsArriveInOrder() throws {
        var got: [Int] = []
        try BatchPipeline.run(
            produce: { yield in
                for i in 0..<1_000 { try yield(i) }
            }, consume: { got.append($0) })
        #expect(got == Array(0..<1_000))
    }

    @Test func aProducersErrorComesAfterItsItems() {
        var got: [Int] = []
        #expect(throws: Stop(at: 50)) {
            try BatchPipeline.run(
                produce: { yield in
                    for i in 0..<50 { try yield(i) }
                    throw Stop(at: 50)
                }, consume: { got.append($0) })
        }
        #expect(got == Array(0..<50))
    }

    @Test func aConsumersErrorStopsTheProducer() {
        var made = 0
        let lock = NSLock()
        #expect(throws: Stop(at: 3)) {
            try BatchPipeline.run(
                produce: { yield in
                    for i in 0..<1_000_000 {
                        try yield(i)
                        lock.withLock { made += 1 }
                    }
                },
                consume: { i in
                    if i == 3 { throw Stop(at: 3) }
                })
        }
        // The producer ran at most a few items ahead, then stopped.
        #expect(lock.withLock { made } <= 3 + BatchPipeline.depth + 1)
    }
}
