#!/usr/bin/env python3
"""Extract the training games of the learner-style classifier (seed 001, §5).

BayesChess trained its style classifier on games of Fischer and Kasparov (attacking),
Karpov (positional) and Illescas (mixed). All four are in the GNU Chess opening book
source, `book_1.02.pgn` (145,716 games, public domain: see
/usr/share/doc/gnuchess-book/copyright; Debian source package `gnuchess-book`
1.02-2.1, `apt-get source gnuchess-book`).

This script keeps every game in which one of the four plays (names matched by the
patterns below; other Fischers, Karpovs and the computer "Kasparov's Gambit" are left
out), drops exact duplicates (same players and same full move text), cuts each game to
its first PLIES plies (the opening, as the paper counts it: the first 10 moves), and
writes them with a few tags to tests/fixtures/style_training.pgn.

Usage: python3 docs/learner_style_data.py book_1.02.pgn > tests/fixtures/style_training.pgn
"""

import re
import sys

PLIES = 20

PLAYERS = {
    "Fischer": re.compile(r"^(Fischer,? (Robert( J)?|R)|Bobby Fischer)$"),
    "Kasparov": re.compile(
        r"^Kasparov,? (Garry|Gary|Gari|Garri|G)( ?\(?(RUS|URS)\)?)?$"
    ),
    "Karpov": re.compile(
        r"^Karpov,? +(Anatoli|Anatoly|An|A)( E)?( ?\(?(RUS|URS|R)\)?)?$"
    ),
    "Illescas": re.compile(r"^Illescas"),
}

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
MOVE_NUMBER = re.compile(r"^\d+\.+")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def player(name):
    for canonical, pattern in PLAYERS.items():
        if pattern.match(name.strip()):
            return canonical
    return None


def games(path):
    with open(path, encoding="latin-1") as f:
        tags, moves = {}, []
        for line in f:
            m = TAG.match(line)
            if m:
                if moves:
                    yield tags, moves
                    tags, moves = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                moves.extend(line.split())
        if moves:
            yield tags, moves


def sans(tokens):
    out = []
    for t in tokens:
        t = MOVE_NUMBER.sub("", t)
        if t and t not in RESULTS:
            out.append(t)
    return out


def main():
    seen = set()
    kept = []
    for tags, tokens in games(sys.argv[1]):
        white = player(tags.get("White", ""))
        black = player(tags.get("Black", ""))
        if not (white or black):
            continue
        moves = sans(tokens)
        key = (white, black, tuple(moves))
        if len(moves) < 2 or key in seen:
            continue
        seen.add(key)
        kept.append((white or tags["White"], black or tags["Black"], tags, moves))
    for white, black, tags, moves in kept:
        print(f'[Site "{tags.get("Site", "?")}"]')
        print(f'[Date "{tags.get("Date", "????.??.??")}"]')
        print(f'[White "{white}"]')
        print(f'[Black "{black}"]')
        print(f'[Result "{tags.get("Result", "*")}"]')
        print()
        text = []
        for i, m in enumerate(moves[:PLIES]):
            text.append(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m)
        print(" ".join(text), tags.get("Result", "*"))
        print()


if __name__ == "__main__":
    main()
