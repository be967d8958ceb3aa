import Foundation
import ImageDecoding

/// k: JPEG decoding. Throughput on the corpus' two larger photo-like files, and the time for one
/// 240x180 feed-sized thumbnail at full size and through `maxPixelSize`. The baseline is the
/// work no decoder can skip: converting the output's pixels from YCbCr to RGB (libjpeg's
/// fixed-point formula) and copying them once. Each figure also gets a `.vs-libjpeg-turbo` row:
/// ours beside libjpeg-turbo's (through Pillow, timed just before ours in the same run), skipped
/// with a note when Pillow is not installed.
enum ImageDecodingBenchmarks {
    /// The JPEG corpus, found from this file's path (`Tests/ImageDecodingTests/Fixtures`).
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/ImageDecodingTests/Fixtures")

    static func run(_ context: BenchmarkContext) {
        throughput(context, name: "k.baseline-640x427", file: "large-photo-640x427-baseline")
        throughput(context, name: "k.progressive-512x384", file: "large-photo-512x384-progressive")
        thumbnail(context, name: "k.thumbnail-240x180", file: "pillow-thumbnail-240x180-420", maxPixelSize: nil)
        thumbnail(context, name: "k.thumbnail-240x180-max80", file: "pillow-thumbnail-240x180-420", maxPixelSize: 80)
        thumbnail(context, name: "k.thumbnail-240x180-max30", file: "pillow-thumbnail-240x180-420", maxPixelSize: 30)
    }

    private static func load(_ file: String) -> Data? {
        guard let data = try? Data(contentsOf: fixtures.appendingPathComponent(file + ".jpg")) else {
            FileHandle.standardError.write(Data("k.: \(file).jpg not found in \(fixtures.path)\n".utf8))
            return nil
        }
        return data
    }

    /// Megapixels per second of full decodes.
    private static func throughput(_ context: BenchmarkContext, name: String, file: String) {
        guard context.selects(name), let data = load(file), let image = try? JPEGDecoder().decode(data) else { return }
        let reference = libjpegTurbo(context, name: name)
        let decodes = context.size(20)
        let planes = Planes(image)
        let result = context.measurement.compare(operations: decodes, ours: {
            var total = 0
            for _ in 0..<decodes { total &+= (try? JPEGDecoder().decode(opaque(data)))?.pixels.count ?? -1 }
            return total
        }, baseline: {
            var total = 0
            for _ in 0..<decodes { total &+= planes.convertAndCopy() }
            return total
        })
        let megapixels = Double(image.width * image.height) / 1e6
        func rate(_ nanoseconds: Double) -> Double { megapixels / (nanoseconds / 1e9) }
        context.report(BenchmarkResult(name: name, unit: "MP/s", value: rate(result.ours), baseline: rate(result.baseline),
                                       baselineName: "YCbCr->RGB + copy of the pixels"))
        reportAgainstLibjpegTurbo(context, name: name, unit: "MP/s", ours: rate(result.ours), reference: reference)
    }

    /// Microseconds for one decode of a small file, full size or as a thumbnail.
    private static func thumbnail(_ context: BenchmarkContext, name: String, file: String, maxPixelSize: Int?) {
        guard context.selects(name), let data = load(file) else { return }
        let decoder = JPEGDecoder()
        func decode() -> RGBImage? {
            if let maxPixelSize { return try? decoder.decode(opaque(data), maxPixelSize: maxPixelSize) }
            return try? decoder.decode(opaque(data))
        }
        guard let image = decode() else { return }
        let reference = libjpegTurbo(context, name: name)
        let decodes = context.size(500)
        let planes = Planes(image)
        let result = context.measurement.compare(operations: decodes, ours: {
            var total = 0
            for _ in 0..<decodes { total &+= decode()?.pixels.count ?? -1 }
            return total
        }, baseline: {
            var total = 0
            for _ in 0..<decodes { total &+= planes.convertAndCopy() }
            return total
        })
        context.report(BenchmarkResult(name: name, unit: "us", value: result.ours / 1_000, baseline: result.baseline / 1_000,
                                       baselineName: "YCbCr->RGB + copy, \(image.width)x\(image.height)"))
        reportAgainstLibjpegTurbo(context, name: name, unit: "us", ours: result.ours / 1_000, reference: reference)
    }

    /// libjpeg-turbo's figure for `name`, when its row is selected; `nil` (after a note on
    /// stderr) when there is none.
    private static func libjpegTurbo(_ context: BenchmarkContext, name: String) -> Double? {
        guard context.selects(name + vsSuffix) else { return nil }
        switch PillowReference.figure(for: name, cpuTime: context.measurement.cpuTime) {
        case .success(let value):
            return value
        case .failure(let reason):
            FileHandle.standardError.write(Data("\(name)\(vsSuffix) skipped: \(PillowReference.note(reason))\n".utf8))
            return nil
        }
    }

    private static let vsSuffix = ".vs-libjpeg-turbo"

    private static func reportAgainstLibjpegTurbo(_ context: BenchmarkContext, name: String, unit: String, ours: Double,
                                                  reference: Double?) {
        guard let reference else { return }
        context.report(BenchmarkResult(name: name + vsSuffix, unit: unit, value: ours, baseline: reference,
                                       baselineName: "libjpeg-turbo via Pillow, same run"))
    }

    /// Three full-resolution planes the size of a decoded picture, and the plain-Swift pass
    /// every decoder ends with: YCbCr to interleaved RGB, then one copy of the result.
    private struct Planes {
        let width: Int
        let height: Int
        let luma: [UInt8]
        let blue: [UInt8]
        let red: [UInt8]
        let crToRed: [Int32] = (0..<256).map { (91_881 * Int32($0 - 128) + 32_768) >> 16 }
        let cbToBlue: [Int32] = (0..<256).map { (116_130 * Int32($0 - 128) + 32_768) >> 16 }
        let crToGreen: [Int32] = (0..<256).map { -46_802 * Int32($0 - 128) }
        let cbToGreen: [Int32] = (0..<256).map { -22_554 * Int32($0 - 128) + 32_768 }

        init(_ image: RGBImage) {
            width = image.width
            height = image.height
            luma = stride(from: 0, to: image.pixels.count, by: 3).map { image.pixels[$0] }
            blue = stride(from: 1, to: image.pixels.count, by: 3).map { image.pixels[$0] }
            red = stride(from: 2, to: image.pixels.count, by: 3).map { image.pixels[$0] }
        }

        @inline(never)
        func convertAndCopy() -> Int {
            let count = width * height
            var rgb = [UInt8](repeating: 0, count: count * 3)
            luma.withUnsafeBufferPointer { y in
                blue.withUnsafeBufferPointer { cb in
                    red.withUnsafeBufferPointer { cr in
                        crToRed.withUnsafeBufferPointer { crR in
                            cbToBlue.withUnsafeBufferPointer { cbB in
                                crToGreen.withUnsafeBufferPointer { crG in
                                    cbToGreen.withUnsafeBufferPointer { cbG in
                                        rgb.withUnsafeMutableBufferPointer { out in
                                            for i in 0..<count {
                                                let l = Int32(y[i]), b = Int(cb[i]), r = Int(cr[i])
                                                out[3 * i] = UInt8(clamping: l + crR[r])
                                                out[3 * i + 1] = UInt8(clamping: l + ((cbG[b] + crG[r]) >> 16))
                                                out[3 * i + 2] = UInt8(clamping: l + cbB[b])
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let copy = Array(opaque(rgb))
            return copy.count &+ Int(copy[copy.count / 2])
        }
    }
}
