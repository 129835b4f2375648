#!/usr/bin/env python3
"""Independent reference probabilities for `tests/all/sampler_stats.rs`.

Written from docs/sampler.md alone, in plain Python with no packages (a small legal
move generator is included); it shares no code with the Rust implementation:

- the ECO graph is rebuilt from `data/eco/*.tsv`: nodes keyed by piece placement and
  side to move, T(x) and T_i(x), book continuations with cw and flag weights;
- at the asked position the implied transpositions are found by trying every legal
  move of the game position (castling and en-passant rights included);
- share, A and the exact P follow docs/sampler.md §2-3.

It prints the reference rows of docs/sampler.md §5 (a check of this script) and the
rows that the test pastes as constants.

Run from the repository root:  python3 docs/sampler_reference.py
"""

import csv
from collections import defaultdict

FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def sq(name):
    return (FILES.index(name[0]), int(name[1]) - 1)


def name_of(s):
    return FILES[s[0]] + str(s[1] + 1)


class Board:
    """A chess position: pieces by square, side to move, castling rights, ep square."""

    def __init__(self):
        self.pieces = {}
        back = "RNBQKBNR"
        for f in range(8):
            self.pieces[(f, 0)] = back[f]
            self.pieces[(f, 1)] = "P"
            self.pieces[(f, 6)] = "p"
            self.pieces[(f, 7)] = back[f].lower()
        self.white = True
        self.castling = {"K", "Q", "k", "q"}
        self.ep = None

    def copy(self):
        b = Board.__new__(Board)
        b.pieces = dict(self.pieces)
        b.white = self.white
        b.castling = set(self.castling)
        b.ep = self.ep
        return b

    def key(self):
        return (tuple(sorted(self.pieces.items())), self.white)

    def own(self, p, white):
        return p is not None and p.isupper() == white

    def attacked(self, target, by_white):
        """Whether a piece of `by_white` attacks `target`."""
        tf, tr = target
        for (f, r), p in self.pieces.items():
            if p.isupper() != by_white:
                continue
            kind = p.upper()
            df, dr = tf - f, tr - r
            if kind == "P":
                if abs(df) == 1 and dr == (1 if by_white else -1):
                    return True
            elif kind == "N":
                if (df, dr) in KNIGHT:
                    return True
            elif kind == "K":
                if max(abs(df), abs(dr)) == 1:
                    return True
            else:
                dirs = []
                if kind in "RQ":
                    dirs += ROOK_DIRS
                if kind in "BQ":
                    dirs += BISHOP_DIRS
                for ddf, ddr in dirs:
                    x, y = f + ddf, r + ddr
                    while 0 <= x < 8 and 0 <= y < 8:
                        if (x, y) == target:
                            return True
                        if (x, y) in self.pieces:
                            break
                        x, y = x + ddf, y + ddr
        return False

    def pseudo_moves(self):
        """(from, to, promotion) for the side to move, castling included."""
        w = self.white
        out = []
        for (f, r), p in list(self.pieces.items()):
            if p.isupper() != w:
                continue
            kind = p.upper()
            if kind == "P":
                step = 1 if w else -1
                last = 7 if w else 0
                start = 1 if w else 6
                promos = ["Q", "R", "B", "N"]
                one = (f, r + step)
                if 0 <= one[1] < 8 and one not in self.pieces:
                    out += [((f, r), one, q) for q in (promos if one[1] == last else [None])]
                    two = (f, r + 2 * step)
                    if r == start and two not in self.pieces:
                        out.append(((f, r), two, None))
                for df in (-1, 1):
                    to = (f + df, r + step)
                    if not (0 <= to[0] < 8 and 0 <= to[1] < 8):
                        continue
                    target = self.pieces.get(to)
                    if (target is not None and not self.own(target, w)) or to == self.ep:
                        out += [((f, r), to, q) for q in (promos if to[1] == last else [None])]
            elif kind in "NK":
                for df, dr in KNIGHT if kind == "N" else KING:
                    to = (f + df, r + dr)
                    if 0 <= to[0] < 8 and 0 <= to[1] < 8 and not self.own(self.pieces.get(to), w):
                        out.append(((f, r), to, None))
            else:
                dirs = []
                if kind in "RQ":
                    dirs += ROOK_DIRS
                if kind in "BQ":
                    dirs += BISHOP_DIRS
                for df, dr in dirs:
                    x, y = f + df, r + dr
                    while 0 <= x < 8 and 0 <= y < 8:
                        target = self.pieces.get((x, y))
                        if self.own(target, w):
                            break
                        out.append(((f, r), (x, y), None))
                        if target is not None:
                            break
                        x, y = x + df, y + dr
        rank = 0 if w else 7
        king = "K" if w else "k"
        if self.pieces.get((4, rank)) == king and not self.attacked((4, rank), not w):
            for right, rook_f, between, path in (
                ("K" if w else "k", 7, [5, 6], [5, 6]),
                ("Q" if w else "q", 0, [1, 2, 3], [3, 2]),
            ):
                if right not in self.castling:
                    continue
                if self.pieces.get((rook_f, rank)) != ("R" if w else "r"):
                    continue
                if any((f, rank) in self.pieces for f in between):
                    continue
                if any(self.attacked((f, rank), not w) for f in path):
                    continue
                out.append(((4, rank), (path[-1], rank), None))
        return out

    def play(self, move):
        """The position after `move` (no legality check)."""
        (f, r), to, promo = move
        b = self.copy()
        p = b.pieces.pop((f, r))
        kind = p.upper()
        if kind == "P" and to == self.ep:
            b.pieces.pop((to[0], r), None)
        if kind == "K" and abs(to[0] - f) == 2:
            rook_from, rook_to = ((7, r), (5, r)) if to[0] == 6 else ((0, r), (3, r))
            b.pieces[rook_to] = b.pieces.pop(rook_from)
        b.pieces[to] = (promo if self.white else promo.lower()) if promo else p
        b.ep = (f, (r + to[1]) // 2) if kind == "P" and abs(to[1] - r) == 2 else None
        for s, rights in (((4, 0), "KQ"), ((4, 7), "kq"), ((7, 0), "K"), ((0, 0), "Q"),
                          ((7, 7), "k"), ((0, 7), "q")):
            if (f, r) == s or to == s:
                b.castling -= set(rights)
        b.white = not self.white
        return b

    def legal_moves(self):
        out = []
        for m in self.pseudo_moves():
            after = self.play(m)
            king = "K" if self.white else "k"
            ksq = next(s for s, p in after.pieces.items() if p == king)
            if not after.attacked(ksq, not self.white):
                out.append(m)
        return out

    def parse_san(self, san):
        san = san.rstrip("+#!?")
        legal = self.legal_moves()
        if san in ("O-O", "O-O-O"):
            to_file = 6 if san == "O-O" else 2
            found = [m for m in legal if self.pieces[m[0]].upper() == "K"
                     and m[0][0] == 4 and m[1][0] == to_file]
        else:
            promo = None
            if "=" in san:
                san, promo = san.split("=")
            kind = san[0] if san[0] in "NBRQK" else "P"
            body = san[1:] if kind != "P" else san
            body = body.replace("x", "")
            to = sq(body[-2:])
            hint = body[:-2]
            found = []
            for m in legal:
                if m[1] != to or self.pieces[m[0]].upper() != kind or m[2] != promo:
                    continue
                if any(not (c == FILES[m[0][0]] or c == str(m[0][1] + 1)) for c in hint):
                    continue
                found.append(m)
        if len(found) != 1:
            raise ValueError(f"SAN {san}: {len(found)} matches")
        return found[0]


def eco_lines():
    """(name, SAN moves) of every ECO row."""
    lines = []
    for v in "abcde":
        with open(f"data/eco/{v}.tsv", newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                sans = [t for t in row["pgn"].split() if not t.endswith(".")]
                lines.append((row["name"], sans))
    return lines


def flags(name, first_san):
    """gambit, uncommon, c4, d4, e4 (docs/sampler.md §1)."""
    f = [0, 0, 0, 0, 0]
    if "gambit" in name.lower():
        f[0] = 1
    f[{"c4": 2, "d4": 3, "e4": 4}.get(first_san, 1)] = 1
    return f


class Graph:
    def __init__(self, lines):
        self.total = defaultdict(float)  # T(x)
        self.flag_total = defaultdict(lambda: [0.0] * 5)  # T_i(x)
        self.edges = defaultdict(dict)  # x -> {y: [cw, flag weights]}
        for name, sans in lines:
            board = Board()
            path = [board.key()]
            for san in sans:
                board = board.play(board.parse_san(san))
                path.append(board.key())
            f = flags(name, sans[0] if sans else "")
            for k in set(path):
                self.total[k] += 1.0
                for i in range(5):
                    self.flag_total[k][i] += f[i]
            for x, y in set(zip(path, path[1:])):
                e = self.edges[x].setdefault(y, [0.0, [0.0] * 5])
                e[0] += 1.0
                for i in range(5):
                    e[1][i] += f[i]


def play(sans):
    board = Board()
    for san in sans.split():
        board = board.play(board.parse_san(san))
    return board


def san_of(board, move):
    """The SAN of `move`, enough to name the candidates (no check marks)."""
    (f, r), to, promo = move
    kind = board.pieces[(f, r)].upper()
    if kind == "K" and abs(to[0] - f) == 2:
        return "O-O" if to[0] == 6 else "O-O-O"
    capture = to in board.pieces or (kind == "P" and to == board.ep)
    if kind == "P":
        s = (FILES[f] + "x" if capture else "") + name_of(to)
        return s + ("=" + promo if promo else "")
    others = [m for m in board.legal_moves() if m[1] == to and m[0] != (f, r)
              and board.pieces[m[0]].upper() == kind]
    hint = ""
    if others:
        if all(m[0][0] != f for m in others):
            hint = FILES[f]
        elif all(m[0][1] != r for m in others):
            hint = str(r + 1)
        else:
            hint = name_of((f, r))
    return kind + hint + ("x" if capture else "") + name_of(to)


def candidates(graph, board, style, tau):
    """(SAN, kind, cw, flag shares) of every candidate at `board`."""
    x = board.key()
    out = []
    book = graph.edges.get(x, {})
    for m in board.legal_moves():
        y = board.play(m).key()
        if y in book:
            cw, fw = book[y]
            out.append((san_of(board, m), "book", cw, [v / cw for v in fw]))
        elif tau > 0 and y in graph.total:
            t = graph.total[y]
            out.append((san_of(board, m), "transposition", tau * t,
                        [v / t for v in graph.flag_total[y]]))
    return out


def distribution(graph, moves, params, weights, tau, s_prev=None):
    """(SAN, kind, P) at the position after `moves`, most probable first."""
    board = play(moves)
    if s_prev is None:
        s_prev = 1.0
        sans = moves.split()
        if sans:
            before = play(" ".join(sans[:-1]))
            last = before.parse_san(sans[-1])
            cands = candidates(graph, before, None, tau)
            total = sum(c[2] for c in cands)
            played = san_of(before, last)
            s_prev = next(c[2] for c in cands if c[0] == played) / total
    cands = candidates(graph, board, None, tau)
    total = sum(c[2] for c in cands)
    accept = []
    for san, kind, cw, f in cands:
        bonus = sum(weights[i] * params[i] * f[i] for i in range(5))
        accept.append((san, kind, min(1.0, cw / total / s_prev + bonus)))
    norm = sum(a for _, _, a in accept)
    rows = [(san, kind, a / norm) for san, kind, a in accept]
    return s_prev, sorted(rows, key=lambda r: -r[2])


def show(title, graph, moves, params, weights, tau, s_prev=None):
    s, rows = distribution(graph, moves, params, weights, tau, s_prev)
    print(f"{title}: moves {moves!r}, params {params}, weights {weights}, tau {tau}, "
          f"s_prev {s:.7f}")
    for san, kind, p in rows:
        print(f"    ({san!r:>8}, {kind:>13}, {p:.10f})")


def main():
    graph = Graph(eco_lines())
    print(f"nodes {len(graph.total)}")
    w4 = [0.4] * 5
    # docs/sampler.md §5: a check of this script against the published reference.
    show("§5 start, all off", graph, "", [0] * 5, w4, 0.0)
    show("§5 start, c4 on", graph, "", [0, 0, 1, 0, 0], w4, 0.0)
    show("§5 1.e4 e5 2.Nf3, gambit on", graph, "e4 e5 Nf3", [1, 0, 0, 0, 0], w4, 0.0)
    # tests/all/sampler_stats.rs: exact_probabilities_match_an_independent_computation.
    show("test", graph, "d4 Nf6 c4", [1, 1, 0, 1, 0], [0.3, 0.2, 0.4, 0.1, 0.5], 0.7, 0.25)


if __name__ == "__main__":
    main()
