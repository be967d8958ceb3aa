import HTTPWire

/// `/redirect/{status}/{n}`: a redirect (301, 302, 303, 307 or 308) with a short text body;
/// `Location` is `/redirect/{status}/{n-1}` while n is above 1, then `/echo`, so a client that
/// follows n redirects ends at `/echo` with the method and body the last hop was sent with.
enum RedirectRoute {
    static let prefix = "redirect"
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]
    /// The longest chain served.
    static let maxHops = 100

    static func handle(_ route: RouteContext, status text: String, hops hopsText: String) -> Connection.Disposition {
        guard let status = Int(text), statuses.contains(status) else {
            return route.badRequest("redirect status must be 301, 302, 303, 307 or 308, got \(text)")
        }
        guard let hops = Int(hopsText), (1...maxHops).contains(hops) else {
            return route.badRequest("redirect count must be 1...\(maxHops), got \(hopsText)")
        }
        let location = hops > 1 ? "/\(prefix)/\(status)/\(hops - 1)" : "/echo"
        var response = Responses.response(status: status, contentType: "text/plain; charset=utf-8",
                                          body: Array("redirecting to \(location)".utf8))
        response.head.headers.add(name: "Location", value: location)
        return route.respond(response)
    }
}
