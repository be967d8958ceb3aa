import FeedServer
import Foundation
import HTTPClient
import Networking
import TestSupport
import XCTest

/// Timings through a provider: `SocketTransport`'s responses carry them, plugins hear them in
/// `didMeasure` after `didReceive` (for a failure too when a response head came first), and
/// `NetworkLoggerPlugin` logs them when its options say `.timings`.
final class PluginTimingsTests: FeedServerTestCase {
    private struct Probe: PluginType {
        let events: Recorder<String>
        let measured: Recorder<HTTPClientTimings>

        func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
            events.append("didReceive")
        }

        func didMeasure(_ timings: HTTPClientTimings, target: any TargetType) {
            measured.append(timings)
            events.append("didMeasure")
        }
    }

    private func request(_ provider: NetworkProvider<ServerRoute>, _ path: String) -> Result<Response, ProviderError>? {
        let answers = Recorder<Result<Response, ProviderError>>()
        let done = expectation(description: path)
        provider.request(route(path)) { result in
            answers.append(result)
            done.fulfill()
        }
        wait(for: [done], timeout: 15)
        return answers.values.first
    }

    func testPluginsHearTheTimingsAfterTheResponseAndTheLoggerWritesThem() throws {
        let events = Recorder<String>()
        let measured = Recorder<HTTPClientTimings>()
        let lines = LineCollector()
        let transport = SocketTransport()
        defer { transport.close() }
        let provider = NetworkProvider<ServerRoute>(transport: transport, plugins: [
            Probe(events: events, measured: measured),
            NetworkLoggerPlugin(configuration: .init(output: lines.output, logOptions: [.timings])),
        ])
        let first = try XCTUnwrap(request(provider, "bytes/5000")).get()
        XCTAssertEqual(first.timings, measured.values.first, "the response's own timings")
        _ = try XCTUnwrap(request(provider, "echo")).get()
        XCTAssertEqual(events.values, ["didReceive", "didMeasure", "didReceive", "didMeasure"])
        let timings = measured.values
        XCTAssertEqual(timings.map(\.reusedConnection), [false, true])
        XCTAssertGreaterThan(timings.first?.bytesReceived ?? 0, 5_000)
        let port = server.port
        let logged = lines.lines.filter { $0.contains("Timings: ") }
        XCTAssertEqual(logged.count, 2, lines.text)
        XCTAssertTrue(logged.first?.contains("connected ") == true && logged.first?.hasSuffix("new connection to 127.0.0.1:\(port)") == true, lines.text)
        XCTAssertTrue(logged.last?.contains("reused connection to 127.0.0.1:") == true, lines.text)
        XCTAssertFalse(logged.last?.contains("connected ") == true, "a reused connection has no connect: \(lines.text)")
    }

    func testAFailureAfterAHeadStillBringsItsTimings() throws {
        let measured = Recorder<HTTPClientTimings>()
        let transport = SocketTransport()
        defer { transport.close() }
        let provider = NetworkProvider<ServerRoute>(transport: transport, plugins: [Probe(events: Recorder(), measured: measured)])
        let result = try XCTUnwrap(request(provider, "half"))
        guard case .failure(.underlying(_, let partial?)) = result else { return XCTFail("expected a failure with the head, got \(result)") }
        XCTAssertEqual(partial.statusCode, 200)
        let timings = try XCTUnwrap(measured.values.first)
        XCTAssertNotNil(timings.firstByte)
        XCTAssertNotNil(timings.finished)
    }

    /// Over https the logged line ends with the handshake's version, cipher and ALPN, as the
    /// timings measured them; plain http's has none of it.
    func testTheLoggerWritesTheTLSFieldsOverHTTPS() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        let secure = try FeedServer(configuration: .init(tls: TLSFixtures.server()))
        defer { secure.stop() }
        let measured = Recorder<HTTPClientTimings>()
        let lines = LineCollector()
        let transport = SocketTransport(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), tls: TLSFixtures.client))
        defer { transport.close() }
        let provider = NetworkProvider<ServerRoute>(transport: transport, plugins: [
            Probe(events: Recorder(), measured: measured),
            NetworkLoggerPlugin(configuration: .init(output: lines.output, logOptions: [.timings])),
        ])
        let answers = Recorder<Result<Response, ProviderError>>()
        let done = expectation(description: "echo over https")
        provider.request(ServerRoute(baseURL: secure.baseURL, path: "echo")) { result in
            answers.append(result)
            done.fulfill()
        }
        wait(for: [done], timeout: 15)
        XCTAssertEqual(try XCTUnwrap(answers.values.first).get().statusCode, 200)
        let tls = try XCTUnwrap(measured.values.first?.tls, "the timings have the handshake")
        let cipher = try XCTUnwrap(tls.cipher)
        XCTAssertEqual(tls.applicationProtocol, "http/1.1")
        let line = try XCTUnwrap(lines.lines.first { $0.contains("Timings: ") }, lines.text)
        XCTAssertTrue(line.contains("secured "), line)
        let remote = try XCTUnwrap(measured.values.first?.remoteAddress)
        XCTAssertTrue(remote.hasSuffix(":\(secure.port)"), remote)
        XCTAssertTrue(line.hasSuffix("new connection to \(remote); \(tls.version), \(cipher), ALPN http/1.1"), line)
        XCTAssertTrue(line.contains("TLS 1."), line)

        let plain = LineCollector()
        let plainTransport = SocketTransport()
        defer { plainTransport.close() }
        let plainProvider = NetworkProvider<ServerRoute>(transport: plainTransport, plugins: [
            NetworkLoggerPlugin(configuration: .init(output: plain.output, logOptions: [.timings])),
        ])
        _ = try XCTUnwrap(request(plainProvider, "echo")).get()
        let plainLine = try XCTUnwrap(plain.lines.first { $0.contains("Timings: ") }, plain.text)
        XCTAssertFalse(plainLine.contains("TLS") || plainLine.contains("ALPN"), plainLine)
    }

    func testTheLoggerIsSilentAboutTimingsUnlessAsked() throws {
        let lines = LineCollector()
        let transport = SocketTransport()
        defer { transport.close() }
        let provider = NetworkProvider<ServerRoute>(transport: transport, plugins: [NetworkLoggerPlugin(configuration: .init(output: lines.output, logOptions: .verbose))])
        _ = try XCTUnwrap(request(provider, "echo")).get()
        XCTAssertFalse(lines.text.contains("Timings"), lines.text)
        XCTAssertFalse(lines.lines.isEmpty)
    }
}
