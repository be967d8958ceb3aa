import HTTPWire

/// Maps a request path to the route that answers it.
enum Router {
    static let feedPath = "/services/feeds/photos_public.gne"
    /// The methods every route answers (RFC 9110 §9.3 and PATCH, RFC 5789); `/echo` answers any.
    static let implementedMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH"]

    /// The plan for `request` (`afterWait`: the route asked to wait, and the wait is over).
    static func handle(_ request: ReceivedRequest, server: FeedServer, keepAlive: Bool, afterWait: Bool) -> Connection.Disposition {
        let path = request.head.path
        let query = QueryParameters(request.head.query)
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let route = RouteContext(request: request, query: query, server: server, keepAlive: keepAlive, afterWait: afterWait)
        // RFC 9110 §9.3.6: a 2xx to CONNECT opens a tunnel (no Content-Length, the connection no
        // longer HTTP), which this origin server does not run; it closes after saying so.
        if request.head.method == "CONNECT" {
            return route.respond(Responses.json(status: 501, code: "E501", message: "CONNECT is not supported", keepAlive: false))
        }
        // RFC 9110 §9.1: a method the server does not implement gets 501 (methods are
        // case-sensitive: `get` is not `GET`); `/echo` implements every method, by echoing it.
        if !implementedMethods.contains(request.head.method), parts != ["echo"] {
            return route.respond(Responses.json(status: 501, code: "E501", message: "Method \(request.head.method) is not implemented"))
        }
        // RFC 9110 §9.3.7: `OPTIONS *` asks about the server itself (a "ping"): what it implements.
        if request.head.method == "OPTIONS", request.head.target == "*" {
            var response = Responses.response(status: 200, contentType: nil, body: [])
            response.head.headers.add(name: "Allow", value: implementedMethods.joined(separator: ", "))
            return route.respond(response)
        }
        // Routes without parameters also answer any path below them (`/cut-headers/services/...`),
        // so a client given a base URL such as `http://127.0.0.1:PORT/cut-headers/` meets the fault
        // on whatever path it requests.
        switch (parts.first ?? "", parts.count) {
        case ("echo", 1): return EchoRoute.handle(route)
        case ("status", 2): return FaultRoutes.status(route, code: parts[1])
        case ("delay", 2): return FaultRoutes.delay(route, milliseconds: parts[1])
        case ("hang", _): return FaultRoutes.hang(route)
        case ("drop", _): return FaultRoutes.drop(route)
        case ("reset", _): return FaultRoutes.reset(route)
        case ("half", _): return FaultRoutes.half(route)
        case ("bytes", 2): return FaultRoutes.bytes(route, count: parts[1])
        case ("drip", _): return FaultRoutes.drip(route)
        case ("garbage", _): return FaultRoutes.garbage(route)
        case ("cut-headers", _): return FaultRoutes.cutHeaders(route)
        case ("cut-record", _): return FaultRoutes.cutRecord(route)
        case ("wrong-length", _): return FaultRoutes.wrongLength(route)
        case ("until-close", 2): return FaultRoutes.untilClose(route, count: parts[1], sent: nil)
        case ("until-close", 3): return FaultRoutes.untilClose(route, count: parts[1], sent: parts[2])
        case ("chunked", _): return FaultRoutes.chunked(route)
        case ("flaky", _): return FaultRoutes.flaky(route)
        case (RedirectRoute.prefix, 3): return RedirectRoute.handle(route, status: parts[1], hops: parts[2])
        case (CompressionBombRoute.prefix, 2): return CompressionBombRoute.handle(route, decodedBytes: parts[1])
        case (ImageRoute.prefix, _): return ImageRoute.handle(route, parts: parts)
        case (PhotoPageRoute.prefix, _): return PhotoPageRoute.handle(route, parts: parts)
        default:
            if path == feedPath { return FeedRoute.handle(route) }
            return route.respond(Responses.json(status: 404, code: "E404", message: "No route for \(path)"))
        }
    }
}

/// What a route needs: the request, its query, and the server it runs on. A route answers with
/// a plan (`Connection.Disposition`) that the connection runs on its loop; it never waits.
struct RouteContext {
    let request: ReceivedRequest
    let query: QueryParameters
    let server: FeedServer
    let keepAlive: Bool
    /// Whether the route answered `.wait` for this request before and the wait is over.
    let afterWait: Bool

    /// Whether the request is a `HEAD`: its answer is the head a `GET` would get, without the body.
    var isHEAD: Bool { request.head.method == "HEAD" }

    /// Sends a complete response (for `HEAD`, the head `GET` would get: RFC 9110 §9.3.2), with the
    /// connection's fields (`connectionFields`).
    func respond(_ response: HTTPResponse) -> Connection.Disposition {
        var response = response
        response.head = connectionFields(response.head)
        let bytes = isHEAD ? response.framedHead.serialized() : response.serialized()
        return .send(bytes, keepAlive: keepAlive && response.head.keepAlive)
    }

    /// `head` with `Connection: close` when the exchange ends the connection, or `Connection:
    /// keep-alive` when an HTTP/1.0 client's connection stays (RFC 9112 §9.3: without it, such a
    /// client takes the connection for closed after the answer).
    func connectionFields(_ head: HTTPResponseHead) -> HTTPResponseHead {
        guard !head.headers.containsToken("close", in: "Connection") else { return head }
        var head = head
        if !keepAlive {
            head.headers.add(name: "Connection", value: "close")
        } else if request.head.version == .http1_0 {
            head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        return head
    }

    func badRequest(_ message: String) -> Connection.Disposition {
        respond(Responses.json(status: 400, code: "E400", message: message))
    }
}
