#!/bin/bash
# Runs shellcheck on every shell script of the repository, with the
# settings of .shellcheckrc: the files git knows (tracked, or new and not
# ignored) that are named *.sh or whose first line runs a shell. One TAP
# line per script, its findings after it as "# " lines; then one line for
# the file modes: a script with a "#!" line is executable, a file only
# sourced (no "#!") is not. Exits non-zero on any finding.
#
#   tests/lint/run.sh
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
tap_begin
cd "$top" || exit 2
if ! command -v shellcheck > /dev/null; then
	not_ok "shellcheck installed (make deps)"
	tap_end
	exit
fi

# scripts: their paths, relative to the top, one a line
scripts() {
	local f
	git ls-files --cached --others --exclude-standard | sort -u | while IFS= read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.sh) echo "$f" ;;
		*) head -n 1 "$f" | grep -qE '^#!.*[/ ](ba|da|k)?sh([[:space:]]|$)' && echo "$f" ;;
		esac
	done
}

n=0 bad=0 modes=()
while IFS= read -r f; do
	n=$((n + 1))
	if [ "$(head -c 2 "$f")" = '#!' ]; then
		[ -x "$f" ] || modes+=("$f is not executable")
	else
		[ ! -x "$f" ] || modes+=("$f is executable, but has no #! line")
	fi
	if out=$(shellcheck -f gcc "$f" 2>&1); then
		ok "shellcheck $f"
	else
		bad=$((bad + 1))
		not_ok "shellcheck $f"
		while IFS= read -r line; do echo "# $line"; done <<< "$out"
	fi
done < <(scripts)
if [ "$n" = 0 ]; then
	not_ok "shell scripts found to check"
	tap_end
	exit
fi
if [ ${#modes[@]} = 0 ]; then
	ok "file modes: scripts with #! executable, sourced files not ($n files)"
else
	bad=$((bad + 1))
	not_ok "file modes: scripts with #! executable, sourced files not ($n files)"
	printf '# %s\n' "${modes[@]}"
fi
diag "shellcheck $(shellcheck --version | sed -n 's/^version: //p'): $n scripts, $bad failed"
tap_end
