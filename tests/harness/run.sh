#!/bin/bash
# Self-tests of the harness: the paths a guest uses resolve for a repository
# under /tmp (guest-paths.sh, no boot), the VM runner must fail a run whose
# kernel log shows a splat (a WARNING, a slab overrun), pass a clean one,
# and the tree preparation must stop loudly on a patch that does not apply
# and on a new file whose plain copy differs from the series.
#   run.sh KERNEL-FLAVOR
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=../lib/kernel.sh
. "$top/tests/lib/kernel.sh"
tap_begin
kernel=${1:-debug}
# under build/: the guest mounts its own /tmp over the host one
tmp=$(mktemp -d "$top/build/harness.XXXXXX")
trap 'rm -rf "$tmp"; git -C "$top/build/pristine" worktree remove -f "$tmp/tree" 2>/dev/null' EXIT

# 0. without booting: a repository under /tmp is seen in the guest
bash "$top/tests/harness/guest-paths.sh"

# 1. a clean run passes and returns the command's status
bash "$top/scripts/run-vm.sh" -k "$kernel" -t 300 -o "$tmp/vm1" -- \
	bash -c 'echo plain line; grep -q " /sys/fs/cgroup cgroup2" /proc/mounts && grep -q debugfs /proc/mounts && test -b /dev/ram0 && exit 7' \
	> "$tmp/clean.log" 2>&1
rc=$?
if [ $rc = 7 ]; then
	ok "VM runner returns the guest command's status (cgroup2, debugfs, brd present)"
else
	not_ok "VM runner returns the guest command's status (got $rc)"
	sed 's/^/# /' "$tmp/clean.log"
fi
# the guest's output arrives as it printed it (a TAP plan must read as one)
check "the guest's lines reach the host without the tty's carriage returns" \
	grep -qx 'plain line' "$tmp/clean.log"

# 2. a kernel WARNING fails the run even though the command succeeded
provoked "$kernel" WARNING "$tmp/vm2" 'WARNING:' \
	"VM runner fails a run whose kernel log has a WARNING"

# 2b. memory misuse is caught: a write past the end of a kmalloc object,
# seen by slub_debug's red zone (or by KFENCE, when it sampled the object)
provoked "$kernel" SLAB_LINEAR_OVERFLOW "$tmp/vm2b" 'BUG [^ ]+ \((Not t|T)ainted|BUG: KFENCE' \
	"VM runner fails a run in which a slab object was overrun (slub_debug or KFENCE)"

# 3. a patch that does not apply stops the tree preparation, naming it
mkdir -p "$tmp/patches"
cat > "$tmp/patches/0001-broken.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: swapq <swapq@localhost>
Subject: [PATCH] broken on purpose

---
 mm/swapfile.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/mm/swapfile.c b/mm/swapfile.c
--- a/mm/swapfile.c
+++ b/mm/swapfile.c
@@ -1,3 +1,3 @@
-this line is not in swapfile.c
+neither is this one
 at all
 nor this
PATCH
# prep_stops PATCH MESSAGE WHAT: preparing a tree with just PATCH fails,
# and says MESSAGE
prep_stops() {
	local rc
	echo "$1" > "$tmp/patches/series"
	SWAPQ_PATCHES=$tmp/patches SWAPQ_TREE=$tmp/tree bash "$top/scripts/prepare-tree.sh" > "$tmp/prep.log" 2>&1
	rc=$?
	if [ $rc != 0 ] && grep -q "$2" "$tmp/prep.log"; then
		ok "$3"
	else
		not_ok "$3 (status $rc)"
		sed 's/^/# /' "$tmp/prep.log"
	fi
	rm -f "$tmp/patches/$1"
}
prep_stops 0001-broken.patch '0001-broken.patch does not apply' \
	"a patch that does not apply stops the build, named"

# A file the series adds must equal its plain copy at its kernel path here
cat > "$tmp/patches/0001-adds.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: swapq <swapq@localhost>
Subject: [PATCH] adds a file that has no plain copy

---
 mm/swapq-harness-only.c | 1 +
 1 file changed, 1 insertion(+)
 create mode 100644 mm/swapq-harness-only.c

diff --git a/mm/swapq-harness-only.c b/mm/swapq-harness-only.c
new file mode 100644
--- /dev/null
+++ b/mm/swapq-harness-only.c
@@ -0,0 +1 @@
+/* only in the patch */
PATCH
prep_stops 0001-adds.patch 'mm/swapq-harness-only.c differs' \
	"a new file whose plain copy differs from the series stops the build, named"
tap_end
