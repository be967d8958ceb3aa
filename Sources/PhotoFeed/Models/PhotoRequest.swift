/// The query of Flickr's public photo feed (`photos_public.gne`).
public struct PhotoRequest: Codable, Equatable, Sendable {
    /// Comma-separated tags to match.
    public var tags: String
    /// `"any"` or `"all"`: whether an item must carry any or all of `tags`.
    public var tagmode: String
    /// The response format; `"json"`.
    public var format: String
    /// `"1"` asks for bare JSON instead of a `jsonFlickrFeed(...)` JSONP wrapper.
    public var nojsoncallback: String

    /// Creates a request; the defaults are the documents' query.
    public init(
        tags: String = "landscape, portrait",
        tagmode: String = "any",
        format: String = "json",
        nojsoncallback: String = "1"
    ) {
        self.tags = tags
        self.tagmode = tagmode
        self.format = format
        self.nojsoncallback = nojsoncallback
    }

    /// The URL query items of this request, by parameter name.
    public var queryParameters: [String: String] {
        [
            "tags": tags,
            "tagmode": tagmode,
            "format": format,
            "nojsoncallback": nojsoncallback,
        ]
    }
}
