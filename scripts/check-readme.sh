#!/usr/bin/env bash
# Compiles and runs README.md's Swift blocks as a reader would use them: in a fresh package made
# from the README's own manifest, beside a link named ReactiveNetworking to this checkout, in the
# Swift 6 language mode with warnings as errors. The line before a block says what it is:
#   <!-- readme: manifest -->      the arguments of Package(...) after its name
#   <!-- readme: header -->        the imports every file of the App target starts with
#   <!-- readme: declarations -->  file-level code of the App target
#   <!-- readme: test file -->     a whole file of the AppTests target
#   <!-- readme: partial -->       a fragment, not compiled (say why in the text around it)
# Any other block is a step of the tour: the steps run in order as one async function of App,
# which a test calls (the tour talks only to a FeedServer of its own on 127.0.0.1 and to stubs).
#   bash scripts/check-readme.sh     (README_SCRATCH=DIR keeps the package and its build there,
#                                     so a second run rebuilds only the README's own code)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [[ -n "${README_SCRATCH:-}" ]]; then
    work="$README_SCRATCH/package"
    rm -rf "$work"
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
ln -s "$repo" "$work/ReactiveNetworking"
app="$work/App"
mkdir -p "$app/Sources/App" "$app/Tests/AppTests" "$work/blocks"

# Each ```swift block into blocks/NNN.KIND, in order.
awk -v out="$work/blocks" '
    /^<!-- readme: [a-z ]+ -->$/ { kind = $3; if ($4 != "-->") kind = kind "-" $4; next }
    /^```swift$/ { inside = 1; count++; file = sprintf("%s/%03d.%s", out, count, kind == "" ? "step" : kind); printf "" > file; next }
    /^```$/ && inside { inside = 0; close(file); kind = ""; next }
    inside { print >> file; next }
    NF { kind = "" }
' "$repo/README.md"

blocks() { find "$work/blocks" -name "*.$1" | sort; }
[[ -n "$(blocks manifest)" && -n "$(blocks header)" ]] || { echo "README.md: no manifest or header block"; exit 1; }

{
    echo "// swift-tools-version:6.0"
    echo "import PackageDescription"
    echo "let package = Package("
    echo "    name: \"App\","
    cat $(blocks manifest)
    echo ")"
} > "$app/Package.swift"

{
    cat $(blocks header)
    for block in $(blocks declarations); do echo; cat "$block"; done
    echo
    echo "/// The tour's steps, in the README's order."
    echo "func readmeTour() async throws {"
    for block in $(blocks step); do sed 's/^/    /' "$block"; done
    echo "}"
} > "$app/Sources/App/Tour.swift"

for block in $(blocks test-file); do
    name=$(sed -nE 's/^(final )?class ([A-Za-z0-9_]+).*/\2/p' "$block" | head -n 1)
    [[ -n "$name" ]] || { echo "README.md: a test file block without a class: $block"; exit 1; }
    cp "$block" "$app/Tests/AppTests/$name.swift"
done
cat > "$app/Tests/AppTests/TourTests.swift" <<'EOF'
import XCTest
@testable import App

final class TourTests: XCTestCase {
    func testTheTourRuns() async throws {
        try await readmeTour()
    }
}
EOF

echo "README.md: $(ls "$work/blocks" | wc -l | tr -d ' ') Swift blocks ($(blocks partial | wc -l | tr -d ' ') partial, not compiled)"
scratch=${README_SCRATCH:+$README_SCRATCH/build}
scratch=${scratch:-$app/.build}
swift build --package-path "$app" --scratch-path "$scratch" --build-tests -Xswiftc -warnings-as-errors
swift test --package-path "$app" --scratch-path "$scratch" --skip-build --disable-swift-testing
