#!/usr/bin/env python3
"""Checks `hastings repertoire` against python-chess applying the same operations.

The same edits (add a move with a comment and a glyph, promote one step and to the
main line, delete a variation, set and clear comments) are made to
tests/fixtures/repertoire.pgn by the `hastings repertoire` commands and by python-chess
1.11 (`add_variation`, `promote`, `promote_to_main`, `remove_variation`, comments,
NAGs). Both results are then read by python-chess, and every game (tags, moves,
variations in order, comments, NAGs) must be the same. A `hastings` comment edit keeps
the comment's `[%…]` commands, so the python side keeps them too.

Usage: docs/repertoire_ops_reference.py [path/to/hastings]
(default: $CARGO_TARGET_DIR/debug/hastings, else target/debug/hastings)
"""

import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

import chess
import chess.pgn

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "repertoire.pgn")

# (command, chapter, path, extra arguments); the python side is in `apply` below.
OPS = [
    ("add", 1, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4", ["--comment", "The Evans Gambit", "--nag", "!?"]),
    ("add", 1, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. d3", []),
    ("promote", 1, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. d3", []),
    ("promote", 1, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4", ["--main"]),
    ("delete", 1, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6", []),
    ("comment", 1, "1. e4 e5 2. Nf3 Nc6 3. Bc4", ["--text", ""]),
    ("comment", 2, "1. e4 c5 2. c3", ["--text", "The Alapin"]),
    ("add", 2, "1. e4 c5 2. Nc3", []),
    ("add", 2, "1. e4 c5 2. Nc3 Nc6", ["--nag", "$14"]),
]

GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
COMMAND = re.compile(r"\[%[^\]]*\]")


def sans(path):
    out = []
    for token in path.split():
        token = re.sub(r"^\d+\.+", "", token)
        if token:
            out.append(token)
    return out


def walk(game, moves):
    node = game
    for san in moves:
        move = node.board().parse_san(san)
        node = next(v for v in node.variations if v.move == move)
    return node


def with_text(old, text):
    commands = COMMAND.findall(old or "")
    parts = commands + ([text.strip()] if text.strip() else [])
    return " ".join(parts)


def apply(games, op):
    command, chapter, path, extra = op
    game = games[chapter - 1]
    moves = sans(path)
    args = dict(zip(extra[::2], extra[1::2]))
    if command == "add":
        parent = walk(game, moves[:-1])
        move = parent.board().parse_san(moves[-1])
        node = next((v for v in parent.variations if v.move == move), None)
        if node is None:
            node = parent.add_variation(move)
        if "--comment" in args:
            node.comment = with_text(node.comment, args["--comment"])
        if "--nag" in args:
            glyph = args["--nag"]
            node.nags.add(GLYPHS.get(glyph) or int(glyph.lstrip("$")))
    elif command == "delete":
        node = walk(game, moves)
        node.parent.remove_variation(node)
    elif command == "promote":
        node = walk(game, moves)
        if "--main" in extra:
            node.parent.promote_to_main(node)
        else:
            node.parent.promote(node)
    elif command == "comment":
        node = walk(game, moves)
        node.comment = with_text(node.comment, args["--text"])


def games_of(text):
    stream = io.StringIO(text)
    out = []
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return out
        out.append(game)


def dump(node):
    return (
        node.san() if node.parent else "",
        # Whitespace inside a comment is compared collapsed: an edited chapter writes a
        # line break in a comment as a space (docs/repertoire.md).
        " ".join(node.comment.split()),
        " ".join(node.starting_comment.split()) if node.parent else "",
        tuple(sorted(node.nags)),
        tuple(dump(v) for v in node.variations),
    )


def canonical(game):
    return (tuple(game.headers.items()), dump(game))


def main():
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(target, "debug", "hastings")
    with tempfile.TemporaryDirectory() as tmp:
        ours = os.path.join(tmp, "ours.pgn")
        shutil.copy(FIXTURE, ours)
        for i, (command, chapter, path, extra) in enumerate(OPS):
            out_file = os.path.join(tmp, f"step{i}.pgn")
            args = [binary, "repertoire", command, ours, "--chapter", str(chapter), "--at", path, *extra, "-o", out_file]
            subprocess.run(args, check=True, capture_output=True)
            shutil.move(out_file, ours)
        with open(ours, encoding="utf-8") as f:
            hastings_text = f.read()
    with open(FIXTURE, encoding="utf-8") as f:
        original = f.read()
    reference = games_of(original)
    for op in OPS:
        apply(reference, op)
    python_text = "\n\n".join(str(g) for g in reference) + "\n"
    ours_games = [canonical(g) for g in games_of(hastings_text)]
    theirs = [canonical(g) for g in games_of(python_text)]
    print(f"operations: {len(OPS)}; games: hastings {len(ours_games)}, python-chess {len(theirs)}")
    same = ours_games == theirs
    for i, (a, b) in enumerate(zip(ours_games, theirs)):
        print(f"game {i + 1}: {'same' if a == b else 'DIFFERENT'}")
    unedited = [canonical(g) for g in games_of(original)]
    print(f"original read by python-chess has {len(unedited)} games")
    print("RESULT:", "same games" if same else "DIFFERENT")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
