import Foundation

/// `/echo` (any method): the request as JSON `{"body","headers","method","path","query"}`, keys
/// sorted, the body base64-encoded and repeated fields joined with ", ".
///
/// The JSON is written by `FeedJSONWriter`, not `JSONSerialization`: the benchmarks ask `/echo`
/// for its tiny answer so that the clients' own cost shows, and `JSONSerialization` (boxing,
/// dynamic casts) would bound every client measured against it. The writer escapes `/` and
/// non-ASCII characters, which any JSON parser reads back as the same strings.
enum EchoRoute {
    static func handle(_ route: RouteContext) -> Connection.Disposition {
        let head = route.request.head
        let headers = head.headers.joinedByName
        var json = FeedJSONWriter(capacity: 256)
        json.raw("{\"body\":\"")
        json.escaped(Data(route.request.body).base64EncodedString())
        json.raw("\",\"headers\":{")
        for (index, name) in headers.keys.sorted().enumerated() {
            json.raw(index == 0 ? "\"" : ",\"")
            json.escaped(name)
            json.raw("\":\"")
            json.escaped(headers[name] ?? "")
            json.raw("\"")
        }
        json.raw("},\"method\":\"")
        json.escaped(head.method)
        json.raw("\",\"path\":\"")
        json.escaped(head.path)
        json.raw("\",\"query\":\"")
        json.escaped(head.query ?? "")
        json.raw("\"}")
        return route.respond(Responses.response(status: 200, contentType: "application/json; charset=utf-8", body: json.bytes))
    }
}
