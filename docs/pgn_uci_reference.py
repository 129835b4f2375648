"""Reads tests/fixtures/uci_moves.pgn with python-chess and prints, for every
root-to-leaf path of every game, its moves in SAN and the FEN at its end.

The numbers asserted in tests/all/book_pgn.rs
(`uci_and_long_algebraic_moves_read_as_python_chess_reads_them`) come from here.

    pip install chess==1.11.2
    python3 docs/pgn_uci_reference.py
"""

import sys

import chess.pgn


def leaves(node, sans):
    if not node.variations:
        yield sans, node.board().fen()
        return
    for child in node.variations:
        yield from leaves(child, sans + [child.san()])


def main(path="tests/fixtures/uci_moves.pgn"):
    with open(path) as pgn:
        number = 0
        while (game := chess.pgn.read_game(pgn)) is not None:
            number += 1
            if game.errors:
                print(f"game {number}: errors {game.errors}")
            for sans, fen in leaves(game, []):
                print(f"game {number}: {len(sans)} plies")
                print("  " + " ".join(sans))
                print("  " + fen)


if __name__ == "__main__":
    main(*sys.argv[1:])
