# shellcheck shell=bash
# Sourced by the suites that boot a kernel of their own (tests/inject,
# tests/control, tests/kasan); $top is the repository.
# shellcheck disable=SC2154

# suite_kernel TREE FLAVOR LOG: prepare TREE (prepare-tree.sh's argument)
# and build FLAVOR from it, all output in LOG; when either fails, the end
# of LOG as TAP comments and a non-zero status.
suite_kernel() {
	if { bash "$top/scripts/prepare-tree.sh" "$1" &&
	     bash "$top/scripts/build-kernel.sh" "$2"; } > "$3" 2>&1; then
		return 0
	fi
	tail -n 20 "$3" | sed 's/^/# /'
	return 1
}
