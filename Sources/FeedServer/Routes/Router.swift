import HTTPWire

/// Maps a request path to the route that answers it.
enum Router {
    static let feedPath = "/services/feeds/photos_public.gne"

    static func handle(_ request: ReceivedRequest, on connection: Connection, keepAlive: Bool) -> Connection.Disposition {
        let path = request.head.path
        let query = QueryParameters(request.head.query)
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let route = RouteContext(request: request, query: query, connection: connection, keepAlive: keepAlive)
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
        case ("wrong-length", _): return FaultRoutes.wrongLength(route)
        case ("chunked", _): return FaultRoutes.chunked(route)
        case ("flaky", _): return FaultRoutes.flaky(route)
        case (ImageRoute.prefix, _): return ImageRoute.handle(route, parts: parts)
        case (PhotoPageRoute.prefix, _): return PhotoPageRoute.handle(route, parts: parts)
        default:
            if path == feedPath { return FeedRoute.handle(route) }
            return route.respond(Responses.json(status: 404, code: "E404", message: "No route for \(path)"))
        }
    }
}

/// What a route needs: the request, its query, and the connection to answer on.
struct RouteContext {
    let request: ReceivedRequest
    let query: QueryParameters
    let connection: Connection
    let keepAlive: Bool

    var server: FeedServer { connection.server }

    /// Sends a complete response (head only for `HEAD`), adding `Connection: close` when the exchange ends the connection.
    func respond(_ response: HTTPResponse) -> Connection.Disposition {
        var response = response
        if !keepAlive, !response.head.headers.containsToken("close", in: "Connection") {
            response.head.headers.add(name: "Connection", value: "close")
        } else if keepAlive, request.head.version == .http1_0 {
            response.head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        let bytes: [UInt8]
        if request.head.method.uppercased() == "HEAD" {
            var head = response.head
            head.headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
            bytes = head.serialized()
        } else {
            bytes = response.serialized()
        }
        let written = connection.write(bytes)
        return written && keepAlive && response.head.keepAlive ? .keepAlive : .close
    }

    func badRequest(_ message: String) -> Connection.Disposition {
        respond(Responses.json(status: 400, code: "E400", message: message))
    }
}
