#!/usr/bin/env bash
# The project's test command: builds everything with warnings as errors, then runs every test.
# The suite is XCTest only (it runs sequentially, which the leak checks rely on).
# Extra arguments go to `swift test` (for example `--filter GrammarTests`).
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --disable-swift-testing -Xswiftc -warnings-as-errors "$@"
