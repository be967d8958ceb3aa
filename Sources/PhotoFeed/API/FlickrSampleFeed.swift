/// A small hand-made feed in Flickr's shape, used as ``FlickrAPI``'s `sampleData` (stubs,
/// `photo-feed --offline`). It carries the escapes real feeds carry: `\/`, `\"`, `\uXXXX` and
/// the invalid `\'` that ``FeedSanitizer`` repairs.
public enum FlickrSampleFeed {
    /// The links of the sample's photos, in feed order.
    public static let links: [String] = (1...5).map { "https://www.flickr.com/photos/sample/\(5_000_000 + $0)/" }

    /// The feed's JSON text (as Flickr sends it: not valid JSON until sanitized).
    public static let json: String = #"""
    {
    		"title": "Recent Uploads tagged landscape and portrait",
    		"link": "https:\/\/www.flickr.com\/photos\/tags\/landscape\/",
    		"description": "",
    		"modified": "2026-11-20T08:15:00Z",
    		"generator": "https:\/\/www.flickr.com",
    		"items": [
    	   {
    			"title": "Morning over the fjord",
    			"link": "https:\/\/www.flickr.com\/photos\/sample\/5000001\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/5000001_a1b2c3d4e5_m.jpg"},
    			"date_taken": "2026-11-19T06:41:12-08:00",
    			"description": " <p><a href=\"https:\/\/www.flickr.com\/people\/sample\/\">Sample<\/a> posted a photo:<\/p> ",
    			"published": "2026-11-20T08:14:51Z",
    			"author": "nobody@flickr.com (\"Ingrid Dahl\")",
    			"author_id": "10000001@N01",
    			"tags": "landscape fjord morning"
    	   },
    	   {
    			"title": "Portrait d\u00e9cembre",
    			"link": "https:\/\/www.flickr.com\/photos\/sample\/5000002\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/5000002_b2c3d4e5f6_m.jpg"},
    			"date_taken": "2026-11-18T15:02:40-08:00",
    			"description": " <p>Studio light<\/p> ",
    			"published": "2026-11-20T08:12:03Z",
    			"author": "nobody@flickr.com (\"Am\u00e9lie Roux\")",
    			"author_id": "10000002@N02",
    			"tags": "portrait studio"
    	   },
    	   {
    			"title": "Grandma\'s garden",
    			"link": "https:\/\/www.flickr.com\/photos\/sample\/5000003\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/5000003_c3d4e5f6a7_m.jpg"},
    			"date_taken": "2026-11-17T11:30:00-08:00",
    			"description": " <p>It\'s \"always\" spring here<\/p> ",
    			"published": "2026-11-20T08:10:44Z",
    			"author": "nobody@flickr.com (\"O\'Brien\")",
    			"author_id": "10000003@N03",
    			"tags": "landscape garden"
    	   },
    	   {
    			"title": " ",
    			"link": "https:\/\/www.flickr.com\/photos\/sample\/5000004\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/5000004_d4e5f6a7b8_m.jpg"},
    			"date_taken": "2026-11-16T09:00:00-08:00",
    			"description": "",
    			"published": "2026-11-20T08:09:30Z",
    			"author": "nobody@flickr.com (\"kenji\")",
    			"author_id": "10000004@N04",
    			"tags": ""
    	   },
    	   {
    			"title": "Dunes at dusk",
    			"link": "https:\/\/www.flickr.com\/photos\/sample\/5000005\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/5000005_e5f6a7b8c9_m.jpg"},
    			"date_taken": "2026-11-15T17:45:10-08:00",
    			"description": " <p>Sahara<\/p> ",
    			"published": "2026-11-20T08:05:00Z",
    			"author": "nobody@flickr.com (\"Youssef\")",
    			"author_id": "10000005@N05",
    			"tags": "landscape desert dusk"
    	   }
    		]
    }
    """#
}
