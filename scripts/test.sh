#!/usr/bin/env bash
# The project's test command: builds everything with warnings as errors, then runs every test.
# The suite is XCTest only. Each process runs its tests one after another, which the leak checks
# rely on; the whole suite runs as two such processes side by side (scripts/run-built-tests.sh).
# Extra arguments go to one `swift test` (for example `--filter GrammarTests`).
#
# It builds in its own folder, `.build-test`: `-warnings-as-errors` changes every module's build
# flags, so sharing `.build` with `swift run photo-feed` would make each of the two recompile
# the whole package after the other. Set TEST_SCRATCH_PATH to build elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=(--scratch-path "${TEST_SCRATCH_PATH:-.build-test}")
if [[ $# -gt 0 ]]; then
    exec swift test --disable-swift-testing "${scratch[@]}" -Xswiftc -warnings-as-errors "$@"
fi
swift build --build-tests "${scratch[@]}" -Xswiftc -warnings-as-errors
bash scripts/run-built-tests.sh "${scratch[@]}" -Xswiftc -warnings-as-errors
