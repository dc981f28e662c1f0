#!/usr/bin/env python3
"""Soak `koma serve`: many concurrent sessions for a long run, one server process.

Starts `koma serve --addr 127.0.0.1:PORT` once and runs --clients threads
against it until --minutes have passed.  Each client loops over games:

  POST /api/games {"variant": V}        V drawn from GET /api/variants
  then, until the game ends or --plies moves were played:
    POST /api/games/ID/move             a random move of the state's `moves`
    every 8th ply  GET /api/games/ID/think?depth=2&play=1  (the engine moves;
                   503 "busy" is allowed: searches are bounded in number)
    every 5th ply  POST /api/games/ID/undo, then the move again
    every 10th ply GET /api/games/ID/svg, GET /api/games/ID/record?format=kif
  and between games one hostile request, in turn: an unknown move, an
  unknown game id, JSON that is not JSON, a body over the limit, an unknown
  variant, a wrong method, a negative think time, binary junk on a raw socket.

Every answer is checked: the status expected (200 for good requests, a 4xx
with an `error` message for the hostile ones, never a 5xx other than 503 for
a busy engine), and the game state's consistency: after a move the
history is one longer and ends with the move, the `moves` list is empty
exactly when there is an `outcome`, undo gives back the state before.

Every --every seconds a line: elapsed time, requests so far, answer time
median and p99 of the window, the server's VmRSS, threads and open file
descriptors (/proc/PID), games started, errors.  Exits non-zero if any
check failed or the server died.

Usage (from the repository root, after `cargo build --release`):
    python3 tests/soak/serve_soak.py --koma target/release/koma --minutes 60
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time


class Failed(Exception):
    pass


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.times = []
        self.slowest = []
        self.requests = 0
        self.games = 0
        self.busy = 0
        self.hostile = 0
        self.errors = []

    def add(self, took, what):
        with self.lock:
            self.times.append(took)
            self.requests += 1
            self.slowest.append((took, what, time.strftime("%H:%M:%S")))
            if len(self.slowest) > 64:
                self.slowest.sort(reverse=True)
                del self.slowest[10:]

    def error(self, msg):
        with self.lock:
            self.errors.append(msg)
        print("ERROR " + msg, flush=True)

    def window(self):
        with self.lock:
            t, self.times = self.times, []
        return t


def request(port, method, path, body=None, stats=None, raw=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": "application/json"} if data is not None else {}
    start = time.monotonic()
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    text = resp.read().decode("utf-8", "replace")
    status = resp.status
    conn.close()
    if stats is not None:
        kind = "/".join("ID" if len(p) == 16 else p for p in path.split("?")[0].split("/"))
        stats.add(time.monotonic() - start, f"{method} {kind} {status}")
    return status, text


def expect(status, text, want, what):
    if status != want:
        raise Failed(f"{what}: status {status}, wanted {want}: {text[:300]}")
    return json.loads(text) if text.startswith("{") or text.startswith("[") else text


def hostile(port, stats, k, game_id, variant):
    """One bad request; it must get a 4xx with a message, and the server goes on."""
    cases = [
        ("POST", f"/api/games/{game_id}/move", {"move": "9z9z"}, None, (400, 409)),
        ("GET", "/api/games/ffffffffffffffff", None, None, 404),
        ("POST", "/api/games", None, b"{\"variant\": ", 400),
        ("POST", "/api/validate", None, "oversized", 413),
        ("POST", "/api/games", {"variant": "no-such-variant"}, None, 404),
        ("DELETE", f"/api/games/{game_id}", None, None, 405),
        ("GET", f"/api/games/{game_id}/think?time=-5", None, None, 400),
        ("POST", "/api/games", {"variant": variant, "sfen": "x" * 5000}, None, 400),
    ]
    if k % (len(cases) + 1) == len(cases):
        # Binary junk on a raw socket: any answer or a closed connection,
        # but the server must still answer the next request.
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(bytes(random.getrandbits(8) for _ in range(4096)))
        try:
            s.recv(4096)
        except (socket.timeout, ConnectionResetError):
            pass
        s.close()
        return
    method, path, body, raw, want = cases[k % (len(cases) + 1)]
    if raw == "oversized":
        # A head announcing 5 MiB (the limit is 4 MiB): the server answers
        # from the head alone and closes, without reading the body.
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {5 << 20}\r\n\r\n".encode())
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
        s.close()
        head, _, text = answer.decode("utf-8", "replace").partition("\r\n\r\n")
        status = int(head.split()[1]) if head.startswith("HTTP/1.1 ") else 0
    else:
        status, text = request(port, method, path, body, stats, raw)
    if status not in (want if isinstance(want, tuple) else (want,)):
        raise Failed(f"hostile {method} {path}: status {status}, wanted {want}: {text[:200]}")
    if "error" not in text:
        raise Failed(f"hostile {method} {path}: no error message: {text[:200]}")
    with stats.lock:
        stats.hostile += 1


def play_game(port, stats, rng, variants, plies):
    variant = rng.choice(variants)
    st = expect(*request(port, "POST", "/api/games", {"variant": variant}, stats), 200, f"new game {variant}")
    gid = st["id"]
    with stats.lock:
        stats.games += 1
    for ply in range(plies):
        if st["outcome"] is not None:
            if st["moves"]:
                raise Failed(f"{gid} {variant}: an outcome and {len(st['moves'])} moves")
            break
        if not st["moves"]:
            raise Failed(f"{gid} {variant}: no moves and no outcome at {st['sfen']}")
        before = st
        if ply % 8 == 7:
            status, text = request(port, "GET", f"/api/games/{gid}/think?depth=2&play=1", None, stats)
            if status == 503:
                with stats.lock:
                    stats.busy += 1
            elif status != 200 or "event: bestmove" not in text:
                raise Failed(f"{gid} think: status {status}: {text[:300]}")
            st = expect(*request(port, "GET", f"/api/games/{gid}", None, stats), 200, "state")
            if status == 200 and len(st["history"]) != len(before["history"]) + 1:
                raise Failed(f"{gid} think with play=1 did not play one move")
            continue
        mv = rng.choice(before["moves"])["usi"]
        st = expect(*request(port, "POST", f"/api/games/{gid}/move", {"move": mv}, stats), 200, f"{gid} move {mv}")
        if st["history"] != before["history"] + [mv]:
            raise Failed(f"{gid} after {mv}: history {st['history'][-3:]}")
        if ply % 5 == 4:
            back = expect(*request(port, "POST", f"/api/games/{gid}/undo", {}, stats), 200, f"{gid} undo")
            if back["sfen"] != before["sfen"] or back["history"] != before["history"]:
                raise Failed(f"{gid} undo of {mv}: {back['sfen']} != {before['sfen']}")
            st = expect(*request(port, "POST", f"/api/games/{gid}/move", {"move": mv}, stats), 200, f"{gid} redo {mv}")
        if ply % 10 == 9:
            status, svg = request(port, "GET", f"/api/games/{gid}/svg", None, stats)
            if status != 200 or "<svg" not in svg:
                raise Failed(f"{gid} svg: status {status}")
            status, kif = request(port, "GET", f"/api/games/{gid}/record?format=kif", None, stats)
            if status != 200:
                raise Failed(f"{gid} record: status {status}: {kif[:200]}")
    return gid, variant


def client(port, stats, seed, variants, plies, deadline):
    rng = random.Random(seed)
    k = seed
    while time.monotonic() < deadline:
        try:
            gid, variant = play_game(port, stats, rng, variants, plies)
            hostile(port, stats, k, gid, variant)
            k += 1
        except Failed as e:
            stats.error(str(e))
        except (OSError, http.client.HTTPException, ValueError) as e:
            stats.error(f"client {seed}: {type(e).__name__}: {e}")
            time.sleep(1)


def proc_line(pid):
    rss = "?"
    threads = "?"
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = line.split()[1]
                elif line.startswith("Threads:"):
                    threads = line.split()[1]
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    return rss, threads, fds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--koma", default="target/release/koma")
    ap.add_argument("--port", type=int, default=18765)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--plies", type=int, default=60, help="moves a game at most")
    ap.add_argument("--every", type=float, default=60, help="seconds between report lines")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    server = subprocess.Popen(
        [args.koma, "serve", "--addr", f"127.0.0.1:{args.port}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    first = server.stdout.readline().strip()
    print(f"# {first}")
    print(f"# koma {args.koma}, pid {server.pid}; {args.clients} clients, {args.minutes} min, "
          f"at most {args.plies} plies a game, seed {args.seed}")
    print(f"# load average at the start: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    variants = [v["slug"] for v in expect(*request(args.port, "GET", "/api/variants"), 200, "variants")]
    print(f"# variants: {' '.join(variants)}", flush=True)

    stats = Stats()
    start = time.monotonic()
    deadline = start + args.minutes * 60
    threads = [
        threading.Thread(target=client, args=(args.port, stats, args.seed * 1000 + i, variants, args.plies, deadline),
                         daemon=True)
        for i in range(args.clients)
    ]
    for t in threads:
        t.start()
    print("# minute  requests  median_ms  p99_ms  max_ms  rss_kb  threads  fds  games  busy  hostile  errors", flush=True)
    dead = False
    while any(t.is_alive() for t in threads):
        time.sleep(args.every if time.monotonic() < deadline else 1)
        if time.monotonic() >= deadline and any(t.is_alive() for t in threads):
            continue
        w = sorted(stats.window())
        p = proc_line(server.pid)
        if p is None or server.poll() is not None:
            dead = True
            stats.error(f"the server died: exit {server.poll()}")
            break
        med = w[len(w) // 2] * 1000 if w else 0
        p99 = w[min(len(w) - 1, int(len(w) * 0.99))] * 1000 if w else 0
        mx = w[-1] * 1000 if w else 0
        print(f"{(time.monotonic() - start) / 60:8.1f}  {stats.requests:8d}  {med:9.1f}  {p99:6.1f}  {mx:6.0f}  "
              f"{p[0]:>6}  {p[1]:>7}  {p[2]:>3}  {stats.games:5d}  {stats.busy:4d}  {stats.hostile:7d}  "
              f"{len(stats.errors):6d}", flush=True)
    if not dead:
        # Still answering after the run.
        status, _ = request(args.port, "GET", "/api/variants")
        if status != 200:
            stats.error(f"after the run: status {status}")
        server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    print(f"# load average at the end: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"# totals: {stats.requests} requests, {stats.games} games, {stats.busy} busy answers to think, "
          f"{stats.hostile} hostile requests answered with a 4xx, {len(stats.errors)} errors")
    print("# the ten slowest answers: " + "; ".join(
        f"{took * 1000:.0f} ms {what} at {at}" for took, what, at in sorted(stats.slowest, reverse=True)[:10]))
    sys.exit(1 if stats.errors else 0)


if __name__ == "__main__":
    main()
