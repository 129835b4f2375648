#!/usr/bin/env python3
"""The window's first painted frame under Xvfb (Mesa's software OpenGL), for one or more
builds side by side: alternating runs, each on a fresh data folder as a first start,
the median and range of the "first frame painted" time the app prints with
HASTINGS_TIMINGS (from the start of `hastings`'s window code to the read-back of the
first frame), and the load average.

    python3 docs/first_frame.py RUNS BIN…

e.g. `python3 docs/first_frame.py 7 /tmp/hastings-before target/release/hastings`.
Needs Xvfb. docs/measure-gui.sh measures the rest (dragging, idle CPU)."""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

runs = int(sys.argv[1])
bins = sys.argv[2:]
display = ":%d" % (100 + os.getpid() % 100)
xvfb = subprocess.Popen(
    ["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
time.sleep(1.5)
painted = re.compile(r"first frame painted ([0-9.]+) ms")
results = {b: [] for b in bins}
loads = []
try:
    for _ in range(runs):
        for b in bins:
            data = tempfile.mkdtemp()
            env = dict(
                os.environ,
                DISPLAY=display,
                HASTINGS_TIMINGS="1",
                LIBGL_ALWAYS_SOFTWARE="1",
                XDG_DATA_HOME=data,
                XDG_CONFIG_HOME=data,
            )
            p = subprocess.Popen(
                [b, "--size", "1280x800"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            ms = None
            for line in p.stderr:
                m = painted.search(line)
                if m:
                    ms = float(m.group(1))
                    break
            p.terminate()
            p.communicate(timeout=30)
            shutil.rmtree(data, ignore_errors=True)
            if ms is not None:
                results[b].append(ms)
            loads.append(os.getloadavg()[0])
finally:
    xvfb.terminate()
    xvfb.wait()
print(f"{runs} alternating runs, load average {min(loads):.1f}-{max(loads):.1f}")
for b, ms in results.items():
    if ms:
        print(
            f"{b}: first frame painted, median {statistics.median(ms):.0f} ms "
            f"(min {min(ms):.0f}, max {max(ms):.0f}, n={len(ms)})"
        )
    else:
        print(f"{b}: no first frame reported")
