import FeedServer
import Foundation
import Networking
import PhotoFeed
import PhotoFeedViewerCore
import Reactive
import TestSupport
import XCTest

/// Loads are held only while they run; the thumbnail board loads what is on screen and cancels the rest.
final class RunningLoadsTests: LeakCheckingTestCase {
    func testAFinishedLoadIsReleasedAndAHangingOneStaysUntilDisposed() {
        let loads = RunningLoads()
        let answers = Recorder<Int>()
        for number in 0..<100 {
            loads.run(Single.just(number)) { answers.append((try? $0.get()) ?? -1) }
        }
        XCTAssertEqual(answers.values, Array(0..<100))
        XCTAssertEqual(loads.count, 0, "one hundred key presses leave nothing behind")

        let disposed = Recorder<Bool>()
        let hanging = Single<Int>.create { _ in Disposables.create { disposed.append(true) } }
        loads.run(hanging) { _ in answers.append(-1) }
        XCTAssertEqual(loads.count, 1)
        loads.disposeAll()
        XCTAssertEqual(disposed.values, [true])
        XCTAssertEqual(loads.count, 0)
        loads.run(Single.just(1)) { _ in answers.append(1) }
        XCTAssertEqual(answers.count, 100, "nothing runs after disposeAll")
    }

    func testALoadAnsweringLaterIsReleasedWhenItAnswers() {
        let loads = RunningLoads()
        let subject = PublishSubject<Int>()
        let answered = Recorder<Int>()
        loads.run(subject.take(1).asSingle()) { answered.append((try? $0.get()) ?? -1) }
        XCTAssertEqual(loads.count, 1)
        subject.onNext(5)
        XCTAssertEqual(answered.values, [5])
        XCTAssertEqual(loads.count, 0)
    }

    func testTheBoardLoadsVisiblePhotosAndCancelsThoseScrolledAway() throws {
        let server = try FeedServer()
        defer { server.stop() }
        let provider = NetworkProvider<PhotoImage>(trackInflights: true, scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
        let loader = ThumbnailLoader(provider: provider, maximumConcurrentLoads: 4)
        let changes = Recorder<Bool>()
        let board = ThumbnailBoard(loader: loader, maxPixelSize: 24) { changes.append(true) }
        defer { board.close() }
        let slow = (1...3).map { served($0, media: server.imageURL(named: "slow/20000/65535/\($0)_m.jpg")) }
        let quick = served(4, media: server.imageURL(named: "65535/4_m.jpg"))

        board.show(slow + [quick])
        XCTAssertTrue(waitUntil { board.cells[quick.media.m].map { if case .loaded = $0 { true } else { false } } ?? false })
        XCTAssertEqual(board.cells[slow[0].media.m], .loading)
        XCTAssertTrue(waitUntil { server.imageRequestCount == 4 })

        board.show([slow[2], quick])
        XCTAssertEqual(board.counts.started, 4)
        XCTAssertEqual(board.counts.cancelled, 2)
        XCTAssertNil(board.cells[slow[0].media.m])
        XCTAssertTrue(waitUntil { server.abandonedImageCount == 2 }, "the server saw both requests go")
        XCTAssertEqual(board.runningCount, 1)
        XCTAssertFalse(changes.values.isEmpty)
    }

    func testABoardWithoutALoaderSaysOffline() {
        let board = ThumbnailBoard(loader: nil, maxPixelSize: 24) {}
        board.show([photo(1)])
        XCTAssertEqual(board.cells[photo(1).media.m], .failed("offline"))
    }

    private func served(_ number: Int, media: String) -> Photo.Item {
        Photo.Item(title: "Photo \(number)", link: "https://www.flickr.com/photos/x/\(number)/", media: .init(m: media),
                   author: "a", authorID: "1", published: "", tags: "", description: "")
    }
}
