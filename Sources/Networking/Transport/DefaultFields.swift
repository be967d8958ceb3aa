import HTTPWire

/// `SessionOptions.headers` made ready once, for the requests that set no field of their own
/// (a provider's plain GET): the fields to send as the dictionary the session works on and as
/// the client's field list, with and without `Accept-Encoding` (a download). A request then
/// shares them, with no field hashed, copied or sorted.
struct DefaultFields: Sendable {
    /// What a request with no fields of its own sends: the fields and their list.
    struct Set: Sendable {
        let fields: [String: String]
        /// `HTTPHeaders(fields)`: the order `SocketTransport` sends a dictionary's fields in.
        let list: HTTPHeaders
    }

    /// For a request whose body is kept in memory.
    let plain: Set
    /// For a download to a file: no `Accept-Encoding`.
    let downloading: Set

    /// `headers` with one field per name without case, as adding them one by one to an empty
    /// request's fields keeps them (of names differing only in case, the first in order).
    init(_ headers: [String: String]) {
        var kept: [String: String] = [:]
        for name in headers.keys.sorted() where HeaderFields.key(name, in: kept) == nil {
            kept[name] = headers[name]
        }
        plain = Set(fields: kept, list: HTTPHeaders(kept))
        let downloaded = kept.filter { !HeaderFields.sameName($0.key, "Accept-Encoding") }
        downloading = Set(fields: downloaded, list: HTTPHeaders(downloaded))
    }

    /// The set for a request to a file (`downloading`) or not.
    func set(downloading isDownload: Bool) -> Set {
        isDownload ? downloading : plain
    }
}
