import Dispatch
@testable import ImageDecoding
import Synchronization
import XCTest

/// The block a decode gives back is the next decode's (for the same use), unless it is too
/// large to keep; decodes running at once never get the same block.
final class ReusedBlockTests: XCTestCase {
    /// Empties the slot of `use` of whatever an earlier test left there (a block over the limit
    /// takes the waiting one and is freed itself).
    private func drain(_ use: ReusedBlock.Use) {
        _ = ReusedBlock(capacity: ReusedBlock.keptLimit + 1, for: use)
    }

    func testTheBlockGivenBackIsTheNextOnesWhenLargeEnough() {
        drain(.sampleRings)
        let address = ReusedBlock(capacity: 4_000, for: .sampleRings).memory
        let second = ReusedBlock(capacity: 1_000, for: .sampleRings)
        XCTAssertEqual(second.memory, address)
        XCTAssertEqual(second.capacity, 4_000)
    }

    func testEachUseHasItsOwnSlot() {
        drain(.sampleRings)
        drain(.huffmanTables)
        _ = ReusedBlock(capacity: 4_000, for: .sampleRings)
        XCTAssertEqual(ReusedBlock(capacity: 10, for: .huffmanTables).capacity, 10)
        XCTAssertEqual(ReusedBlock(capacity: 10, for: .sampleRings).capacity, 4_000)
    }

    func testASmallerBlockIsReplacedByOneOfTheCapacityAsked() {
        drain(.sampleRings)
        _ = ReusedBlock(capacity: 100, for: .sampleRings)
        let larger = ReusedBlock(capacity: 50_000, for: .sampleRings)
        XCTAssertEqual(larger.capacity, 50_000)
        let bytes = larger.bytes(from: 0, count: larger.capacity)
        bytes.update(repeating: 7)
        XCTAssertEqual(bytes.last, 7)
    }

    func testBlocksOverTheLimitAreFreedNotKept() {
        drain(.sampleRings)
        _ = ReusedBlock(capacity: ReusedBlock.keptLimit + 1, for: .sampleRings)
        XCTAssertEqual(ReusedBlock(capacity: 10, for: .sampleRings).capacity, 10)
        drain(.sampleRings)
        _ = ReusedBlock(capacity: ReusedBlock.keptLimit, for: .sampleRings)
        XCTAssertEqual(ReusedBlock(capacity: 10, for: .sampleRings).capacity, ReusedBlock.keptLimit,
                       "a block at the limit is kept")
    }

    func testDecodesAtOnceGetDistinctBlocks() {
        drain(.sampleRings)
        let holding = ReusedBlock(capacity: 64, for: .sampleRings)
        let other = ReusedBlock(capacity: 64, for: .sampleRings)
        XCTAssertNotEqual(holding.memory, other.memory)
        // Many threads taking and giving back: each fills its block with its own value and finds
        // it unchanged, so no block is ever in two hands.
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<2_000 {
                let block = ReusedBlock(capacity: 256 + round % 3 * 512, for: .sampleRings)
                let bytes = block.bytes(from: 0, count: block.capacity)
                let value = UInt8(truncatingIfNeeded: thread &* 31 &+ round)
                bytes.update(repeating: value)
                if bytes.contains(where: { $0 != value }) { failures.add(1, ordering: .relaxed) }
            }
        }
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    }

    func testComponentsGetDisjointMidGreyRingsInTheLastDecodesBlock() {
        let components = [(2, 2), (1, 1), (1, 1)].enumerated().map { index, sampling in
            FrameComponent(identifier: UInt8(index + 1), horizontal: sampling.0, vertical: sampling.1, quantizationIndex: 0)
        }
        var frame = JPEGFrame(width: 100, height: 60, progressive: false, components: components)
        frame.choose(minimumBlockSize: 8)
        XCTAssertEqual(frame.mcusWide, 7)
        drain(.sampleRings)
        do {
            let dirty = ReusedBlock(capacity: 40_000, for: .sampleRings)
            dirty.bytes(from: 0, count: dirty.capacity).update(repeating: 0)
        }
        let rings = FrameComponent.useRings(components, mcuRows: 3)
        XCTAssertEqual(rings.capacity, 40_000, "the block the last decode left, samples 0")
        withExtendedLifetime(rings) {
            for (index, component) in components.enumerated() {
                XCTAssertEqual(component.rowMask + 1, index == 0 ? 64 : 32)
                XCTAssertEqual(component.samples.count, component.stride * (component.rowMask + 1))
                XCTAssertTrue(component.samples.allSatisfy { $0 == 128 })
                component.samples.update(repeating: UInt8(index))
            }
            for (index, component) in components.enumerated() {
                XCTAssertTrue(component.samples.allSatisfy { $0 == UInt8(index) }, "ring \(index) overlaps another")
            }
        }
    }
}
