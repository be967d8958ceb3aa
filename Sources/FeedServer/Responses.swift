import Foundation
import HTTPWire

/// Builders for the server's standard responses. Every head the server writes but `100 Continue`
/// starts here (`head`), so each carries `Server` and the `Date` RFC 9110 §6.6.1 asks for.
enum Responses {
    static func json(status: Int, code: String, message: String, keepAlive: Bool = true) -> HTTPResponse {
        let object: [String: String] = ["code": code, "message": message]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return response(status: status, contentType: "application/json; charset=utf-8", body: Array(body), keepAlive: keepAlive)
    }

    static func jsonObject(_ object: Any, status: Int = 200) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return response(status: status, contentType: "application/json; charset=utf-8", body: Array(body))
    }

    static func response(status: Int, contentType: String?, body: [UInt8], keepAlive: Bool = true) -> HTTPResponse {
        var headers = dated
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        return HTTPResponse(head: HTTPResponseHead(status: status, headers: headers), body: body)
    }

    /// A head of `status`: `Server`, `Date` (now), then `fields` in their order.
    static func head(status: Int, fields: HTTPHeaders) -> HTTPResponseHead {
        var headers = dated
        for field in fields { headers.add(name: field.name, value: field.value) }
        return HTTPResponseHead(status: status, headers: headers)
    }

    /// The fields every response starts with.
    private static var dated: HTTPHeaders {
        ["Server": "FeedServer", "Date": ResponseDate.now()]
    }
}
