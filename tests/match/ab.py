#!/usr/bin/env python3
"""A match between two USI engines at any koma variant, koma as the referee.

For what no other program referees (chu shogi, wa shogi, a test variant):
`koma moves --batch` of the referee binary lists the legal moves of each
position (`startpos moves ...`, so repetitions count) and says when the game
is over and who won. Typically engine A is koma after a change and engine B
the binary from before it; at fixed nodes (`go nodes N`, one thread) a game
depends only on its opening, so the result does not depend on the machine's
load.

Openings: --random-plies K moves drawn at random from the legal ones (seeded
by --seed and the pair's number; no move that ends the game). Each opening
is played twice, A sente in the first game of the pair and gote in the
second. A game ends when the referee says so, when an engine answers a move
that is not legal or no move while there is one (a loss for it, printed),
or at --max-plies (a draw by adjudication).

Usage (from the repository root):
  python3 tests/match/ab.py --variant chu-shogi \\
      --a "target/release/koma usi" --b "/tmp/koma-before usi" \\
      --nodes 20000 --games 200 --jobs 2
Prints one line per game and the total: A's wins, draws and losses, its
score with a 95% interval, and the Elo difference those mean.
"""

import argparse
import os
import random
import shlex
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from score import elo, interval  # noqa: E402  (this folder's score.py)
from clients import Engine, Referee  # noqa: E402


def opening(referee, rng, plies):
    moves = []
    for _ in range(plies):
        result, legal = referee.judge(moves)
        if result != "-" or not legal:
            break
        # A move that ends the game is no opening.
        rng.shuffle(legal)
        for m in legal:
            if referee.judge(moves + [m])[0] == "-":
                moves.append(m)
                break
        else:
            break
    return moves


def play(args, engines, referee, moves, a_sente):
    """A's result (1, 0.5, 0), the reason and the plies played."""
    for e in engines:
        e.new_game()
    moves = list(moves)
    while True:
        result, legal = referee.judge(moves)
        sente_to_move = len(moves) % 2 == 0
        a_to_move = sente_to_move == a_sente
        if result != "-":
            if result == "draw":
                return 0.5, "draw", len(moves)
            a_won = (result == "sente") == a_sente
            return (1.0 if a_won else 0.0), f"{result} wins", len(moves)
        if len(moves) >= args.max_plies:
            return 0.5, "adjudicated", len(moves)
        engine = engines[0] if a_to_move else engines[1]
        m = engine.best(moves, f"nodes {args.nodes}")
        if m not in legal:
            who = "A" if a_to_move else "B"
            print(f"  {who} played {m}, not legal after: {' '.join(moves)}", flush=True)
            return (0.0 if a_to_move else 1.0), f"{who} illegal", len(moves)
        moves.append(m)


def summary(w, d, l):
    n = w + d + l
    if n == 0:
        return "no games"
    score, half = interval(w, d, l)
    return (
        f"A +{w} ={d} -{l} of {n}: {100 * score:.1f}% ± {100 * half:.1f} "
        f"(Elo {elo(score):+.0f}, 95% {elo(score - half):+.0f} .. {elo(score + half):+.0f})"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="chu-shogi")
    ap.add_argument("--a", required=True, help="engine A's command (USI)")
    ap.add_argument("--b", required=True, help="engine B's command (USI)")
    ap.add_argument("--referee", default=os.path.join(ROOT, "target", "release", "koma"))
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16, help="MB of hash per engine")
    ap.add_argument("--jobs", type=int, default=1, help="games at once")
    args = ap.parse_args()

    lock = threading.Lock()
    tally = [0, 0, 0]
    pairs = list(range((args.games + 1) // 2))
    failures = []

    def worker():
        engines = [Engine(shlex.split(args.a), args.variant, "usi", args.hash),
                   Engine(shlex.split(args.b), args.variant, "usi", args.hash)]
        referee = Referee(args.referee, args.variant)
        try:
            while True:
                with lock:
                    if not pairs:
                        return
                    pair = pairs.pop(0)
                rng = random.Random(args.seed * 1_000_003 + pair)
                start = opening(referee, rng, args.random_plies)
                for game in (2 * pair, 2 * pair + 1):
                    if game >= args.games:
                        break
                    a_sente = game % 2 == 0
                    score, why, plies = play(args, engines, referee, start, a_sente)
                    with lock:
                        tally[{1.0: 0, 0.5: 1, 0.0: 2}[score]] += 1
                        print(
                            f"game {game + 1}: A {'sente' if a_sente else 'gote'} "
                            f"{score} ({why}, {plies} plies) opening {' '.join(start)}",
                            flush=True,
                        )
        except Exception as e:  # noqa: BLE001 - reported at the end
            failures.append(str(e))
        finally:
            for e in engines:
                e.close()
            referee.close()

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(summary(*tally))
    if failures:
        for f in failures:
            print("error:", f, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
