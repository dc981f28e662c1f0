#!/usr/bin/env python3
"""The Python module `koma` against the subprocess way, on the same questions.

For each variant, positions are collected along random games (seeded), then
each is asked what the differential harness asks (check, result, the sorted
legal moves in Fairy-Stockfish notation) in two ways:

  process  one `koma moves --batch --notation fairy` process per variant,
           a FEN line written and an answer line read per position;
  module   koma.Position(variant, fen) in this process.

Rounds alternate the two ways (noisy shared machines) and the answers must
agree. Prints positions per second of each way and their ratio.

    python3 -m pip install ./crates/koma-py && cargo build --release
    python3 tests/python/speed.py [--koma target/release/koma] [--rounds 3] [--games 4 --plies 60]
"""

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

import koma

REPO = Path(__file__).resolve().parents[2]


def positions(slug, games, plies, seed):
    rng = random.Random(f"{seed}:{slug}")
    out = []
    for _ in range(games):
        pos = koma.Position(slug)
        for _ in range(plies):
            out.append(pos.fen())
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
    return out


def by_process(path, slug, fens):
    p = subprocess.Popen([path, "moves", "--variant", slug, "--batch", "--notation", "fairy"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    answers = []
    for fen in fens:
        p.stdin.write(fen + "\n")
        p.stdin.flush()
        answers.append(p.stdout.readline().rstrip("\n"))
    p.stdin.close()
    p.wait()
    return answers


def by_module(slug, fens):
    answers = []
    for fen in fens:
        pos = koma.Position(slug, fen)
        out = pos.outcome()
        result = "-" if out is None else (out[0] or "draw")
        answers.append(f"{int(pos.in_check())}\t{result}\t{' '.join(sorted(pos.legal_moves()))}")
    return answers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--variants", default="shogi,minishogi,judkins-shogi,chu-shogi,dai-shogi")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", default="1")
    a = ap.parse_args()
    work = {s: positions(s, a.games, a.plies, a.seed) for s in a.variants.split(",")}
    n = sum(len(f) for f in work.values())
    times = {"process": [], "module": []}
    answers = {"process": {}, "module": {}}
    for r in range(a.rounds):
        order = ["process", "module"] if r % 2 == 0 else ["module", "process"]
        for way in order:
            t = time.perf_counter()
            for slug, fens in work.items():
                got = by_process(a.koma, slug, fens) if way == "process" else by_module(slug, fens)
                answers[way][slug] = got
            times[way].append(time.perf_counter() - t)
    for slug in work:
        if answers["process"][slug] != answers["module"][slug]:
            sys.exit(f"speed: the process and the module answer differently in {slug}")
    best = {w: min(times[w]) for w in ("process", "module")}
    print(f"{n} positions ({a.variants}), {a.rounds} rounds, best of each:")
    for w in ("process", "module"):
        print(f"  {w:8} {best[w]:7.3f} s  {n / best[w]:9.0f} positions/s")
    print(f"  module / process speed: {best['process'] / best['module']:.2f}x")


if __name__ == "__main__":
    main()
