#!/usr/bin/env python3
"""koma alone, for tests/soak/results.txt: N times `go btime 0 wtime 0 byoyomi B`
from the positions of koma's own self-play (a new game every 60 searches or
after 120 plies), printing the wall time of `go` to `bestmove` (median, p99,
max, how many over B) and the largest `time` of koma's last `info` line.

  python3 tests/soak/usi_latency.py /tmp/soak/koma 3000 30
"""
import statistics
import subprocess
import sys
import time


def main():
    koma, n, byo = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    p = subprocess.Popen([koma, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(pred):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("usi_latency.py: koma exited")
            if pred(line.rstrip("\n")):
                return line.rstrip("\n")

    send("usi")
    until(lambda l: l == "usiok")
    walls, own, moves = [], [], []
    for i in range(n):
        if len(moves) > 120 or i % 60 == 0:
            moves = []
            send("usinewgame")
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("isready")
        until(lambda l: l == "readyok")
        last = [0]

        def answer(line):
            w = line.split()
            if w[:1] == ["info"] and "time" in w:
                last[0] = int(w[w.index("time") + 1])
            return w[:1] == ["bestmove"]

        send(f"go btime 0 wtime 0 byoyomi {byo}")
        t0 = time.monotonic()
        move = until(answer).split()[1]
        walls.append((time.monotonic() - t0) * 1000)
        own.append(last[0])
        moves = [] if move in ("resign", "win") else moves + [move]
    send("quit")
    w = sorted(walls)
    print(f"{n} searches, byoyomi {byo}: wall median {statistics.median(w):.1f} p99 {w[int(0.99 * n)]:.1f} "
          f"max {w[-1]:.1f} ms; over {byo}: {sum(x > byo for x in w)}; koma's last info time max {max(own)}")


if __name__ == "__main__":
    main()
