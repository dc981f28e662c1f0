#!/usr/bin/env python3
"""A long run of `koma serve` under concurrent sessions: memory and answers.

Starts a server, then --clients threads each play games over the HTTP API
for --minutes: a new game of a variant taken in turn from the catalogue,
random legal moves (each answer's move list checked against the state: the
move played must be among the moves the server listed, the history must
grow by one), now and then an engine move (short search), a look back at an
earlier ply, a record download opened again as a new game, an undo, and a
bad request (which must get a 4xx). The server's resident memory (VmRSS) and
thread count are sampled every --every seconds. Exits non-zero on any wrong
answer, a 5xx, or a crash.

Usage (from the repository root, after cargo build --release):
  python3 tests/server/soak.py --minutes 10 --clients 8 >> tests/server/soak-results.txt
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def call(base, method, path, body=None, raw=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(base + path, data=data, method=method)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.n = {}
        self.errors = []

    def add(self, key, k=1):
        with self.lock:
            self.n[key] = self.n.get(key, 0) + k

    def error(self, text):
        with self.lock:
            self.errors.append(text)


def client(base, variants, stats, stop, seed):
    rng = random.Random(seed)
    while not stop.is_set():
        v = variants[rng.randrange(len(variants))]
        status, body = call(base, "POST", "/api/games", {"variant": v})
        if status != 200:
            stats.error(f"new game {v}: {status} {body[:200]}")
            return
        state = json.loads(body)
        gid = state["id"]
        stats.add("games")
        for ply in range(rng.randrange(20, 160)):
            if stop.is_set() or state["outcome"] or not state["moves"]:
                break
            r = rng.random()
            if r < 0.03:
                status, body = call(base, "GET", f"/api/games/{gid}/think?time=50&play=1")
                stats.add("searches")
                if status == 503:
                    stats.add("busy")
                elif status != 200 or b"event: done" not in body:
                    stats.error(f"think: {status} {body[-200:]}")
                status, body = call(base, "GET", f"/api/games/{gid}")
                if status != 200:
                    stats.error(f"state after think: {status}")
                    break
                state = json.loads(body)
                continue
            if r < 0.06 and state["history"]:
                k = rng.randrange(len(state["history"]) + 1)
                status, body = call(base, "GET", f"/api/games/{gid}/at?ply={k}")
                if status != 200 or json.loads(body)["ply"] != k:
                    stats.error(f"at {k}: {status} {body[:200]}")
                stats.add("looks")
                continue
            if r < 0.08:
                call(base, "POST", f"/api/games/{gid}/move", raw=b"\x00junk{")
                status, _ = call(base, "POST", f"/api/games/{gid}/move", {"move": "zz9"})
                if status != 400:
                    stats.error(f"a bad move got {status}")
                stats.add("bad requests", 2)
                continue
            mv = rng.choice(state["moves"])["usi"]
            before = len(state["history"])
            status, body = call(base, "POST", f"/api/games/{gid}/move", {"move": mv})
            if status != 200:
                stats.error(f"move {mv} in {state['sfen']}: {status} {body[:200]}")
                break
            state = json.loads(body)
            if len(state["history"]) != before + 1 or state["history"][-1] != mv:
                stats.error(f"after {mv}: history {state['history'][-3:]}")
            stats.add("moves")
        if rng.random() < 0.3 and state["history"]:
            fmt = rng.choice(["kif", "ki2", "pgn", "jkf", "koma"])
            status, rec = call(base, "GET", f"/api/games/{gid}/record?format={fmt}")
            if status == 200:
                status, body = call(base, "POST", f"/api/records?variant={v}", raw=rec)
                if status != 200 or json.loads(body)["history"] != state["history"]:
                    stats.error(f"{fmt} record of {v} opened again: {status} {body[:200]}")
                stats.add("records")
            elif status != 422:
                stats.error(f"record {fmt}: {status} {rec[:200]}")
        if rng.random() < 0.3 and state["history"]:
            status, _ = call(base, "POST", f"/api/games/{gid}/undo")
            if status != 200:
                stats.error(f"undo: {status}")


def proc_status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            out[k] = v.strip()
    return int(out["VmRSS"].split()[0]), int(out["Threads"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--koma", default=os.path.join(ROOT, "target/release/koma"))
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--every", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    server = subprocess.Popen([a.koma, "serve", "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    base = re.search(r"http://\S+", server.stdout.readline()).group(0).rstrip("/")
    status, body = call(base, "GET", "/api/variants")
    variants = [v["slug"] for v in json.loads(body)]
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; koma "
          f"{subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True, cwd=ROOT).stdout.strip()}; "
          f"$ python3 tests/server/soak.py --minutes {a.minutes:g} --clients {a.clients} --every {a.every:g} --seed {a.seed}")
    print(f"# {len(variants)} variants; load average at the start: {open('/proc/loadavg').read().split()[:3]}")
    stats, stop = Stats(), threading.Event()
    threads = [threading.Thread(target=client, args=(base, variants, stats, stop, f"{a.seed}:{i}"))
               for i in range(a.clients)]
    for t in threads:
        t.start()
    start = time.time()
    print(f"{'minute':>7} {'rss-MiB':>8} {'threads':>8} {'games':>7} {'moves':>8} {'searches':>9} {'records':>8}", flush=True)
    try:
        while time.time() - start < a.minutes * 60 and not stats.errors and server.poll() is None:
            time.sleep(min(a.every, max(0.1, a.minutes * 60 - (time.time() - start))))
            rss, nthreads = proc_status(server.pid)
            n = stats.n
            print(f"{(time.time() - start) / 60:7.1f} {rss / 1024:8.1f} {nthreads:8d} {n.get('games', 0):7d} "
                  f"{n.get('moves', 0):8d} {n.get('searches', 0):9d} {n.get('records', 0):8d}", flush=True)
    finally:
        stop.set()
        for t in threads:
            t.join(300)
        alive = server.poll() is None
        server.terminate()
        server.wait(10)
    print(f"# totals: {dict(sorted(stats.n.items()))}")
    print(f"# server alive at the end: {alive}; wrong answers: {len(stats.errors)}")
    for e in stats.errors[:20]:
        print(f"#   {e}")
    return 1 if stats.errors or not alive else 0


if __name__ == "__main__":
    sys.exit(main())
