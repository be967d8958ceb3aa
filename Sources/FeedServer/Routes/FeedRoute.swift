import Foundation

/// `GET /services/feeds/photos_public.gne?tags=&tagmode=&format=json&nojsoncallback=1`:
/// a generated page (new items each time, their `media.m` at this server's `/images/` and their
/// `link` at its `/photos/` pages), JSONP-wrapped without `nojsoncallback=1`; applies the
/// configured latency and fault rate, or serves `feedOverride` verbatim.
enum FeedRoute {
    static func handle(_ route: RouteContext) -> Connection.Disposition {
        let server = route.server
        let configuration = server.configuration
        if configuration.feedLatency > .zero, !route.afterWait {
            return .wait(configuration.feedLatency, watchingForClose: false)
        }
        if configuration.feedFaultRate > 0 {
            let fails = server.state.withLock { $0.faultRandom.chance(configuration.feedFaultRate) }
            if fails {
                return route.respond(Responses.json(status: 503, code: "E503", message: "Injected feed fault"))
            }
        }
        if let override = configuration.feedOverride {
            return route.respond(Responses.response(status: 200, contentType: "application/json; charset=utf-8", body: Array(override)))
        }
        guard (route.query["format"] ?? "json") == "json" else {
            return route.respond(Responses.json(status: 400, code: "E400", message: "Only format=json is supported"))
        }
        let tags = FeedGenerator.normalizedTags(route.query["tags"] ?? "")
        let mode = FeedGenerator.TagMode(rawValue: (route.query["tagmode"] ?? "all").lowercased()) ?? .all
        let page = server.state.withLock { state in
            defer { state.feedPage += 1 }
            return state.feedPage
        }
        let json = server.generator.page(number: page, tags: tags, tagmode: mode, imageBaseURL: server.imageURL(named: ""),
                                         pageBaseURL: server.baseURL.absoluteString)
        if route.query["nojsoncallback"] == "1" {
            return route.respond(Responses.response(status: 200, contentType: "application/json; charset=utf-8", body: Array(json)))
        }
        let wrapped = Array("jsonFlickrFeed(".utf8) + Array(json) + Array(")".utf8)
        return route.respond(Responses.response(status: 200, contentType: "application/javascript; charset=utf-8", body: wrapped))
    }
}
