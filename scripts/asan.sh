#!/usr/bin/env bash
# Runs the tests of the modules that parse untrusted bytes (PhotoFeed, Networking, HTTPWire,
# FeedServer, ImageDecoding) under AddressSanitizer. Extra arguments go to `swift test`.
# Leak detection is off: on Linux, XCTest itself keeps its test-case instances and some of its
# own allocations until exit, which LeakSanitizer reports; memory errors are still fatal.
set -euo pipefail
cd "$(dirname "$0")/.."
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
swift test --sanitize=address --scratch-path .build-asan \
  --filter "PhotoFeedTests|NetworkingTests|HTTPWireTests|FeedServerTests|ImageDecodingTests" "$@"
