import FeedServer
import Foundation
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
final class DeliveryThreadTests: LeakCheckingTestCase {
    private var server: FeedServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try FeedServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
        super.tearDown()
    }

    private var echo: ServerRoute { ServerRoute(baseURL: server.baseURL, path: "echo") }

    /// Whether the caller runs on one of the shared event loops' threads.
    private static var onLoopThread: Bool {
        EventLoopGroup.shared?.loops.contains { $0.inLoop } ?? false
    }

    func testCompletionPluginsAndProgressRunOffTheLoopsWithoutACallbackQueue() throws {
        let seen = Recorder<String>()
        let plugin = ThreadProbe { seen.append("\($0) on loop: \(Self.onLoopThread)") }
        let provider = NetworkProvider<ServerRoute>(transport: SocketTransport(), plugins: [plugin])
        let done = expectation(description: "answer")
        provider.request(echo, progress: { _ in seen.append("progress on loop: \(Self.onLoopThread)") }) { result in
            seen.append("completion on loop: \(Self.onLoopThread), ok: \((try? result.get()) != nil)")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.values.filter { $0.hasPrefix("didReceive") || $0.hasPrefix("process") || $0.hasPrefix("completion") },
                       ["didReceive on loop: false", "process on loop: false", "completion on loop: false, ok: true"])
        XCTAssertFalse(seen.values.contains { $0.hasSuffix("on loop: true") }, "\(seen.values)")
    }

    func testCompletionAndPluginsRunOnTheCallbackQueueWhenGiven() throws {
        let queue = DispatchQueue(label: "DeliveryThreadTests.callback")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 27)
        let seen = Recorder<String>()
        let plugin = ThreadProbe { seen.append("\($0) on queue: \(DispatchQueue.getSpecific(key: key) == 27)") }
        let provider = NetworkProvider<ServerRoute>(callbackQueue: queue, transport: SocketTransport(), plugins: [plugin])
        let done = expectation(description: "answer")
        provider.request(echo) { _ in
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
        let slowSubscription = slow.rx.request(echo).subscribe { _ in
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
            subscriptions.append(other.rx.request(echo).subscribe { result in
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

/// The provider's delivery queue itself: order, its own thread, sleeping and waking, its end,
/// and the count of expected answers that decides whether it stays awake.
final class DeliveryQueueThreadTests: LeakCheckingTestCase {
    func testJobsRunInOrderOnOneThreadThatIsNotTheCallers() {
        let delivery = DeliveryThread(label: "DeliveryQueueThreadTests")
        let seen = Recorder<Int>()
        let threads = Recorder<String>()
        let done = expectation(description: "100 jobs")
        done.expectedFulfillmentCount = 100
        XCTAssertTrue(Thread.isMainThread, "the test gives the jobs from the main thread")
        for index in 0..<100 {
            delivery.async {
                seen.append(index)
                threads.append("\(ObjectIdentifier(Thread.current)), main: \(Thread.isMainThread)")
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(seen.values, Array(0..<100))
        XCTAssertEqual(Set(threads.values).count, 1, "one thread ran them all")
        XCTAssertTrue(threads.values.allSatisfy { $0.hasSuffix("main: false") })
    }

    /// The thread sleeps once its jobs are done and its time awake has passed, and the next job
    /// wakes it.
    func testASleepingThreadWakesForTheNextJob() {
        let delivery = DeliveryThread(label: "DeliveryQueueThreadTests.sleep")
        let first = expectation(description: "first job")
        delivery.async { first.fulfill() }
        wait(for: [first], timeout: 10)
        XCTAssertTrue(waitUntil(timeout: 10) { delivery.isAsleep }, "the thread never went to sleep")
        let second = expectation(description: "second job")
        delivery.async { second.fulfill() }
        wait(for: [second], timeout: 10)
    }

    func testReleasingTheQueueEndsItsThreadAfterItsJobs() {
        var delivery: DeliveryThread? = DeliveryThread(label: "DeliveryQueueThreadTests.end")
        let ran = Recorder<Int>()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        delivery?.async {
            started.signal()
            _ = proceed.wait(timeout: .now() + 10)
            ran.append(1)
        }
        delivery?.async { ran.append(2) }
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
        weak let core = delivery?.core
        delivery = nil
        proceed.signal()
        XCTAssertTrue(waitUntil(timeout: 10) { core == nil }, "the thread still holds its state")
        XCTAssertEqual(ran.values, [1, 2], "jobs given before the release ran")
    }

    /// Every transport call counts its answer as expected until it comes or the call is
    /// cancelled, so the count returns to zero; a count that drifted up would keep the thread
    /// from staying awake at one request in flight, one that drifted down would keep it awake
    /// with many in flight, where the loops need the processors.
    func testExpectedAnswersReturnToZeroAfterAnswersAndCancellations() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let provider = NetworkProvider<ServerRoute>(transport: SocketTransport())
        let route = ServerRoute(baseURL: server.baseURL, path: "echo")
        for _ in 0..<5 {
            let done = expectation(description: "answer")
            provider.request(route) { result in
                XCTAssertEqual((try? result.get())?.statusCode, 200)
                done.fulfill()
            }
            wait(for: [done], timeout: 10)
        }
        XCTAssertTrue(waitUntil(timeout: 10) { provider.delivery.expectedAnswers == 0 }, "\(provider.delivery.expectedAnswers)")
        let slow = ServerRoute(baseURL: server.baseURL, path: "hang")
        let call = provider.request(slow) { _ in }
        XCTAssertEqual(provider.delivery.expectedAnswers, 1)
        call.cancel()
        XCTAssertEqual(provider.delivery.expectedAnswers, 0)
    }
}
