#if FUZZING
import SanitizerAllocator
import Synchronization

/// Counts the bytes malloc hands out and takes back, on every thread, through AddressSanitizer's
/// allocation hooks (`scripts/fuzz.sh` links the fuzz targets with it and defines `FUZZING`).
enum AllocationCounter {
    fileprivate static let live = Atomic<Int>(0)
    fileprivate static let peak = Atomic<Int>(0)

    /// Installs the hooks; `false` when the runtime refuses them.
    static func install() -> Bool {
        // Touch both counters first, so no hook ever runs their one-time initialization.
        _ = live.load(ordering: .relaxed) &+ peak.load(ordering: .relaxed)
        return __sanitizer_install_malloc_and_free_hooks(countMalloc, countFree) != 0
    }

    /// What `body` returns, and the most bytes live at once while it ran beyond those live
    /// when it started.
    static func measuring<T>(_ body: () -> T) -> (value: T, peakBytes: Int) {
        let start = live.load(ordering: .relaxed)
        peak.store(start, ordering: .relaxed)
        let value = body()
        return (value, peak.load(ordering: .relaxed) - start)
    }
}

private func countMalloc(_ pointer: UnsafeRawPointer?, _ size: Int) {
    let now = AllocationCounter.live.wrappingAdd(size, ordering: .relaxed).newValue
    AllocationCounter.peak.max(now, ordering: .relaxed)
}

/// Runs before the block is released, so the runtime still knows its size.
private func countFree(_ pointer: UnsafeRawPointer?) {
    AllocationCounter.live.wrappingSubtract(__sanitizer_get_allocated_size(pointer), ordering: .relaxed)
}
#else
/// A plain `swift build` links no sanitizer runtime: nothing is counted, and the program that
/// build makes never runs a decode.
enum AllocationCounter {
    static func install() -> Bool { false }
    static func measuring<T>(_ body: () -> T) -> (value: T, peakBytes: Int) {
        (body(), 0)
    }
}
#endif
