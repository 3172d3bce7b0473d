#!/usr/bin/env python3
"""Report of `make bench BENCH_MODE=host` (scripts/bench-host.sh).

bench-host-report.py [DIR]: read DIR/params and DIR/runs/{base,patched}-R/
(results.tsv, thp.tsv, console.log), DIR/runs/trace-*/trace-*.txt, and
write DIR/report.md (DIR: build/bench-host).

Per case and metric: each kernel's mean and sample standard deviation over
its runs, the ratio of the means patched/base, and a 95 % interval of that
ratio by a percentile bootstrap over runs: the base runs and the patched
runs are resampled with replacement, each kernel on its own, 10000 times,
and the interval is the 2.5th to 97.5th percentile of the resampled ratios
(fixed seed: the same runs give the same report). Only runs whose case
ended ok count; the others are listed.
"""
import math
import os
import random
import re
import statistics
import sys

from bench_params import read_params

KERNELS = ("base", "patched")
RESAMPLES = 10000
# (results.tsv column, name, what is better)
USEMEM_METRICS = [
    ("elapsed_s", "elapsed (s)", "lower"),
    ("mib_s", "throughput (MiB/s)", "higher"),
    ("cg_sys_s", "memcg system time (s)", "lower"),
    ("pswpout", "pages swapped out (pswpout)", "-"),
]
KBUILD_METRICS = [
    ("elapsed_s", "elapsed (s)", "lower"),
    ("cg_sys_s", "memcg system time (s)", "lower"),
    ("cg_user_s", "memcg user time (s)", "lower"),
    ("pswpout", "pages swapped out (pswpout)", "-"),
]
THP_FIRST, THP_LAST = 2, 100


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def run_dirs(out):
    """[(kernel, run, path)] of the timed boots, in run order."""
    found = []
    runs = os.path.join(out, "runs")
    for d in os.listdir(runs) if os.path.isdir(runs) else []:
        m = re.fullmatch(r"(base|patched)-(\d+)", d)
        if m:
            found.append((m.group(1), int(m.group(2)), os.path.join(runs, d)))
    return sorted(found, key=lambda x: (x[1], x[0]))


def number(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def collect(out):
    """{case: {metric column: {kernel: [values]}}}, failures, case order"""
    values, failures, order = {}, [], []
    for kernel, run, path in run_dirs(out):
        for row in read_tsv(os.path.join(path, "results.tsv")):
            case = row["case"]
            if case not in order:
                order.append(case)
            if row.get("status") != "ok":
                failures.append(f"{kernel} run {run}: {case} {row.get('status')}")
                continue
            metrics = KBUILD_METRICS if case == "kbuild" else USEMEM_METRICS
            for col, _, _ in metrics:
                v = number(row.get(col))
                if v is not None:
                    values.setdefault(case, {}).setdefault(col, {}).setdefault(kernel, []).append(v)
        # thp: the mean fallback % of iterations 2-100, per layout and mode
        per = {}
        for row in read_tsv(os.path.join(path, "thp.tsv")):
            it, pct = int(row["iteration"]), number(row["fallback_pct"])
            if THP_FIRST <= it <= THP_LAST and pct is not None:
                per.setdefault(f"thp {row['layout']} {row['mode']}", []).append(pct)
        for case, pcts in per.items():
            if case not in order:
                order.append(case)
            values.setdefault(case, {}).setdefault("fallback_pct", {}).setdefault(
                kernel, []).append(statistics.fmean(pcts))
    return values, failures, order


def ratio_interval(base, patched, rng):
    """Percentile bootstrap 95 % interval of mean(patched) / mean(base)."""
    ratios = []
    for _ in range(RESAMPLES):
        b = statistics.fmean(rng.choices(base, k=len(base)))
        p = statistics.fmean(rng.choices(patched, k=len(patched)))
        if b != 0:
            ratios.append(p / b)
    if len(ratios) < RESAMPLES / 2:
        return None
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def fmt(v):
    if v is None:
        return "n/a"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def stats_row(name, better, base, patched, rng):
    """One table row: metric, better, base mean ± sd, patched, ratio, interval, n"""
    def mean_sd(v):
        if not v:
            return "n/a"
        sd = statistics.stdev(v) if len(v) > 1 else None
        return f"{fmt(statistics.fmean(v))} ± {fmt(sd)}"
    ratio = interval = "n/a"
    if base and patched and statistics.fmean(base) != 0:
        ratio = f"{statistics.fmean(patched) / statistics.fmean(base):.3f}"
        if len(base) > 1 and len(patched) > 1:
            ci = ratio_interval(base, patched, rng)
            if ci:
                interval = f"{ci[0]:.3f} – {ci[1]:.3f}"
    return (f"| {name} | {better} | {mean_sd(base)} | {mean_sd(patched)} | {ratio} | "
            f"{interval} | {len(base)} / {len(patched)} |")


def first_line(path, pattern):
    if not os.path.exists(path):
        return None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(pattern, line)
            if m:
                return m.group(1).strip()
    return None


def main(out):
    params = read_params(out)
    values, failures, order = collect(out)
    rng = random.Random(1)
    dirs = run_dirs(out)
    lines = [
        "# swapq benchmark on real hardware (BENCH_MODE=host)",
        "",
        f"{params.get('date', '?')}, commit {params.get('commit', '?')}, "
        f"{params.get('patches', '?')} patches, {params.get('runs', '?')} boots per kernel "
        "(base and patched alternately), "
        f"{params.get('elapsed_min', '?')} min.",
        "",
        f"- host: {params.get('host', '?')}; {params.get('qemu', '?')}",
        f"- guest: {params.get('smp', '?')} vCPUs, {params.get('mem', '?')} MiB",
        f"- source: linux-source-7.3 {params.get('kernel_version', '?')}",
    ]
    for kernel in KERNELS:
        boot = next((p for k, _, p in dirs if k == kernel), None)
        version = first_line(os.path.join(boot, "console.log"), r"(Linux version .*)") if boot else None
        release = params.get(f"release_{kernel}", "?")
        lines.append(f"- {kernel} kernel: {version or release}")
    boot = dirs[0][2] if dirs else None
    qemu_cmd = None
    if boot and os.path.exists(os.path.join(boot, "qemu.cmd")):
        with open(os.path.join(boot, "qemu.cmd")) as f:
            qemu_cmd = f.read().strip()
    cmdline = first_line(os.path.join(boot, "console.log"), r"Command line: (.*)") if boot else None
    lines += ["", "QEMU, as scripts/run-vm.sh ran it" if qemu_cmd else
              "QEMU, through scripts/run-vm.sh (FLAVOR: host, base-host)", "", "```",
              qemu_cmd or params.get("run_vm", "?"), "```"]
    if cmdline:
        lines += ["", f"Kernel command line (first boot): `{cmdline}`"]
    lines += [
        "",
        f"Cases: usemem, one worker per vCPU, 1.5 x memory.max {params.get('memcg', '?')} MiB, "
        f"over {params.get('swap', '?')} MiB of brd swap on 1, 4 or 12 devices (brdN); "
        f"kernel build: {params.get('kbuild', '?')}; memory.max in the boots: {params.get('kbuild_memcg', '?')} (MiB); "
        "thp_swap_allocator_test on zram (thp LAYOUT MODE: fallback % = mean of "
        f"iterations {THP_FIRST}-{THP_LAST}).",
        "",
        "Mean ± sample standard deviation over runs; ratio = patched mean / base mean; "
        f"95 % interval of the ratio: percentile bootstrap over runs ({RESAMPLES} resamples "
        "of each kernel's runs, independently); n = base / patched runs that completed.",
        "",
    ]
    for case in order:
        if case not in values:
            continue
        if case.startswith("thp "):
            metrics = [("fallback_pct", "swap-out fallback (%)", "lower")]
        else:
            metrics = KBUILD_METRICS if case == "kbuild" else USEMEM_METRICS
        lines += [f"## {case}", "",
                  "| metric | better | base | patched | ratio | 95 % interval | n |",
                  "|---|---|---|---|---|---|---|"]
        for col, name, better in metrics:
            v = values[case].get(col, {})
            lines.append(stats_row(name, better, v.get("base", []), v.get("patched", []), rng))
        lines.append("")
    if failures:
        lines += ["## Runs that did not complete", ""] + [f"- {f}" for f in failures] + [""]

    traces = []
    for kernel in KERNELS:
        d = os.path.join(out, "runs", f"trace-{kernel}")
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if name.startswith("trace-") and name.endswith(".txt"):
                with open(os.path.join(d, name), errors="replace") as f:
                    text = f.read().splitlines()
                traces += [f"### {kernel}: {name[6:-4]}", "", "```"] + text[-60:] + ["```", ""]
    if traces:
        lines += ["## Tracing (boots of their own, brd12 under each tool)", ""] + traces

    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")


if __name__ == "__main__":
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build", "bench-host"))
