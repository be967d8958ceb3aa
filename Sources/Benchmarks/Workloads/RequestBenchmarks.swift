import Foundation
import Networking
import Reactive

/// g: a stubbed, immediate request through the provider, status filter and decoding.
enum RequestBenchmarks {
    /// The tiny body both sides decode.
    struct Tiny: Decodable, Sendable {
        let id: Int
        let name: String
        let active: Bool
    }

    static let body = Data(#"{"id": 42, "name": "tiny", "active": true}"#.utf8)

    /// A target whose stub answers 200 with ``body``.
    struct TinyTarget: TargetType {
        var baseURL: URL { URL(fixed: "http://127.0.0.1/") }
        var path: String { "tiny" }
        var method: HTTPMethod { .get }
        var task: RequestTask { .requestPlain }
        var headers: [String: String]? { nil }
        var sampleData: Data { RequestBenchmarks.body }
    }

    static func run(_ context: BenchmarkContext) {
        let requests = context.size(20_000)
        let provider = NetworkProvider<TinyTarget>(stubClosure: NetworkProvider.immediatelyStub)
        context.compare("g.stubbed-request-decode", operations: requests, baselineName: "JSONDecoder alone",
                        ours: { stubbed(requests, provider) }, baseline: { decodeAlone(requests) })
    }

    private static func stubbed(_ requests: Int, _ provider: NetworkProvider<TinyTarget>) -> Int {
        let tally = Tally()
        let target = TinyTarget()
        for _ in 0..<requests {
            provider.rx.request(target)
                .filterSuccessfulStatusCodes()
                .map(Tiny.self)
                .subscribe(onSuccess: { tally.add($0.id) }, onFailure: { _ in tally.add(-1) })
                .dispose()
        }
        return tally.value
    }

    private static func decodeAlone(_ requests: Int) -> Int {
        let tally = Tally()
        let data = opaque(body)
        for _ in 0..<requests {
            if let tiny = try? JSONDecoder().decode(Tiny.self, from: data) {
                tally.add(tiny.id)
            } else {
                tally.add(-1)
            }
        }
        return tally.value
    }
}
