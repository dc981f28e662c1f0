#!/usr/bin/env python3
"""Differential harness for chu shogi: koma against lishogi's rules.

Fairy-Stockfish cannot play chu shogi, so this harness has one oracle, npm
shogiops (tests/shogiops/chu.mjs). shogiops plays random games from the
start (captures and lion moves favoured in two games of three; seeds as
chu.mjs documents) and, at EVERY ply, the position's SFEN (its third field
the square of a lion just captured by another piece) goes to one
`koma moves --variant chu-shogi --batch --sfen-lines --notation usi` process;
compared are:

  * the legal moves, one per result, in koma's USI (`7g7f7e` for a capture
    on the way): koma's list must be shogiops' list plus the documented
    exceptions chu.mjs names (a lion taking the only protector of a lion on
    the way, which the published rules allow and shogiops refuses);
  * whether the game is over and who won (`-`, sente, gote or draw).

Moves are compared while neither says the game is over. Run from the
repository root after `cargo build --release` and `npm ci --prefix tests/shogiops`:

    python3 tests/diff/chu.py --sample            # CI sample (a few seconds)
    python3 tests/diff/chu.py --games 1000 --plies 300 --max-seconds 3600

Options: --games N (default 20), --plies P (default 200), --seed S (default
1), --max-seconds T (stop after T seconds), --koma PATH (default
target/release/koma), --show N (differences printed in full, default 5),
--quiet. Output: each difference (reproducible: the SFEN and the commands),
then `positions: N, over: E, exceptions: X, differences: D`. Exit code 0 if
D = 0, 1 if D > 0, 2 if koma or node cannot be run.
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tests" / "shogiops" / "chu.mjs"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=None)
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--sample", action="store_true", help="CI sample: 6 games of 60 plies, seed 1")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.sample:
        a.games, a.plies, a.seed = 6, 60, 1
    start = time.time()
    try:
        node = subprocess.Popen(
            ["node", str(SCRIPT), "play", "--games", str(a.games), "--seed", str(a.seed),
             "--plies", str(a.plies)],
            stdout=subprocess.PIPE, text=True, bufsize=1)
        koma = subprocess.Popen(
            [a.koma, "moves", "--variant", "chu-shogi", "--batch", "--sfen-lines", "--notation", "usi"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as e:
        print(f"cannot run koma or node: {e}", file=sys.stderr)
        return 2
    positions = over = exceptions = differences = games = 0
    stopped = False
    for line in node.stdout:
        if line.startswith("#"):
            games += 1
            if a.max_seconds is not None and time.time() - start > a.max_seconds:
                stopped = True
                break
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) < 6:
            print(f"unreadable line from shogiops: {line!r}", file=sys.stderr)
            return 2
        g, ply, sfen, result, moves, exc = cols[:6]
        koma.stdin.write(sfen + "\n")
        koma.stdin.flush()
        answer = koma.stdout.readline().rstrip("\n").split("\t")
        if not answer or answer == [""]:
            print(f"koma gave no answer for {sfen}", file=sys.stderr)
            return 2
        positions += 1
        problems = []
        if answer[0] == "error":
            problems.append(f"koma error: {' '.join(answer[1:])}")
        else:
            k_result, k_moves = answer[1], set(answer[2].split()) if len(answer) > 2 else set()
            winner = "-" if result == "-" else result.split(":")[0].replace("none", "draw")
            over += winner != "-"
            if k_result != winner:
                problems.append(f"result: koma {k_result} shogiops {result}")
            if winner == "-" and k_result == "-":
                expected = set(moves.split()) | set(exc.split())
                exceptions += len(exc.split())
                if k_moves != expected:
                    problems.append(f"koma-only: {' '.join(sorted(k_moves - expected)) or '-'}")
                    problems.append(f"shogiops-only: {' '.join(sorted(expected - k_moves)) or '-'}")
        if problems:
            differences += 1
            if differences <= a.show:
                print(f"DIFF chu-shogi game {g} ply {ply} (seed {a.seed + int(g)})")
                print(f"  sfen:      {sfen}")
                for p in problems:
                    print(f"  {p}")
                print(f"  reproduce: koma moves --variant chu-shogi --sfen '{sfen}'")
                print(f"             echo '{sfen}' | node tests/shogiops/chu.mjs moves")
        if not a.quiet and positions % 5000 == 0:
            print(f"... {positions} positions, {differences} differences, "
                  f"{time.time() - start:.0f} s", file=sys.stderr)
    if stopped:
        node.kill()
    node.wait()
    koma.stdin.close()
    koma.wait()
    took = time.time() - start
    print(f"games: {games}{' (stopped by --max-seconds)' if stopped else ''}, seconds: {took:.0f}")
    print(f"positions: {positions}, over: {over}, exceptions: {exceptions}, differences: {differences}")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
