#!/usr/bin/env python3
"""Perft counts from Fairy-Stockfish (the oracle), for tests/perft/*.perft.

Run from the repository root (needs pyffish: python3 -m pip install pyffish):

    python3 tests/oracle/perft.py VARIANT FEN DEPTH [--jobs N]

VARIANT is Fairy-Stockfish's name (okisakishogi, gorogoroplus, checkshogi,
...). The oracle is loaded as tests/oracle/generate.py loads it (its
load_oracle(): variants.ini definitions such as gorogoroplus, pawn-drop mate
illegal where the game forbids it, check counting; see its docstring), and
the leaves of its legal-move tree are counted. Each position is reached by
its FEN (pyffish.get_fen), so FS's check counter carries over: in check
shogi, the move that gives check ends the game, and the position after it
has no legal move. The root moves are shared among N worker processes
(default: CPUs, at most 4); the counts do not depend on N.

Prints one `perft D NODES` line for each D = 1..DEPTH (the format of
tests/perft/*.perft), then the time taken on stderr.
"""
import argparse
import importlib.util
import multiprocessing
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def generate_module():
    spec = importlib.util.spec_from_file_location("generate", HERE / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_ORACLE = None


def _init(oracle_path):
    global _ORACLE
    _ORACLE = generate_module().load_oracle(oracle_path)


def counts(variant, fen, depth):
    """[leaves at depth 1, ..., leaves at depth `depth`] below `fen`."""
    o = _ORACLE
    legal = o.legal_moves(variant, fen, [])
    out = [len(legal)] + [0] * (depth - 1)
    if depth > 1:
        for m in legal:
            sub = counts(variant, o.sf.get_fen(variant, fen, [m]), depth - 1)
            for i, n in enumerate(sub):
                out[i + 1] += n
    return out


def _root(task):
    variant, fen, move, depth = task
    return counts(variant, _ORACLE.sf.get_fen(variant, fen, [move]), depth)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant")
    ap.add_argument("fen")
    ap.add_argument("depth", type=int)
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--oracle", default=os.environ.get("FSORACLE", str(HERE / "fsoracle.py")))
    a = ap.parse_args()
    t0 = time.time()
    _init(a.oracle)
    roots = _ORACLE.legal_moves(a.variant, a.fen, [])
    total = [len(roots)] + [0] * (a.depth - 1)
    if a.depth > 1:
        with multiprocessing.Pool(max(1, a.jobs), initializer=_init, initargs=(a.oracle,)) as pool:
            for sub in pool.imap_unordered(_root, [(a.variant, a.fen, m, a.depth - 1) for m in roots]):
                for i, n in enumerate(sub):
                    total[i + 1] += n
    for d, n in enumerate(total, 1):
        print(f"perft {d} {n}")
    print(f"perft.py: {a.variant} depth {a.depth}: {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
