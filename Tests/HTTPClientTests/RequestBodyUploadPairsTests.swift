import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// `RequestBodyUpload`'s (state, event) pairs, as `ExchangeMachinePairsTests` checks the
/// machine's: every pair outside `impossiblePairs` is driven on an upload brought to its state by
/// real events and takes it without stopping; every pair in the table stops a child process with
/// a message naming it.
final class RequestBodyUploadPairsTests: XCTestCase {
    private typealias Upload = RequestBodyUpload

    /// The child process's pair, when this process is one (see `testEveryImpossiblePairStopsNamingIt`).
    private static let childPairVariable = "REQUEST_BODY_UPLOAD_IMPOSSIBLE_PAIR"

    private static func started(_ source: Upload.Source) -> Upload {
        var upload = Upload()
        _ = upload.attemptStarted(source, generation: 1)
        return upload
    }

    private static func opened() -> Upload {
        var upload = started(.offLoop)
        _ = upload.opened(succeeded: true)
        return upload
    }

    private static func headMade(_ source: Upload.Source, length: Int64?) -> Upload {
        var upload = source == .offLoop ? opened() : started(source)
        _ = upload.headPrepared(hasBody: source != .none, length: length)
        return upload
    }

    private static func reading(_ source: Upload.Source, length: Int64?) -> Upload {
        var upload = headMade(source, length: length)
        _ = upload.outputWritten()
        return upload
    }

    /// Uploads brought to every state (several ways to some), each by the events the machine feeds.
    private static func uploadsInEveryState() -> [(name: String, upload: Upload)] {
        var list: [(String, Upload)] = [
            ("idle, new", Upload()),
            ("headDue, no body", started(.none)),
            ("headDue, bytes in memory", started(.inMemory)),
            ("opening", started(.offLoop)),
            ("headDue, a file opened", opened()),
            ("sending, the head of bytes in memory", headMade(.inMemory, length: 3)),
            ("sending, the head of a stream", headMade(.offLoop, length: nil)),
            ("reading on the loop", reading(.inMemory, length: 3)),
            ("reading off the loop", reading(.offLoop, length: nil)),
            ("lastPiece, the head alone", headMade(.none, length: nil)),
        ]
        var piece = reading(.offLoop, length: nil)
        _ = piece.pieceRead([1, 2])
        list.append(("sending, a chunk", piece))
        var last = reading(.inMemory, length: 0)
        _ = last.pieceRead([])
        list.append(("lastPiece, the end of the body", last))
        var written = last
        _ = written.outputWritten()
        list.append(("written", written))
        var notOpened = started(.offLoop)
        _ = notOpened.opened(succeeded: false)
        list.append(("failed to open", notOpened))
        var notRead = reading(.inMemory, length: 3)
        _ = notRead.pieceRead(nil)
        list.append(("failed to read", notRead))
        return list
    }

    /// Feeds `event` with arguments such as the machine passes.
    private static func apply(_ event: Upload.Event, to upload: inout Upload) {
        switch event {
        case .attemptStarted: _ = upload.attemptStarted(.inMemory, generation: 2)
        case .opened: _ = upload.opened(succeeded: true)
        case .headPrepared: _ = upload.headPrepared(hasBody: true, length: nil)
        case .outputWritten: _ = upload.outputWritten()
        case .pieceRead: _ = upload.pieceRead([1])
        }
    }

    /// Every pair outside the table is taken in every way the test reaches its state, and leaves
    /// the socket writable only while the head or a piece goes out; the table names only pairs of
    /// the upload's states and events.
    func testEveryPairOutsideTheImpossibleTableIsHandled() {
        let uploads = Self.uploadsInEveryState()
        XCTAssertEqual(Set(uploads.map(\.upload.state)), Set(Upload.State.allCases), "every state is reached")
        var driven: Set<Upload.Pair> = []
        for (name, start) in uploads {
            for event in Upload.Event.allCases {
                let pair = Upload.Pair(event: event, state: start.state)
                guard !Upload.impossiblePairs.contains(pair) else { continue }
                var upload = start
                Self.apply(event, to: &upload)
                driven.insert(pair)
                XCTAssertNotEqual(upload.state, start.state, "\(pair) (\(name)) moves the upload on")
                XCTAssertEqual(upload.writable, [.sending, .lastPiece].contains(upload.state), "\(pair) (\(name))")
            }
        }
        let all = Set(Upload.State.allCases.flatMap { state in Upload.Event.allCases.map { Upload.Pair(event: $0, state: state) } })
        XCTAssertEqual(driven, all.subtracting(Upload.impossiblePairs), "every pair outside the table was driven")
        XCTAssertEqual(Upload.impossiblePairs.count, 34, "the table changed: check each pair against SocketExchange")
    }

    /// Each pair of the table stops the process with a message naming it: run in a child process
    /// (this test again, told the pair in its environment), one per pair.
    func testEveryImpossiblePairStopsNamingIt() throws {
        if let named = ProcessInfo.processInfo.environment[Self.childPairVariable] {
            // The child: brings an upload to the pair's state and feeds the event (it stops there).
            let parts = named.split(separator: " ").map(String.init)
            let event = try XCTUnwrap(Upload.Event(rawValue: parts[0]))
            let state = try XCTUnwrap(Upload.State(rawValue: parts[1]))
            var upload = try XCTUnwrap(Self.uploadsInEveryState().first { $0.upload.state == state }).upload
            Self.apply(event, to: &upload)
            return XCTFail("\(named) did not stop")
        }
        let pairs = Upload.impossiblePairs.sorted { $0.description < $1.description }
        try ChildTestRun.assertEachStops(test: "HTTPClientTests.RequestBodyUploadPairsTests/testEveryImpossiblePairStopsNamingIt",
                                         variable: Self.childPairVariable,
                                         children: pairs.map { ("\($0.event.rawValue) \($0.state.rawValue)", "RequestBodyUpload: \($0) cannot happen") })
    }
}
