# shellcheck shell=bash
# The TAP of every suite (sourced): "TAP version 13", numbered results,
# the plan at the end.
#
#   tap_begin                 start a stream (or join one, see below)
#   ok DESC / not_ok DESC     one result
#   skip DESC REASON          one result: "ok N - DESC # SKIP REASON"
#   check DESC COMMAND...     ok or not_ok from COMMAND's exit status
#   diag TEXT                 a comment line
#   tap_import FILE           a nested stream's results as this one's
#   tap_end                   the plan; fails if a result failed
#
# and runs suites, each a script printing its own stream (tests/run):
#
#   tap_suites_begin DIR      start the stream of suites, their logs in DIR
#   tap_suite NAME SCRIPT ARG...  run bash SCRIPT ARG... as subtest NAME
#   tap_suites_end            the plan and the totals; fails on any failure
#
# The count of results and of failures lives in a file named by TAP_STATE,
# which tap_begin exports: results printed in a subshell are counted, and a
# script that a TAP script runs (tests/guest/run.sh running one test)
# continues its parent's numbering instead of starting a second stream.
# Its tap_end then prints no plan and fails only on its own failures.

tap_begin() {
	if [ -n "${TAP_STATE:-}" ] && [ -f "$TAP_STATE" ]; then
		tap_owner=0
	else
		TAP_STATE=$(mktemp "${TMPDIR:-/tmp}/tap.XXXXXX") || exit 2
		export TAP_STATE
		echo "0 0" > "$TAP_STATE"
		tap_owner=1
		echo "TAP version 13"
	fi
	local n
	read -r n tap_failed_before < "$TAP_STATE"
}

# _tap_result ok|"not ok" DESC [DIRECTIVE]
_tap_result() {
	local n f desc=${2//#/\\#}
	read -r n f < "$TAP_STATE"
	n=$((n + 1))
	[ "$1" = ok ] || f=$((f + 1))
	echo "$n $f" > "$TAP_STATE"
	echo "$1 $n - $desc${3:+ # $3}"
}

ok() { _tap_result ok "$*"; }
not_ok() { _tap_result "not ok" "$*"; }
skip() { _tap_result ok "$1" "SKIP ${2:-}"; }
diag() { echo "# $*"; }

check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# tap_import FILE: the results of the TAP stream in FILE (another machine's,
# which could not share TAP_STATE) as results of this stream, its other
# lines as comments; one more result fails when its plan is missing or
# does not match its results.
tap_import() {
	local line desc n=0 plan=''
	while IFS= read -r line; do
		case $line in
		"ok "* | "not ok "*)
			n=$((n + 1))
			desc=$(sed -E 's/^(not )?ok [0-9]* *-? *//' <<< "$line")
			if [[ $line == "not ok"* ]]; then
				not_ok "${desc//\\#/#}"
			elif [[ $desc == *" # SKIP"* ]]; then
				desc=${desc//\\#/#}
				skip "${desc%% # SKIP*}" "${desc#* # SKIP }"
			else
				ok "${desc//\\#/#}"
			fi
			;;
		1..*) plan=${line#1..} ;;
		"TAP version "*) ;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done < "$1"
	[ "$plan" = "$n" ] || not_ok "${1##*/}: its plan (1..${plan:-none}) counts its $n results"
}

tap_end() {
	local n f
	read -r n f < "$TAP_STATE"
	if [ "$tap_owner" = 1 ]; then
		[ "$n" -gt 0 ] || { not_ok "the script reported a result"; read -r n f < "$TAP_STATE"; }
		echo "1..$n"
		rm -f "$TAP_STATE"
	fi
	[ "$f" -eq "$tap_failed_before" ]
}

tap_suites_begin() {
	tap_suites_dir=$1 tap_suites=0 tap_suites_bad=0
	tap_passed=0 tap_failed=0 tap_skipped=0
	echo "TAP version 13"
}

_tap_skipped() { [ "$1" = 0 ] || echo ", $1 skipped"; }

# tap_suite NAME SCRIPT ARG...: SCRIPT's stream, indented, then one result
# for it: not ok when it exited non-zero, failed a result, or its plan does
# not count its results (it died midway, or is missing). Its whole output
# is kept in DIR/NAME.log; only its TAP lines are shown.
tap_suite() {
	local name=$1 script=$2 log=$tap_suites_dir/$1.log rc start=$SECONDS p f s plan why=''
	shift 2
	tap_suites=$((tap_suites + 1))
	echo "# Subtest: $name"
	if [ -f "$script" ]; then
		# its own stream, whatever stream runs this one
		env -u TAP_STATE bash "$script" "$@" 2>&1 | tee "$log" |
			sed -u -n 's/^\(ok\|not ok\|#\|1\.\.\|TAP version\)/    &/p'
		rc=${PIPESTATUS[0]}
	else
		echo "not ok 1 - $script exists" | tee "$log" | sed 's/^/    /'
		rc=127
	fi
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	s=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	[ "$rc" = 0 ] || why+=", exited with status $rc"
	[ "$plan" = $((p + f)) ] || why+=", its plan (1..${plan:-none}) does not count its results"
	tap_passed=$((tap_passed + p - s)) tap_failed=$((tap_failed + f)) tap_skipped=$((tap_skipped + s))
	if [ "$f" = 0 ] && [ -z "$why" ]; then
		echo "ok $tap_suites - $name: $((p - s)) passed$(_tap_skipped "$s") in $((SECONDS - start)) s"
	else
		tap_suites_bad=$((tap_suites_bad + 1))
		echo "not ok $tap_suites - $name: $f failed$why, in $((SECONDS - start)) s"
	fi
}

tap_suites_end() {
	echo "1..$tap_suites"
	echo "# $tap_passed passed, $tap_failed failed$(_tap_skipped "$tap_skipped")"
	[ "$tap_suites_bad" = 0 ] && [ "$tap_passed" -gt 0 ]
}
