#!/usr/bin/env python3
"""Write a small opening book for tests/match/match.py: start sequences of a
few plies that Fairy-Stockfish judges roughly balanced, so that the games of
a match differ while neither side starts lost.

Every sequence of --plies legal moves from the start (the oracle's legal
moves, tests/oracle/fsoracle.py) is scored by Fairy-Stockfish at
`go depth D` (--depth) from the position after it; sequences whose score
lies within --max-cp of zero are kept, sorted by the size of the score and
then by their moves, and the first --count are written, one per line.

Usage (from the repository root):
  python3 tests/match/make_book.py --variant judkins --plies 2 --depth 10 \\
      --max-cp 80 --count 50 > tests/match/books/judkins.txt
--variant-ini FILE loads a variants.ini definition into pyffish and into
Fairy-Stockfish (VariantPath), for a variant neither has built in.
"""
import argparse
import os
import shutil
import sys

# the repository's oracle wrapper, tests/oracle/fsoracle.py, found from this file
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import fsoracle  # noqa: E402

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fs_uci import Fs  # noqa: E402

JUDKINS_FEN = "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1"


def score(fs, fen, moves, depth):
    """Score in centipawns for the side to move after `moves` (mates as +-100000)."""
    score = None
    for line in fs.search(fen, moves, depth):
        w = line.split()
        if "score" in w:
            i = w.index("score")
            kind, v = w[i + 1], int(w[i + 2])
            score = v if kind == "cp" else (100000 if v > 0 else -100000)
    return score


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="judkins")
    ap.add_argument("--variant-ini")
    ap.add_argument("--start-fen")
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--max-cp", type=int, default=80)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--fs", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    a = ap.parse_args()
    if a.variant_ini:
        from match import load_variant_ini
        load_variant_ini(a.variant_ini)
    fen = a.start_fen or (JUDKINS_FEN if a.variant == "judkins" else None)
    if fen is None:
        import pyffish as sf
        fen = sf.get_fen(a.variant, sf.start_fen(a.variant), [])
    fs = Fs(a.fs, a.variant, variant_path=a.variant_ini)
    lines = [[]]
    for _ in range(a.plies):
        lines = [l + [m] for l in lines for m in sorted(fsoracle.legal_moves(a.variant, fen, l))]
    kept = []
    for l in lines:
        s = score(fs, fen, l, a.depth)
        # The score is the side to move's; the sign does not matter here.
        if s is not None and abs(s) <= a.max_cp:
            kept.append((abs(s), l, s))
    fs.close()
    kept.sort()
    print(f"# {a.variant} openings from {fen}: {a.plies} plies, |Fairy-Stockfish depth {a.depth} score| <= {a.max_cp} cp")
    print(f"# (tests/match/make_book.py --variant {a.variant} --plies {a.plies} --depth {a.depth} "
          f"--max-cp {a.max_cp} --count {a.count}"
          + (f" --variant-ini {a.variant_ini}" if a.variant_ini else "") + f"); {len(kept)} of {len(lines)} sequences qualified")
    for _, l, s in kept[:a.count]:
        print(f"{' '.join(l):24s} # {s:+d} cp for the side to move")


if __name__ == "__main__":
    main()
