#!/usr/bin/env python3
"""Search speed of koma binaries side by side: `go nodes N` over UCI from the
Judkins start and three openings of tests/match/books/judkins.txt, each binary
run in turn, three rounds interleaved; the best round of each is printed
(time, nodes of the last reported depth, knps, the sum of the depths reached).

    python3 tests/match/nps.py NODES BINARY...
"""
import os
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FEN = "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1"


def openings():
    with open(os.path.join(ROOT, "tests/match/books/judkins.txt")) as f:
        book = [l.split("#")[0].strip() for l in f]
    return [""] + [l for l in book if l][:7:2]


def run(binary, nodes, lines):
    p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    send("uci")
    send("setoption name UCI_Variant value judkins")
    send("isready")
    while p.stdout.readline().strip() != "readyok":
        pass
    total, counted, depths = 0.0, 0, 0
    for line in lines:
        send("ucinewgame")
        send(f"position fen {FEN}" + (f" moves {line}" if line else ""))
        start = time.perf_counter()
        send(f"go nodes {nodes}")
        last = None
        while True:
            s = p.stdout.readline()
            if not s:
                sys.exit(f"nps.py: {binary} ended before bestmove")
            if s.startswith("bestmove"):
                break
            f = s.split()
            if s.startswith("info depth") and "nodes" in f:
                last = f
        total += time.perf_counter() - start
        if last is None:
            sys.exit(f"nps.py: {binary} reported no depth for {line or 'the start'}")
        counted += int(last[last.index("nodes") + 1])
        depths += int(last[last.index("depth") + 1])
    send("quit")
    p.wait()
    return total, counted, depths


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    nodes, binaries = int(sys.argv[1]), sys.argv[2:]
    lines = openings()
    results = {b: [] for b in binaries}
    for _ in range(3):
        for b in binaries:
            results[b].append(run(b, nodes, lines))
    for b in binaries:
        t, n, d = min(results[b])
        print(f"{b}: {t * 1000:.0f} ms for {n} nodes = {n / t / 1000:.0f} knps, depths {d}")


if __name__ == "__main__":
    main()
