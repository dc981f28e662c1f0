#!/usr/bin/env python3
"""Positions scored by Fairy-Stockfish, to fit koma's evaluation weights to
(`koma tune`): reads the games of match outputs (tests/match/match.py, the
`moves:` lines; they are printed for koma's losses, or for every game with
--verbose) and writes, for every position from ply --from on that is not in
check, its FEN and Fairy-Stockfish's `go depth --depth` score for the side to
move in centipawns, tab-separated. Mate scores are skipped.

Usage (from the repository root):
  python3 tests/engine/make_evals.py --variant judkins --depth 8 MATCH_OUTPUT... > evals.tsv
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyffish as sf  # noqa: E402
from make_tactics import Fs  # noqa: E402

JUDKINS_FEN = "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="judkins")
    ap.add_argument("--start-fen")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--from", dest="first", type=int, default=4)
    ap.add_argument("--fs", default="/usr/games/fairy-stockfish")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    fen = a.start_fen or (JUDKINS_FEN if a.variant == "judkins" else sf.get_fen(a.variant, sf.start_fen(a.variant), []))
    fs = Fs(a.fs, a.variant)
    seen = set()
    for path in a.files:
        for line in open(path):
            m = re.match(r"\s+moves: (.*)", line)
            if not m:
                continue
            moves = m.group(1).split()
            for ply in range(a.first, len(moves)):
                if sf.gives_check(a.variant, fen, moves[:ply]):
                    continue
                cur = sf.get_fen(a.variant, fen, moves[:ply])
                if cur in seen:
                    continue
                seen.add(cur)
                lines = fs.analyse(fen, moves[:ply], a.depth)
                if 1 not in lines or lines[1][0] != "cp":
                    continue
                print(f"{cur}\t{lines[1][1]}")
                sys.stdout.flush()
    fs.close()


if __name__ == "__main__":
    main()
