#!/bin/bash
# The data-loss tests on pristine 7.3 (the same debug config, no series):
# there they must find the loss that the series' fixes remove, so that make
# check shows every run that they can fail.
#
#   tests/pristine/run.sh
#
# 16-swapfile-mthp: 64K folios split at swap-out to a fragmented swap file
# read back wrong on 7.3 (every anonymous 64K run fails); its shmem, 4K and
# strict-priority checks pass there.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test-results/pristine
mkdir -p "$out"

if ! { bash "$top/scripts/prepare-tree.sh" pristine &&
       bash "$top/scripts/build-kernel.sh" base; } > "$out/build.log" 2>&1; then
	tail -n 20 "$out/build.log"
	echo "not ok - pristine kernel builds"
	exit 1
fi
echo "ok - pristine 7.3 debug kernel builds"
bash "$top/scripts/run-vm.sh" -k base -o "$out/vm" -t 900 -a "brd.rd_nr=8 brd.rd_size=262144" -- \
	bash "$top/tests/guest/run.sh" 16-swapfile-mthp.sh > "$out/16.tap" 2>&1
sed 's/^\(ok\|not ok\)/# pristine: \1/' "$out/16.tap"
anon=$(grep -c '^\(not \)\?ok - anon 64K.*data verified' "$out/16.tap")
lost=$(grep -c '^not ok - anon 64K.*data verified' "$out/16.tap")
if [ "$anon" -gt 0 ] && [ "$lost" = "$anon" ]; then
	echo "ok - 16-swapfile-mthp finds the data loss on pristine 7.3 (all $anon anonymous 64K runs)"
else
	echo "not ok - 16-swapfile-mthp finds the data loss on pristine 7.3 ($lost of $anon anonymous 64K runs)"
fi
# what 7.3 does right must pass there too: shmem, 4K folios, strict priority
others=$(grep -c '^\(not \)\?ok - \(shmem 64K\|anon 4K\).*data verified\|strict priority' "$out/16.tap")
bad=$(grep -c '^not ok - \(shmem 64K\|anon 4K\).*data verified\|^not ok - strict priority' "$out/16.tap")
if [ "$others" -gt 0 ] && [ "$bad" = 0 ]; then
	echo "ok - its shmem, 4K and strict-priority checks pass on pristine 7.3 ($others)"
else
	echo "not ok - its shmem, 4K and strict-priority checks pass on pristine 7.3 ($bad of $others fail)"
fi
