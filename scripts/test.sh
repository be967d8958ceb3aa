#!/usr/bin/env bash
# The project's test command: builds everything with warnings as errors, then runs every test.
# Extra arguments go to `swift test` (for example `--filter GrammarTests`).
set -euo pipefail
cd "$(dirname "$0")/.."
swift test -Xswiftc -warnings-as-errors "$@"
