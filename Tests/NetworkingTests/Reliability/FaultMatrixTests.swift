import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Reactive
import TestSupport
import XCTest

/// Every fault the server can produce, through the classified pipeline
/// (`rx.request` -> `filterSuccessfulStatusCodes` -> `classifyErrors` -> decode), on both
/// transports, and through `SocketTransport` over TLS (`FaultMatrixTests+TLS.swift`): each ends in
/// its documented error within its time limit, nothing crashes or hangs, and afterwards no
/// socket is left open and no subscription is left alive.
final class FaultMatrixTests: LeakCheckingTestCase {
    /// What a fault must end in.
    enum Expected: CustomStringConvertible {
        case notConnected, lostConnection, timeout, badResponse, tooLarge
        /// The connect deadline (`TransportError.timedOut(.connect, ...)`), classified as a timeout.
        case connectTimeout
        case rest(Int, code: String?)

        var description: String {
            switch self {
            case .notConnected: return "no connection"
            case .lostConnection: return "lost connection"
            case .timeout: return "timeout"
            case .connectTimeout: return "connect timeout"
            case .badResponse: return "bad response"
            case .tooLarge: return "response too large"
            case .rest(let status, let code): return "REST \(status) \(code ?? "-")"
            }
        }

        func matches(_ error: any Error) -> Bool {
            switch (self, error as? APIError) {
            case (.notConnected, .internetConnection(let root)?): return root.isNotConnection
            case (.lostConnection, .internetConnection(let root)?): return root.isLostConnection
            case (.timeout, .requestTimeout?): return true
            case (.connectTimeout, .requestTimeout(let root)?):
                guard case .underlying(let transport, _)? = root as? ProviderError,
                      case .timedOut(.connect, _, _)? = transport as? TransportError else { return false }
                return true
            case (.rest(let status, let code), .restError(_, let statusCode, let errorCode)?):
                return status == statusCode && code == errorCode
            case (.badResponse, nil): return error.isBadResponse
            case (.tooLarge, nil):
                if case .underlying(let root, _)? = error as? ProviderError, case .responseTooLarge? = root as? TransportError {
                    return true
                }
                return false
            default: return false
            }
        }
    }

    /// Who answers a fault's request.
    enum Answerer {
        /// `FeedServer` (over TLS in the TLS matrix).
        case feedServer
        /// Nobody: a port whose server has stopped.
        case refusedPort
        /// A server that fails the TLS handshake (TLS matrix only).
        case tlsScript(ScriptedTLSServer.Behavior)
    }

    struct Fault {
        let name: String
        let path: String
        let expected: Expected
        var crashesURLSession = false
        var answerer = Answerer.feedServer
    }

    static let faults: [Fault] = [
        Fault(name: "refused port", path: "echo", expected: .notConnected, answerer: .refusedPort),
        Fault(name: "hang", path: "hang", expected: .timeout),
        Fault(name: "drop", path: "drop", expected: .lostConnection),
        // Over TLS: cut after the head, in the body, without close_notify.
        Fault(name: "half body", path: "half", expected: .lostConnection),
        // Over TLS: the connection ends inside a record, without close_notify; over http 16 bytes short.
        Fault(name: "response cut inside its last record", path: "cut-record", expected: .lostConnection),
        Fault(name: "slow drip past the deadline", path: "drip?interval=300&count=30", expected: .timeout),
        Fault(name: "short Content-Length body", path: "wrong-length?actual=10&declared=20", expected: .lostConnection),
        Fault(name: "garbage instead of HTTP", path: "garbage", expected: .badResponse),
        Fault(name: "response cut inside its headers", path: "cut-headers", expected: .lostConnection, crashesURLSession: true),
        Fault(name: "404 with JSON", path: "status/404", expected: .rest(404, code: "E404")),
        Fault(name: "500 with HTML", path: "status/500?body=html", expected: .rest(500, code: nil)),
        Fault(name: "503 with an empty body", path: "status/503?body=empty", expected: .rest(503, code: nil)),
        Fault(name: "60 MB body", path: "bytes/60000000", expected: .tooLarge),
    ]

    func testEveryFaultThroughSocketTransport() throws {
        try runMatrix(transportName: "SocketTransport") {
            SocketTransport(configuration: .init(idleTimeout: .seconds(1), overallDeadline: .seconds(3)))
        }
    }

    func testEveryFaultThroughURLSessionTransport() throws {
        try runMatrix(transportName: "URLSessionTransport") {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 1
            return URLSessionTransport(configuration: configuration, overallDeadline: .seconds(3))
        }
    }

    /// Runs `faults` through a new transport each, against a server serving `tls` (nil: plain HTTP).
    func runMatrix(transportName: String, faults: [Fault] = faults, tls: TLSServerConfiguration? = nil,
                   makeTransport: () -> any HTTPTransport) throws {
        try warmUp(makeTransport(), tls: tls)
        for fault in faults where !(fault.crashesURLSession && transportName == "URLSessionTransport") {
            let descriptorsBefore = openDescriptorCount()
            try check(fault, transport: makeTransport(), transportName: transportName, tls: tls)
            let closed = waitUntil(timeout: 10) { openDescriptorCount() <= descriptorsBefore }
            XCTAssertTrue(closed, "\(transportName), \(fault.name): \(openDescriptorCount() - descriptorsBefore) descriptors left open")
        }
    }

    /// FoundationNetworking opens process-wide descriptors (its event loop) on first use;
    /// one good request before counting keeps those out of the per-fault balance.
    private func warmUp(_ transport: any HTTPTransport, tls: TLSServerConfiguration?) throws {
        let server = try FeedServer(configuration: .init(tls: tls))
        defer {
            server.stop()
            (transport as? SocketTransport)?.close()
        }
        let provider = NetworkProvider<FaultRoute>(endpointClosure: FaultRoute.endpoint, transport: transport)
        let done = Recorder<Bool>()
        let subscription = provider.rx.request(FaultRoute(baseURL: server.baseURL, pathAndQuery: "echo"))
            .subscribe { done.append((try? $0.get()) != nil) }
        XCTAssertTrue(waitUntil(timeout: 10) { done.count == 1 })
        subscription.dispose()
        XCTAssertEqual(done.values, [true], "the warm-up request succeeds")
    }

    private func check(_ fault: Fault, transport: any HTTPTransport, transportName: String, tls: TLSServerConfiguration?) throws {
        let base: URL
        let stop: () -> Void
        var script: ScriptedTLSServer?
        switch fault.answerer {
        case .feedServer, .refusedPort:
            let server = try FeedServer(configuration: .init(tls: tls))
            base = server.baseURL
            stop = server.stop
            if case .refusedPort = fault.answerer { server.stop() }
        case .tlsScript(let behavior):
            let server = try ScriptedTLSServer(behavior)
            base = server.baseURL
            stop = server.stop
            script = server
        }
        defer {
            stop()
            (transport as? SocketTransport)?.close()
        }
        let provider = NetworkProvider<FaultRoute>(endpointClosure: FaultRoute.endpoint, transport: transport)
        let route = FaultRoute(baseURL: base, pathAndQuery: fault.path)
        let outcome = Recorder<Result<Echo, any Error>>()
        let started = Date()
        let subscription = provider.rx.request(route)
            .filterSuccessfulStatusCodes()
            .classifyErrors()
            .map(Echo.self)
            .subscribe { outcome.append($0) }
        let answered = waitUntil(timeout: 15) { outcome.count == 1 }
        subscription.dispose()
        XCTAssertTrue(answered, "\(transportName), \(fault.name): no answer within 15 s")
        guard case .failure(let error)? = outcome.values.first else {
            return XCTFail("\(transportName), \(fault.name): expected \(fault.expected), got \(String(describing: outcome.values.first))")
        }
        XCTAssertTrue(fault.expected.matches(error),
                      "\(transportName), \(fault.name): expected \(fault.expected), got \(error)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        if let script {
            XCTAssertEqual(script.clientHelloCount, 1, "\(transportName), \(fault.name): the handshake began, once")
        }
    }
}

/// A fault route, with its query kept as given.
struct FaultRoute: TargetType {
    let baseURL: URL
    let pathAndQuery: String
    var path: String { "" }
    var method: HTTPMethod { .get }
    var task: RequestTask { .requestPlain }
    var headers: [String: String]? { nil }
}

extension FaultRoute {
    /// The endpoint of the route: base URL plus the path and query, unescaped.
    static func endpoint(_ route: FaultRoute) -> Endpoint {
        Endpoint(url: route.baseURL.absoluteString + route.pathAndQuery, sampleResponseClosure: { .networkResponse(200, Data()) },
                 method: route.method, task: route.task, httpHeaderFields: route.headers)
    }
}
