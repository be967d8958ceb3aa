import Foundation
import ImageDecoding

/// The committed JPEG corpus (`scripts/make-jpeg-corpus.sh`): JPEGs from other encoders and
/// libjpeg's decodes of them as binary PPM/PGM. Found from this file's path, so a fresh clone
/// needs no resources step.
enum Corpus {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Every `*.jpg` name (without extension), sorted.
    static func jpegNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".jpg") }
            .map { String($0.dropLast(4)) }
            .sorted()
    }

    /// Every reference file name (without extension) that starts with `prefix` and contains `infix`.
    static func referenceNames(containing infix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { ($0.hasSuffix(".ppm") || $0.hasSuffix(".pgm")) && $0.contains(infix) }
            .map { String($0.dropLast(4)) }
            .sorted()
    }

    static func jpeg(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name + ".jpg"))
    }

    /// The reference decode `name` (`.ppm`, or `.pgm` expanded to RGB), `nil` when there is none.
    static func reference(_ name: String) throws -> RGBImage? {
        for (suffix, channels) in [(".ppm", 3), (".pgm", 1)] {
            let url = directory.appendingPathComponent(name + suffix)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            return try NetpbmReader.read(Data(contentsOf: url), channels: channels)
        }
        return nil
    }
}

/// Reads binary PPM (P6) and PGM (P5) with maxval 255, as Pillow writes them.
enum NetpbmReader {
    struct Malformed: Error {}

    static func read(_ data: Data, channels: Int) throws -> RGBImage {
        let bytes = [UInt8](data)
        var index = 0
        func token() throws -> String {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
            let start = index
            while index < bytes.count, !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) {
                index += 1
            }
            guard index > start else { throw Malformed() }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let magic = try token()
        guard magic == (channels == 3 ? "P6" : "P5"), let width = Int(try token()), let height = Int(try token()),
              try token() == "255" else { throw Malformed() }
        index += 1
        let samples = Array(bytes[index...])
        guard samples.count == width * height * channels else { throw Malformed() }
        let pixels = channels == 3 ? samples : samples.flatMap { [$0, $0, $0] }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

/// How far a decode is from its reference.
struct Difference: CustomStringConvertible {
    let maximum: Int
    let psnr: Double

    init(_ image: RGBImage, _ reference: RGBImage) {
        var maximum = 0
        var squares = 0
        for (a, b) in zip(image.pixels, reference.pixels) {
            let delta = abs(Int(a) - Int(b))
            maximum = max(maximum, delta)
            squares += delta * delta
        }
        self.maximum = maximum
        let mean = Double(squares) / Double(max(1, image.pixels.count))
        psnr = mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }

    var description: String { "max difference \(maximum), PSNR \(psnr) dB" }
}
