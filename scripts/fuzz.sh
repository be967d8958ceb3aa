#!/usr/bin/env bash
# Runs a libFuzzer target for a bounded time (default 600 s: ten-minute runs found what one
# minute did not; CI runs 20 s a target from the seeds, a smoke run).
#   bash scripts/fuzz.sh feed [SECONDS]      FeedSanitizer.sanitize + Photo.decode(feed:)
#   bash scripts/fuzz.sh request [SECONDS]   FeedServer's HTTP request parser
#   bash scripts/fuzz.sh response [SECONDS]  HTTPClient's response parser, whole against fed in pieces
#   bash scripts/fuzz.sh inflate [SECONDS]   the gzip/deflate inflater, whole against fed in pieces
#   bash scripts/fuzz.sh jpeg [SECONDS]      JPEGDecoder (strict, allowPartial, maxPixelSize)
#   bash scripts/fuzz.sh tls [SECONDS]       the TLS client machine fed "server" bytes after k real records
#   bash scripts/fuzz.sh tunnel [SECONDS]    the CONNECT, SOCKS5 and SOCKS4 negotiations fed a proxy's bytes
#   bash scripts/fuzz.sh fields [SECONDS]    the session layer's dates, Cache-Control, freshness and Set-Cookie
# SwiftPM builds the entry target and the modules it depends on with coverage and
# AddressSanitizer; swiftc then compiles the entry's files (Sources/Fuzz*/, which a plain
# `swift build` also compiles, as a no-op program) with `-parse-as-library -D FUZZING` and links
# them with those modules' objects, so libFuzzer supplies `main`. Which objects: the ones SwiftPM
# would link into the entry's program (its build manifest's link list), so the list follows
# Package.swift. Each target's invariants are stated in its files.
# Seeds: Fuzz/seeds/<target>/ plus, for `feed`, the real captures in ../shared/fixtures/flickr
# when present, for `jpeg`, the JPEG corpus in Tests/ImageDecodingTests/Fixtures, and for
# `inflate`, zlib's outputs in Tests/HTTPWireTests/Fixtures/compression.
# Crashes land in Fuzz/crashes/<target>/; turn each into a regression test.
#   bash scripts/fuzz.sh --build-only TARGET     builds the fuzzer only
#   bash scripts/fuzz.sh --run-only TARGET [S]   runs the fuzzer the last build made
# (.ci/run builds the next target while the last one runs.)
set -euo pipefail
cd "$(dirname "$0")/.."
phase=all
case "${1:-}" in
  --build-only) phase=build; shift ;;
  --run-only) phase=run; shift ;;
esac
target=${1:?usage: fuzz.sh [--build-only|--run-only] feed|request|response|inflate|jpeg|tls|tunnel|fields [SECONDS]}
seconds=${2:-600}
case "$target" in
  feed) entry=FuzzFeedSanitizer ;;
  request) entry=FuzzRequestParser ;;
  response) entry=FuzzResponseParser ;;
  inflate) entry=FuzzInflater ;;
  jpeg) entry=FuzzJPEGDecoder ;;
  tls) entry=FuzzTLSClient ;;
  tunnel) entry=FuzzProxyTunnel ;;
  fields) entry=FuzzSessionFields ;;
  *) echo "unknown target: $target (feed, request, response, inflate, jpeg, tls, tunnel or fields)" >&2; exit 2 ;;
esac

scratch=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address)
# The decoder is compute-bound: optimized, it runs ~50x more inputs per second (Swift's own
# checks stay on in release; AddressSanitizer covers the unsafe buffers).
config=debug
max_len=65536
if [ "$target" = jpeg ]; then config=release; max_len=20000; fi
# The inflater too (each input decoded four ways); short inputs keep the runs many.
if [ "$target" = inflate ]; then config=release; max_len=8192; fi
# A proxy's answers are short; past a few hundred bytes every machine has ended.
if [ "$target" = tunnel ]; then max_len=1024; fi
# Fields are short too.
if [ "$target" = fields ]; then max_len=2048; fi
binary="$scratch/fuzz-$target"
# Builds the entry and links it with the modules' objects into `$binary`.
build_fuzzer() {
  swift build -c "$config" --scratch-path "$scratch" --target "$entry" "${flags[@]}" >&2
  local out
  out=$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)
  # SwiftPM's link list for the entry's program: "<...>/FuzzX.product/Objects.LinkFileList" in the
  # manifest, whose inputs are the object files of the entry and of every module it depends on,
  # one per current source file. Left out: the entry's own objects (compiled below) and, in debug
  # builds, the modules' wrapped ASTs (`*.swiftmodule.o`, debugger data made only for a product).
  local objects=()
  while IFS= read -r object; do objects+=("$object"); done < <(
    grep -A2 -F "/$entry.product/Objects.LinkFileList\":" "$scratch/$config.yaml" | grep -m1 'inputs:' \
      | grep -oE '"[^"<>]+\.o"' | tr -d '"' | grep -vF "/$entry.build/" | grep -v '\.swiftmodule\.o$' || true)
  if [ ${#objects[@]} -eq 0 ]; then
    echo "no link list for $entry in $scratch/$config.yaml (has SwiftPM's manifest changed?)" >&2
    exit 1
  fi
  # The package's C targets (CLinuxCalls) have module maps SwiftPM generates in their build folders;
  # a Swift module that imports one needs it found again when the entry is compiled.
  local c_module_maps=()
  for map in "$out"/*.build/module.modulemap; do
    [ -e "$map" ] && c_module_maps+=(-Xcc -fmodule-map-file="$map")
  done
  swiftc -sanitize=fuzzer,address -parse-as-library -g -D FUZZING -I "$out/Modules" -I Fuzz/SanitizerAllocator \
    "${c_module_maps[@]}" Sources/"$entry"/*.swift "${objects[@]}" -o "$binary" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
}
[ "$phase" = run ] || build_fuzzer
[ "$phase" != build ] || exit 0
[ -x "$binary" ] || { echo "no fuzzer at $binary: build it first (fuzz.sh --build-only $target)" >&2; exit 1; }

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if [ -d Fuzz/seeds/"$target" ]; then cp Fuzz/seeds/"$target"/* "$corpus"/; fi
if [ "$target" = jpeg ]; then
  cp Tests/ImageDecodingTests/Fixtures/*.jpg "$corpus"/
fi
if [ "$target" = inflate ]; then
  cp Tests/HTTPWireTests/Fixtures/compression/*.gz Tests/HTTPWireTests/Fixtures/compression/*.deflate "$corpus"/
fi
if [ "$target" = feed ] && [ -d ../shared/fixtures/flickr ]; then
  cp ../shared/fixtures/flickr/*.json* "$corpus"/
fi
mkdir -p Fuzz/crashes/"$target"
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" "$corpus" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
  -artifact_prefix=Fuzz/crashes/"$target"/ -print_final_stats=1
