#!/bin/bash
# bench-report.sh [DIR]: turn the runs of scripts/bench.sh (DIR, default
# build/bench) into DIR/report.md, DIR/results.tsv and the charts
# DIR/throughput.png and DIR/share.png. Can be re-run on the same runs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/bench}
[ -f "$out/params" ] || { echo "bench-report: no $out/params (run scripts/bench.sh)" >&2; exit 1; }
param() { sed -n "s/^$1=//p" "$out/params" | tail -n 1; }
# the instruction-counting runs have their own report
[ "$(param mode)" = icount ] && exec python3 "$top/scripts/bench-report-icount.py" "$out"
cases=$(param cases)
runs=$(param runs)
plot=$out/plot
rm -rf "$plot"
mkdir -p "$plot"

# All timed results, one table.
res=$out/results.tsv
{
	printf 'kernel\trun\tcase\tstatus\telapsed_s\tmib_s\tcg_sys_s\tcg_user_s\tru_stime_s\tall_sys_s\tpswpout\tpswpin\toom_kill\n'
	for f in "$out"/runs/base-*/results.tsv "$out"/runs/patched-*/results.tsv; do
		[ -f "$f" ] && tail -n +2 "$f"
	done | sort -t "$(printf '\t')" -k3,3 -k2,2n -k1,1
} > "$res"

col() {	# col NAME: column number in results.tsv
	head -n 1 "$res" | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1
}
# values CASE KERNEL COLUMN: that column of the successful runs
values() {
	awk -F'\t' -v c="$1" -v k="$2" -v n="$(col "$3")" \
		'NR > 1 && $3 == c && $1 == k && $4 == "ok" { print $n }' "$res"
}
# ratios CASE COLUMN: patched / base of each run that has both
ratios() {
	awk -F'\t' -v c="$1" -v n="$(col "$2")" '
		NR > 1 && $3 == c && $4 == "ok" { v[$1, $2] = $n; r[$2] = 1 }
		END { for (i in r) if ((("base", i) in v) && (("patched", i) in v) && v["base", i] > 0)
			printf "%.4f\n", v["patched", i] / v["base", i] }' "$res"
}
# stats FMT: "min | median | max" of the numbers on stdin ("-" if none)
stats() {
	sort -g | awk -v f="$1" '{ a[NR] = $1 }
		END {
			if (!NR) { print "- | - | -"; exit }
			m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			printf f " | " f " | " f "\n", a[1], m, a[NR]
		}'
}
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR) print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
count() { wc -l | tr -d ' '; }
# target CASE METRIC: "op value" the issue sets, or nothing
target() {
	case $1/$2 in
	brd12/mib_s) echo ">= 1.05" ;; brd12/cg_sys_s) echo "<= 0.95" ;;
	single/mib_s) echo ">= 0.99" ;;
	esac
}
verdict() {	# verdict MEDIAN "op value"
	if [ -z "$2" ] || [ -z "$1" ]; then echo; return; fi
	awk -v m="$1" -v op="${2% *}" -v t="${2#* }" 'BEGIN {
		ok = op == ">=" ? m >= t : m <= t
		print ok ? "met" : "**not met**" }'
}
case_text() {
	case $1 in
	brd12) echo "12 brd devices, 64 MiB of swap each, one priority (the RFC's BRD case)" ;;
	single) echo "one brd device, 768 MiB of swap (regression guard)" ;;
	overflow) echo "4 devices x 48 MiB at priority 10 + 2 x 256 MiB at priority 5: the upper ring fills and allocation overflows into the lower one" ;;
	*) echo "$1" ;;
	esac
}

# Chart data: per case "run base_tp patched_tp base_sys patched_sys".
for c in $cases; do
	awk -F'\t' -v c="$c" -v runs="$runs" '
		NR > 1 && $3 == c && $4 == "ok" { tp[$1, $2] = $6; sy[$1, $2] = $7 }
		function g(a, k, r) { return ((k, r) in a) ? a[k, r] : "NaN" }
		END { for (r = 1; r <= runs; r++)
			print r, g(tp, "base", r), g(tp, "patched", r), g(sy, "base", r), g(sy, "patched", r) }' \
		"$res" > "$plot/$c.dat"
done

ncases=$(echo "$cases" | wc -w)
{
	echo "set terminal pngcairo size $((420 * ncases)),760 font 'Sans,9'"
	echo "set output '$out/throughput.png'"
	echo "set multiplot layout 2,$ncases title 'usemem under swap: pristine 7.3 (base) vs patched, per run ($(param smp) vCPUs, $(param mem) MiB, TCG)'"
	echo "set grid; set key bottom right; set xlabel 'run'; set xtics 1; set offsets 0.3, 0.3, 0, 0"
	for c in $cases; do
		echo "set title '$c: throughput'; set ylabel 'MiB/s'; set yrange [0:*]"
		echo "plot '$plot/$c.dat' using 1:2 with linespoints lw 2 pt 7 title 'base', '' using 1:3 with linespoints lw 2 pt 5 title 'patched'"
	done
	for c in $cases; do
		echo "set title '$c: system time (memcg cpu.stat)'; set ylabel 's'; set yrange [0:*]"
		echo "plot '$plot/$c.dat' using 1:4 with linespoints lw 2 pt 7 title 'base', '' using 1:5 with linespoints lw 2 pt 5 title 'patched'"
	done
	echo "unset multiplot"
} > "$plot/throughput.gp"
# a case without one good run leaves its panel empty, not the report unwritten
gnuplot "$plot/throughput.gp" 2> "$plot/throughput.err" ||
	echo "bench-report: $out/throughput.png incomplete, see $plot/throughput.err" >&2

# Per-device share over time: the weighted case when the patched kernel has
# the queue's sysfs, else the swap each device holds in the overflow case.
wdir=$out/runs/patched-$runs
share_note=
if [ -s "$wdir/samples-weighted.tsv" ] && awk '$4 >= 0 { f = 1 } END { exit !f }' "$wdir/samples-weighted.tsv"; then
	# share of the pages allocated in each interval, per device
	awk -F'\t' '
		{ if (!($1 in seen)) { seen[$1] = 1; ts[++nt] = $1 }
		  if (!($2 in isdev)) { isdev[$2] = 1; dev[++nd] = $2 }
		  a[$1, $2] = $4 }
		END {
			printf "t"; for (d = 1; d <= nd; d++) printf " %s", dev[d]; print ""
			for (i = 2; i <= nt; i++) {
				s = 0
				for (d = 1; d <= nd; d++) { x[d] = a[ts[i], dev[d]] - a[ts[i - 1], dev[d]]; s += x[d] }
				if (s <= 0) continue
				printf "%s", ts[i]
				for (d = 1; d <= nd; d++) printf " %.4f", x[d] / s
				print ""
			}
		}' "$wdir/samples-weighted.tsv" > "$plot/share.dat"
	ndev=$(head -n 1 "$plot/share.dat" | wc -w)
	{
		echo "set terminal pngcairo size 900,500 font 'Sans,9'"
		echo "set output '$out/share.png'"
		echo "set title 'weighted case (patched): share of swap allocations per device and interval; quotas $(awk '{ printf "%s%s", s, $2; s = ":" }' "$wdir/weighted-quotas.tsv" 2>/dev/null)'"
		echo "set grid; set key outside right; set xlabel 's'; set ylabel 'share'; set yrange [0:1]"
		printf "plot"
		for i in $(seq 2 "$ndev"); do
			printf "%s '%s' using 1:%d with linespoints title columnheader(%d)" \
				"$([ "$i" = 2 ] || echo ,)" "$plot/share.dat" "$i" "$i"
		done
		awk '{ t += $2; q[NR] = $2; d[NR] = $1 } END { for (i = 1; i <= NR; i++) printf ", %.4f with lines dt 2 lc rgb \"gray\" %s", q[i] / t, i == 1 ? "title \"quota share\"" : "notitle" }' \
			"$wdir/weighted-quotas.tsv"
		echo
	} > "$plot/share.gp"
	share_what="weighted"
else
	share_note="The patched kernel ($(param patches) patches) has no \`/sys/kernel/mm/swap/queue\`, so there is no weighted case; the chart shows the swap each device holds over time in the overflow case instead, from \`/proc/swaps\`."
	sc=overflow
	echo " $cases " | grep -q ' overflow ' || sc=${cases%% *}
	pl=
	for k in base patched; do
		f=$out/runs/$k-$runs/samples-$sc.tsv
		[ -s "$f" ] || continue
		awk -F'\t' '
			{ if (!($1 in seen)) { seen[$1] = 1; ts[++nt] = $1 }
			  if (!($2 in isdev)) { isdev[$2] = 1; dev[++nd] = $2 }
			  u[$1, $2] = $3 }
			END {
				printf "t"; for (d = 1; d <= nd; d++) printf " %s", dev[d]; print ""
				for (i = 1; i <= nt; i++) {
					printf "%s", ts[i]
					for (d = 1; d <= nd; d++) printf " %.1f", u[ts[i], dev[d]] / 1024
					print ""
				}
			}' "$f" > "$plot/used-$k.dat"
		pl="$pl $k"
	done
	{
		echo "set terminal pngcairo size 1100,480 font 'Sans,9'"
		echo "set output '$out/share.png'"
		echo "set multiplot layout 1,$(echo "$pl" | wc -w) title '$sc case, run $runs: swap used per device over time (/proc/swaps)'"
		echo "set grid; set key outside right; set xlabel 's'; set ylabel 'MiB'; set yrange [0:*]"
		for k in $pl; do
			n=$(head -n 1 "$plot/used-$k.dat" | wc -w)
			echo "set title '$k'"
			printf "plot for [i=2:%d] '%s' using 1:i with lines lw 2 title columnheader(i)\n" "$n" "$plot/used-$k.dat"
		done
		echo "unset multiplot"
	} > "$plot/share.gp"
	share_what="overflow"
fi
# a case without one good run leaves its panel empty, not the report unwritten
gnuplot "$plot/share.gp" 2> "$plot/share.err" ||
	echo "bench-report: $out/share.png incomplete, see $plot/share.err" >&2

# Lock statistics: every lock class of the swap code, from /proc/lock_stat.
# Classes named after a variable are static (global); "&x->y" classes are
# per device or per cluster.
lockstat_table() {	# lockstat_table FILE
	awk '
		/^-+$/ || /lock_stat version/ || /class name/ { next }
		{
			i = match($0, /:[ \t]+[0-9]/)
			if (!i) next
			name = substr($0, 1, i - 1); gsub(/^[ \t]+/, "", name)
			n = split(substr($0, i + 1), f, " ")
			if (n < 12) next
			if (name !~ /swap|swp|&si->|&p->lock|&ci->|cluster/) next
			scope = (name ~ /^&/) ? "per device/cluster" : "global"
			printf "| `%s` | %s | %d | %d | %d | %d | %.1f |\n", name, scope, f[8], f[2], f[1], f[7], f[5]
		}' "$1" | sort -t '|' -k5,5nr -k4,4nr
}

{
	echo "# swapq benchmark: pristine vs patched Linux $(param kernel_version)"
	echo
	echo "Written by \`make bench\` (scripts/bench.sh, scripts/bench-report.sh) on $(param date)."
	echo
	echo "## Setup"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| kernel source | Debian linux-source-7.3 $(param kernel_version) (build/kernel-version) |"
	echo "| base | pristine tree, \`$(param release_base)\` (build/obj-base-bench) |"
	echo "| patched | pristine + $(param patches) patches of patches/series, \`$(param release_patched)\` (build/obj-bench) |"
	echo "| config | tinyconfig + configs/vm.config + configs/bench.config for both, no debug options |"
	echo "| swapq | $(param commit) |"
	echo "| VM | QEMU TCG, $(param smp) vCPUs, $(param mem) MiB, \`$(param brd)\` |"
	echo "| host | $(param host); $(param qemu) |"
	echo "| workload | \`usemem -n $(param nproc) -r $(param passes) $(param size)\`: $(param nproc) processes each write to every page of $(param size) of private anonymous memory$(
		[ "$(param passes)" = 0 ] || echo ", then read it all back $(param passes) time(s)"), in a memcg with memory.max=$(param memcg) |"
	echo "| runs | $runs boots per kernel, alternating base, patched, base, ...; each boot runs the cases in the order: $cases |"
	echo "| duration | $(param elapsed_min) min for the whole \`make bench\` (builds included) |"
	echo
	echo "Cases (devices discarded, swapped on afresh and a new memcg for each):"
	echo
	for c in $cases; do echo "- **$c**: $(case_text "$c")"; done
	echo
	echo "Throughput is the requested total ($(param nproc) x $(param size)) divided by usemem's elapsed"
	echo "time (start of all workers to exit of the last), as the RFC computes it. System"
	echo "time is the memcg's \`cpu.stat\` \`system_usec\`: the workers' system CPU time,"
	echo "direct reclaim and swap-out included. All-CPU system time (/proc/stat, kswapd"
	echo "included), the workers' \`getrusage\` times and swap I/O counts are in results.tsv."
	echo "Ratios are patched / base of the same run number (adjacent boots)."
	echo
	echo "## Results"
	echo
	echo "| case | metric | kernel | n | min | median | max |"
	echo "|---|---|---|---|---|---|---|"
	for c in $cases; do
		for m in mib_s:"throughput MiB/s" cg_sys_s:"system time s" elapsed_s:"elapsed s"; do
			for k in base patched; do
				echo "| $c | ${m#*:} | $k | $(values "$c" $k "${m%%:*}" | count) | $(values "$c" $k "${m%%:*}" | stats %.2f) |"
			done
		done
	done
	echo
	echo "### Ratios, patched / base, per pair of runs"
	echo
	echo "| case | metric | pairs | min | median | max | ratio of medians | target | |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for c in $cases; do
		for m in mib_s:throughput cg_sys_s:"system time" elapsed_s:elapsed; do
			col=${m%%:*}
			med=$(ratios "$c" "$col" | median)
			mb=$(values "$c" base "$col" | median) mp=$(values "$c" patched "$col" | median)
			rom=-
			[ -n "$mb" ] && [ -n "$mp" ] && rom=$(awk -v a="$mp" -v b="$mb" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
			t=$(target "$c" "$col")
			echo "| $c | ${m#*:} | $(ratios "$c" "$col" | count) | $(ratios "$c" "$col" | stats %.3f) | $rom | ${t:--} | $(verdict "$med" "$t") |"
		done
	done
	echo
	echo "A target is judged on the median ratio; min and max give the spread between pairs."
	bad=$(awk -F'\t' 'NR > 1 && $4 != "ok"' "$res" | count)
	# the timed cases only: the weighted case runs once, on its own
	missing=$(( runs * 2 * ncases - $(awk -F'\t' -v cs=" $cases " 'NR > 1 && index(cs, " " $3 " ")' "$res" | count) ))
	if [ "$bad" != 0 ] || [ "$missing" -gt 0 ]; then
		echo
		echo "Excluded: $bad result(s) with a failed status, $missing missing (failed boots):"
		echo
		awk -F'\t' 'NR > 1 && $4 != "ok" { printf "- %s run %s %s: %s\n", $1, $2, $3, $4 }' "$res"
	fi
	echo
	echo "![throughput and system time per run](throughput.png)"
	echo
	echo "## Per-device share over time"
	echo
	if [ "$share_what" = weighted ]; then
		echo "Weighted case on the patched kernel (run $runs): 4 devices of one priority with"
		echo "quotas $(awk '{ printf "%s%s=%s", s, $1, $2; s = ", " }' "$wdir/weighted-quotas.tsv")"
		echo "(pages per turn); each point is the device's share of the pages allocated"
		echo "in that interval (\`allocated\` in the queue's sysfs), dashed lines the"
		echo "shares the quotas ask for."
		w=$(awk -F'\t' 'NR > 1 && $3 == "weighted"' "$wdir/results.tsv" 2>/dev/null | cut -f6 | head -n 1 || true)
		[ -n "$w" ] && echo "Throughput of that run: $w MiB/s (not a comparison: base has no quotas)."
	else
		echo "$share_note"
	fi
	echo
	echo "![per-device share over time](share.png)"
	echo
	echo "## Lock contention (CONFIG_LOCK_STAT)"
	echo
	if [ "$(param lockstat)" != 1 ]; then
		echo "Not run (LOCKSTAT=0)."
	else
		echo "Both kernels rebuilt with configs/lockstat.config (LOCK_STAT, hence LOCKDEP;"
		echo "no PROVE_LOCKING), one boot each, the brd12 case with"
		echo "\`usemem -n $(param nproc) -r $(param passes) $(param lockstat_size)\`; /proc/lock_stat cleared before"
		echo "usemem starts and read when it ends. Every lock class of the swap code"
		echo "(name matching swap, swp, si->, p->lock, ci->, cluster); \`&p->lock\` is"
		echo "\`si->lock\` in mm/swapfile.c, though other code has classes of that name too."
		echo "Times in microseconds. Timing under lockdep is not comparable with the runs above."
		for k in base patched; do
			f=$out/runs/lockstat-$k/lock_stat-brd12.txt
			echo
			echo "### $k"
			echo
			if [ ! -s "$f" ]; then
				echo "No lock_stat output (see build/bench/logs/lockstat-$k.log)."
				continue
			fi
			r=$(awk -F'\t' 'NR > 1 { print $6 " MiB/s, " $5 " s, status " $4 }' "$out/runs/lockstat-$k/results.tsv" 2>/dev/null || true)
			echo "usemem: ${r:-no result}."
			echo
			echo "| lock class | scope | acquisitions | contentions | con-bounces | acq-bounces | wait total us |"
			echo "|---|---|---|---|---|---|---|"
			lockstat_table "$f"
			g=$(lockstat_table "$f" | awk -F'|' '$3 ~ /global/ && $5 + 0 > 0 { gsub(/[` ]/, "", $2); printf "%s%s (%d)", s, $2, $5; s = ", " }')
			echo
			echo "Contended global swap locks: ${g:-none}."
		done
	fi
	echo
	echo "## Files"
	echo
	echo "- results.tsv: every timed result (status ok / failed / oom / noswap)"
	echo "- runs/KERNEL-RUN/: per boot results.tsv, usemem-CASE.log, samples-CASE.tsv (per-device swap use over time), console.log"
	echo "- logs/: build and boot logs; plot/: chart data and gnuplot scripts"
	echo
	echo "### All runs"
	echo
	echo "| case | run | base MiB/s | patched MiB/s | ratio | base sys s | patched sys s | ratio |"
	echo "|---|---|---|---|---|---|---|---|"
	for c in $cases; do
		awk -v c="$c" '{
			tr = ($2 > 0 && $3 == $3 + 0 && $2 == $2 + 0) ? sprintf("%.3f", $3 / $2) : "-"
			sr = ($4 > 0 && $5 == $5 + 0 && $4 == $4 + 0) ? sprintf("%.3f", $5 / $4) : "-"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", c, $1, $2, $3, tr, $4, $5, sr
		}' "$plot/$c.dat"
	done
} > "$out/report.md"
echo "bench-report: $out/report.md"
