#!/usr/bin/env bash
# The project's test command: builds everything with warnings as errors, then runs every test.
# The suite is XCTest only (it runs sequentially, which the leak checks rely on).
# Extra arguments go to `swift test` (for example `--filter GrammarTests`).
#
# It builds in its own folder, `.build-test`: `-warnings-as-errors` changes every module's build
# flags, so sharing `.build` with `swift run photo-feed` would make each of the two recompile
# the whole package after the other. Set TEST_SCRATCH_PATH to build elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --disable-swift-testing --scratch-path "${TEST_SCRATCH_PATH:-.build-test}" -Xswiftc -warnings-as-errors "$@"
