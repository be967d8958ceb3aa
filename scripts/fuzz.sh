#!/usr/bin/env bash
# Runs a libFuzzer target for a bounded time (default 60 s).
#   bash scripts/fuzz.sh feed [SECONDS]      FeedSanitizer.sanitize + Photo.decode(feed:)
#   bash scripts/fuzz.sh request [SECONDS]   FeedServer's HTTP request parser
#   bash scripts/fuzz.sh jpeg [SECONDS]      JPEGDecoder (strict, allowPartial, maxPixelSize)
# The library targets are built by SwiftPM with coverage and AddressSanitizer; the entry file
# (Sources/Fuzz*/main.swift, which a plain `swift build` also compiles, as a no-op program) is
# linked by swiftc with `-parse-as-library`, so libFuzzer supplies `main`.
# Seeds: Fuzz/seeds/<target>/ plus, for `feed`, the real captures in ../shared/fixtures/flickr
# when present, and for `jpeg`, the JPEG corpus in Tests/ImageDecodingTests/Fixtures.
# Crashes land in Fuzz/crashes/<target>/; turn each into a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz.sh feed|request|jpeg [SECONDS]}
seconds=${2:-60}
case "$target" in
  feed) entry=FuzzFeedSanitizer; modules="Locking Reactive HTTPWire Networking ImageDecoding PhotoFeed"; top=PhotoFeed ;;
  request) entry=FuzzRequestParser; modules="Locking HTTPWire"; top=HTTPWire ;;
  jpeg) entry=FuzzJPEGDecoder; modules="ImageDecoding"; top=ImageDecoding ;;
  *) echo "unknown target: $target (feed, request or jpeg)" >&2; exit 2 ;;
esac

scratch=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address)
# The decoder is compute-bound: optimized, it runs ~50x more inputs per second (Swift's own
# checks stay on in release; AddressSanitizer covers the unsafe buffers).
config=debug
max_len=65536
if [ "$target" = jpeg ]; then config=release; max_len=20000; fi
swift build -c "$config" --scratch-path "$scratch" --target "$top" "${flags[@]}" >&2
out="$scratch/x86_64-unknown-linux-gnu/$config"
objects=()
for module in $modules; do
  # One object per current source file: the build folder may still hold objects of files that
  # were since renamed or removed, which would link twice.
  while IFS= read -r source; do
    objects+=("$out/$module.build/$(basename "$source").o")
  done < <(find "Sources/$module" -name '*.swift')
done
binary="$scratch/fuzz-$target"
swiftc -sanitize=fuzzer,address -parse-as-library -g -I "$out/Modules" \
  "Sources/$entry/main.swift" "${objects[@]}" -o "$binary"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if [ -d Fuzz/seeds/"$target" ]; then cp Fuzz/seeds/"$target"/* "$corpus"/; fi
if [ "$target" = jpeg ]; then
  cp Tests/ImageDecodingTests/Fixtures/*.jpg "$corpus"/
fi
if [ "$target" = feed ] && [ -d ../shared/fixtures/flickr ]; then
  cp ../shared/fixtures/flickr/*.json* "$corpus"/
fi
mkdir -p Fuzz/crashes/"$target"
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" "$corpus" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
  -artifact_prefix=Fuzz/crashes/"$target"/ -print_final_stats=1
