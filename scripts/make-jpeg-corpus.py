"""Writes the JPEG corpus and libjpeg's reference decodes (see make-jpeg-corpus.sh).

For every <name>.jpg: <name>.ppm (or .pgm for greyscale), Pillow's decode, which is libjpeg-turbo
with its defaults (integer "islow" IDCT, fancy upsampling), CMYK converted to RGB by Pillow, and
EXIF orientation applied for the exif-* files. For some files also <name>.s2/.s4/.s8.ppm: the same
decoder asked for 1/2, 1/4, 1/8 scale (Pillow's draft(), i.e. libjpeg's scale_denom, which scales
in the IDCT exactly as JPEGDecoder.decode(_:maxPixelSize:) does when maxPixelSize is the scaled
longer side). unsupported-*.jpg have no reference: the decoder must refuse them.
"""
import io
import os
import random
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

out = sys.argv[1]
scratch = tempfile.mkdtemp()


def photo(width, height, seed, mode="RGB"):
    """Natural-looking content: gradients, soft shapes, sensor-like noise, a few hard edges."""
    rnd = random.Random(seed)
    big = (max(width, 8), max(height, 8))
    channels = [
        Image.radial_gradient("L").resize(big),
        Image.linear_gradient("L").rotate(rnd.randint(0, 359)).resize(big),
        Image.linear_gradient("L").transpose(Image.Transpose.ROTATE_90).resize(big),
    ]
    image = Image.merge("RGB", channels)
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x0, y0 = rnd.randrange(big[0]), rnd.randrange(big[1])
        x1, y1 = x0 + rnd.randrange(1, big[0] // 2 + 2), y0 + rnd.randrange(1, big[1] // 2 + 2)
        colour = tuple(rnd.randrange(256) for _ in range(3))
        draw.ellipse([x0, y0, x1, y1], fill=colour)
    image = image.filter(ImageFilter.GaussianBlur(max(1, big[0] // 100)))
    noise = Image.merge("RGB", [Image.effect_noise(big, 18) for _ in range(3)])
    image = ImageChops.add(image, noise, scale=1.0, offset=-128)
    draw = ImageDraw.Draw(image)
    for _ in range(6):
        points = [(rnd.randrange(big[0]), rnd.randrange(big[1])) for _ in range(2)]
        draw.line(points, fill=tuple(rnd.randrange(256) for _ in range(3)), width=rnd.randint(1, 3))
    draw.rectangle([big[0] // 3, big[1] // 3, big[0] // 2, big[1] // 2], outline=(255, 255, 255))
    image = image.crop((0, 0, width, height))
    return image.convert(mode) if mode != "RGB" else image


def save_reference(name, image):
    if image.mode == "L":
        image.save(os.path.join(out, name + ".pgm"))
    else:
        image.convert("RGB").save(os.path.join(out, name + ".ppm"))


def reference(name, scales=()):
    path = os.path.join(out, name + ".jpg")
    image = Image.open(path)
    image.load()
    if name.startswith("exif-"):
        image = ImageOps.exif_transpose(image)
    save_reference(name, image)
    for scale in scales:
        image = Image.open(path)
        width, height = image.size
        if min(width, height) < scale:
            continue
        image.draft(image.mode, (width // scale, height // scale))
        expected = ((width + scale - 1) // scale, (height + scale - 1) // scale)
        assert image.size == expected, (name, scale, image.size, expected)
        image.load()
        save_reference(f"{name}.s{scale}", image)


def area_average(image, size):
    """Exact area averaging (each output pixel the mean of the input area it covers, partial
    pixels weighted by the part covered), in floating point. Pillow's BOX filter instead counts
    whole pixels whose centres fall in the box, which is not what an area average is."""
    width, height = image.size
    out_width, out_height = size
    channels = len(image.getbands())
    data = image.tobytes()

    def spans(inputs, outputs):
        result = []
        for position in range(outputs):
            start, end = position * inputs / outputs, (position + 1) * inputs / outputs
            weights = []
            index = int(start)
            while index < end and index < inputs:
                covered = min(end, index + 1) - max(start, index)
                if covered > 0:
                    weights.append((index, covered / (end - start)))
                index += 1
            result.append(weights)
        return result

    columns, rows = spans(width, out_width), spans(height, out_height)
    horizontal = [[0.0] * (out_width * channels) for _ in range(height)]
    for y in range(height):
        row = y * width * channels
        target = horizontal[y]
        for x, weights in enumerate(columns):
            for c in range(channels):
                target[x * channels + c] = sum(data[row + i * channels + c] * w for i, w in weights)
    result = bytearray(out_width * out_height * channels)
    for y, weights in enumerate(rows):
        for x in range(out_width * channels):
            value = sum(horizontal[j][x] * w for j, w in weights)
            result[y * out_width * channels + x] = min(255, max(0, int(value + 0.5)))
    return Image.frombytes(image.mode, size, bytes(result))


def fitted(name, max_pixel_size):
    """<name>.fit<N>.ppm: libjpeg's full-size decode area-averaged down so its longer side is N,
    the size decode(_:maxPixelSize: N) returns (shorter side rounded)."""
    image = Image.open(os.path.join(out, name + ".jpg"))
    image.load()
    longer = max(image.size)
    width, height = image.size
    size = (max_pixel_size if width >= height else max(1, (width * max_pixel_size + longer // 2) // longer),
            max_pixel_size if height > width else max(1, (height * max_pixel_size + longer // 2) // longer))
    area_average(image.convert("RGB"), size).save(os.path.join(out, f"{name}.fit{max_pixel_size}.ppm"))


def pillow(name, image, scales=(), **options):
    image.save(os.path.join(out, name + ".jpg"), "JPEG", **options)
    reference(name, scales)


def cjpeg(name, image, arguments, scales=(), referenced=True):
    source = os.path.join(scratch, name + (".pgm" if image.mode == "L" else ".ppm"))
    image.save(source)
    subprocess.run(["cjpeg", *arguments, "-outfile", os.path.join(out, name + ".jpg"), source], check=True)
    if referenced:
        reference(name, scales)


def magick(name, image, arguments, scales=()):
    source = os.path.join(scratch, name + ".ppm")
    image.save(source)
    subprocess.run(["convert", source, *arguments, os.path.join(out, name + ".jpg")], check=True)
    reference(name, scales)


ALL = (2, 4, 8)
subsamplings = {0: "444", 1: "422", 2: "420"}

# Pillow baseline: odd and tiny sizes, every subsampling, qualities 10 to 100.
sizes = [(1, 1), (2, 2), (3, 5), (8, 8), (15, 17), (16, 16), (17, 31), (63, 65), (33, 9), (9, 33)]
qualities = [10, 25, 50, 75, 90, 100]
for index, (width, height) in enumerate(sizes):
    sub = index % 3
    quality = qualities[index % len(qualities)]
    pillow(f"pillow-{width}x{height}-{subsamplings[sub]}-q{quality}", photo(width, height, index),
           scales=ALL if min(width, height) >= 8 else (), quality=quality, subsampling=sub)
for quality in qualities + [95]:
    pillow(f"pillow-quality-q{quality}-420", photo(48, 40, 100 + quality), quality=quality, subsampling=2)
pillow("pillow-120x90-optimized", photo(120, 90, 7), scales=ALL, quality=80, optimize=True)
pillow("pillow-96x64-restart3", photo(96, 64, 8), quality=85, subsampling=2, restart_marker_blocks=3)
pillow("pillow-81x57-restart-rows", photo(81, 57, 9), quality=70, subsampling=1, restart_marker_rows=1)

# Pillow progressive.
pillow("pillow-progressive-240x180-420", photo(240, 180, 10), scales=ALL, quality=75, progressive=True, subsampling=2)
pillow("pillow-progressive-241x181-444", photo(241, 181, 11), scales=ALL, quality=85, progressive=True, subsampling=0)
pillow("pillow-progressive-31x47-422", photo(31, 47, 12), scales=ALL, quality=50, progressive=True, subsampling=1)
pillow("pillow-progressive-100x75-optimized", photo(100, 75, 13), quality=95, progressive=True, optimize=True)
pillow("pillow-thumbnail-240x180-420", photo(240, 180, 14), scales=ALL, quality=80, subsampling=2)

# Greyscale and CMYK.
pillow("pillow-grey-37x29", photo(37, 29, 15, "L"), scales=ALL, quality=80)
pillow("pillow-grey-progressive-64x64", photo(64, 64, 16, "L"), scales=ALL, quality=60, progressive=True)
pillow("pillow-cmyk-45x33", photo(45, 33, 17, "CMYK"), scales=ALL, quality=90)

# EXIF orientation: the reference is the picture turned upright.
for orientation in range(1, 9):
    exif = Image.Exif()
    exif[0x0112] = orientation
    pillow(f"exif-orientation-{orientation}", photo(40, 30, 20 + orientation), quality=90, exif=exif.tobytes())

# libjpeg-turbo's cjpeg: every sampling combination it accepts, restarts, progressive, RGB.
source = photo(61, 47, 30)
samplings = ["1x1", "2x1", "2x2", "1x2", "4x1", "4x2", "1x4", "2x4", "3x1", "3x2", "1x1,2x2,2x2",
             "2x2,2x1,1x2", "1x1,2x2,1x1", "2x1,1x2,1x1", "4x1,2x1,1x1"]
for sampling in samplings:
    label = sampling.replace(",", "_")
    cjpeg(f"cjpeg-sample-{label}", source, ["-quality", "85", "-sample", sampling], scales=ALL)
    if sampling in ("2x1", "4x1", "1x2", "2x2,2x1,1x2"):
        cjpeg(f"cjpeg-progressive-sample-{label}", source,
              ["-quality", "80", "-progressive", "-sample", sampling], scales=ALL)
cjpeg("cjpeg-restart-1row", photo(70, 50, 31), ["-quality", "75", "-restart", "1"], scales=ALL)
cjpeg("cjpeg-restart-5blocks", photo(70, 50, 32), ["-quality", "75", "-restart", "5B", "-sample", "2x2"])
cjpeg("cjpeg-progressive-restart-2blocks", photo(70, 50, 33), ["-quality", "75", "-progressive", "-restart", "2B"])
cjpeg("cjpeg-optimize-q10", photo(50, 70, 34), ["-quality", "10", "-optimize"])
cjpeg("cjpeg-q100", photo(50, 70, 35), ["-quality", "100"], scales=ALL)
cjpeg("cjpeg-rgb", photo(53, 41, 36), ["-quality", "90", "-rgb"], scales=ALL)
cjpeg("cjpeg-grey-progressive", photo(53, 41, 37, "L"), ["-quality", "70", "-grayscale", "-progressive"])
cjpeg("unsupported-arithmetic", photo(32, 32, 38), ["-quality", "80", "-arithmetic"], referenced=False)

# ImageMagick: Adobe CMYK and YCCK, interlaced (progressive) with its own tables.
magick("magick-cmyk-50x40", photo(50, 40, 40), ["-colorspace", "CMYK", "-quality", "85"], scales=ALL)
magick("magick-ycck-50x40", photo(50, 40, 41), ["-colorspace", "CMYK", "-define", "jpeg:colorspace=5", "-quality", "85"],
       scales=ALL)
magick("magick-progressive-2x1-77x55", photo(77, 55, 42),
       ["-interlace", "JPEG", "-sampling-factor", "2x1", "-quality", "88"], scales=ALL)
magick("magick-grey-33x21", photo(33, 21, 43), ["-colorspace", "Gray", "-quality", "92"])

# Two larger photo-like pictures, for throughput (benchmarks k.) and a full-size check.
pillow("large-photo-640x427-baseline", photo(640, 427, 50), scales=(8,), quality=85, subsampling=2)
cjpeg("large-photo-512x384-progressive", photo(512, 384, 51),
      ["-quality", "90", "-progressive", "-optimize", "-sample", "2x2"], scales=(4,))

# Sizes between the IDCT scales: decoded at the next larger scale, then averaged down.
fitted("pillow-thumbnail-240x180-420", 100)
fitted("pillow-progressive-240x180-420", 70)
fitted("large-photo-640x427-baseline", 240)
fitted("large-photo-512x384-progressive", 150)
