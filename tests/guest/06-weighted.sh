#!/bin/bash
# Weighted striping: two equal-priority devices with quotas 512 and 1536 take
# allocations 1:3; swapping the quotas under load reverses the split without
# a swapoff.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin

swap_off_all
swap_on "$(ram 0)" 8
swap_on "$(ram 1)" 8
t0=$(dev_type "$(ram 0)") t1=$(dev_type "$(ram 1)")
echo 512 > "$QUEUE/devices/$t0/quota"
echo 1536 > "$QUEUE/devices/$t1/quota"
cg=$(memcg weighted 64M)

run_stopped "$cg" 336M
a0=$(dev_attr "$(ram 0)" allocated) a1=$(dev_attr "$(ram 1)" allocated)
diag "allocated: $(ram 0) $a0, $(ram 1) $a1 pages"
check "at least 256 MiB allocated ($((a0 + a1)) pages)" test $((a0 + a1)) -ge 65536
check "quota 1536 device takes 3/4 within 10% ($a1 of $((a0 + a1)))" within 10 "$a1" $(((a0 + a1) * 3 / 4))
finish_worker

# Under load: a worker keeps rewriting its memory; swap the quotas meanwhile
memcg_bg "$cg" "$FILL" --anon 128M --passes 2 --quiet
until [ $(( $(dev_attr "$(ram 0)" allocated) + $(dev_attr "$(ram 1)" allocated) - a0 - a1 )) -gt 20000 ]; do
	kill -0 $worker 2>/dev/null || break
	sleep 0.5
done
echo 1536 > "$QUEUE/devices/$t0/quota"
echo 512 > "$QUEUE/devices/$t1/quota"
b0=$(dev_attr "$(ram 0)" allocated) b1=$(dev_attr "$(ram 1)" allocated)
wait $worker
check "worker data verified while quotas changed" test $? -eq 0
d0=$(( $(dev_attr "$(ram 0)" allocated) - b0 )) d1=$(( $(dev_attr "$(ram 1)" allocated) - b1 ))
diag "allocated after the change: $(ram 0) $d0, $(ram 1) $d1 pages"
check "enough allocated after the change to judge ($((d0 + d1)) pages)" test $((d0 + d1)) -ge 32768
check "after swapping quotas, $(ram 0) takes 3/4 within 10% ($d0 of $((d0 + d1)))" within 10 "$d0" $(((d0 + d1) * 3 / 4))
check "both devices still swapped on (no swapoff needed)" test "$(swap_count)" -eq 2
rmdir "$cg"
swap_off_all
tap_end
