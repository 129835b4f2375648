"""The Markdown tables of docs/seed003.md from what docs/measure-seed003.sh wrote.

    python3 docs/seed003_tables.py OUT

Prints: the weights beside the seed's Tables 3 and 5; the GA runs' training fitness;
move matching of the tuned evaluation (the 3,000-position run's too, where measured);
the λ table (the seed's Table 10) with the predictor alone; the Stockfish matches
(Skill Level × the best λ bot and the evaluation alone, and both over all levels). The
round robins' cross tables are OUT/roundrobin.md and OUT/players.md as `hastings match`
printed them.
"""

import glob
import json
import os
import re
import sys

FILES = [("twic1599_1000k", "TWIC"), ("lichess_db_1000k", "lichess")]
LAMBDAS = ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"]
# The seed's Table 10: correctly guessed moves of 10,000 (Lichess, ratings ≥ 2500).
SEED_TABLE10 = {
    "0": 1801, "0.1": 1996, "0.2": 2076, "0.3": 2163, "0.4": 2246, "0.5": 2320,
    "0.6": 2341, "0.7": 2298, "0.8": 2282, "0.9": 2215, "1": 2195,
}


# The seed's Tables 3 (after the GA) and 5 (after co-evolution), features 1-37.
SEED_TABLE3 = [100, 1339, 1834, 2004, 1968, 12, 53, 36, 8, 5, 20, 13, 9, 33, 13, 62, 19,
               34, 8, 30, 24, 57, 23, 11, 45, 2, 30, 3, 2, 38, 15662, 12, 26, 4, 4, 41, 42]
SEED_TABLE5 = [100, 1339, 1834, 1458, 2041, 20, 53, 52, 17, 27, 56, 61, 5, 3, 57, 9, 13,
               24, 43, 59, 50, 29, 40, 2, 8, 23, 55, 3, 23, 45, 15708, 23, 13, 2, 36, 41, 4]


def weights(path):
    """(name, value) pairs of a weights file, in order."""
    with open(path) as f:
        text = f.read()
    return re.findall(r'\("([a-z_]+)", (-?\d+)\)', text)


def fitness(path):
    with open(path) as f:
        m = re.search(r"fitness: Some\(\((\d+), (\d+)\)\)", f.read())
    return f"{m.group(1)} / {m.group(2)}" if m else "–"


def report(path):
    with open(path) as f:
        return json.load(f)


def pct(x):
    return f"{100 * x:.1f} %"


def main(out):
    ga = weights(os.path.join(out, "ga-best.ron"))
    co = weights(os.path.join(out, "coevolved.ron"))
    print("| no | feature | seed, Table 3 (GA) | ours, best GA winner | seed, Table 5 (co-evolved) | ours, co-evolved |")
    print("|---|---|---|---|---|---|")
    for i, ((name, g), (_, c)) in enumerate(zip(ga, co)):
        print(f"| {i + 1} | `{name}` | {SEED_TABLE3[i]} | {g} | {SEED_TABLE5[i]} | {c} |")
    runs = sorted(glob.glob(os.path.join(out, "ga?.ron"))) + glob.glob(os.path.join(out, "ga3k.ron"))
    print()
    print("| run | training positions matched |")
    print("|---|---|")
    for r in runs:
        print(f"| `{os.path.basename(r)}` | {fitness(r)} |")
    print()
    print("| weights | depth | TWIC top-1 (from-square) | lichess top-1 (from-square) | positions |")
    print("|---|---|---|---|---|")
    for w, label in [
        ("ga-best", "best GA winner"),
        ("coevolved", "after co-evolution"),
        ("ga3k", "3,000 positions, 100 generations"),
    ]:
        for d in ["1", "2"]:
            cells, counts = [], []
            for f, _ in FILES:
                p = os.path.join(out, f"match-{w}-d{d}-{f}.json")
                if not os.path.exists(p):
                    cells.append("–")
                    continue
                r = report(p)
                cells.append(f"{pct(r['top1'])} ({pct(r['from_accuracy'])})")
                counts.append(f"{r['positions']:,}")
            print(f"| {label} | {d} | {cells[0]} | {cells[1]} | {' / '.join(counts)} |")
    print()
    print("| λ | TWIC, top bonus | TWIC, probability bonus | lichess, top bonus | lichess, probability bonus | seed's Table 10 |")
    print("|---|---|---|---|---|---|")
    sweeps = {}
    for f, _ in FILES:
        p = os.path.join(out, f"lambda-{f}.json")
        if os.path.exists(p):
            for row in report(p):
                sweeps[(f, str(row["lambda"]).rstrip("0").rstrip(".") or "0", row["bonus"])] = row
    for lam in LAMBDAS:
        cells = []
        for f, _ in FILES:
            for b in ["top", "probability"]:
                row = sweeps.get((f, lam, b))
                cells.append(f"{100 * row['top1']:.2f} %" if row else "–")
        print(f"| {lam} | {' | '.join(cells)} | {SEED_TABLE10[lam] / 100:.1f} % |")
    cnn = [os.path.join(out, f"lambda-cnn-{f}.json") for f, _ in FILES]
    cells = [f"{100 * report(p)['top1']:.2f} %" if os.path.exists(p) else "–" for p in cnn]
    print(f"| predictor alone | {cells[0]} | | {cells[1]} | | |")
    print()
    stockfish_table(out)


def stockfish_result(path):
    """(engine label, wins, draws, losses, score, Elo text) of a `hastings match` output."""
    with open(path) as f:
        last = [line for line in f if line.startswith("result:")]
    if not last:
        return None
    m = re.search(
        r"result: hastings (.*) vs .*: \+(\d+) =(\d+) -(\d+), score ([\d.]+) %, Elo (\S+)(.*)\(",
        last[0],
    )
    label, w, d, l_, score, elo, rest = m.groups()
    return label, int(w), int(d), int(l_), float(score), elo + rest.rstrip(", ")


def stockfish_table(out):
    """Skill Level × {the best λ bot, the evaluation alone}, and both over every level."""
    results = {}
    for p in glob.glob(os.path.join(out, "stockfish-*.txt")):
        level, engine = re.match(r".*stockfish-(\d+)-(\w+)\.txt", p).groups()
        r = stockfish_result(p)
        if r:
            results[(int(level), engine)] = r
    if not results:
        return
    engines = ["blend", "eval"]
    blend = next(r[0] for (_, e), r in results.items() if e == "blend")  # "blend (λ 0.1)"
    labels = {"blend": blend.replace("blend (", "").rstrip(")") + " blend", "eval": "evaluation alone"}
    print("| Stockfish Skill Level | " + " | ".join(
        f"{labels[e]}: +W =D −L | score | Elo" for e in engines) + " |")
    print("|---" * (1 + 3 * len(engines)) + "|")
    totals = {e: [0, 0, 0] for e in engines}
    for level in sorted({lv for lv, _ in results}):
        cells = []
        for e in engines:
            r = results.get((level, e))
            if not r:
                cells += ["–", "–", "–"]
                continue
            _, w, d, l_, score, elo = r
            totals[e] = [totals[e][0] + w, totals[e][1] + d, totals[e][2] + l_]
            elo = elo.replace("+inf", "+∞").replace("-0 ", "0 ").replace("-", "−")
            cells += [f"+{w} ={d} −{l_}", f"{score:.1f} %", elo]
        print(f"| {level} | {' | '.join(cells)} |")
    cells = []
    for e in engines:
        w, d, l_ = totals[e]
        n = w + d + l_
        cells += [f"+{w} ={d} −{l_}", f"{100 * (w + d / 2) / n:.1f} %", f"{n} games"]
    print(f"| all | {' | '.join(cells)} |")

if __name__ == "__main__":
    main(sys.argv[1])
