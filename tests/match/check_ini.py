#!/usr/bin/env python3
"""Compares koma's legal moves, check and game result with the oracle's on a
variant that pyffish knows only from a variants.ini definition, before a match
(tests/match/match.py --variant-ini) trusts that oracle.

Random games from the start (game g seeded "S:g"; a capture taken with
probability 0.4 and a drop with 0.3 where there are any, so that hands fill and
promotions happen): at every ply the position's FEN (pyffish.get_fen) is given
to `koma moves --variant FILE --batch --notation fairy` and its answer compared
with the oracle's (tests/oracle/fsoracle.py, pawn-drop mate filtered as
in match.py). Each difference is printed with its FEN; the last line is
`positions: N, differences: D` (exit status 1 if D > 0).

Usage (from the repository root, after cargo build --release):
  python3 tests/match/check_ini.py --variant lanceshogi \\
      --variant-ini tests/walkthrough/lance-shogi.ini \\
      --koma-variant tests/walkthrough/lance-shogi.md --games 40 --plies 150
"""
import argparse
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import REPO, fsoracle, load_variant_ini, sf  # noqa: E402


def occupied_squares(fen):
    """The squares ("a1", "c7" ...) holding a piece in a FEN's board."""
    ranks = fen.split()[0].split("[")[0].split("/")
    out = set()
    for i, row in enumerate(ranks):
        rank, file, digits = len(ranks) - i, 0, ""
        for c in row + " ":
            if c.isdigit():
                digits += c
                continue
            file += int(digits or 0)
            digits = ""
            if c.isalpha():
                out.add(f"{chr(ord('a') + file)}{rank}")
                file += 1
    return out


def dest(move):
    """The destination square of a board move ("b3b4+" -> "b4")."""
    body = move.rstrip("+-")
    i = len(body) - 1
    while body[i].isdigit():
        i -= 1
    return body[i:]


def oracle_result(variant, fen):
    """`-` while the game goes on, else `sente`, `gote` or `draw` (the winner)."""
    legal = fsoracle.legal_moves(variant, fen, [])
    if legal:
        return "-"
    value = sf.game_result(variant, fen, []) if sf.legal_moves(variant, fen, []) == [] else -1
    stm_sente = fen.split()[1] == "w"
    if value == 0:
        return "draw"
    return "sente" if (value > 0) == stm_sente else "gote"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--variant-ini", required=True)
    ap.add_argument("--koma-variant", required=True)
    ap.add_argument("--koma", default=os.path.join(REPO, "target", "release", "koma"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    load_variant_ini(a.variant_ini)
    start = sf.get_fen(a.variant, sf.start_fen(a.variant), [])
    fens = []
    for g in range(a.games):
        rng = random.Random(f"{a.seed}:{g}")
        moves = []
        for _ in range(a.plies + 1):
            fens.append(sf.get_fen(a.variant, start, moves))
            legal = sorted(fsoracle.legal_moves(a.variant, fens[-1], []))
            if not legal or sf.is_optional_game_end(a.variant, start, moves)[0]:
                break
            occupied = occupied_squares(fens[-1])
            captures = [m for m in legal if "@" not in m and dest(m) in occupied]
            drops = [m for m in legal if "@" in m]
            if captures and rng.random() < 0.4:
                moves.append(rng.choice(captures))
            elif drops and rng.random() < 0.3:
                moves.append(rng.choice(drops))
            else:
                moves.append(rng.choice(legal))
    out = subprocess.run([a.koma, "moves", "--variant", a.koma_variant, "--batch", "--notation", "fairy"],
                         input="\n".join(fens) + "\n", capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(fens):
        sys.exit(f"check_ini.py: koma answered {len(out)} lines for {len(fens)} FENs")
    diffs = drops_seen = promos_seen = checks = ends = 0
    for fen, line in zip(fens, out):
        want = sorted(fsoracle.legal_moves(a.variant, fen, []))
        check = "1" if sf.gives_check(a.variant, fen, []) else "0"
        expect = f"{check}\t{oracle_result(a.variant, fen)}\t{' '.join(want)}"
        drops_seen += any("@" in m for m in want)
        promos_seen += any(m.endswith("+") for m in want)
        checks += check == "1"
        ends += not want
        if line != expect:
            diffs += 1
            got = line.split("\t")
            kmoves = set(got[2].split()) if len(got) > 2 else set()
            print(f"DIFF {fen}\n  koma:   {line[:200]}\n  oracle: {expect[:200]}\n"
                  f"  koma-only {sorted(kmoves - set(want))} oracle-only {sorted(set(want) - kmoves)}")
    print(f"# {a.games} games of at most {a.plies} plies, seed {a.seed}; positions with drops {drops_seen}, "
          f"with a promotion {promos_seen}, in check {checks}, game over {ends}")
    print(f"positions: {len(fens)}, differences: {diffs}")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
