#!/usr/bin/env bash
# Runs the already built suite as two `swift test` processes side by side, each running its own
# tests one after another (the leak checks count what their process holds, so each process must
# stay sequential; two processes do not see each other's counts). Most tests wait on sockets and
# timers, so one process keeps the two cores about a third busy: two halves take a little more
# than half the time of one run.
#
# The first half is the test targets named below, the second everything else (a new target joins
# the second). The first half's output streams; the second's follows it when both have ended.
# The last line counts both halves: "tests: N executed, S skipped, F failed (two processes)".
#
# Arguments go to both `swift test` runs (`--scratch-path`, `--sanitize=thread` ...); the build
# must be current (`--skip-build`). `--ignore-lock` lets the two runs share the build folder,
# which neither writes.
#
#     bash scripts/run-built-tests.sh --scratch-path .build-test
set -euo pipefail
cd "$(dirname "$0")/.."
first_half='^(NetworkingTests|PhotoFeedTests|ReactiveTests|ImageDecodingTests)\.'
second_log=$(mktemp)
first_log=$(mktemp)
trap 'rm -f "$first_log" "$second_log"' EXIT
run() { swift test --skip-build --ignore-lock --disable-swift-testing "$@"; }

run "$@" --skip "$first_half" > "$second_log" 2>&1 &
second_job=$!
first_status=0
run "$@" --filter "$first_half" 2>&1 | tee "$first_log" || first_status=$?
second_status=0
wait "$second_job" || second_status=$?
echo "-- the second half (every target but the first half's)"
cat "$second_log"

# XCTest's last summary of each process, e.g. "Executed 808 tests, with 2 tests skipped and 0 failures".
count() {
    local summary
    summary=$(grep -E "Executed [0-9]+ tests?, with" "$1" | tail -n 1)
    [[ -n "$summary" ]] || { echo "0 0 0"; return; }
    echo "$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")" \
        "$(grep -oE '[0-9]+ tests? skipped' <<<"$summary" | grep -oE '^[0-9]+' || echo 0)" \
        "$(sed -E 's/.* ([0-9]+) failures?.*/\1/' <<<"$summary")"
}
read -r first_executed first_skipped first_failed < <(count "$first_log")
read -r second_executed second_skipped second_failed < <(count "$second_log")
echo "tests: $((first_executed + second_executed)) executed, $((first_skipped + second_skipped)) skipped," \
    "$((first_failed + second_failed)) failed (two processes)"
if [[ $first_status -ne 0 || $second_status -ne 0 ]]; then
    echo "failed: the first half exited $first_status, the second $second_status"
    exit 1
fi
