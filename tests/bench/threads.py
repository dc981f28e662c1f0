#!/usr/bin/env python3
"""Time to a depth with Threads 1 and 2, interleaved rounds, from a variant's start over USI.

Usage: python3 tests/bench/threads.py DEPTH [VARIANT] [KOMA]  (from the repository root)
"""
import subprocess, sys, time

KOMA = sys.argv[3] if len(sys.argv) > 3 else "target/release/koma"

def run(threads, depth, variant="judkins-shogi"):
    p = subprocess.Popen([KOMA, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for l in ["usi", f"setoption name USI_Variant value {variant}", f"setoption name Threads value {threads}", "isready"]:
        p.stdin.write(l + "\n")
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok": pass
    t0 = time.monotonic()
    p.stdin.write(f"position startpos\ngo depth {depth}\n"); p.stdin.flush()
    last = ""
    while True:
        l = p.stdout.readline().strip()
        if l.startswith("info depth"): last = l
        if l.startswith("bestmove"): break
    dt = time.monotonic() - t0
    p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
    nodes = last.split(" nodes ")[1].split()[0]
    return dt, nodes, l
depth = int(sys.argv[1]); variant = sys.argv[2] if len(sys.argv) > 2 else "judkins-shogi"
for r in range(3):
    for t in (1, 2):
        dt, n, bm = run(t, depth, variant)
        print(f"round {r} threads {t} depth {depth}: {dt:.3f} s, nodes {n}, {bm}", flush=True)
