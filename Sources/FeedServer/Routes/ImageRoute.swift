import Foundation
import HTTPWire

/// `/images/{name}`: the demo picture of `name` as a baseline JPEG (the same bytes every time),
/// and its faults: `/images/truncated/{name}` (the first half of the file, as a complete HTTP
/// answer), `/images/not-jpeg/{name}` (an HTML page labelled `image/jpeg`) and
/// `/images/slow/{ms}/{name}` (the picture after `ms` milliseconds, at most 60000). A client
/// that closes while a slow picture waits is counted in `FeedServer.abandonedImageCount`.
enum ImageRoute {
    static let prefix = "images"

    static func handle(_ route: RouteContext, parts: [String]) -> Connection.Disposition {
        let rest = Array(parts.dropFirst())
        switch rest.first {
        case "truncated" where rest.count > 1:
            let jpeg = DemoPictureCache.shared.jpeg(named: rest.dropFirst().joined(separator: "/"))
            return route.respond(image(Array(jpeg.prefix(jpeg.count / 2))))
        case "not-jpeg" where rest.count > 1:
            return route.respond(image(Array("<!DOCTYPE html><html><body><h1>Not a picture</h1></body></html>".utf8)))
        case "slow" where rest.count > 2:
            guard let milliseconds = Int(rest[1]), (0...60_000).contains(milliseconds) else {
                return route.badRequest("slow image delay must be 0...60000 ms, got \(rest[1])")
            }
            guard route.afterWait else { return .wait(.milliseconds(milliseconds), watchingForClose: true) }
            return route.respond(image(DemoPictureCache.shared.jpeg(named: rest.dropFirst(2).joined(separator: "/"))))
        default:
            guard !rest.isEmpty else { return route.badRequest("an image path needs a file name") }
            return route.respond(image(DemoPictureCache.shared.jpeg(named: rest.joined(separator: "/"))))
        }
    }

    private static func image(_ bytes: [UInt8]) -> HTTPResponse {
        var response = Responses.response(status: 200, contentType: "image/jpeg", body: bytes)
        response.head.headers.add(name: "Cache-Control", value: "public, max-age=31536000, immutable")
        return response
    }
}
