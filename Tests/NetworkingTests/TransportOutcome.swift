import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import XCTest

/// What one `HTTPTransport.send` reported: every completion (there must be exactly one) and the
/// progress values.
final class TransportOutcome: Sendable {
    let results = Lock<[Result<Response, ProviderError>]>([])
    let progress = Lock<[Double]>([])
    let done = DispatchSemaphore(value: 0)

    func record(_ result: Result<Response, ProviderError>) {
        results.withLock { $0.append(result) }
        done.signal()
    }

    var first: Result<Response, ProviderError>? { results.withLock { $0.first } }
    var count: Int { results.withLock { $0.count } }

    /// Sends `request` through `transport` and waits up to `wait` seconds for its completion:
    /// the outcome (later completions still land there) and the first result.
    static func sending(_ request: URLRequest, through transport: any HTTPTransport, wait: TimeInterval,
                        file: StaticString, line: UInt) throws -> (TransportOutcome, Result<Response, ProviderError>) {
        let outcome = TransportOutcome()
        _ = transport.send(request, progress: { value in outcome.progress.withLock { $0.append(value) } }, completion: outcome.record)
        XCTAssertEqual(outcome.done.wait(timeout: .now() + wait), .success, "no answer for \(request.url?.absoluteString ?? "?")",
                       file: file, line: line)
        return (outcome, try XCTUnwrap(outcome.first, "no answer", file: file, line: line))
    }
}
