@testable import Benchmarks
import XCTest

final class HarnessReadingsTests: XCTestCase {
    /// The f row's reading: 1 MiB held in 64 KiB allocations (below glibc's mmap threshold)
    /// shows in it. It read 0 while the C header's glibc test was false. The reading is the whole
    /// process's, so other threads' allocations blur it: only half must show.
    func testAllocatedBytesMovesWithLiveAllocations() throws {
        // glibc's mallinfo2 or Darwin's zone statistics (musl has neither and reads 0)
        #if os(Linux) || os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let before = ResourceUsage.allocatedBytes
        let blocks = (0..<16).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16) }
        for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 65_536) }
        let during = ResourceUsage.allocatedBytes
        for block in blocks { block.deallocate() }
        XCTAssertGreaterThanOrEqual(during - before, 16 * 65_536 / 2)
        #else
        throw XCTSkip("no allocator statistics on this platform")
        #endif
    }

    /// The f.allocations rows' reading: under a sanitizer (CI runs the suite under
    /// ThreadSanitizer) each of 1,000 class instances counts; elsewhere there is no count.
    func testAllocationCountCountsEachAllocationUnderASanitizer() throws {
        guard let before = ResourceUsage.allocationCount else {
            throw XCTSkip("allocations are counted only in a sanitizer build (run with --sanitize=thread or address)")
        }
        let boxes = (0..<1_000).map { Box($0) }
        let after = ResourceUsage.allocationCount ?? before
        XCTAssertEqual(boxes.reduce(0) { $0 + $1.value }, 499_500)
        XCTAssertGreaterThanOrEqual(after - before, 1_000)
    }

    private final class Box {
        let value: Int
        init(_ value: Int) { self.value = opaque(value) }
    }

    func testThreadCPUClockCountsWorkNotSleep() {
        let start = ThreadCPUClock.now()
        usleep(50_000)
        let slept = ThreadCPUClock.now() &- start
        XCTAssertLessThan(slept, 40_000_000, "50 ms asleep counted as CPU time")
        var sum = 0
        let busyStart = ThreadCPUClock.now()
        for value in 0..<2_000_000 { sum &+= opaque(value) }
        XCTAssertGreaterThan(ThreadCPUClock.now() &- busyStart, 0)
        XCTAssertNotEqual(sum, 0)
    }

    func testPillowFigureIsReadFromTheScriptsJSONLine() {
        let text = """
            {"name": "k.thumbnail-240x180", "unit": "us", "value": 210.5}
            {"name": "k.thumbnail-240x180-max80", "unit": "us", "value": 280.25}
            """
        XCTAssertEqual(try PillowReference.parse(text, label: "k.thumbnail-240x180-max80").get(), 280.25)
        guard case .failure(.noFigure("k.baseline-640x427")) = PillowReference.parse(text, label: "k.baseline-640x427") else {
            return XCTFail("a label the script did not print gave a figure")
        }
    }

    func testCPUTimeOptionIsParsed() throws {
        XCTAssertTrue(try Options.parse(["--cpu-time"]).get().cpuTime)
        XCTAssertFalse(try Options.parse([]).get().cpuTime)
    }

    /// The m row's two sides compute the same sum: the pipeline delivers each cycle's `2 * id + 1` once.
    func testClientPipelineAndItsBaselineAgree() {
        XCTAssertEqual(ClientPipelineBenchmarks.pipeline(100), ClientPipelineBenchmarks.closures(100))
        XCTAssertEqual(ClientPipelineBenchmarks.pipeline(3), 1 + 3 + 5)
    }
}
