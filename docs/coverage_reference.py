#!/usr/bin/env python3
"""Independent reference numbers for `tests/all/coverage.rs` (exposure of a repertoire).

Written from docs/sampler.md and docs/coverage.md alone, with python-chess (PyPI `chess`,
tested with 1.11.2); it shares no code with the Rust implementation:

- the ECO graph is rebuilt from `data/eco/*.tsv` (nodes keyed by piece placement and
  side to move, T(x), flag weights, book continuations, implied transpositions);
- the repertoire is read from the PGN fixture with `chess.pgn` (every root-to-leaf path
  is a line);
- the exposure is computed by enumerating every path of the drill (no merging of
  states at all): the reach of a position is the sum over all paths to it of the
  product of exact P (opponent) and even shares (learner), with s_prev carried along
  each path.

Run from the repository root:  python3 docs/coverage_reference.py
"""

import csv
import io
from collections import defaultdict

import chess
import chess.pgn

VOLUMES = "abcde"


def key(board):
    return (board.board_fen(), board.turn)


def flags(name, first_san):
    f = [0, 0, 0, 0, 0]  # gambit, uncommon, c4, d4, e4
    if "gambit" in name.lower():
        f[0] = 1
    cls = {"c4": 2, "d4": 3, "e4": 4}.get(first_san, 1)
    f[cls] = 1
    return f


class Graph:
    """The position graph of docs/sampler.md §1-2."""

    def __init__(self, lines):
        self.weight = defaultdict(float)  # T(x)
        self.flagw = defaultdict(lambda: [0.0] * 5)  # T_i(x)
        self.edges = defaultdict(dict)  # x -> {y: [uci, weight, flag weights]}
        for name, sans in lines:
            board = chess.Board()
            path = [key(board)]
            moves = []
            for san in sans:
                mv = board.parse_san(san)
                moves.append(mv)
                board.push(mv)
                path.append(key(board))
            f = flags(name, sans[0] if sans else "")
            for k in set(path):
                self.weight[k] += 1.0
                for i in range(5):
                    self.flagw[k][i] += f[i]
            seen = set()
            for i, mv in enumerate(moves):
                x, y = path[i], path[i + 1]
                if (x, y) in seen:
                    continue
                seen.add((x, y))
                e = self.edges[x].setdefault(y, [mv.uci(), 0.0, [0.0] * 5])
                e[1] += 1.0
                for j in range(5):
                    e[2][j] += f[j]

    def knows(self, board):
        return key(board) in self.weight

    def candidates(self, board, tau):
        """(move, weight, flag shares) of the book continuations and transpositions."""
        x = key(board)
        out = []
        legal = {m.uci(): m for m in board.legal_moves}
        for y, (uci, w, fw) in self.edges.get(x, {}).items():
            if w > 0 and uci in legal:
                out.append((legal[uci], w, [v / w for v in fw]))
        if tau > 0:
            book_targets = set(self.edges.get(x, {}).keys())
            for m in board.legal_moves:
                board.push(m)
                y = key(board)
                board.pop()
                if y in self.weight and y not in book_targets and self.weight[y] > 0:
                    t = self.weight[y]
                    out.append((m, tau * t, [v / t for v in self.flagw[y]]))
        return out

    def distribution(self, board, params, weights, tau, s_prev):
        """(move, share, P) at the board after a move of share s_prev."""
        cands = self.candidates(board, tau)
        total = sum(w for _, w, _ in cands)
        rows = []
        for m, w, fs in cands:
            share = w / total
            bonus = sum(weights[i] * params[i] * fs[i] for i in range(5))
            rows.append((m, share, share / s_prev + bonus))
        norm = sum(min(1.0, a) for _, _, a in rows)
        return [(m, share, min(1.0, a) / norm) for m, share, a in rows]

    def share(self, board, move, tau):
        """s_prev after `move`: its share among the candidates here, else 1."""
        if not self.knows(board):
            return 1.0
        cands = self.candidates(board, tau)
        total = sum(w for _, w, _ in cands)
        for m, w, _ in cands:
            if m == move:
                return w / total
        return 1.0


def eco_graph():
    lines = []
    for v in VOLUMES:
        with open(f"data/eco/{v}.tsv", encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                game = chess.pgn.read_game(io.StringIO(row["pgn"]))
                sans = []
                board = game.board()
                for mv in game.mainline_moves():
                    sans.append(board.san(mv))
                    board.push(mv)
                lines.append((row["name"], sans))
    return Graph(lines)


def repertoire(path):
    """Every root-to-leaf path of every game, as a graph (weights: lines per edge)."""
    lines = []

    def walk(node, sans):
        if not node.variations:
            lines.append(("", sans))
            return
        for child in node.variations:
            walk(child, sans + [node.board().san(child.move)])

    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            walk(game, [])
    return Graph(lines)


def exposure(rep, theory, learner, params, weights, tau, depth):
    """Reach per position (summed over every path, every ply <= depth), the first path
    met to each, and the gaps (learner positions before the depth limit with no
    repertoire move and some theory move)."""
    reach = defaultdict(float)
    first_path = {}
    gap_reach = defaultdict(float)

    def visit(board, s_prev, mass, sans):
        k = key(board)
        reach[k] += mass
        first_path.setdefault(k, " ".join(sans))
        ply = len(sans)
        if ply >= depth:
            return
        if board.turn == learner:
            moves = [m for m, _, _ in rep.candidates(board, 0.0)]
            if not moves:
                if theory.knows(board) and theory.candidates(board, tau):
                    gap_reach[k] += mass
                return
            for m in moves:
                s = theory.share(board, m, tau)
                san = board.san(m)
                board.push(m)
                visit(board, s, mass / len(moves), sans + [san])
                board.pop()
        else:
            if not theory.knows(board):
                return
            for m, _, p in theory.distribution(board, params, weights, tau, s_prev):
                san = board.san(m)
                board.push(m)
                visit(board, 1.0, mass * p, sans + [san])
                board.pop()

    visit(chess.Board(), 1.0, 1.0, [])
    return reach, first_path, gap_reach


def report(title, rep_file, learner, params, weights, tau, depth, paths):
    eco = eco_graph() if not hasattr(report, "eco") else report.eco
    report.eco = eco
    rep = repertoire(rep_file)
    reach, first_path, gaps = exposure(rep, eco, learner, params, weights, tau, depth)
    print(f"== {title}: {rep_file}, params {params}, weights {weights}, tau {tau}, depth {depth}")
    for p in paths:
        board = chess.Board()
        for san in p.split():
            board.push_san(san)
        print(f"reach {p!r:40} {reach.get(key(board), 0.0):.10f}")
    print("gaps (reach >= 0.005), most likely first:")
    for k, r in sorted(gaps.items(), key=lambda kv: -kv[1]):
        if r >= 0.005:
            print(f"  gap {first_path[k]!r:40} {r:.10f}")


if __name__ == "__main__":
    neutral = ([0] * 5, [0.4] * 5)
    report(
        "issue 13: 1.e4 against e5, c5, e6",
        "tests/fixtures/coverage_e4.pgn",
        chess.WHITE, *neutral, 0.0, 3,
        ["e4", "e4 e5", "e4 c5", "e4 e6", "e4 c6", "e4 d5"],
    )
    for params, weights, tau in [(*neutral, 1.0), ([0, 0, 1, 0, 0], [0.4] * 5, 0.5)]:
        report(
            "two move orders into one position",
            "tests/fixtures/coverage_transposition.pgn",
            chess.WHITE, params, weights, tau, 6,
            ["d4", "c4", "d4 Nf6 c4", "d4 d5 c4", "d4 Nf6 c4 e6", "d4 Nf6 c4 g6",
             "d4 Nf6 c4 e6 Nc3", "d4 Nf6 c4 e6 Nc3 Bb4", "d4 Nf6 c4 e6 Nc3 d5"],
        )
