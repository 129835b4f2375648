#!/usr/bin/env python3
"""Compares two Polyglot books position by position (keys sorted, entries of a key in
any order): how many positions have the same moves and weights, and the first that do
not.

    python3 docs/polyglot_compare.py a.bin b.bin
"""

import struct
import sys


def positions(path):
    """(key, {move: weight}) in key order."""
    with open(path, "rb") as f:
        data = f.read()
    key, moves = None, {}
    for off in range(0, len(data) - len(data) % 16, 16):
        k, m, w = struct.unpack_from(">QHH", data, off)
        if k != key:
            if key is not None:
                yield key, moves
            key, moves = k, {}
        moves[m] = moves.get(m, 0) + w
    if key is not None:
        yield key, moves


def main():
    a, b = dict(positions(sys.argv[1])), dict(positions(sys.argv[2]))
    same = sum(1 for k, m in a.items() if b.get(k) == m)
    differ = [k for k, m in a.items() if k in b and b[k] != m]
    print(f"{len(a)} and {len(b)} positions: {same} identical, {len(differ)} with other "
          f"weights, {len(a.keys() - b.keys())} only in the first, "
          f"{len(b.keys() - a.keys())} only in the second")
    for k in differ[:3]:
        top = lambda m: sorted(m.items(), key=lambda x: -x[1])[:4]
        print(f"  {k:016x}: {top(a[k])} vs {top(b[k])}")
    return 0 if same == len(a) == len(b) else 1


if __name__ == "__main__":
    sys.exit(main())
