import PhotoFeedViewerCore

/// The pixels of half-block lines read back from their escape codes, as a terminal shows them:
/// each `▀` cell is two pixels, the upper in the foreground colour and the lower in the
/// background colour, either 24-bit (`38;2;r;g;b`) or an xterm palette entry (`38;5;n`).
struct HalfBlockPixels {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    let width: Int
    let height: Int
    /// Row after row from the top.
    let pixels: [(red: UInt8, green: UInt8, blue: UInt8)]

    init(lines: [String]) throws {
        var rows: [[(red: UInt8, green: UInt8, blue: UInt8)]] = []
        for line in lines {
            var upper: [(red: UInt8, green: UInt8, blue: UInt8)] = []
            var lower: [(red: UInt8, green: UInt8, blue: UInt8)] = []
            var colours: (foreground: (red: UInt8, green: UInt8, blue: UInt8), background: (red: UInt8, green: UInt8, blue: UInt8))?
            var scalars = line.unicodeScalars[...]
            while let scalar = scalars.popFirst() {
                if scalar == "\u{1B}" {
                    guard scalars.popFirst() == "[", let end = scalars.firstIndex(of: "m") else { throw Malformed(description: line) }
                    let parameters = scalars[..<end].split(separator: ";").compactMap { Int(String(String.UnicodeScalarView($0))) }
                    scalars = scalars[scalars.index(after: end)...]
                    colours = parameters == [0] ? nil : try Self.colours(parameters, line: line)
                } else if scalar == "▀" {
                    guard let colours else { throw Malformed(description: "a cell without colours in \(line)") }
                    upper.append(colours.foreground)
                    lower.append(colours.background)
                } else {
                    throw Malformed(description: "\(scalar) in \(line)")
                }
            }
            rows += [upper, lower]
        }
        guard let width = rows.first?.count, rows.allSatisfy({ $0.count == width }) else { throw Malformed(description: "ragged lines") }
        self.width = width
        self.height = rows.count
        self.pixels = rows.flatMap { $0 }
    }

    subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        pixels[y * width + x]
    }

    private static func colours(_ parameters: [Int], line: String) throws
        -> (foreground: (red: UInt8, green: UInt8, blue: UInt8), background: (red: UInt8, green: UInt8, blue: UInt8)) {
        var rest = parameters[...]
        func colour(layer: Int) throws -> (red: UInt8, green: UInt8, blue: UInt8) {
            guard rest.popFirst() == layer else { throw Malformed(description: line) }
            switch rest.popFirst() {
            case 2?:
                guard rest.count >= 3, let red = UInt8(exactly: rest.removeFirst()), let green = UInt8(exactly: rest.removeFirst()),
                      let blue = UInt8(exactly: rest.removeFirst()) else { throw Malformed(description: line) }
                return (red, green, blue)
            case 5?:
                guard let index = rest.popFirst(), (16...255).contains(index) else { throw Malformed(description: line) }
                return XtermPalette.colour(index)
            default:
                throw Malformed(description: line)
            }
        }
        let foreground = try colour(layer: 38)
        let background = try colour(layer: 48)
        guard rest.isEmpty else { throw Malformed(description: line) }
        return (foreground, background)
    }
}
