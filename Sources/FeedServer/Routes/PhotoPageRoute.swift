import Foundation
import HTTPWire

/// `/photos/{author}/{id}/`: the page of a generated photo, which its feed item's `link` points
/// to: its title, author, picture (from `/images/`) and caption, as HTML; and `/photos/{author}/`,
/// the author's page the description links to. Ids and authors the generator does not make,
/// or a photo asked for under another author, are a 404 page.
enum PhotoPageRoute {
    static let prefix = "photos"

    static func handle(_ route: RouteContext, parts: [String]) -> Connection.Disposition {
        let generator = route.server.generator
        switch parts.count {
        case 2:
            guard let author = generator.author(path: parts[1]) else { return notFound(route) }
            return route.respond(page(title: "Photos by \(author.name)", body: """
                <h1>Photos by \(escaped(author.name))</h1>
                <p>An author of photo-feed's demo server, which keeps no list of an author's photos.</p>
                """))
        case 3:
            guard let id = UInt64(parts[2]), let item = generator.item(photoID: id), item.authorPath == parts[1] else {
                return notFound(route)
            }
            let title = item.title.trimmingCharacters(in: .whitespaces).isEmpty ? "Untitled" : item.title
            return route.respond(page(title: title, body: """
                <h1>\(escaped(title))</h1>
                <p>by <a href="/\(prefix)/\(escaped(item.authorPath))/">\(escaped(item.author.name))</a></p>
                <p><img src="/\(ImageRoute.prefix)/\(item.mediaPath)" width="240" height="\(item.height)" alt="\(escaped(title))"></p>
                \(item.caption.map { "<p>\(escaped($0))</p>" } ?? "")
                <p>A photo of photo-feed's demo server: invented, its picture painted from its name.</p>
                """))
        default:
            return notFound(route)
        }
    }

    private static func notFound(_ route: RouteContext) -> Connection.Disposition {
        route.respond(page(status: 404, title: "No such photo", body: "<h1>No such photo</h1>\n<p>\(escaped(route.request.head.path))</p>"))
    }

    private static func page(status: Int = 200, title: String, body: String) -> HTTPResponse {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>\(escaped(title))</title></head>
            <body>
            \(body)
            </body>
            </html>

            """
        return Responses.response(status: status, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }

    /// `text` with HTML's five special characters escaped.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
