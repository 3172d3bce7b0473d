#!/bin/bash
# Build a guest kernel: build-kernel.sh FLAVOR
#   debug  patched tree, vm.config + debug.config   (make check)
#   vm     patched tree, vm.config                  (make demo)
#   bench  patched tree, vm.config + bench.config   (make bench)
#   lockstat  patched tree, vm.config + lockstat.config (make bench LOCKSTAT=1)
#   kasan  patched tree, debug flavor + kasan.config (long local race runs)
#   host   patched tree, vm.config + host.config (make bench BENCH_MODE=host)
#   bisect the series at one of its patches (scripts/bisect-build.sh), vm
#          config
#   base   pristine tree, debug config; base-vm, base-bench ... the others
#   inject, base-inject  the patched (without tests/control/reverted) or
#          pristine tree with the test-only fault injections (tests/inject),
#          debug config
# Output: build/obj-FLAVOR/arch/x86/boot/bzImage (build/obj-FLAVOR links to
# SOURCE-TREE/obj-FLAVOR), modules in build/mod-FLAVOR.
# build-kernel.sh FLAVOR MAKE-ARG...: make only MAKE-ARG... in that tree
# (for example W=1 mm/swapfile.o), with the same flags.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build
flavor=${1:?usage: build-kernel.sh debug|vm|bench|lockstat|kasan|inject|bisect|base|base-vm|base-bench|base-lockstat|base-kasan|base-inject|host|base-host}
jobs=${JOBS:-$(($(nproc) + 1))}

case "$flavor" in
debug|vm|bench|lockstat|kasan|host) src=$b/linux; frags=(vm) ;;
bisect) src=$b/linux-bisect; frags=(vm) ;;
inject|base-inject) src=$b/linux-$flavor; frags=(vm) ;;
base*) src=$b/pristine; frags=(vm) ;;
*) echo "build-kernel: unknown flavor $flavor" >&2; exit 1 ;;
esac
case "$flavor" in
debug|base|inject|base-inject) frags+=(debug) ;;
bench|base-bench) frags+=(bench) ;;
lockstat|base-lockstat) frags+=(lockstat) ;;
kasan|base-kasan) frags+=(debug kasan) ;;
host|base-host) frags+=(host) ;;
esac

# The objects go to a directory right under the source tree, which kbuild
# then calls "..": no compiler command line holds an absolute path, so the
# same object built from two trees (patched and injection, patched and
# pristine) hashes alike and ccache builds it once. build/obj-FLAVOR links
# to it.
obj=$src/obj-$flavor
mkdir -p "$obj"
if [ -d "$b/obj-$flavor" ] && [ ! -L "$b/obj-$flavor" ]; then
	rm -rf "$b/obj-$flavor"
fi
ln -sfn "$obj" "$b/obj-$flavor"
export CCACHE_DIR=${CCACHE_DIR:-$b/ccache}
export CCACHE_NOHASHDIR=1
kmake=(make -s -C "$src" O="$obj" CC="ccache gcc" -j"$jobs" KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00 UTC"
       KBUILD_BUILD_USER=swapq KBUILD_BUILD_HOST=swapq LOCALVERSION=-"$flavor")

cfgs=()
for f in "${frags[@]}"; do cfgs+=("$top/configs/$f.config"); done
want=$(cat "${cfgs[@]}" | sha1sum | cut -c1-12)
if [ "$(cat "$obj/.swapq-config" 2>/dev/null)" != "$want" ]; then
	"${kmake[@]}" tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${cfgs[@]}" >/dev/null
	"${kmake[@]}" olddefconfig >/dev/null
	# every requested option must have survived olddefconfig
	missing=0
	for i in "${!cfgs[@]}"; do
		later=("${cfgs[@]:i+1}")
		while IFS= read -r line; do
			# a later fragment overrides this one
			[ ${#later[@]} -gt 0 ] && grep -q "^${line%%=*}=" "${later[@]}" && continue
			case "$line" in CONFIG_*=n) opt=${line%=n}
				grep -q "^$opt=" "$obj/.config" && { echo "build-kernel: $opt still set" >&2; missing=1; } ;;
			CONFIG_*) grep -qx "$line" "$obj/.config" && continue
				opt=${line%%=*}
				# the pristine tree lacks the options the series adds
				case "$flavor" in base*|bisect) grep -rqx --include='Kconfig*' "config ${opt#CONFIG_}" "$src" || continue ;; esac
				echo "build-kernel: $line not in final config" >&2; missing=1 ;;
			esac
		done < "${cfgs[i]}"
	done
	[ $missing = 0 ] || exit 1
	echo "$want" > "$obj/.swapq-config"
fi
shift
if [ $# -gt 0 ]; then
	exec "${kmake[@]}" "$@"
fi
echo "build-kernel: $flavor from $(basename "$src") ($(cat "$b/kernel-version")), $jobs jobs"
"${kmake[@]}" bzImage modules
rm -rf "$b/mod-$flavor"
"${kmake[@]}" INSTALL_MOD_PATH="$b/mod-$flavor" modules_install >/dev/null
echo "build-kernel: $obj/arch/x86/boot/bzImage $(cat "$obj/include/config/kernel.release")"
