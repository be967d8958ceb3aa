import Foundation
import Reactive
import TestSupport
import XCTest

/// 10,000 subscriptions through operator chains, created and disposed at random across
/// threads while a subject emits: nothing deadlocks (operators subscribe outside their locks,
/// and a subject without replay registers without waiting for a delivery) and nothing is left
/// behind (`LeakCheckingTestCase` checks `Resources.total` after the test).
final class SubscriptionChurnStressTests: LeakCheckingTestCase {
    func testTenThousandSubscriptionsCreatedAndDisposedAtRandomAcrossThreadsLeaveNothingBehind() {
        let subject = PublishSubject<Int>()
        let shared = subject.map { $0 * 2 }.filter { $0 % 3 != 0 }.share(replay: 1)
        let workers = 8
        let perWorker = 1_250
        let stop = BooleanDisposable()
        let emitter = Thread {
            var value = 0
            while !stop.isDisposed {
                subject.onNext(value)
                value += 1
            }
        }
        emitter.start()
        let group = DispatchGroup()
        for worker in 0..<workers {
            group.enter()
            DispatchQueue.global().async {
                var random = SystemRandomNumberGenerator()
                var live: [any Disposable] = []
                for index in 0..<perWorker {
                    let chain: Observable<Int>
                    switch (worker + index) % 4 {
                    case 0: chain = shared.asObservable()
                    case 1: chain = subject.flatMapLatest { Observable.just($0) }
                    case 2: chain = Observable.merge(subject.asObservable(), shared).take(5)
                    default: chain = subject.scan(0, accumulator: +).distinctUntilChanged()
                    }
                    live.append(chain.subscribe(onNext: { _ in }))
                    if Bool.random(using: &random), !live.isEmpty {
                        live.remove(at: Int.random(in: 0..<live.count, using: &random)).dispose()
                    }
                }
                live.shuffle(using: &random)
                for subscription in live { subscription.dispose() }
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success, "the churn finished: no deadlock")
        stop.dispose()
        XCTAssertTrue(waitUntil(timeout: 10) { emitter.isFinished }, "the emitter finished: no deadlock")
        XCTAssertFalse(subject.hasObservers, "every subscription left the subject")
    }
}
