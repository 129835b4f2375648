"""GA fitness by generation (best and mean) for docs/seed003.md.

    python3 docs/seed003_plot.py OUT docs/seed003-ga-fitness.png

Reads OUT/ga1.csv … ga5.csv (`hastings train eval --history`, columns generation,
best, mean; fitness = training positions matched of 1,000) and, when present,
OUT/coevolved.csv (round-robin points), and draws them with the seed's 233 marked.
"""

import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return (
        [int(r["generation"]) for r in rows],
        [float(r["best"]) for r in rows],
        [float(r["mean"]) for r in rows],
    )


def main(out, png):
    runs = [
        (s, os.path.join(out, f"ga{s}.csv"))
        for s in range(1, 6)
        if os.path.exists(os.path.join(out, f"ga{s}.csv"))
    ]
    coevolved = os.path.join(out, "coevolved.csv")
    has_co = os.path.exists(coevolved)
    fig, axes = plt.subplots(
        1, 2 if has_co else 1, figsize=(11 if has_co else 7, 4.2), squeeze=False
    )
    ax = axes[0][0]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (seed, path) in enumerate(runs):
        g, best, mean = read(path)
        c = colours[i % len(colours)]
        ax.plot(g, best, color=c, label=f"seed {seed} best")
        ax.plot(g, mean, color=c, linestyle="--", linewidth=0.9, label=f"seed {seed} mean")
    ax.axhline(233, color="grey", linestyle=":", label="the seed's best (233)")
    ax.set_xlabel("generation")
    ax.set_ylabel("positions matched (of 1,000)")
    ax.set_title("GA on master moves (75 organisms, depth 1)")
    ax.legend(fontsize=7, ncol=2)
    if has_co:
        ax = axes[0][1]
        g, best, mean = read(coevolved)
        ax.plot(g, best, marker="o", label="best")
        ax.plot(g, mean, marker="o", linestyle="--", label="mean")
        ax.set_xlabel("generation")
        ax.set_ylabel("round-robin points (+1 win, −1 loss)")
        ax.set_title("Co-evolution (15 organisms, depth 3)")
        ax.set_xticks(g)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
