import HTTPWire

/// `SessionOptions.headers` made ready once as the client's field list, in the order
/// `HTTPHeaders(_:)` gives a dictionary of them, with and without `Accept-Encoding` (a
/// download): a request that sets no field of its own shares it, with no field hashed, copied or
/// sorted, and one that does gets it merged into its own list in one pass.
struct DefaultFields: Sendable {
    /// For a request whose body is kept in memory.
    let plain: HTTPHeaders
    /// For a download to a file: no `Accept-Encoding`.
    let downloading: HTTPHeaders

    /// `headers` with one field per name without case, as adding them one by one to an empty
    /// request's fields keeps them (of names differing only in case, the first in order).
    init(_ headers: [String: String]) {
        var kept: [String: String] = [:]
        for name in headers.keys.sorted() where HeaderFields.key(name, in: kept) == nil {
            kept[name] = headers[name]
        }
        plain = HTTPHeaders(kept)
        downloading = HTTPHeaders(kept.filter { !$0.key.caseInsensitiveEquals("Accept-Encoding") })
    }

    /// The list for a request to a file (`downloading`) or not.
    func list(downloading isDownload: Bool) -> HTTPHeaders {
        isDownload ? downloading : plain
    }

    /// `own` (a request's fields, ordered as `HTTPHeaders(_:)` orders a dictionary) with each of
    /// `defaults` (ordered so too) whose name, without case, it lacks, in its place in that order:
    /// the list `HTTPHeaders(_:)` gives the dictionary of both.
    static func merging(_ defaults: HTTPHeaders, into own: HTTPHeaders) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(own.count + defaults.count)
        let ownFields = own.fields
        var next = ownFields.startIndex
        for field in defaults {
            while next != ownFields.endIndex, HTTPHeaders.nameSortsBefore(ownFields[next].name, field.name) {
                fields.append(ownFields[next])
                next += 1
            }
            // A field of the same name, of any case, sorts here: the request's own wins.
            if next != ownFields.endIndex, ownFields[next].name.caseInsensitiveEquals(field.name) { continue }
            fields.append(field)
        }
        fields.append(contentsOf: ownFields[next...])
        return HTTPHeaders(fields)
    }
}
