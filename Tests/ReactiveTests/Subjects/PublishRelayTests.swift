import Reactive
import TestSupport
import XCTest

final class PublishRelayTests: LeakCheckingTestCase {
    func testAcceptReachesCurrentSubscribersOnly() {
        let relay = PublishRelay<Int>()
        relay.accept(0)
        let values = Recorder<Int>()
        let subscription = relay.subscribe(onNext: { values.append($0) })
        relay.accept(1)
        relay.accept(2)
        subscription.dispose()
        relay.accept(3)
        XCTAssertEqual(values.values, [1, 2])
    }

    func testAsObservableComposes() {
        let relay = PublishRelay<Int>()
        let values = Recorder<Int>()
        let subscription = relay.asObservable().filter { $0.isMultiple(of: 2) }.subscribe(onNext: { values.append($0) })
        for value in 1...6 { relay.accept(value) }
        subscription.dispose()
        XCTAssertEqual(values.values, [2, 4, 6])
    }
}

extension PublishRelayTests {
    func testAsInfallibleNeverEnds() {
        let relay = PublishRelay<Int>()
        let events = Recorder<String>()
        let subscription = relay.asInfallible().subscribe(
            onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") })
        relay.accept(1)
        relay.accept(2)
        subscription.dispose()
        relay.accept(3)
        XCTAssertEqual(events.values, ["1", "2"])
    }
}
