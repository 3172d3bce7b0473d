#!/bin/bash
# The paths a guest uses resolve for a repository under /tmp, checked
# without booting. scripts/run-vm.sh -n, run through a symbolic link to a
# copy of the scripts under /tmp, writes the guest's command file and kernel
# command line; the guest's view of the host is then modelled as
# scripts/guest-init makes it: its own tmpfs hides the host's /tmp, the
# output directory (swapq.out) is a mount of its own, and what guest-init's
# host_tmp gives for swapq.repo is bound back at the repository's path.
# The command file, its directory, SWAPQ_REPO and the command's paths must
# all be seen there.  guest-paths.sh (run by tests/harness/run.sh)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
tap_begin
# shellcheck source=../../scripts/guest-init
SWAPQ_INIT_DEFS_ONLY=1 . "$top/scripts/guest-init"
t=$(mktemp -d /tmp/swapq-paths.XXXXXX)
trap 'rm -rf "$t"' EXIT
t=$(cd "$t" && pwd -P)
repo=$t/repo
mkdir -p "$repo/scripts" "$repo/tests/guest" "$repo/build"
cp "$top/scripts/run-vm.sh" "$top/scripts/guest-init" "$repo/scripts/"
cp "$top/tests/guest/run.sh" "$repo/tests/guest/"
ln -s repo "$t/link"

# guest_sees PATH: the guest sees PATH (absolute, or relative to $cwd):
# the path as written and the path it resolves to on the host lie on the
# host root outside /tmp, in the output directory or in the repository
# bound back, and it exists there
guest_sees() {
	local p=$1 real
	case $p in /*) ;; *) p=$cwd/$p ;; esac
	real=$(realpath -e "$p" 2>/dev/null) || return 1
	seen "$p" && seen "$real"
}
seen() { # PATH: not hidden by the guest's /tmp
	local src
	case $1 in "$out"|"$out"/*) return 0 ;; /tmp|/tmp/*) ;; *) return 0 ;; esac
	src=$(host_tmp "$repo_arg") || return 1
	case $1 in "$repo_arg"|"$repo_arg"/*) ;; *) return 1 ;; esac
	# guest-init binds $src, the host's /tmp seen at $HT, at the same path
	[ "/tmp${src#"$HT"}" = "$repo_arg" ]
}

# what a caller does: cd to the repository, here through the link, and run
# scripts/run-vm.sh with a command relative to it
cmdline=$(cd "$t/link" && bash "$t/link/scripts/run-vm.sh" -n -o build/vm -- bash tests/guest/run.sh x 2>&1)
rc=$?
out=$(sed -n 's/.*swapq\.out=\([^ ]*\).*/\1/p' <<< "$cmdline")
repo_arg=$(sed -n 's/.*swapq\.repo=\([^ ]*\).*/\1/p' <<< "$cmdline")
if [ $rc = 0 ] && [ "$out" = "$repo/build/vm" ] && [ "$repo_arg" = "$repo" ] && [ -f "$out/cmd" ]; then
	ok "run-vm.sh -n through a link to a repository under /tmp: physical swapq.out and swapq.repo, a command file"
else
	not_ok "run-vm.sh -n through a link to a repository under /tmp: physical swapq.out and swapq.repo, a command file (status $rc)"
	echo "# $cmdline"
	tap_end
	exit
fi

# the command file: "cd DIR || exit 126", "export NAME=VALUE" lines, and
# "exec COMMAND ARG...", each word as printf %q wrote it
cwd='' sw_repo='' args=()
while read -r first rest; do
	case $first in
	cd) eval "cwd=${rest% || exit 126}" ;;
	export) case $rest in SWAPQ_REPO=*) eval "sw_repo=${rest#SWAPQ_REPO=}" ;; esac ;;
	exec) eval "args=($rest)" ;;
	esac
done < "$out/cmd"
# check_seen WHAT PATH
check_seen() {
	if [ -n "$2" ] && guest_sees "$2"; then
		ok "the guest sees $1 ($2)"
	else
		not_ok "the guest sees $1 (${2:-none})"
	fi
}
check_seen "its command file" "$out/cmd"
check_seen "the directory the command runs in" "$cwd"
check_seen "SWAPQ_REPO" "$sw_repo"
check_seen "the command's script" "${args[1]:-}"
check_seen "the repository's guest tests" "$sw_repo/tests/guest/run.sh"
# and the model can fail: the link, under /tmp but not in the repository,
# is hidden in the guest
if guest_sees "$t/link/tests/guest/run.sh"; then
	not_ok "the guest does not see a path under the host's /tmp outside the repository"
else
	ok "the guest does not see a path under the host's /tmp outside the repository"
fi
# guest-init keeps the host's /tmp at $HT before its own tmpfs covers it
keep=$(grep -nxF "mount -o bind \$R/tmp \$HT" "$top/scripts/guest-init" | cut -d: -f1)
cover=$(grep -nx "mount -t tmpfs .* \$R/tmp" "$top/scripts/guest-init" | cut -d: -f1)
if [ -n "$keep" ] && [ -n "$cover" ] && [ "$keep" -lt "$cover" ]; then
	ok "guest-init binds the host's /tmp to \$HT before it mounts its tmpfs there"
else
	not_ok "guest-init binds the host's /tmp to \$HT before it mounts its tmpfs there"
fi
tap_end
