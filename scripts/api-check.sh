#!/usr/bin/env bash
# Fails when the public API of a library product breaks against the baseline commit of
# .api-baseline: `swift package diagnose-api-breaking-changes BASELINE --products <every library
# product of Package.swift>` (swift-api-digester), and a library product of the baseline that is
# no longer one.
#
#   bash scripts/api-check.sh                       the check (CI runs it, .ci/run)
#   bash scripts/api-check.sh --set-baseline REV    write REV's commit into .api-baseline
#
# A deliberate break is recorded one of two ways:
#   - the baseline moves to it, for a release that reshapes the API: commit the break, then
#     `bash scripts/api-check.sh --set-baseline HEAD` and commit .api-baseline right after it,
#     in a commit of its own (a commit cannot name itself, and amending would change the hash
#     the file names); CI checks the tip of the branch, where both are;
#   - or the commit that makes it lists it in .api-breakage-allowlist: the message this script
#     printed, then two spaces, `#` and why it is accepted; the lines stop mattering, and can go,
#     once the baseline moves past them.
#
# What swift-api-digester sees, measured with Swift 6.3.1: the modules are built with
# `-package-name`, so their dumps hold `package` declarations too. A change to a `package`
# declaration of a product's module is reported as a break (allow-list it: it breaks no user),
# and a public declaration made `package` is not reported at all (review catches that one).
#
# Builds go to .build-api by default (SwiftPM builds the tree there, then checks the baseline out under
# .build-api/<triple>/apidiff/ and builds it there too), not .build: the programs the test
# suite built in .build stay as they are, and the build beside the other CI steps takes no lock
# they wait for. API_CHECK_SCRATCH=.build reuses the test suite's build instead: measured with
# the baseline's API cached, 20 s instead of 361 s, and .build/debug/mdoc-holder byte for byte
# the same after it (the baseline is then checked out and built under .build/<triple>/apidiff/);
# only where no other SwiftPM command uses .build at the same time.
# The baseline's API, once dumped, is kept in
# ${XDG_CACHE_HOME:-~/.cache}/swift-mdoc/api-baselines/<toolchain>/<commit> (API_CHECK_CACHE
# moves it; `API_CHECK_CACHE= ` keeps it in the scratch folder), so that a second run on the same machine
# does not build the baseline again.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline_file=.api-baseline
allowlist_file=.api-breakage-allowlist
scratch=${API_CHECK_SCRATCH:-.build-api}

fail() {
    echo "api-check: $*" >&2
    exit 1
}

# The library products of the package in the current folder, one a line.
library_products() {
    swift package dump-package | python3 -c '
import json, sys
for product in json.load(sys.stdin)["products"]:
    if "library" in product["type"]:
        print(product["name"])'
}

if [ "${1:-}" = "--set-baseline" ]; then
    [ $# -eq 2 ] || fail "usage: bash scripts/api-check.sh --set-baseline REV"
    commit=$(git rev-parse --verify --quiet "$2^{commit}") || fail "$2 is no commit of this clone"
    subject=$(git log -1 --format='%h, %cs: %s' "$commit")
    {
        echo "# The commit whose public API every library product keeps (scripts/api-check.sh, docs/architecture.md section 6)."
        echo "# Moved with \`bash scripts/api-check.sh --set-baseline REV\`, in a commit of its own after a deliberate break."
        echo "$commit $subject"
    } >"$baseline_file"
    echo "api-check: the baseline is now $commit ($subject); commit $baseline_file"
    if [ -s "$allowlist_file" ] && grep -qv '^[[:space:]]*\(#\|$\)' "$allowlist_file"; then
        echo "api-check: $allowlist_file lists breaks against the previous baseline; remove those the new one includes"
    fi
    exit 0
elif [ $# -ne 0 ]; then
    fail "usage: bash scripts/api-check.sh [--set-baseline REV]"
fi

[ -f "$baseline_file" ] || fail "no $baseline_file: set one with bash scripts/api-check.sh --set-baseline REV"
baseline=$(grep -v '^[[:space:]]*\(#\|$\)' "$baseline_file" | head -1 | awk '{print $1}')
[ -n "$baseline" ] || fail "$baseline_file names no commit"
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
    fail "the API baseline $baseline ($baseline_file) is not in this clone: fetch it (\`git fetch origin $baseline\`, or \`git fetch --unshallow\` in a shallow clone) and run again"
fi
baseline=$(git rev-parse "$baseline^{commit}")

mapfile -t products < <(library_products)
[ "${#products[@]}" -gt 0 ] || fail "Package.swift declares no library product"

# The accepted breaks: the messages without their reasons, for swift-api-digester.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
allow=()
if [ -f "$allowlist_file" ]; then
    while IFS= read -r line; do
        case "$line" in '' | '#'*) continue ;; esac
        message=${line%%  #*}
        reason=${line#*  #}
        if [ "$message" = "$line" ] || [ -z "${reason// /}" ]; then
            fail "$allowlist_file: no reason for \"$line\" (write the message, two spaces, # and why it is accepted)"
        fi
        echo "$message" >>"$work/allowlist"
    done <"$allowlist_file"
    [ -f "$work/allowlist" ] && allow=(--breakage-allowlist-path "$work/allowlist")
fi

# A library product of the baseline that is gone is a break the digester cannot see, since it
# compares the products of the tree.
mkdir "$work/baseline"
git show "$baseline:Package.swift" >"$work/baseline/Package.swift"
mapfile -t baseline_products < <(cd "$work/baseline" && library_products)
gone=()
for product in "${baseline_products[@]}"; do
    message="API breakage: library product $product has been removed"
    if ! printf '%s\n' "${products[@]}" | grep -qxF "$product" \
        && ! { [ -f "$work/allowlist" ] && grep -qxF "$message" "$work/allowlist"; }; then
        gone+=("$message")
    fi
done

# The baseline's API, kept between runs when a cache folder is given (see above).
cache=${API_CHECK_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/swift-mdoc/api-baselines}
baseline_dir=()
if [ -n "$cache" ]; then
    toolchain=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -1)
    cache="$cache/${toolchain:-unknown}"
    mkdir -p "$cache"
    baseline_dir=(--baseline-dir "$cache")
    # SwiftPM keeps what it dumped in "$cache/$baseline"; it is trusted only when complete for
    # these products (a run that stopped half-way leaves no mark).
    if [ -d "$cache/$baseline" ] && ! { [ -f "$cache/$baseline.products" ] \
        && [ -z "$(printf '%s\n' "${products[@]}" | sort | comm -23 - <(sort "$cache/$baseline.products"))" ]; }; then
        baseline_dir+=(--regenerate-baseline)
    fi
fi

echo "api-check: the API of ${products[*]} against $baseline"
status=0
swift package --scratch-path "$scratch" diagnose-api-breaking-changes "$baseline" \
    --products "${products[@]}" "${allow[@]}" "${baseline_dir[@]}" 2>&1 | tee "$work/log" || status=$?
# The baseline's dump is complete once the comparison ran.
if [ -n "$cache" ] && grep -q 'breaking changes\? detected' "$work/log"; then
    printf '%s\n' "${products[@]}" >"$cache/$baseline.products"
fi

for message in "${gone[@]}"; do
    echo "$message" >&2
    status=1
done
if [ "$status" -ne 0 ]; then
    cat >&2 <<EOF
api-check: the public API breaks against $baseline ($baseline_file), or the check could not run
(above). A break on purpose is recorded in its commit: \`bash scripts/api-check.sh --set-baseline
HEAD\` moves the baseline, or each message above goes into $allowlist_file followed by two
spaces, # and why it is accepted.
EOF
    exit 1
fi
echo "api-check: no breaking change in the public API of the library products against $baseline"
