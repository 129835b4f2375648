"""Reads a PGN whose moves are ranked by Hastings (`[%hastings alt]` and
`[%hastings paused]` in their comments) with python-chess and writes it back, to show
that another tool keeps the marks: python-chess keeps a comment's commands it does not
know as text, and writes them again.

The fixture `tests/fixtures/french_advance_marked.python-chess.pgn` is this script's
output for `tests/fixtures/french_advance_marked.pgn` (the Advance French fixture ranked
by `hastings repertoire mark`: 4...cxd4 made the main move, 4...Qb6 un-paused and
marked an alternative, 4...Nc6 paused); `tests/all/rank_python_chess.rs` reads both and
finds the same ranks and the same lines.

    pip install chess==1.11.2
    python3 docs/rank_marks_python_chess.py tests/fixtures/french_advance_marked.pgn \
        tests/fixtures/french_advance_marked.python-chess.pgn
"""

import sys

import chess.pgn


def main(source, target):
    with open(source) as pgn, open(target, "w") as out:
        while (game := chess.pgn.read_game(pgn)) is not None:
            if game.errors:
                raise SystemExit(f"{source}: {game.errors}")
            exporter = chess.pgn.FileExporter(out)
            game.accept(exporter)


if __name__ == "__main__":
    main(*sys.argv[1:])
