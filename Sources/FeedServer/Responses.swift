import Foundation
import HTTPWire

/// Builders for the server's standard responses.
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
        var headers: HTTPHeaders = ["Server": "FeedServer"]
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        return HTTPResponse(head: HTTPResponseHead(status: status, headers: headers), body: body)
    }
}
