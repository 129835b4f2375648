#!/usr/bin/env python3
"""`hastings import` against pgn-reader's validate example, before and after a change:
alternating runs (validate, before and after on 1 and on 2 threads), medians of the CPU
time (`perf stat` task-clock) and of the wall time. Figures in docs/memory-and-import.md.

    VALIDATE=… BEFORE=old/hastings AFTER=target/release/hastings \
        python3 docs/import_vs_validate.py RUNS FILE:MODE…

MODE is an import mode (games, repertoire, auto); validate is built as
docs/memory-and-import.md says. Needs `perf`."""
import os
import statistics
import subprocess
import sys
import time
runs = int(sys.argv[1])
files = sys.argv[2:]
V = os.environ["VALIDATE"]
B = os.environ["BEFORE"]
A = os.environ["AFTER"]

def timed(cmd):
    t = time.perf_counter()
    r = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    w = time.perf_counter() - t
    ms = float(r.stderr.strip().splitlines()[-1].split(",")[0])
    return w, ms / 1e3, 0
for spec in files:
    path, mode = spec.split(":")
    progs = {
        "validate": [V, path],
        "before t1": [B, "import", path, "--" + mode, "--threads", "1"],
        "after t1": [A, "import", path, "--" + mode, "--threads", "1"],
        "before t2": [B, "import", path, "--" + mode, "--threads", "2"],
        "after t2": [A, "import", path, "--" + mode, "--threads", "2"],
    }
    res = {k: [] for k in progs}
    for i in range(runs):
        for k, cmd in progs.items():
            res[k].append(timed(cmd))
    load = open("/proc/loadavg").read().split()[:3]
    print(f"== {os.path.basename(path)} --{mode}, {runs} alternating runs, load {' '.join(load)}")
    vw = statistics.median(r[0] for r in res["validate"]); vc = statistics.median(r[1] for r in res["validate"])
    for k, rs in res.items():
        w = statistics.median(r[0] for r in rs); c = statistics.median(r[1] for r in rs); m = max(r[2] for r in rs)
        print(f"{k:10s} wall {w:6.3f} s  cpu {c:6.3f} s  ({c/vc:4.2f}x validate cpu, {w/vw:4.2f}x validate wall)")
