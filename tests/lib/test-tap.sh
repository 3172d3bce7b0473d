#!/bin/bash
# Self-test of tests/lib/tap.sh, which every suite prints through and
# tests/run judges suites with: numbering across subshells and nested
# scripts, a nested stream imported, and the verdict on suites that pass,
# skip, fail, die before their plan or are missing.
#
#   tests/lib/test-tap.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=tap.sh
. "$here/tap.sh"
tap_begin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# script NAME BODY: a suite script that prints through the library
script() {
	printf '. "%s/tap.sh"\ntap_begin\n%s\n' "$here" "$2" > "$tmp/$1.sh"
}

# the stream of one script, run in a clean environment
stream() { env -u TAP_STATE bash "$tmp/$1.sh" > "$tmp/$1.out" 2>&1; }

# shellcheck disable=SC2016 # the script expands it
script numbered 'ok "a # b"; ( not_ok "in a subshell" ); skip "c" "why"
bash -c ". \"$TAP_LIB\"; tap_begin; ok nested; tap_end"; tap_end'
TAP_LIB=$here/tap.sh stream numbered
rc=$?
check "a stream starts with its version, numbers results through subshells and nested scripts, ends with its plan" \
	diff -u - "$tmp/numbered.out" <<- 'EOF'
	TAP version 13
	ok 1 - a \# b
	not ok 2 - in a subshell
	ok 3 - c # SKIP why
	ok 4 - nested
	1..4
	EOF
check "a stream with a failed result ends non-zero (status $rc)" test "$rc" = 1

printf 'TAP version 13\nok 1 - x \\# y\nnot ok 2 - z\nok 3 - w # SKIP v\nnoise\n1..3\n' > "$tmp/inner.tap"
printf 'TAP version 13\nok 1 - x\n' > "$tmp/cut.tap"
script import "tap_import \"$tmp/inner.tap\"; tap_import \"$tmp/cut.tap\"; tap_end"
stream import
check "an imported stream's results are renumbered, its other lines become comments, a missing plan fails" \
	diff -u - "$tmp/import.out" <<- 'EOF'
	TAP version 13
	ok 1 - x \# y
	not ok 2 - z
	ok 3 - w # SKIP v
	# noise
	ok 4 - x
	not ok 5 - cut.tap: its plan (1..none) counts its 1 results
	1..5
	EOF

script passes 'ok a; skip b why; tap_end'
script fails 'ok a; not_ok b; tap_end'
script dies 'ok a; exit 0'
script silent 'tap_end'
(
	tap_suites_begin "$tmp"
	tap_suite passes "$tmp/passes.sh"
	tap_suite fails "$tmp/fails.sh"
	tap_suite dies "$tmp/dies.sh"
	tap_suite silent "$tmp/silent.sh"
	tap_suite missing "$tmp/missing.sh"
	tap_suites_end
) > "$tmp/suites.out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/suites.out"
verdicts=$(grep -E '^(not )?ok [0-9]' "$tmp/suites.out" | sed 's/ in [0-9]* s$//')
check "tap_suite passes a suite, fails one that failed a result, died before its plan, printed no result or is missing" \
	diff -u - <(echo "$verdicts") <<- EOF
	ok 1 - passes: 1 passed, 1 skipped
	not ok 2 - fails: 1 failed, exited with status 1,
	not ok 3 - dies: 0 failed, its plan (1..none) does not count its results,
	not ok 4 - silent: 1 failed, exited with status 1,
	not ok 5 - missing: 1 failed, exited with status 127, its plan (1..none) does not count its results,
	EOF
check "the suites' totals count every result (status $rc)" \
	grep -qx '# 3 passed, 3 failed, 1 skipped' "$tmp/suites.out"
check "a stream of suites with a failure ends non-zero" test "$rc" = 1
tap_end
