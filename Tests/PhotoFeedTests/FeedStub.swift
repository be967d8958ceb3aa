import Foundation
import Locking
import Networking
import PhotoFeed
import Synchronization

/// A photo numbered `number`, with a link unique to that number.
func photoItem(_ number: Int) -> Photo.Item {
    Photo.Item(title: "Photo \(number)",
               link: "https://www.flickr.com/photos/test/\(number)/",
               media: .init(m: "https://live.staticflickr.com/\(number)_m.jpg"),
               author: "nobody@flickr.com (\"tester\")",
               authorID: "1@N01",
               published: "2026-11-20T08:00:00Z",
               tags: "test",
               description: "")
}

/// The JSON of a feed page holding the photos numbered `numbers`.
func feedData(_ numbers: [Int]) -> Data {
    let photo = Photo(title: "Test feed", link: "https://www.flickr.com/", items: numbers.map(photoItem))
    return (try? JSONEncoder().encode(photo)) ?? Data()
}

/// The links of the photos numbered `numbers`.
func links(_ numbers: [Int]) -> [String] {
    numbers.map { photoItem($0).link }
}

/// The links shown by `sections`, section by section.
func sectionLinks(_ sections: [PhotoSection]) -> [[String]] {
    sections.map { $0.items.map(\.identity) }
}

/// Answers each stubbed request with the next scripted response and counts requests as they start.
final class ScriptedFeed: Sendable {
    private let responses: Lock<[EndpointSampleResponse]>
    private let started = Lock<[URL]>([])

    init(_ responses: [EndpointSampleResponse]) {
        self.responses = Lock(responses)
    }

    /// Requests started so far, by URL.
    var requestedURLs: [URL] { started.withLock { $0 } }

    /// An endpoint closure recording each request and answering from the script (a 500 once it runs out).
    var endpointClosure: NetworkProvider<FlickrAPI>.EndpointClosure {
        { [self] target in
            let base = NetworkProvider<FlickrAPI>.defaultEndpointMapping(for: target)
            if let url = try? base.urlRequest().url { started.withLock { $0.append(url) } }
            return Endpoint(url: base.url, sampleResponseClosure: { [self] in
                responses.withLock { $0.isEmpty ? .networkResponse(500, Data()) : $0.removeFirst() }
            }, method: base.method, task: base.task, httpHeaderFields: base.httpHeaderFields)
        }
    }
}
