import FeedServer
import Foundation
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import EventLoopIO
@testable import Networking
import Reactive
import TestSupport
import XCTest

/// Where a provider runs caller code for a transport's answers: never on an event loop thread;
/// on `callbackQueue` when given, else on the provider's own serial delivery queue.
final class ProviderDeliveryTests: FeedServerTestCase {
    /// Whether the caller runs on one of the shared event loops' threads.
    private static var onLoopThread: Bool {
        EventLoopGroup.shared?.loops.contains { $0.inLoop } ?? false
    }

    func testCompletionPluginsAndProgressRunOffTheLoopsWithoutACallbackQueue() throws {
        let seen = Recorder<String>()
        let plugin = ThreadProbe { seen.append("\($0) on loop: \(Self.onLoopThread)") }
        let provider = NetworkProvider<ServerRoute>(transport: SocketTransport(), plugins: [plugin])
        let done = expectation(description: "answer")
        provider.request(route("echo"), progress: { _ in seen.append("progress on loop: \(Self.onLoopThread)") }) { result in
            seen.append("completion on loop: \(Self.onLoopThread), ok: \((try? result.get()) != nil)")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.values.filter { $0.hasPrefix("didReceive") || $0.hasPrefix("process") || $0.hasPrefix("completion") },
                       ["didReceive on loop: false", "process on loop: false", "completion on loop: false, ok: true"])
        XCTAssertFalse(seen.values.contains { $0.hasSuffix("on loop: true") }, "\(seen.values)")
    }

    func testCompletionAndPluginsRunOnTheCallbackQueueWhenGiven() throws {
        let queue = DispatchQueue(label: "ProviderDeliveryTests.callback")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 27)
        let seen = Recorder<String>()
        let plugin = ThreadProbe { seen.append("\($0) on queue: \(DispatchQueue.getSpecific(key: key) == 27)") }
        let provider = NetworkProvider<ServerRoute>(callbackQueue: queue, transport: SocketTransport(), plugins: [plugin])
        let done = expectation(description: "answer")
        provider.request(route("echo")) { _ in
            seen.append("completion on queue: \(DispatchQueue.getSpecific(key: key) == 27)")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.values, ["didReceive on queue: true", "process on queue: true", "completion on queue: true"])
    }

    /// A subscriber of one provider that blocks until another provider's 16 requests (through the
    /// same transport, on the same loops, to the same server) are answered: they are answered
    /// while it blocks. Answers delivered on a loop thread would wait for it instead, until the
    /// bound runs out.
    func testASlowSubscriberOfOneProviderDoesNotDelayAnotherProvidersRequests() throws {
        let transport = SocketTransport()
        let slow = NetworkProvider<ServerRoute>(transport: transport)
        let other = NetworkProvider<ServerRoute>(transport: transport)
        let othersAnswered = DispatchSemaphore(value: 0)
        let events = Recorder<String>()
        let slowDone = expectation(description: "slow subscriber returned")
        let slowSubscription = slow.rx.request(route("echo")).subscribe { _ in
            events.append("slow subscriber blocks")
            // A generous bound: the other provider's answers come in milliseconds on loopback.
            let waited = othersAnswered.wait(timeout: .now() + 10)
            events.append(waited == .success ? "slow subscriber saw the others answered" : "slow subscriber gave up")
            slowDone.fulfill()
        }
        XCTAssertTrue(waitUntil(timeout: 10) { events.values.contains("slow subscriber blocks") })
        let answered = Recorder<Bool>()
        let allAnswered = expectation(description: "16 answers")
        allAnswered.expectedFulfillmentCount = 16
        var subscriptions: [any Disposable] = []
        for _ in 0..<16 {
            subscriptions.append(other.rx.request(route("echo")).subscribe { result in
                answered.append((try? result.get())?.statusCode == 200)
                if answered.count == 16 { othersAnswered.signal() }
                allAnswered.fulfill()
            })
        }
        wait(for: [allAnswered, slowDone], timeout: 30)
        XCTAssertEqual(answered.values, Array(repeating: true, count: 16))
        XCTAssertEqual(events.values, ["slow subscriber blocks", "slow subscriber saw the others answered"])
        subscriptions.forEach { $0.dispose() }
        slowSubscription.dispose()
    }
}

/// A plugin that says where its `didReceive` and `process` run.
private struct ThreadProbe: PluginType {
    let note: @Sendable (String) -> Void

    func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
        note("didReceive")
    }

    func process(_ result: Result<Response, ProviderError>, target: any TargetType) -> Result<Response, ProviderError> {
        note("process")
        return result
    }
}

/// The providers' delivery queues themselves: no thread of their own, none while idle.
final class ProviderDeliveryQueueTests: FeedServerTestCase {
    /// The process's thread count, from `/proc/self/status` (nil elsewhere).
    private func threadCount() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return nil }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    }

    /// Fifty providers that each made one request add no thread of their own: their answers run
    /// on serial queues that share the dispatch pool's threads, which go back to the pool once idle.
    func testFiftyProvidersAddNoThreadsOfTheirOwn() throws {
        guard threadCount() != nil else { throw XCTSkip("no /proc/self/status on this system") }
        let echo = route("echo")
        let transport = SocketTransport()
        defer { transport.close() }
        // Warm up: the loops, the dispatch pool and the server exist before counting.
        let warm = NetworkProvider<ServerRoute>(transport: transport)
        let warmed = expectation(description: "warm-up")
        warm.request(echo) { _ in warmed.fulfill() }
        wait(for: [warmed], timeout: 10)
        let before = try XCTUnwrap(threadCount())
        var providers: [NetworkProvider<ServerRoute>] = []
        let answered = expectation(description: "50 answers")
        answered.expectedFulfillmentCount = 50
        for _ in 0..<50 {
            let provider = NetworkProvider<ServerRoute>(transport: transport)
            providers.append(provider)
            provider.request(echo) { result in
                XCTAssertEqual((try? result.get())?.statusCode, 200)
                answered.fulfill()
            }
        }
        wait(for: [answered], timeout: 20)
        let after = try XCTUnwrap(threadCount())
        // The dispatch pool may add a few workers while answers run; a thread per provider would be 50.
        XCTAssertLessThan(after - before, 10, "50 providers added \(after - before) threads")
        XCTAssertEqual(providers.count, 50)
    }

    /// Each provider's queue is serial: a provider's answers run one after another, in the order
    /// they were handed over, on no thread that is a loop's.
    func testAProvidersDeliveriesRunOneAtATime() throws {
        let provider = NetworkProvider<ServerRoute>(transport: SocketTransport())
        let echo = route("echo")
        let running = Lock(0)
        let overlaps = Lock(0)
        let onLoop = Lock(0)
        let answered = expectation(description: "32 answers")
        answered.expectedFulfillmentCount = 32
        for _ in 0..<32 {
            provider.request(echo) { _ in
                let now = running.withLock { value -> Int in
                    value += 1
                    return value
                }
                if now > 1 { overlaps.withLock { $0 += 1 } }
                if EventLoop.isOnAnyLoopThread { onLoop.withLock { $0 += 1 } }
                Thread.sleep(forTimeInterval: 0.002)
                running.withLock { $0 -= 1 }
                answered.fulfill()
            }
        }
        wait(for: [answered], timeout: 20)
        XCTAssertEqual(overlaps.withLock { $0 }, 0, "two of one provider's completions ran at once")
        XCTAssertEqual(onLoop.withLock { $0 }, 0)
    }
}
