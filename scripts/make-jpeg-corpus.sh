#!/usr/bin/env bash
# Regenerates the JPEG corpus in Tests/ImageDecodingTests/Fixtures: JPEGs made by encoders that
# are not ours (Pillow, libjpeg-turbo's cjpeg, ImageMagick) and, beside each, libjpeg's own
# decode of it (through Pillow) as binary PPM/PGM. Installs the tools it needs (run as root, or
# with them already installed). The committed fixtures make the tests independent of all this.
#   bash scripts/make-jpeg-corpus.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cjpeg >/dev/null || ! command -v convert >/dev/null; then
  apt-get update
  apt-get install -y libjpeg-turbo-progs imagemagick
fi
python3 -c "import PIL" 2>/dev/null || pip install Pillow
out=Tests/ImageDecodingTests/Fixtures
rm -f "$out"/*.jpg "$out"/*.ppm "$out"/*.pgm
python3 scripts/make-jpeg-corpus.py "$out"
du -sh "$out"
