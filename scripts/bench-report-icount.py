#!/usr/bin/env python3
"""Report of an instruction-counting `make bench` (BENCH_MODE=icount).

bench-report-icount.py DIR: read DIR/params and DIR/runs/{base,patched,
control}-R/ (scripts/bench.sh), write DIR/report.md and DIR/ratios.png.

Under -icount shift=0 the guest clock advances one nanosecond per executed
instruction, so usemem's touched_s is the instructions the whole guest
executed while the workers pushed their memory through swap. The base runs
of the rounds give the A/A spread (max - min over median) of every metric;
a patched/base difference is called only when the median ratio lies
outside three times that spread and the sign test over the rounds agrees.
The control arm, the base kernel with a known number of extra instructions
per page, shows that the instrument sees such a difference, with its sign
and size. No target is set here: the report shows, the reader judges.
"""
import glob
import math
import os
import re
import statistics
import subprocess
import sys

from bench_params import read_params

GIB = 1 << 30
PAGE = 4096


def size_bytes(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def read_results(out):
    """{(arm, round, case): row} of the cases that completed."""
    rows = {}
    runs = os.path.join(out, "runs")
    for d in sorted(os.listdir(runs)):
        m = re.fullmatch(r"(base|patched|control)-(\d+)", d)
        path = os.path.join(runs, d, "results.tsv")
        if not m or not os.path.exists(path):
            continue
        with open(path) as f:
            header = f.readline().rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(header, line.rstrip("\n").split("\t")))
                if row.get("status") == "ok":
                    rows[(m.group(1), int(m.group(2)), row["case"])] = row
    return rows


def metrics(row):
    """The per-case numbers the report compares, per GiB swapped out."""
    gib_out = int(row["pswpout"]) * PAGE / GIB
    if gib_out <= 0:
        return None
    return {
        "M1 million instructions per GiB swapped out":
            float(row["touched_s"]) * 1e3 / gib_out,
        "system time (memcg, ms) per GiB swapped out":
            float(row["cg_sys_s"]) * 1e3 / gib_out,
        "pages swapped out (pswpout)": float(row["pswpout"]),
    }


def sign_test(ratios):
    """Two-sided sign test of ratios against 1: (higher, lower, p)."""
    hi = sum(r > 1 for r in ratios)
    lo = sum(r < 1 for r in ratios)
    n = hi + lo
    if n == 0:
        return hi, lo, 1.0
    k = min(hi, lo)
    p = 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return hi, lo, min(1.0, p)


def spread(values):
    med = statistics.median(values)
    return (max(values) - min(values)) / med if med else float("inf")


def verdict(med_ratio, aa, p):
    if abs(med_ratio - 1) <= 3 * aa:
        return "no difference beyond 3x the A/A spread"
    if p >= 0.05:
        return "outside 3x A/A, but the sign test does not agree (p %.2f)" % p
    return "patched %s (%.2f %%)" % ("higher" if med_ratio > 1 else "lower",
                                     (med_ratio - 1) * 100)


def fmt_ratio(values):
    return "%.4f (%.4f-%.4f)" % (statistics.median(values), min(values), max(values))


def swaps_used(out, arm, rnd, case):
    """{device: used KiB} from /proc/swaps as the workers held their memory."""
    path = os.path.join(out, "runs", "%s-%d" % (arm, rnd), "swaps-%s.txt" % case)
    used = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if len(fields) >= 4:
                    used[fields[0]] = int(fields[3])
    return used


LOCK_LINE = re.compile(r"\s*(\S.*?):\s+((?:[\d.]+\s+){11}[\d.]+)\s*$")
SWAP_LOCK = re.compile(r"swap|swp|si->|p->lock|ci->|cluster")


def lock_acquisitions(path):
    """{lock class: acquisitions} of the swap code's classes."""
    acq = {}
    with open(path) as f:
        for line in f:
            m = LOCK_LINE.match(line)
            if m and SWAP_LOCK.search(m.group(1)):
                acq[m.group(1)] = acq.get(m.group(1), 0) + int(float(m.group(2).split()[7]))
    return acq


THP_LINE = re.compile(r"^Iteration (\d+): swpout inc: (\d+), swpout fallback inc: (\d+)")


def thp_fallback(path):
    """Fallback % per iteration of one thp_swap_allocator_test run, by number."""
    per = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = THP_LINE.match(line)
                if m:
                    it, out, fb = (int(x) for x in m.groups())
                    per[it] = 100.0 * fb / (out + fb) if out + fb else 0.0
    return per


def thp_section(out, w):
    """M4: mean mTHP fallback over iterations 2-100, per layout and mode."""
    w("## M4: mTHP swap-out fallback (thp_swap_allocator_test)\n")
    boots = {}
    for d in sorted(glob.glob(os.path.join(out, "runs", "thp-*-*"))):
        arm, r = os.path.basename(d).split("-")[1:3]
        boots.setdefault(arm, []).append(d)
    if not boots.get("base") or not boots.get("patched"):
        w("Not measured in this run (BENCH_THP_RUNS=0 or its boots failed).\n")
        return
    w("tools/mm/thp_swap_allocator_test of the pristine tree, 64K mTHP "
      "always, 2M never; zram1: one 64 MiB zram, zram4: four 16 MiB zram at "
      "one priority; plain, -a (aligned swap-in) and -s (with small folios). "
      "Mean fallback %% over iterations 2-100, per boot; %d boot(s) per "
      "kernel. Under icount a boot repeats exactly, so the A/A difference "
      "between base boots is no noise scale; the iterations are: SE is the "
      "standard error of the difference of the two means over iterations. "
      "A difference within 3 times the larger of the two is called the "
      "same.\n" % len(boots["base"]))
    w("| layout | mode | base | A/A | patched | patched - base | SE | verdict |")
    w("|---|---|---|---|---|---|---|---|")
    series = []
    for layout in ("zram1", "zram4"):
        for mode in ("plain", "a", "s"):
            name = "thp-%s-%s.txt" % (layout, mode)
            means = {}
            var = {}
            for arm in ("base", "patched"):
                means[arm] = []
                for i, d in enumerate(boots[arm]):
                    per = thp_fallback(os.path.join(d, name))
                    vals = [v for it, v in per.items() if it >= 2]
                    if vals:
                        means[arm].append(statistics.mean(vals))
                        if i == 0 and len(vals) > 1:
                            var[arm] = statistics.variance(vals) / len(vals)
                    if i == 0 and per:
                        series.append((arm, layout, mode, per))
            if not means["base"] or not means["patched"]:
                w("| %s | %s | missing | | | | | |" % (layout, mode))
                continue
            b, p = statistics.mean(means["base"]), statistics.mean(means["patched"])
            aa = max(means["base"]) - min(means["base"])
            se = math.sqrt(var.get("base", 0) + var.get("patched", 0))
            verdict = "same" if abs(p - b) <= 3 * max(aa, se) else ("higher" if p > b else "lower")
            w("| %s | %s | %.2f %% | %.2f | %.2f %% | %+.2f | %.2f | %s |" % (
                layout, mode, b, aa, p, p - b, se, verdict))
    w("")
    if series:
        dat = os.path.join(out, "thp.dat")
        with open(dat, "w") as f:
            for arm, layout, mode, per in series:
                f.write("# %s %s %s\n" % (arm, layout, mode))
                for it in sorted(per):
                    f.write("%d %.3f\n" % (it, per[it]))
                f.write("\n\n")
        gp = ("set terminal pngcairo size 900,480 font 'Sans,9'; set output '%s';"
              "set title 'M4 mTHP swap-out fallback per iteration (first boot of each kernel)';"
              "set grid; set xlabel 'iteration'; set ylabel 'fallback %%'; set key outside;"
              "plot " % os.path.join(out, "thp.png") +
              ", ".join("'%s' index %d using 1:2 with lines %s title '%s %s %s'" % (
                  dat, i, "dt 2" if arm == "base" else "dt 1", arm, layout, mode)
                        for i, (arm, layout, mode, _) in enumerate(series)))
        if subprocess.run(["gnuplot", "-e", gp], capture_output=True).returncode == 0:
            w("![M4 fallback per iteration](thp.png)\n")


def shares_section(out, w, case, rounds):
    """M5: device shares of the brd12, shares and weighted cases."""
    used = [swaps_used(out, "patched", r, case) for r in rounds]
    used = [u for u in used if u]
    if used and case in ("brd12", "shares"):
        # the queue moves on after a quota of pages, so the devices differ
        # by whole quotas (brd12: the default 512 pages, 2048 KiB; shares:
        # 32 pages, 128 KiB): max - min in KiB
        for arm in ("base", "patched"):
            us = [u for u in (swaps_used(out, arm, r, case) for r in rounds) if u]
            if not us:
                continue
            shares = [max(u.values()) / max(1, min(u.values())) for u in us]
            gaps = [max(u.values()) - min(u.values()) for u in us]
            w("M5, device share (%s): swap in use per device as the workers "
              "held their memory, max/min over the 12 devices: median %.3f "
              "(%.3f-%.3f); max - min: median %d KiB (%d-%d).\n" % (
                  arm, statistics.median(shares), min(shares), max(shares),
                  statistics.median(gaps), min(gaps), max(gaps)))
    if used and case == "weighted":
        qpath = os.path.join(out, "runs", "patched-%d" % rounds[0], "weighted-quotas.tsv")
        quotas = {}
        if os.path.exists(qpath):
            with open(qpath) as f:
                for line in f:
                    dev, q = line.split()
                    quotas[dev] = int(q)
        if quotas:
            qsum = sum(quotas.values())
            errs, kib = [], []
            for u in used:
                tot = sum(u.get(d, 0) for d in quotas)
                errs.append(max(abs(u.get(d, 0) / tot / (q / qsum) - 1)
                                for d, q in quotas.items()) if tot else float("inf"))
                kib.append(max(abs(u.get(d, 0) - tot * q / qsum) for d, q in quotas.items()))
            # a round of turns is sum(quotas) pages: the last one is partial
            w("M5, weighted shares: quotas %s pages; the largest relative error "
              "of a device's share of swap in use against its quota share "
              "(patched): median %.2f %% (%.2f-%.2f %%), in KiB: median %d "
              "(%d-%d), against a smallest quota of %d KiB.\n" % (
                  ":".join(str(quotas[d]) for d in sorted(quotas)),
                  statistics.median(errs) * 100, min(errs) * 100, max(errs) * 100,
                  statistics.median(kib), min(kib), max(kib), min(quotas.values()) * 4))


def main(out):
    params = read_params(out)
    rows = read_results(out)
    cases = params["cases"].split()
    rounds = sorted({r for (_, r, _) in rows})
    work = int(params.get("work", "0"))
    pages = int(params["nproc"]) * size_bytes(params["size"]) // PAGE
    md = []
    w = md.append

    w("# make bench: instructions, pristine 7.3 vs the series\n")
    w("Every boot is deterministic: %s. The guest clock counts executed "
      "instructions (1 ns each), so host load does not change what is "
      "measured. %s rounds, each booting base (pristine 7.3), patched and "
      "control (pristine 7.3, usemem doing %d extra loop iterations, %d "
      "instructions, per page). Kernels: %s vs %s, %s, %s vCPU(s), %s MiB; "
      "`usemem -n %s %s` in a memcg of %s per case; commit %s; %s.\n" % (
          params.get("qemu_accel", "?"), len(rounds), work, 2 * work,
          params.get("release_base", "?"), params.get("release_patched", "?"),
          params.get("qemu", "?"), params["smp"], params["mem"],
          params["nproc"], params["size"], params["memcg"],
          params.get("commit", "?"), params.get("date", "?")))
    w("How to read it: the A/A spread is (max - min) / median of the base "
      "runs; a patched/base difference is called only outside three times "
      "that spread and when the sign test over the rounds agrees (p < 0.05; "
      "with %d rounds the smallest possible p is %.3f).\n" % (
          len(rounds), 2 / 2 ** len(rounds) if rounds else 1))

    plot_rows = []
    for case in cases:
        w("## %s\n" % case)
        per = {}
        for arm in ("base", "patched", "control"):
            for r in rounds:
                row = rows.get((arm, r, case))
                m = metrics(row) if row else None
                if m:
                    per[(arm, r)] = m
        base_rounds = [r for r in rounds if ("base", r) in per]
        patched_rounds = [r for r in rounds if ("patched", r) in per]
        if len(base_rounds) < 2:
            # pristine 7.3 has no quotas to weight: only the shares remain
            w("Fewer than two base runs: no comparison (pristine 7.3 skips a "
              "case that needs the queue).\n")
            shares_section(out, w, case, patched_rounds)
            continue
        pairs = [r for r in base_rounds if ("patched", r) in per]
        w("| metric | base median | A/A spread | patched/base median (min-max) | sign test +/-, p | verdict |")
        w("|---|---|---|---|---|---|")
        for name in per[("base", base_rounds[0])]:
            b = [per[("base", r)][name] for r in base_rounds]
            if not pairs:
                continue
            ratios = [per[("patched", r)][name] / per[("base", r)][name] for r in pairs]
            aa = spread(b)
            hi, lo, p = sign_test(ratios)
            w("| %s | %.6g | %.4f %% | %s | %d/%d, %.3f | %s |" % (
                name, statistics.median(b), aa * 100, fmt_ratio(ratios), hi, lo, p,
                verdict(statistics.median(ratios), aa, p)))
            if name.startswith("M1"):
                for r, x in zip(pairs, ratios):
                    plot_rows.append((case, r, x))
        ctl = [r for r in base_rounds if ("control", r) in per]
        if ctl and work:
            seen = [(float(rows[("control", r, case)]["touched_s"]) -
                     float(rows[("base", r, case)]["touched_s"])) * 1e9 for r in ctl]
            expected = 2 * work * pages
            b_ns = [float(rows[("base", r, case)]["touched_s"]) * 1e9 for r in ctl]
            w("\nPositive control: %d extra instructions per page x %d pages = "
              "%.4g expected; measured control - base: median %.4g (%.4g-%.4g), "
              "%.1f %% of the expected, against an A/A spread of %.4g instructions.\n" % (
                  2 * work, pages, expected, statistics.median(seen), min(seen),
                  max(seen), statistics.median(seen) / expected * 100,
                  max(b_ns) - min(b_ns)))
        shares_section(out, w, case, pairs)

    w("## Locks (M2, M3)\n")
    found = False
    for arm in ("base", "patched"):
        d = os.path.join(out, "runs", "lockstat-" + arm)
        path = os.path.join(d, "lock_stat-brd12.txt")
        res = os.path.join(d, "results.tsv")
        if not (os.path.exists(path) and os.path.exists(res)):
            continue
        found = True
        with open(res) as f:
            header = f.readline().rstrip("\n").split("\t")
            row = dict(zip(header, f.readline().rstrip("\n").split("\t")))
        outs = max(1, int(row.get("pswpout", "0") or 0))
        w("%s (LOCK_STAT kernel, brd12, %d swap-outs): acquisitions per 1000 swap-outs\n" % (arm, outs))
        w("| lock class | per 1000 swap-outs |")
        w("|---|---|")
        for name, n in sorted(lock_acquisitions(path).items(), key=lambda x: -x[1]):
            w("| `%s` | %.2f |" % (name, n * 1000 / outs))
        w("")
    if not found:
        w("Not measured in this run (LOCKSTAT=0 or the lock_stat boots failed).\n")

    thp_section(out, w)

    w("## How it ran\n")
    qcmd = os.path.join(out, "runs", "patched-1", "qemu.cmd")
    if os.path.exists(qcmd):
        with open(qcmd) as f:
            w("QEMU, as scripts/run-vm.sh ran the first patched boot:\n")
            w("```\n%s\n```\n" % f.read().strip())
    w("Kernels: %s and %s, both from the kernel tree of Debian's "
      "linux-source-7.3 %s, configs/vm.config + configs/bench.config over "
      "tinyconfig (build/obj-base-bench/.config, build/obj-bench/.config); "
      "the lock boots add configs/lockstat.config.\n" % (
          params.get("release_base", "?"), params.get("release_patched", "?"),
          params.get("kernel_version", "?")))
    if "elapsed_min" in params:
        w("The whole run took %s minutes on %s.\n" % (params["elapsed_min"], params.get("host", "?")))

    w("## Not measured here\n")
    w("Contention itself needs many cores: on one deterministic vCPU nothing "
      "contends (BENCH_MODE=host measures it on real hardware).\n")

    if plot_rows:
        dat = os.path.join(out, "ratios.dat")
        with open(dat, "w") as f:
            for i, case in enumerate(cases):
                for c, r, x in plot_rows:
                    if c == case:
                        f.write("%d %d %.6f\n" % (i, r, x))
                f.write("\n\n")
        gp = ("set terminal pngcairo size 900,420 font 'Sans,9'; set output '%s';"
              "set title 'M1 instructions per GiB swapped out, patched / base, per round';"
              "set grid; set xlabel 'round'; set ylabel 'ratio'; set key outside;"
              "plot " % os.path.join(out, "ratios.png") +
              ", ".join("'%s' index %d using 2:3 with linespoints pt 7 title '%s'" % (dat, i, c)
                        for i, c in enumerate(cases)))
        if subprocess.run(["gnuplot", "-e", gp], capture_output=True).returncode == 0:
            w("![M1 ratios per round](ratios.png)\n")

    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/bench")
