# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Fixture trees for swapq host tests. Source this file, then call
# fixture_<name> DIR to build a fake sysroot in DIR (which must not
# exist yet). swapq is then run with --sysroot DIR.
#
# Layout of a tree:
#   DIR/sys/kernel/mm/swap/queue/{generation,default_quota}
#   DIR/sys/kernel/mm/swap/queue/devices/<type>/{path,priority,...}
# swapq derives the rings from the devices' ring, position and priority.
#   DIR/sys/kernel/debug/swap/queue
#   DIR/proc/swaps

Q=sys/kernel/mm/swap/queue
DBG=sys/kernel/debug/swap/queue

# fx_queue DIR GENERATION DEFAULT_QUOTA
#   The queue directory, without devices.
fx_queue() {
	local dir=$1 gen=$2 quota=$3
	mkdir -p "$dir/$Q/devices" "$dir/proc" "$dir/sys/kernel/debug"
	echo "$gen" >"$dir/$Q/generation"
	echo "$quota" >"$dir/$Q/default_quota"
	printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n' \
		>"$dir/proc/swaps"
}

# fx_dev DIR TYPE PATH PRIO RING POSITION QUOTA AVAILABLE ALLOCATED
#   RING and POSITION are -1 for a device being swapped off.
fx_dev() {
	local d=$1/$Q/devices/$2
	mkdir -p "$d"
	echo "$3" >"$d/path"
	echo "$4" >"$d/priority"
	echo "$5" >"$d/ring"
	echo "$6" >"$d/position"
	echo "$7" >"$d/quota"
	echo "$8" >"$d/available"
	echo "$9" >"$d/allocated"
}

# fx_swap DIR PATH TYPE SIZE_KIB USED_KIB PRIO
#   A /proc/swaps line; blanks in PATH are escaped as the kernel does.
fx_swap() {
	local path=${2// /\\040}
	printf '%-40s%s\t%s\t%s\t%s\n' "$path" "$3" "$4" "$5" "$6" \
		>>"$1/proc/swaps"
}

# fx_debugfs DIR < CONTENT
fx_debugfs() {
	mkdir -p "$(dirname "$1/$DBG")"
	cat >"$1/$DBG"
}

# Two rings: prio 10 holds types 0 and 1, prio -2 holds type 2.
# Ring 0 allocated 300 + 100 pages (shares 75% / 25%), ring 1 50 pages.
fixture_normal() {
	local d=$1
	fx_queue "$d" 7 512
	fx_dev "$d" 0 /dev/vda2        10 0 0  512 1 300
	fx_dev "$d" 1 "/var/swap file" 10 0 1  256 1 100
	fx_dev "$d" 2 /dev/sdb1        -2 1 0 1024 0  50
	fx_swap "$d" /dev/vda2        partition 1048576 262144 10
	fx_swap "$d" "/var/swap file" file       524288   1024 10
	fx_swap "$d" /dev/sdb1        partition 2097148      0 -2
	fx_debugfs "$d" <<-EOF
	generation 7
	ring 0 prio 10 members 0 1
	ring 1 prio -2 members 2
	device 0 ring 0 position 0 quota 512 available 1 allocated 300
	device 1 ring 0 position 1 quota 256 available 1 allocated 100
	device 2 ring 1 position 0 quota 1024 available 0 allocated 50
	cpu 0 ring 0 position 1 left 17
	cpu 0 ring 1 position 0 left 1024
	cpu 1 ring 0 position 0 left 500
	cpu 1 ring 1 position 0 left 3
	stat publishes 12
	stat walks 4096
	stat ring_fallbacks 5
	stat cursor_restarts 2
	stat sync_discards 0
	EOF
}

# The feature is there, but nothing is swapped on.
fixture_empty() {
	local d=$1
	fx_queue "$d" 1 512
	fx_debugfs "$d" <<-EOF
	generation 1
	stat publishes 1
	stat walks 0
	stat ring_fallbacks 0
	stat cursor_restarts 0
	stat sync_discards 0
	EOF
}

# A single device that has not allocated anything yet.
fixture_one() {
	local d=$1
	fx_queue "$d" 3 512
	fx_dev "$d" 0 /dev/zram0 5 0 0 512 1 0
	fx_swap "$d" /dev/zram0 partition 4194300 0 5
	fx_debugfs "$d" <<-EOF
	generation 3
	ring 0 prio 5 members 0
	device 0 ring 0 position 0 quota 512 available 1 allocated 0
	cpu 0 ring 0 position 0 left 512
	stat publishes 3
	EOF
}

# Four rings; types are not in ring order on purpose. No /proc/swaps
# lines, so SIZE and USED stay empty. CPU 1 has a cursor past the end
# of ring 2.
fixture_many() {
	local d=$1
	fx_queue "$d" 42 64
	fx_dev "$d" 3 /dev/nvme0n1p3 100 0 0 64 1 1000
	fx_dev "$d" 0 /dev/sda2       50 1 0 64 1 10
	fx_dev "$d" 4 /dev/sdb2       50 1 1 64 1 20
	fx_dev "$d" 5 /dev/sdc2       50 1 2 32 0 70
	fx_dev "$d" 1 /swapfile        0 2 0 64 1 0
	fx_dev "$d" 6 /dev/sdd1      -10 3 0 64 1 1
	fx_dev "$d" 2 /dev/sde1      -10 3 1 64 1 3
	fx_debugfs "$d" <<-EOF
	generation 42
	ring 0 prio 100 members 3
	ring 1 prio 50 members 0 4 5
	ring 2 prio 0 members 1
	ring 3 prio -10 members 6 2
	cpu 0 ring 0 position 0 left 1
	cpu 0 ring 1 position 2 left 30
	cpu 0 ring 2 position 0 left 64
	cpu 0 ring 3 position 1 left 2
	cpu 1 ring 2 position 1 left 0
	stat publishes 42
	EOF
}

# No /sys/kernel/mm/swap/queue: a kernel without the feature.
fixture_nofeature() {
	mkdir -p "$1/sys/kernel/mm/swap" "$1/proc"
	echo 1 >"$1/sys/kernel/mm/swap/vma_ra_enabled"
	printf 'Filename\tType\tSize\tUsed\tPriority\n' >"$1/proc/swaps"
}

# Normal sysfs, but debugfs is not mounted (its directory is empty).
fixture_nodebugfs() {
	fixture_normal "$1"
	rm -rf "$1/sys/kernel/debug/swap"
}

# Normal sysfs, debugfs mounted, but no swap/queue file in it.
fixture_nodebugfile() {
	fixture_normal "$1"
	rm -f "$1/$DBG"
	mkdir -p "$1/sys/kernel/debug/block"
}

# Malformed variants of the normal tree, one defect each.
fixture_bad_allocated() {
	fixture_normal "$1"
	echo abc >"$1/$Q/devices/1/allocated"
}

# Ring 1 is empty: type 2 says ring 2.
fixture_ring_gap() {
	fixture_normal "$1"
	echo 2 >"$1/$Q/devices/2/ring"
}

# Ring 1 has one device, at position 1.
fixture_position_gap() {
	fixture_normal "$1"
	echo 1 >"$1/$Q/devices/2/position"
}

fixture_dup_position() {
	fixture_normal "$1"
	echo 0 >"$1/$Q/devices/1/position"
}

# Ring 0 holds priorities 10 and 5.
fixture_mixed_prio() {
	fixture_normal "$1"
	echo 5 >"$1/$Q/devices/1/priority"
}

# Ring 1 has a higher priority than ring 0.
fixture_prio_order() {
	fixture_normal "$1"
	echo 20 >"$1/$Q/devices/2/priority"
}

fixture_equal_prio() {
	fixture_normal "$1"
	echo 10 >"$1/$Q/devices/2/priority"
}

# No ring, but a position: only both -1 means being swapped off.
fixture_half_swapoff() {
	fixture_normal "$1"
	echo -1 >"$1/$Q/devices/2/ring"
}

fixture_ring_range() {
	fixture_normal "$1"
	echo 32 >"$1/$Q/devices/2/ring"
}

fixture_position_range() {
	fixture_normal "$1"
	echo -2 >"$1/$Q/devices/2/position"
}

# The normal tree while a fourth device, type 3, is being swapped off:
# it is in no ring, so status, watch and quota do not list it.
fixture_swapoff() {
	fixture_normal "$1"
	fx_dev "$1" 3 /dev/sdc1 -2 -1 -1 512 0 80
	fx_swap "$1" /dev/sdc1 partition 1048576 4096 -2
}

# A queue/rings file, as older kernels had, with nonsense in it: swapq
# does not read it.
fixture_stale_rings() {
	fixture_normal "$1"
	printf '1: 7\nbogus\n' >"$1/$Q/rings"
}

fixture_missing_quota() {
	fixture_normal "$1"
	rm "$1/$Q/devices/0/quota"
}

fixture_empty_generation() {
	fixture_normal "$1"
	: >"$1/$Q/generation"
}

fixture_bad_available() {
	fixture_normal "$1"
	echo 2 >"$1/$Q/devices/0/available"
}

fixture_huge_quota() {
	fixture_normal "$1"
	echo 99999999999999999999 >"$1/$Q/devices/0/quota"
}

fixture_stray_entry() {
	fixture_normal "$1"
	mkdir "$1/$Q/devices/foo"
}

fixture_no_devices_dir() {
	fixture_normal "$1"
	rm -rf "$1/$Q/devices"
}

fixture_bad_proc_swaps() {
	fixture_normal "$1"
	echo "/dev/vda2 partition lots 0 10" >>"$1/proc/swaps"
}

fixture_truncated_debugfs() {
	fixture_normal "$1"
	printf 'generation 7\nring 0 prio 10 members 0 1\nring 1 prio -2 members 2\ncpu 0 ring 0 position' \
		>"$1/$DBG"
}

fixture_debugfs_bad_ring() {
	fixture_normal "$1"
	sed -i 's/^cpu 1 ring 1 /cpu 1 ring 9 /' "$1/$DBG"
}

fixture_debugfs_no_generation() {
	fixture_normal "$1"
	sed -i '/^generation/d' "$1/$DBG"
}

# The debugfs dump is of another generation than sysfs, as if the queue
# were published between the reads, every time.
fixture_debugfs_other_generation() {
	fixture_normal "$1"
	sed -i 's/^generation 7$/generation 6/' "$1/$DBG"
}
