#!/usr/bin/env python3
"""Differential harness against lishogi's rules alone: chu shogi, annan shogi, check shogi.

Fairy-Stockfish plays neither chu shogi nor annan shogi, so these games have
one oracle, npm shogiops: tests/shogiops/chu.mjs for chu shogi,
tests/shogiops/oracle.mjs for annan and check shogi (check shogi is also in
tests/diff/harness.py, against Fairy-Stockfish and shogiops together).
shogiops plays random games from the start (styles and seeds as each script
documents) and, at EVERY ply, the position's SFEN goes to one
`koma moves --variant SLUG --batch --sfen-lines --notation usi` process;
compared are:

  * the legal moves in koma's USI: koma's list must be shogiops' list with
    the exceptions the script names applied. An exception `+MOVE` (or a bare
    MOVE, as chu.mjs writes them) is a move the rules allow and shogiops
    refuses (chu: a lion taking the only protector of a lion on the way;
    annan: a move shogiops' legality shortcuts miss); `-MOVE` is one
    shogiops lists that leaves the king attacked (annan: found by trying
    every move of shogiops' own movement rule);
  * whether the game is over and who won (`-`, sente, gote or draw).

Moves are compared while neither says the game is over. Run from the
repository root after `cargo build --release` and `npm ci --prefix tests/shogiops`:

    python3 tests/diff/shogiops.py --variant chu-shogi --sample     # CI sample (a few seconds)
    python3 tests/diff/shogiops.py --variant annan-shogi --games 1000 --plies 300 --max-seconds 3600

Options: --variant SLUG (chu-shogi, annan-shogi or check-shogi; default
chu-shogi), --games N (default 20), --plies P (default 200), --seed S
(default 1), --max-seconds T (stop after T seconds), --answer-seconds T
(default 120: when shogiops sends no line or koma no answer for T seconds,
both are killed and the run fails with exit code 2, naming the silent one
and the last position), --koma PATH (default target/release/koma), --show N
(differences printed in full, default 5), --quiet. Output: each difference
(reproducible: the SFEN and the commands), then `positions: N, over: E,
exceptions: X, differences: D`. Exit code 0 if
D = 0, 1 if D > 0, 2 if koma or node cannot be run, fails or hangs.
"""
import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHOGIOPS = REPO / "tests" / "shogiops"
# koma's slug: the script and its arguments before the command.
VARIANTS = {
    "chu-shogi": ["chu.mjs"],
    "annan-shogi": ["oracle.mjs", "annanshogi"],
    "check-shogi": ["oracle.mjs", "checkshogi"],
}


def expected_moves(moves, exceptions):
    """shogiops' moves with the exceptions applied: +M (or M) added, -M taken away."""
    out = set(moves.split())
    for e in exceptions.split():
        if e.startswith("-"):
            out.discard(e[1:])
        else:
            out.add(e[1:] if e.startswith("+") else e)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="chu-shogi")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=None)
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--answer-seconds", type=float, default=120.0,
                    help="give up when shogiops sends no line or koma no answer for this long")
    ap.add_argument("--sample", action="store_true", help="CI sample: 6 games of 60 plies, seed 1")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.sample:
        a.games, a.plies, a.seed = 6, 60, 1
    start = time.time()
    script = [str(SHOGIOPS / VARIANTS[a.variant][0])] + VARIANTS[a.variant][1:]
    try:
        node = subprocess.Popen(
            ["node"] + script + ["play", "--games", str(a.games), "--seed", str(a.seed),
                                 "--plies", str(a.plies)],
            stdout=subprocess.PIPE, text=True, bufsize=1)
        koma = subprocess.Popen(
            [a.koma, "moves", "--variant", a.variant, "--batch", "--sfen-lines", "--notation", "usi"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as e:
        print(f"cannot run koma or node: {e}", file=sys.stderr)
        return 2
    positions = over = exceptions = differences = games = 0
    stopped = False
    # A watchdog: when neither program has moved on for --answer-seconds,
    # both are killed (the loop below then ends) and the run fails naming
    # which one was silent and where, instead of hanging.
    progress = {"at": time.monotonic(), "waiting": "shogiops", "sfen": "the start", "hung": None}
    done = threading.Event()

    def watchdog():
        while not done.wait(1.0):
            if time.monotonic() - progress["at"] > a.answer_seconds:
                progress["hung"] = progress["waiting"]
                node.kill()
                koma.kill()
                return

    threading.Thread(target=watchdog, daemon=True).start()

    def step(waiting, sfen=None):
        progress["at"] = time.monotonic()
        progress["waiting"] = waiting
        if sfen is not None:
            progress["sfen"] = sfen

    for line in node.stdout:
        if line.startswith("#"):
            games += 1
            if a.max_seconds is not None and time.time() - start > a.max_seconds:
                stopped = True
                break
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) < 5:
            print(f"unreadable line from shogiops: {line!r}", file=sys.stderr)
            return 2
        g, ply, sfen, result, moves = cols[:5]
        exc = cols[5] if len(cols) > 5 else ""
        step("koma", sfen)
        try:
            koma.stdin.write(sfen + "\n")
            koma.stdin.flush()
            answer = koma.stdout.readline().rstrip("\n").split("\t")
        except (BrokenPipeError, ValueError):
            answer = [""]
        if not answer or answer == [""]:
            if progress["hung"] == "koma":
                print(f"koma gave no answer in {a.answer_seconds:.0f} s for {sfen}; both killed",
                      file=sys.stderr)
            else:
                print(f"koma gave no answer for {sfen} (exit status {koma.poll()})",
                      file=sys.stderr)
            node.kill()
            return 2
        step("shogiops")
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
                expected = expected_moves(moves, exc)
                exceptions += len(exc.split())
                if k_moves != expected:
                    problems.append(f"koma-only: {' '.join(sorted(k_moves - expected)) or '-'}")
                    problems.append(f"shogiops-only: {' '.join(sorted(expected - k_moves)) or '-'}")
        if problems:
            differences += 1
            if differences <= a.show:
                print(f"DIFF {a.variant} game {g} ply {ply} (seed {a.seed + int(g)})")
                print(f"  sfen:      {sfen}")
                for p in problems:
                    print(f"  {p}")
                print(f"  reproduce: koma moves --variant {a.variant} --sfen '{sfen}'")
                print(f"             echo '{sfen}' | node {' '.join(script)} moves")
        if not a.quiet and positions % 5000 == 0:
            print(f"... {positions} positions, {differences} differences, "
                  f"{time.time() - start:.0f} s", file=sys.stderr)
    if stopped:
        node.kill()
    node_status = node.wait()
    done.set()
    try:
        koma.stdin.close()
    except BrokenPipeError:
        pass
    koma.wait()
    took = time.time() - start
    if progress["hung"] == "shogiops":
        print(f"shogiops (node {' '.join(script)}) sent nothing for {a.answer_seconds:.0f} s"
              f" after {positions} positions (the last position sent to koma: {progress['sfen']});"
              " both killed", file=sys.stderr)
        return 2
    if not stopped and node_status != 0:
        hint = ("; is it installed (npm ci --prefix tests/shogiops)?" if positions == 0
                else " (its error, if any, is above)")
        print(f"shogiops (node {' '.join(script)}) failed with exit status {node_status}"
              f" after {positions} positions{hint}", file=sys.stderr)
        return 2
    if positions == 0:
        print("no position was compared: shogiops sent none", file=sys.stderr)
        return 2
    print(f"games: {games}{' (stopped by --max-seconds)' if stopped else ''}, seconds: {took:.0f}")
    print(f"positions: {positions}, over: {over}, exceptions: {exceptions}, differences: {differences}")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
