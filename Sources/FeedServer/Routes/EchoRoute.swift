import Foundation
import HTTPWire

/// `/echo` (any method): the request as JSON `{"method","path","query","headers","body"}`, the body base64-encoded.
enum EchoRoute {
    static func handle(_ route: RouteContext) -> Connection.Disposition {
        let head = route.request.head
        var headers: [String: String] = [:]
        for field in head.headers {
            if let existing = headers[field.name] {
                headers[field.name] = existing + ", " + field.value
            } else {
                headers[field.name] = field.value
            }
        }
        let object: [String: Any] = [
            "method": head.method,
            "path": head.path,
            "query": head.query ?? "",
            "headers": headers,
            "body": Data(route.request.body).base64EncodedString(),
        ]
        return route.respond(Responses.jsonObject(object))
    }
}
