"""Writes the real photographs the viewer's colour tests read: Tests/PhotoFeedViewerTests/Fixtures.

Two photographs that ship inside scikit-image's wheel (its `skimage/data` folder), both free of
copyright restrictions: `rocket.jpg` (the DSCOVR launch on a Falcon 9 at dusk, SpaceX, public
domain) and `chelsea.png` (a cat, Stefan van der Walt, CC0). Each is cut to 3:2 about its middle,
scaled to 240 x 160 (the size of Flickr's `_m` files, which the viewer shows) and saved as a
4:2:0 JPEG of quality 85. Only the wheel's file is read: scikit-image is downloaded, not installed.

    pip install Pillow        # if missing
    python3 scripts/make-viewer-photos.py
"""
import os
import subprocess
import sys
import tempfile
import zipfile

from PIL import Image

VERSION = "0.26.0"
PHOTOS = [("rocket.jpg", "rocket-240x160.jpg"), ("chelsea.png", "chelsea-240x160.jpg")]

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "Tests", "PhotoFeedViewerTests", "Fixtures")
os.makedirs(out, exist_ok=True)
scratch = tempfile.mkdtemp()
subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                f"scikit-image=={VERSION}", "-d", scratch], check=True)
wheel = next(os.path.join(scratch, name) for name in os.listdir(scratch) if name.endswith(".whl"))
with zipfile.ZipFile(wheel) as archive:
    for source, target in PHOTOS:
        path = os.path.join(scratch, source)
        with open(path, "wb") as file:
            file.write(archive.read("skimage/data/" + source))
        image = Image.open(path).convert("RGB")
        width, height = image.size
        if width * 2 <= height * 3:
            cut = round(width * 2 / 3)
            image = image.crop((0, (height - cut) // 2, width, (height - cut) // 2 + cut))
        else:
            cut = round(height * 3 / 2)
            image = image.crop(((width - cut) // 2, 0, (width - cut) // 2 + cut, height))
        image.resize((240, 160), Image.LANCZOS).save(os.path.join(out, target), quality=85, subsampling=2)
        print("wrote", os.path.join(out, target))
