#!/usr/bin/env python3
"""Independent counts for `hastings explorer` with python-chess (1.11.2).

Counts, by the explorer's rules, every position of the first N plies of each game's
mainline: only finished games (Result 1-0, 0-1, 1/2-1/2) count, once per position they
reach, with the move played at the position's first occurrence; positions are
python-chess's Polyglot keys (chess.polyglot.zobrist_hash). Each game has a rating band
(the mean of WhiteElo and BlackElo rounded down; lichess's bands 0, 1000, 1200, 1400,
1600, 1800, 2000, 2200, 2500; unrated when one is missing), a speed (TimeControl
base+inc estimated as base + 40 * inc: ultrabullet < 30 s, bullet < 180, blitz < 480,
rapid < 1500, classical; "-" or moves/days correspondence; else unknown) and a year
(Date, else UTCDate).

Prints a TSV for tests/all/explorer.rs:

    # set  filter  key(hex)  move(Polyglot notation, castling e1h1)  games  white  draws  black  rating_sum  rated  last_year
    sum    set  filter  pairs  games  white  draws  black  rating_sum

"row" lines list the (position, move) pairs of positions reached by at least --min-games
games under the filter; "sum" lines add up every pair under the filter, so the test can
check the positions not listed too. Made with:

    /root/.cache/hastings-venv/bin/python docs/explorer_reference.py > tests/fixtures/explorer_counts_12.tsv
"""

import argparse
import collections
import sys

import chess
import chess.pgn
import chess.polyglot

BOUNDS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500]


def raw_name(board, move):
    to = move.to_square
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        to = chess.square(7 if board.is_kingside_castling(move) else 0, rank)
    name = chess.square_name(move.from_square) + chess.square_name(to)
    if move.promotion:
        name += chess.piece_symbol(move.promotion)
    return name


def rating(value):
    try:
        r = int(value.strip())
    except (ValueError, AttributeError):
        return None
    return r if 0 < r < 65536 else None


def band(w, b):
    if w is None or b is None:
        return "unrated", None
    mean = (w + b) // 2
    return max(x for x in BOUNDS if x <= mean), mean


def speed(tc):
    if tc is None:
        return "unknown"
    tc = tc.strip()
    if tc == "-":
        return "correspondence"
    if "/" in tc:
        seconds = tc.split("/", 1)[1]
        if seconds.isdigit() and int(seconds) >= 86400 and int(seconds) % 86400 == 0:
            return "correspondence"
        return "unknown"
    base, _, inc = tc.partition("+")
    inc = inc or "0"
    if not (base.isdigit() and inc.isdigit()):
        return "unknown"
    t = int(base) + 40 * int(inc)
    for limit, name in [(30, "ultrabullet"), (180, "bullet"), (480, "blitz"), (1500, "rapid")]:
        if t < limit:
            return name
    return "classical"


def year(headers):
    for tag in ("Date", "UTCDate"):
        value = headers.get(tag)
        if value is None:
            continue
        y = value.strip()[:4]
        if len(y) == 4 and y.isdigit() and int(y) > 0:
            return int(y)
        return None
    return None


def games(paths, max_plies):
    """(headers info, [(key, move name)]) per finished game."""
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                board = game.board()
                if board.uci_variant != "chess" or board.chess960:
                    continue
                h = game.headers
                result = h.get("Result", "*").strip()
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                seen = set()
                positions = []
                for ply, move in enumerate(game.mainline_moves()):
                    if ply >= max_plies:
                        break
                    k = chess.polyglot.zobrist_hash(board)
                    if k not in seen:
                        seen.add(k)
                        positions.append((k, raw_name(board, move)))
                    board.push(move)
                w, b = rating(h.get("WhiteElo")), rating(h.get("BlackElo"))
                bnd, mean = band(w, b)
                info = {
                    "result": result,
                    "band": bnd,
                    "mean": mean,
                    "speed": speed(h.get("TimeControl")),
                    "year": year(h),
                    "white": h.get("White", ""),
                    "black": h.get("Black", ""),
                }
                yield info, positions


def count(paths, max_plies, accept):
    counts = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0])
    for info, positions in games(paths, max_plies):
        if not accept(info):
            continue
        w = info["result"] == "1-0"
        d = info["result"] == "1/2-1/2"
        bl = info["result"] == "0-1"
        for k, mv in positions:
            c = counts[(k, mv)]
            c[0] += 1
            c[1] += w
            c[2] += d
            c[3] += bl
            if info["mean"] is not None:
                c[4] += info["mean"]
                c[5] += 1
            if info["year"] is not None:
                c[6] = max(c[6], info["year"])
    return counts


def bands_in(lo, hi):
    return {b for b in BOUNDS if lo <= b < hi}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--max-plies", type=int, default=12)
    p.add_argument("--fixtures", default="tests/fixtures")
    a = p.parse_args()
    fx = a.fixtures
    lichess = [f"{fx}/twic1599_100k.pgn", f"{fx}/lichess_db_100k.pgn"]
    style = [f"{fx}/style_training.pgn"]

    def player(name, color):
        return lambda i: i[color].lower() == name.lower()

    sets = [
        # (set, filter as the CLI writes it, files, accept, min games for rows)
        ("games", "all", lichess, lambda i: True, 1),
        ("games", "ratings=1600-2000", lichess, lambda i: i["band"] in bands_in(1600, 2000), 1),
        ("games", "ratings=2500", lichess, lambda i: i["band"] == 2500, 1),
        ("games", "ratings=0-1200", lichess, lambda i: i["band"] in bands_in(0, 1200), 1),
        ("games", "speeds=blitz,rapid", lichess, lambda i: i["speed"] in ("blitz", "rapid"), 1),
        ("games", "speeds=bullet", lichess, lambda i: i["speed"] == "bullet", 1),
        ("games", "speeds=unknown", lichess, lambda i: i["speed"] == "unknown", 1),
        (
            "games",
            "ratings=1000-1600;speeds=blitz",
            lichess,
            lambda i: i["band"] in bands_in(1000, 1600) and i["speed"] == "blitz",
            1,
        ),
        ("players", "player=Kasparov;color=white", style, player("Kasparov", "white"), 4),
        ("players", "player=kasparov;color=black", style, player("Kasparov", "black"), 4),
        (
            "players",
            "player=Kasparov;color=white;years=1985-1990",
            style,
            lambda i: player("Kasparov", "white")(i) and i["year"] is not None and 1985 <= i["year"] <= 1990,
            4,
        ),
        ("players", "years=1970-1975", style, lambda i: i["year"] is not None and 1970 <= i["year"] <= 1975, 25),
    ]
    out = sys.stdout
    out.write("# python-chess %s, docs/explorer_reference.py, max plies %d\n" % (chess.__version__, a.max_plies))
    out.write("# set\tfilter\tkey\tmove\tgames\twhite\tdraws\tblack\trating_sum\trated\tlast_year\n")
    for name, flt, paths, accept, min_games in sets:
        counts = count(paths, a.max_plies, accept)
        per_key = collections.Counter()
        for (k, _), c in counts.items():
            per_key[k] += c[0]
        sums = [0] * 6
        for (k, mv), c in sorted(counts.items()):
            for i in range(6):
                sums[i] += c[i] if i < 4 else (c[4] if i == 4 else 0)
            if per_key[k] >= min_games:
                out.write("row\t%s\t%s\t%016x\t%s\t%s\n" % (name, flt, k, mv, "\t".join(str(x) for x in c)))
        out.write("sum\t%s\t%s\t%d\t%s\n" % (name, flt, len(counts), "\t".join(str(x) for x in sums[:5])))


if __name__ == "__main__":
    main()
