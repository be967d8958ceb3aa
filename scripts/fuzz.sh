#!/usr/bin/env bash
# Runs a libFuzzer target for a bounded time (default 60 s).
#   bash scripts/fuzz.sh feed [SECONDS]      FeedSanitizer.sanitize + Photo.decode(feed:)
#   bash scripts/fuzz.sh request [SECONDS]   FeedServer's HTTP request parser
# The library targets are built by SwiftPM with coverage and AddressSanitizer; the entry file
# (Sources/Fuzz*/main.swift, which a plain `swift build` also compiles, as a no-op program) is
# linked by swiftc with `-parse-as-library`, so libFuzzer supplies `main`.
# Seeds: Fuzz/seeds/<target>/ plus, for `feed`, the real captures in ../shared/fixtures/flickr
# when present. Crashes land in Fuzz/crashes/<target>/; turn each into a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz.sh feed|request [SECONDS]}
seconds=${2:-60}
case "$target" in
  feed) entry=FuzzFeedSanitizer; modules="Reactive HTTPWire Networking ImageDecoding PhotoFeed"; top=PhotoFeed ;;
  request) entry=FuzzRequestParser; modules="HTTPWire"; top=HTTPWire ;;
  *) echo "unknown target: $target (feed or request)" >&2; exit 2 ;;
esac

scratch=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address)
swift build -c debug --scratch-path "$scratch" --target "$top" "${flags[@]}" >&2
out="$scratch/x86_64-unknown-linux-gnu/debug"
objects=()
for module in $modules; do
  objects+=("$out/$module.build"/*.o)
done
binary="$scratch/fuzz-$target"
swiftc -sanitize=fuzzer,address -parse-as-library -g -I "$out/Modules" \
  "Sources/$entry/main.swift" "${objects[@]}" -o "$binary"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
cp Fuzz/seeds/"$target"/* "$corpus"/
if [ "$target" = feed ] && [ -d ../shared/fixtures/flickr ]; then
  cp ../shared/fixtures/flickr/*.json* "$corpus"/
fi
mkdir -p Fuzz/crashes/"$target"
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -artifact_prefix=Fuzz/crashes/"$target"/ -print_final_stats=1
