import Foundation
import Locking
import Reactive

/// A thread-safe list that test closures append to.
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = Lock<[Value]>([])

    public init() {}

    /// Appends `value`.
    public func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    /// Everything appended so far.
    public var values: [Value] { storage.withLock { $0 } }

    /// The number of values appended.
    public var count: Int { storage.withLock { $0.count } }
}

/// Waits, spinning the current run loop, until `condition` holds or `timeout` passes.
@discardableResult
public func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        RunLoop.current.run(until: Date().addingTimeInterval(0.005))
    }
    return true
}

/// An error for tests, equal by its code.
public struct TestError: Error, Equatable, Sendable {
    public let code: Int
    public init(_ code: Int = 0) { self.code = code }
}

/// The number of file descriptors this process has open (Linux: entries of /proc/self/fd).
public func openDescriptorCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}
