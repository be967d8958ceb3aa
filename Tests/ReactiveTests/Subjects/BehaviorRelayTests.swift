import Reactive
import TestSupport
import XCTest

final class BehaviorRelayTests: LeakCheckingTestCase {
    func testValueIsTheInitialThenTheLastAccepted() {
        let relay = BehaviorRelay(value: [String]())
        XCTAssertEqual(relay.value, [])
        relay.accept(relay.value + ["a"])
        relay.accept(relay.value + ["b"])
        XCTAssertEqual(relay.value, ["a", "b"])
    }

    func testSubscriberGetsTheCurrentValueThenAcceptedOnes() {
        let relay = BehaviorRelay(value: 1)
        relay.accept(2)
        let values = Recorder<Int>()
        let subscription = relay.subscribe(onNext: { values.append($0) })
        relay.accept(3)
        subscription.dispose()
        relay.accept(4)
        XCTAssertEqual(values.values, [2, 3])
        XCTAssertEqual(relay.value, 4)
    }

    func testValueInsideTheCallbackIsTheDeliveredOne() {
        let relay = BehaviorRelay(value: 0)
        let seen = Recorder<Bool>()
        let subscription = relay.subscribe(onNext: { seen.append(relay.value == $0) })
        relay.accept(5)
        subscription.dispose()
        XCTAssertEqual(seen.values, [true, true])
    }
}

extension BehaviorRelayTests {
    func testAsInfallibleStartsWithTheValueAndComposesAsAnInfallible() {
        let relay = BehaviorRelay(value: 1)
        let values = Recorder<Int>()
        let subscription = relay.asInfallible().map { $0 * 10 }.subscribe(onNext: { values.append($0) })
        relay.accept(2)
        subscription.dispose()
        XCTAssertEqual(values.values, [10, 20])
    }
}
