/// Word lists the feed generator draws titles, authors and tags from.
enum FeedVocabulary {
    struct Author: Sendable {
        let name: String
        let alias: String?
    }

    static let authors: [Author] = [
        Author(name: "mestes76", alias: "markestes"),
        Author(name: "David and Lisa Mowbray", alias: nil),
        Author(name: "sweetsoursavory", alias: nil),
        Author(name: "Jürgen Weiß", alias: "juergenweiss"),
        Author(name: "Amélie Laurent", alias: "amelielaurent"),
        Author(name: "Zoë Martin", alias: nil),
        Author(name: "OKAN ENGİN", alias: "okanengin"),
        Author(name: "Søren Kjær", alias: nil),
        Author(name: "María José Ortega", alias: "mjortega"),
        Author(name: "田中 太郎", alias: nil),
        Author(name: "Łukasz Nowak", alias: "lukasznowak"),
        Author(name: "Rob Vaughn (Instagram @robvaughn_)", alias: "rvaughn"),
        Author(name: "hermann.kl", alias: nil),
        Author(name: "Miguel Discart (Photos Vrac)", alias: "miguel_discart_vrac"),
        Author(name: "Андрей Смирнов", alias: nil),
        Author(name: "wanyimingyen", alias: nil),
        Author(name: "Ana & Tom", alias: "anaandtom"),
        Author(name: "photo_nomad", alias: "photonomad"),
    ]

    static let adjectives = [
        "Golden", "Quiet", "Misty", "Early", "Late", "Blue", "Frozen", "Wild", "Hidden", "Old",
        "Little", "Bright", "Autumn", "Winter", "Summer", "Spring", "Evening", "Morning",
    ]

    static let nouns = [
        "harbour", "forest", "bridge", "market", "garden", "lighthouse", "meadow", "street",
        "river", "mountain", "cathedral", "station", "beach", "orchard", "village", "skyline",
    ]

    static let places = [
        "Duluth", "Leverkusen", "San Diego", "Kyoto", "Lisbon", "Montréal", "München", "İstanbul",
        "Reykjavík", "Kraków", "Zürich", "Cape Town", "Hobart", "Oaxaca",
    ]

    static let possessors = ["Grandma", "Anna", "Dad", "Tom", "The dog", "Mia"]

    static let emoji = ["🌿", "📷", "🌅", "🐈", "❄️", "🍂"]

    static let captions = [
        "Taken on a walk after the rain.",
        "Shot handheld at dusk, processed in Lightroom.",
        "I'll have to come back when the light is better.",
        "One of my favourite spots — always quiet in the morning.",
        "Via 500px",
    ]

    static let tags = [
        "nature", "street", "travel", "landscape", "portrait", "bw", "film", "sunset", "city",
        "architecture", "animals", "macro", "night", "snow", "sea", "flowers", "nikon", "canon",
        "fujifilm", "35mm", "iphone", "ifttt", "500px",
    ]

    static let heights = [160, 180, 135, 240, 126, 161]
}
