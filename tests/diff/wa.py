#!/usr/bin/env python3
"""Differential harness for wa shogi: koma against Sjaak II.

Sjaak II (Debian `sjaakii`, through tests/sjaak/oracle.py) plays random games
of `wa-shogi` (Sjaak's `Wa-Shogi-drop`) and `wa-shogi-no-drops` (Sjaak's
`Wa-Shogi`), each move picked from Sjaak's legal list, each next position
written by Sjaak (`fen` after the move). At EVERY ply the position's FEN goes
to one `koma moves --variant SLUG --batch --notation fairy` process per game,
and compared are:

  * the legal moves (sets, fairy notation: e8e9+ promotes, e8e9 does not,
    P@f10 drops), while neither says the game is over;
  * whether the side to move is in check;
  * whether the game is over and who won (`-`, sente, gote or draw).

One difference is documented, not counted: a side with no legal move that is
not in check (stalemate) loses in koma, as in shogi, and draws in Sjaak II
(`1/2-1/2 {Stalemate}`); such positions are counted as `stalemates`.

Games by number g (seed "S:slug:g"), style by g mod 4:
  random      a uniformly random legal move;
  capture     a capture with probability 0.5 if there is one, else a drop
              (0.3), else uniform: hands fill, pieces promote;
  aggressive  a capture (0.8); else a promotion (0.6); else a pawn drop in
              front of the enemy king (0.5: drop checks, drop mates); else a
              drop (0.5); else uniform;
  hunt        a capture (0.6); else a move or drop to a square at most two
              steps from the enemy king (0.8): checks, mates; else uniform.
A game ends when Sjaak says it is over, or after --plies moves.

Run from the repository root after `cargo build --release`:

    python3 tests/diff/wa.py --sample        # CI sample (a few seconds)
    python3 tests/diff/wa.py --games 2000 --plies 200 --max-seconds 3600

Options: --games N per game (default 20), --plies P (default 200), --seed S
(default 1), --variants a,b (default both), --max-seconds T, --koma PATH
(default target/release/koma), --show N (differences printed in full,
default 5), --quiet. Output: each difference (reproducible: the FEN and the
commands), a summary per game, then `positions: N, differences: D`.
Exit code 0 if D = 0, 1 if D > 0, 2 if koma or Sjaak II cannot be run.
"""
import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "sjaak"))
import oracle  # noqa: E402  (tests/sjaak/oracle.py)

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default=",".join(oracle.VARIANTS))
    ap.add_argument("--max-seconds", type=float, default=None)
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--sample", action="store_true", help="CI sample: 4 games of 60 plies per game, seed 1")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.sample:
        a.games, a.plies, a.seed = 4, 60, 1
    slugs = a.variants.split(",")
    start = time.time()
    total_positions = total_diffs = 0
    stopped = False
    summary = []
    for slug in slugs:
        try:
            sj = oracle.Sjaak(slug)
            koma = subprocess.Popen([a.koma, "moves", "--variant", slug, "--batch", "--notation", "fairy"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        except (OSError, oracle.OracleError) as e:
            print(f"cannot run koma or Sjaak II: {e}", file=sys.stderr)
            return 2
        st = dict(games=0, positions=0, check=0, over=0, hand=0, promoted=0, stalemates=0, diffs=0)
        seen = set()
        for g in range(a.games):
            if a.max_seconds is not None and time.time() - start > a.max_seconds:
                stopped = True
                break
            style = oracle.STYLES[g % len(oracle.STYLES)]
            rng = random.Random(f"{a.seed}:{slug}:{g}")
            fen = oracle.START
            st["games"] += 1
            for ply in range(a.plies + 1):
                try:
                    ans = sj.status(fen)
                except oracle.OracleError as e:
                    print(f"Sjaak II failed on {fen}: {e}", file=sys.stderr)
                    return 2
                kfen = oracle.koma_fen(fen)
                koma.stdin.write(kfen + "\n")
                koma.stdin.flush()
                reply = koma.stdout.readline().rstrip("\n").split("\t")
                if reply == [""]:
                    print(f"koma gave no answer for {kfen}", file=sys.stderr)
                    return 2
                st["positions"] += 1
                seen.add(fen.rsplit(" ", 2)[0])
                st["check"] += ans["check"]
                st["over"] += ans["result"] != "-"
                st["hand"] += "[" in fen and fen.split("[")[1][0] not in "-]"
                st["promoted"] += "+" in fen.split("[")[0]
                problems = []
                if reply[0] == "error":
                    problems.append(f"koma error: {' '.join(reply[1:])}")
                else:
                    k_check, k_result = reply[0] == "1", reply[1]
                    k_moves = reply[2].split() if len(reply) > 2 else []
                    if k_check != ans["check"]:
                        problems.append(f"check: koma {int(k_check)} sjaak {int(ans['check'])}")
                    stalemate = ans["reason"] == "Stalemate" and not ans["moves"] and not k_moves
                    if stalemate:
                        st["stalemates"] += 1
                        winner = {"w": "gote", "b": "sente"}[fen.split()[1]]
                        if k_result != winner:
                            problems.append(f"result: koma {k_result}, expected {winner} (stalemate loses)")
                    elif k_result != ans["result"]:
                        problems.append(f"result: koma {k_result} sjaak {ans['result']} ({ans['reason']})")
                    if len(set(k_moves)) != len(k_moves):
                        problems.append("koma lists a move twice")
                    if k_result == "-" and ans["result"] == "-" and set(k_moves) != set(ans["moves"]):
                        problems.append(f"koma-only:  {' '.join(sorted(set(k_moves) - set(ans['moves']))) or '-'}")
                        problems.append(f"sjaak-only: {' '.join(sorted(set(ans['moves']) - set(k_moves))) or '-'}")
                if problems:
                    st["diffs"] += 1
                    if st["diffs"] <= a.show:
                        print(f"DIFF {slug} game {g} ply {ply} ({style}, seed {a.seed}:{slug}:{g})")
                        print(f"  fen:        {kfen}")
                        for p in problems:
                            print(f"  {p}")
                        print(f"  reproduce:  echo '{kfen}' | koma moves --variant {slug} --batch --notation fairy")
                        print(f"              python3 tests/sjaak/oracle.py status {slug} '{kfen}'")
                if ans["result"] != "-" or ply == a.plies:
                    break
                move = oracle.choose(rng, style, ans["moves"], fen)
                try:
                    fen = sj.play(fen, move)
                except oracle.OracleError as e:
                    print(f"Sjaak II failed: {e}", file=sys.stderr)
                    return 2
            if not a.quiet and g % 50 == 49:
                print(f"... {slug}: {g + 1} games, {st['positions']} positions, {st['diffs']} differences, "
                      f"{time.time() - start:.0f} s", file=sys.stderr)
        koma.stdin.close()
        koma.wait()
        sj.close()
        st["distinct"] = len(seen)
        summary.append((slug, st))
        total_positions += st["positions"]
        total_diffs += st["diffs"]
        if stopped:
            break
    took = time.time() - start
    print(f"{'game':<18} {'games':>6} {'positions':>10} {'distinct':>9} {'in check':>9} {'over':>6} "
          f"{'w/ hand':>8} {'promoted':>9} {'stalemates':>10} {'diffs':>6}")
    for slug, st in summary:
        print(f"{slug:<18} {st['games']:>6} {st['positions']:>10} {st['distinct']:>9} {st['check']:>9} "
              f"{st['over']:>6} {st['hand']:>8} {st['promoted']:>9} {st['stalemates']:>10} {st['diffs']:>6}")
    print(f"seconds: {took:.0f}{' (stopped by --max-seconds)' if stopped else ''}, oracle: {sj.banner}")
    print(f"positions: {total_positions}, differences: {total_diffs}")
    return 0 if total_diffs == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
