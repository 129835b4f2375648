#!/usr/bin/env python3
"""Independent checks of `hastings book make` with python-chess (and Debian's polyglot).

python-chess (pip install chess; 1.11.2 here) reads the same PGN files and counts, for
every position of the first N plies of each game's mainline, how often each move was
played and polyglot make-book's score (2 per win, 1 per draw or unknown result, 0 per
loss of the side that moved). Then:

  golden   prints the counts as a table: key (hex), move (Polyglot notation, castling
           e1h1), games, score; sorted by key and move. tests/all/polyglot_make.rs compares
           the book hastings makes from the same files with it:
             python3 docs/polyglot_check.py golden --max-plies 12 \
                 tests/fixtures/twic1599_100k.pgn tests/fixtures/lichess_db_100k.pgn \
                 > tests/fixtures/polyglot_counts_12.tsv

  check    runs `hastings book make` on the files with several options, opens every
           book with python-chess's Polyglot reader (chess.polyglot.open_reader) and
           compares, at every position the games reached, the moves and weights with
           the counts. With --polyglot it also runs Debian's `polyglot make-book` on the
           files joined into one and compares its book with `--weights polyglot`.
             python3 docs/polyglot_check.py check --hastings target/debug/hastings \
                 --polyglot /usr/games/polyglot tests/fixtures/*_100k.pgn

  walk     follows every move of a book from the start position and counts the
           positions with entries reached, their entries and the illegal ones, and the
           book's distinct keys (tests/all/polyglot.rs asserts these for the gnuchess book):
             python3 docs/polyglot_check.py walk assets/books/gnuchess.bin

Exit status 0 when everything matches; the first mismatches are printed otherwise.
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.polyglot


def raw_move(board, move):
    """The move in Polyglot's encoding: to | from << 6 | promotion << 12, castling as
    the king taking its rook."""
    to = move.to_square
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        to = chess.square(7 if board.is_kingside_castling(move) else 0, rank)
    promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}[
        move.promotion
    ]
    return to | (move.from_square << 6) | (promotion << 12)


def raw_name(raw):
    name = chess.square_name((raw >> 6) & 63) + chess.square_name(raw & 63)
    promotion = (raw >> 12) & 7
    return name + ("", "n", "b", "r", "q")[promotion] if promotion <= 4 else name


def count(paths, max_plies):
    """{key: {raw: [games, score]}} and {key: a board with that key}."""
    counts = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    boards = {}
    games = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                games += 1
                board = game.board()
                if board.uci_variant != "chess" or board.chess960:
                    continue
                result = game.headers.get("Result", "*")
                winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
                for ply, move in enumerate(game.mainline_moves()):
                    if ply >= max_plies:
                        break
                    key = chess.polyglot.zobrist_hash(board)
                    if winner is None:
                        score = 1
                    else:
                        score = 2 if board.turn == winner else 0
                    c = counts[key][raw_move(board, move)]
                    c[0] += 1
                    c[1] += score
                    boards.setdefault(key, board.copy(stack=False))
                    board.push(move)
    return counts, boards, games


def expected_weights(moves, weights, min_games):
    """{raw: weight} as the book should hold it (the scaling to 16 bits included)."""
    out = {}
    for raw, (games, score) in moves.items():
        if games < min_games:
            continue
        w = games if weights == "games" else score
        if w > 0:
            out[raw] = w
    top = max(out.values(), default=0)
    if top > 65535:
        out = {r: max(1, min(65535, (w * 65535 + top // 2) // top)) for r, w in out.items()}
    return out


def compare(book_path, counts, boards, weights, min_games, label):
    """Mismatches between the book read by python-chess and the counts."""
    problems = []
    expected_entries = 0
    with chess.polyglot.open_reader(book_path) as reader:
        for key, moves in counts.items():
            want = expected_weights(moves, weights, min_games)
            expected_entries += len(want)
            got = {}
            for entry in reader.find_all(boards[key], minimum_weight=0):
                got[entry.raw_move] = got.get(entry.raw_move, 0) + entry.weight
            if got != want:
                problems.append(
                    f"{label}: {boards[key].fen()}: book "
                    f"{sorted((raw_name(r), w) for r, w in got.items())} != count "
                    f"{sorted((raw_name(r), w) for r, w in want.items())}"
                )
        if len(reader) != expected_entries:
            problems.append(f"{label}: {len(reader)} entries, expected {expected_entries}")
    return problems


def golden(args):
    counts, _, games = count(args.files, args.max_plies)
    print(f"# python-chess {chess.__version__}: {games} games, first {args.max_plies} plies of "
          f"{', '.join(os.path.basename(p) for p in args.files)}")
    print("# key\tmove\tgames\tscore")
    for key in sorted(counts):
        for raw in sorted(counts[key]):
            g, s = counts[key][raw]
            print(f"{key:016x}\t{raw_name(raw)}\t{g}\t{s}")


def read_book(path):
    with chess.polyglot.open_reader(path) as reader:
        return sorted((e.key, e.raw_move, e.weight) for e in reader)


def check(args):
    problems = []
    tmp = tempfile.mkdtemp(prefix="hastings-polyglot-check-")
    runs = 0
    for max_plies in (30, 12):
        counts, boards, games = count(args.files, max_plies)
        for weights in ("games", "polyglot"):
            for min_games in (1, 2):
                out = os.path.join(tmp, f"{max_plies}-{weights}-{min_games}.bin")
                subprocess.run(
                    [args.hastings, "book", "make", *args.files, "-o", out,
                     "--max-plies", str(max_plies), "--weights", weights,
                     "--min-games", str(min_games)],
                    check=True, stdout=subprocess.DEVNULL)
                label = f"--max-plies {max_plies} --weights {weights} --min-games {min_games}"
                found = compare(out, counts, boards, weights, min_games, label)
                problems += found
                runs += 1
                print(f"{label}: {len(read_book(out))} entries, {games} games: "
                      f"{'OK' if not found else f'{len(found)} mismatches'}")
    if args.polyglot:
        joined = os.path.join(tmp, "joined.pgn")
        with open(joined, "wb") as out:
            for path in args.files:
                with open(path, "rb") as f:
                    out.write(f.read())
                out.write(b"\n\n")
        for max_plies in (30, 12):
            ours = os.path.join(tmp, f"ours-{max_plies}.bin")
            theirs = os.path.join(tmp, f"polyglot-{max_plies}.bin")
            subprocess.run(
                [args.hastings, "book", "make", joined, "-o", ours, "--max-plies",
                 str(max_plies), "--weights", "polyglot", "--min-games", "1"],
                check=True, stdout=subprocess.DEVNULL)
            subprocess.run(
                [args.polyglot, "make-book", "-pgn", joined, "-bin", theirs, "-max-ply",
                 str(max_plies), "-min-game", "1"],
                check=True, stdout=subprocess.DEVNULL)
            a, b = read_book(ours), read_book(theirs)
            same = a == b
            print(f"polyglot make-book -max-ply {max_plies} -min-game 1: {len(b)} entries, "
                  f"hastings --weights polyglot: {len(a)} entries: "
                  f"{'identical' if same else 'DIFFERENT'}")
            if not same:
                diff = sorted(set(a) ^ set(b))[:10]
                problems.append(f"polyglot make-book differs, first: {diff}")
    for p in problems[:20]:
        print(p, file=sys.stderr)
    return 1 if problems else 0


def walk(args):
    with chess.polyglot.open_reader(args.book) as reader:
        total = len(reader)
        distinct = len({e.key for e in reader})
        seen, stack = set(), [chess.Board()]
        positions = entries = illegal = 0
        while stack:
            board = stack.pop()
            key = chess.polyglot.zobrist_hash(board)
            if key in seen:
                continue
            seen.add(key)
            # By key: python-chess then yields every entry, legal or not.
            found = list(reader.find_all(key, minimum_weight=0))
            if not found:
                continue
            positions += 1
            for e in found:
                entries += 1
                m = board._from_chess960(board.chess960, e.move.from_square,
                                         e.move.to_square, e.move.promotion, e.move.drop)
                if not board.is_legal(m):
                    illegal += 1
                    continue
                child = board.copy(stack=False)
                child.push(m)
                stack.append(child)
    print(f"{total} entries, {distinct} distinct keys; from the start: "
          f"{positions} positions with entries, {entries} entries, {illegal} illegal")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("golden")
    g.add_argument("--max-plies", type=int, default=30)
    g.add_argument("files", nargs="+")
    c = sub.add_parser("check")
    c.add_argument("--hastings", required=True)
    c.add_argument("--polyglot")
    c.add_argument("files", nargs="+")
    w = sub.add_parser("walk")
    w.add_argument("book")
    args = parser.parse_args()
    if args.command == "walk":
        return walk(args)
    if args.command == "golden":
        golden(args)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
