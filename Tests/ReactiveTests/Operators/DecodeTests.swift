import Foundation
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// RxSwift's `decode(type:decoder:)`.
final class DecodeTests: LeakCheckingTestCase {
    struct User: Decodable, Equatable {
        let name: String
    }

    func testDecodesEachElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.of(Data(#"{"name":"a"}"#.utf8), Data(#"{"name":"b"}"#.utf8))
                .decode(type: User.self, decoder: JSONDecoder())
                .map(\.name)
        }
        XCTAssertEqual(res.events, [.next(200, "a"), .next(200, "b"), .completed(200)])
    }

    func testMalformedDataFailsWithTheDecodingError() {
        let failure = Recorder<String>()
        Observable.just(Data("{".utf8)).decode(type: User.self, decoder: JSONDecoder())
            .subscribe(onError: { failure.append($0 is DecodingError ? "decoding" : "other") })
        XCTAssertEqual(failure.values, ["decoding"])
    }

    func testAPropertyListDecoderIsADataDecoder() throws {
        let data = try PropertyListEncoder().encode(["name": "p"])
        let names = Recorder<String>()
        Observable.just(data).decode(type: User.self, decoder: PropertyListDecoder())
            .subscribe(onNext: { names.append($0.name) })
        XCTAssertEqual(names.values, ["p"])
    }
}
