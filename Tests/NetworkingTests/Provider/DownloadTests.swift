import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// `.downloadDestination` and `.downloadParameters` over real loopback sockets: the body is
/// streamed to a temporary file, the destination asked, its options applied, the file moved.
final class DownloadTests: FeedServerTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private var transports: [any HTTPTransport] { [DefaultTransport(), URLSessionTransport(configuration: .ephemeral)] }

    private func download(_ path: String, task: RequestTask, transport: any HTTPTransport) -> Result<Response, ProviderError>? {
        let provider = NetworkProvider<ServerRoute>(transport: transport)
        let results = Recorder<Result<Response, ProviderError>>()
        provider.request(route(path, task: task)) { results.append($0) }
        XCTAssertTrue(waitUntil(timeout: 30) { results.count == 1 })
        return results.values.first
    }

    private static func pattern(_ count: Int) -> Data {
        Data(BulkBytes.counting(count))
    }

    func testTheBodyLandsAtTheDestinationAndTheResponseSaysWhere() throws {
        for transport in transports {
            let asked = Recorder<String>()
            let destination = directory.appendingPathComponent("nested/\(type(of: transport)).bin")
            let task = RequestTask.downloadDestination { temporaryURL, response in
                asked.append("\(response.statusCode) \(FileManager.default.fileExists(atPath: temporaryURL.path)) \(temporaryURL.path)")
                return (destination, [.createIntermediateDirectories])
            }
            let response = try XCTUnwrap(download("bytes/300000", task: task, transport: transport)?.get())
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.fileURL, destination)
            XCTAssertEqual(response.data, Data(), "the body is in the file, not in memory")
            XCTAssertEqual(try Data(contentsOf: destination), Self.pattern(300_000), "\(type(of: transport))")
            XCTAssertEqual(asked.count, 1)
            let answer = asked.values.first ?? ""
            XCTAssertTrue(answer.hasPrefix("200 true "), answer)
            let temporary = String(answer.dropFirst("200 true ".count))
            XCTAssertFalse(FileManager.default.fileExists(atPath: temporary), "the temporary file was moved away")
        }
    }

    func testAnExistingFileFailsUnlessRemovePreviousFile() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for transport in transports {
            let destination = directory.appendingPathComponent("existing.bin")
            try Data("old".utf8).write(to: destination)
            let keep = download("bytes/10", task: .downloadDestination { _, _ in (destination, []) }, transport: transport)
            guard case .failure(.underlying(_, let response?))? = keep else {
                return XCTFail("\(type(of: transport)): expected a failure to move, got \(String(describing: keep))")
            }
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(try Data(contentsOf: destination), Data("old".utf8), "the previous file is left alone")
            let replace = download("bytes/10", task: .downloadDestination { _, _ in (destination, [.removePreviousFile]) },
                                   transport: transport)
            XCTAssertEqual(try replace?.get().fileURL, destination)
            XCTAssertEqual(try Data(contentsOf: destination), Self.pattern(10))
        }
    }

    func testAMissingDirectoryFailsWithoutCreateIntermediateDirectories() {
        let destination = directory.appendingPathComponent("absent/file.bin")
        let result = download("bytes/10", task: .downloadDestination { _, _ in (destination, []) }, transport: URLSessionTransport())
        guard case .failure(.underlying)? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }

    func testDownloadParametersAreEncodedIntoTheRequest() throws {
        for transport in transports {
            let destination = directory.appendingPathComponent("echo-\(UUID().uuidString).json")
            let task = RequestTask.downloadParameters(parameters: ["q": "cats", "page": 2], encoding: URLEncoding.queryString,
                                                      destination: { _, _ in (destination, [.createIntermediateDirectories]) })
            let response = try XCTUnwrap(download("echo", task: task, transport: transport)?.get())
            XCTAssertEqual(response.fileURL, destination)
            let echo = try JSONSerialization.jsonObject(with: Data(contentsOf: destination)) as? [String: Any]
            XCTAssertEqual(echo?["query"] as? String, "page=2&q=cats", "\(type(of: transport))")
        }
    }

    func testAFailedDownloadLeavesNoFile() {
        for transport in transports {
            let destination = directory.appendingPathComponent("never.bin")
            let asked = Recorder<Bool>()
            let result = download("drop", task: .downloadDestination { _, _ in asked.append(true); return (destination, []) },
                                  transport: transport)
            guard case .failure? = result else { return XCTFail("\(String(describing: result))") }
            XCTAssertEqual(asked.count, 0, "the destination is asked only for a complete response")
            XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        }
    }

    /// URLSession writes a download task's body to disk as it arrives, so resident memory grows by a
    /// few MB whatever the size (5-8 MB here for 1 to 90 MB). The bound is the body itself, not
    /// tighter, because the thread sanitizer's allocator and shadow memory add about a third of
    /// every byte that passes through FoundationNetworking (30 MB for this download under TSan).
    func testA60MegabyteDownloadOverURLSessionNeverSitsInMemory() throws {
        guard let baseline = ResidentMemory.current() else { throw XCTSkip("no /proc/self/statm here") }
        let peak = Recorder<Int>()
        let destination = directory.appendingPathComponent("big.bin")
        let provider = NetworkProvider<ServerRoute>(transport: URLSessionTransport(configuration: .ephemeral))
        let results = Recorder<Result<Response, ProviderError>>()
        let count = 60 * 1_048_576
        let target = route("bytes/\(count)", task: .downloadDestination { _, _ in (destination, [.createIntermediateDirectories]) })
        provider.request(target) { results.append($0) }
        // Sampled on this thread while the download runs on others (bounded by the 60 s wait).
        XCTAssertTrue(waitUntil(timeout: 60) {
            if let now = ResidentMemory.current() { peak.append(now) }
            return results.count == 1
        })
        XCTAssertEqual(try results.values.first?.get().fileURL, destination)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
        XCTAssertEqual((attributes[.size] as? NSNumber)?.intValue, count, "more than the 50 MB in-memory limit arrived")
        let growth = (peak.values.max() ?? baseline) - baseline
        XCTAssertLessThan(growth, count, "peak RSS grew by \(growth / 1_048_576) MB for a 60 MB download: the body sat in memory")
    }

    /// A cancel that comes while the finished download is being moved into place is too late:
    /// the caller gets the file, and no cancelled report that leaves a moved file behind.
    func testACancelWhileTheFileIsMovedIsTooLateAndTheFileIsDelivered() throws {
        let provider = NetworkProvider<ServerRoute>(transport: DefaultTransport())
        let destination = directory.appendingPathComponent("late-cancel.bin")
        let call = Recorder<any Cancellable>()
        let results = Recorder<Result<Response, ProviderError>>()
        let task = RequestTask.downloadDestination { _, _ in
            XCTAssertTrue(waitUntil(timeout: 10) { call.count == 1 })
            call.values.first?.cancel()
            return (destination, [.createIntermediateDirectories])
        }
        call.append(provider.request(route("bytes/1000", task: task)) { results.append($0) })
        XCTAssertTrue(waitUntil(timeout: 30) { results.count == 1 })
        // The cancel ran (and would have reported) inside the destination closure, before the
        // answer was reported: the first report must be the answer.
        XCTAssertEqual(results.count, 1, "one report")
        let response = try XCTUnwrap(results.values.first?.get())
        XCTAssertEqual(response.fileURL, destination)
        XCTAssertEqual(try Data(contentsOf: destination), Self.pattern(1_000))
    }
}
