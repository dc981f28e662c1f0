#!/usr/bin/env python3
"""Soak the USI loop: one `koma usi` process plays N games against one
Fairy-Stockfish process (spoken to in USI), neither restarted.

Each game: `usinewgame`, `position startpos moves ...` (USI notation),
`go btime B wtime W byoyomi Y` on clocks (--main ms each, then --byoyomi per
move), colours alternating, the first --random-plies plies drawn from a seeded
RNG (games 2k-1 and 2k share an opening), a draw at --max-plies.  Every move
of koma is checked against Fairy-Stockfish's legal moves (pyffish, with
pawn-drop mate made illegal: tests/oracle/fsoracle.py, through the
helpers of tests/match/match.py, which also judges the end of the game).

Recorded per game: result, plies, koma's VmRSS after the game, koma's answer
times (`go` to `bestmove`; median and max, and the worst excess over the time
it was allowed: its clock plus byoyomi).  A summary table is printed every
--every games.  Faults: an illegal move; koma refusing a `position`; an
answer later than allowed ("late", counted) or later than allowed + 1 s (a
hang: the run stops); koma exiting (a crash: the run stops); `bestmove
resign` in a won position by either engine's last score: koma's above 0 or
Fairy-Stockfish's below -300 cp or a mate against it ("suspect resign",
counted; every resignation is printed with both scores).  Exit status 1 on an
illegal move, a refused position, a crash or a hang, 2 if Fairy-Stockfish
failed, else 0.

  python3 tests/soak/usi_soak.py --koma /tmp/koma --games 20
  nice python3 tests/soak/usi_soak.py --koma /tmp/koma --games 1000 --variant minishogi
"""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "match"))
from match import EngineError, PositionRejected, UciEngine, find_fs, fsoracle, sf, sign, stm_is_sente  # noqa: E402


class UsiEngine(UciEngine):
    """match.py's engine process, greeted with `usi`, that reports its last score."""

    def handshake(self, timeout=10):
        self.send("usi")
        line = ""
        while line != "usiok":
            line = self.expect(lambda l: True, timeout)
            if line.startswith("id name "):
                self.id_name = line[len("id name "):]

    def go(self, moves, args, timeout):
        """(bestmove, seconds from `go` to `bestmove`, last score: ("cp"|"mate", n) or None)."""
        self.set_position(None, moves)
        score = None
        def answer(l):
            nonlocal score
            words = l.split()
            if words[:1] == ["info"] and "score" in words[:-2]:
                i = words.index("score")
                try:
                    score = (words[i + 1], int(words[i + 2].replace("+", "")))
                except ValueError:  # "mate +" / "mate -" without a number
                    score = (words[i + 1], 1 if "-" not in words[i + 2] else -1)
            return words[:1] == ["bestmove"]
        self.send("go " + args)
        t0 = time.monotonic()
        line = self.expect(answer, timeout)
        elapsed = time.monotonic() - t0
        parts = line.split()
        return (parts[1] if len(parts) > 1 else None), elapsed, score

    def memory_kib(self):
        """(VmRSS, VmHWM) of the process, KiB."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f)
        return tuple(int(fields[k].split()[0]) for k in ("VmRSS", "VmHWM"))


class Notation:
    """USI squares ("7g": file 7 from sente's right, rank a at gote's side)
    to Fairy-Stockfish's ("c3": file a at sente's left, rank 1 at sente's side)."""

    def __init__(self, variant):
        rows = sf.start_fen(variant).split()[0].split("[")[0].split("/")
        self.ranks = len(rows)
        self.files = sum(int(c) if c.isdigit() else 1 for c in rows[0] if c != "+")

    def square(self, usi):
        f, r = int(usi[0]), ord(usi[1]) - ord("a")
        if not (1 <= f <= self.files and 0 <= r < self.ranks):
            raise ValueError(usi)
        return f"{chr(ord('a') + self.files - f)}{self.ranks - r}"

    def to_fs(self, m):
        """A USI move as Fairy-Stockfish writes it; ValueError when it is not one."""
        if len(m) == 4 and m[1] == "*":
            return f"{m[0]}@{self.square(m[2:])}"
        if len(m) in (4, 5) and m[4:] in ("", "+"):
            return self.square(m[0:2]) + self.square(m[2:4]) + m[4:]
        raise ValueError(m)

    def to_usi(self, m):
        def sq(s):
            return f"{self.files - (ord(s[0]) - ord('a'))}{chr(ord('a') + self.ranks - int(s[1:]))}"
        if "@" in m:
            return f"{m[0].upper()}*{sq(m[2:])}"
        promo = "+" if m.endswith("+") else ""
        body = m.rstrip("+")
        # squares are a letter and one or two digits; split before the second letter
        cut = next(i for i in range(1, len(body)) if body[i].isalpha())
        return sq(body[:cut]) + sq(body[cut:]) + promo


def game_end(variant, fen, moves, max_plies):
    """(value for the side to move or None, why, Fairy-Stockfish's legal moves).

    The order of match.py's `terminal`, but with pyffish's own move list:
    fsoracle's filter of pawn-drop mates asks pyffish twice per pawn drop
    (3 ms a call here, 200 ms a ply with a pawn in hand), so only the moves
    played are put through it (`is_legal`)."""
    legal = sf.legal_moves(variant, fen, moves)
    over, v = sf.is_immediate_game_end(variant, fen, moves)
    if over:
        return sign(v), "variant rule (immediate game end)", legal
    if not legal:
        mate = sf.gives_check(variant, fen, moves)
        return sign(sf.game_result(variant, fen, moves)), "checkmate" if mate else "no legal move", legal
    over, v = sf.is_optional_game_end(variant, fen, moves)
    if over:
        return sign(v), "repetition / optional game end", legal
    if len(moves) >= max_plies:
        return 0, f"adjudicated at {max_plies} plies", legal
    return None, None, legal


def is_legal(variant, fen, moves, fs_legal, m):
    """m is among Fairy-Stockfish's moves and not a forbidden pawn-drop mate."""
    pawn = fsoracle.DROP_MATE_ILLEGAL.get(variant)
    if m not in fs_legal:
        return False
    if pawn is None or m.upper()[:2] != pawn + "@":
        return True
    return not (sf.gives_check(variant, fen, moves + [m]) and not sf.legal_moves(variant, fen, moves + [m]))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--koma", required=True, help="koma binary (a copy, so a rebuild cannot change it)")
    ap.add_argument("--fs", help="Fairy-Stockfish binary (default /usr/games/fairy-stockfish)")
    ap.add_argument("--variant", default="shogi", help="Fairy-Stockfish's name, also koma's USI_Variant")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--main", type=int, default=300, help="main time per side per game, ms")
    ap.add_argument("--byoyomi", type=int, default=30, help="ms per move once the main time is spent")
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--random-plies", type=int, default=4, help="random opening plies (paired games share them)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=100, help="print the summary table every N games")
    a = ap.parse_args()

    variant = a.variant
    fen = sf.get_fen(variant, sf.start_fen(variant), [])
    usi = Notation(variant)
    koma = UsiEngine("koma", [a.koma, "usi"])
    fs = UsiEngine("fairy-stockfish", [find_fs(a.fs)])
    for e in (koma, fs):
        e.handshake()
        e.send(f"setoption name {'USI' if e is koma else 'UCI'}_Variant value {variant}")
        e.isready()
    load0, t_start = os.getloadavg(), time.monotonic()
    print(f"# {koma.id_name} ({a.koma}, pid {koma.proc.pid}) vs {fs.id_name}; variant {variant}; "
          f"clocks {a.main} ms + byoyomi {a.byoyomi} ms; max plies {a.max_plies}; "
          f"{a.random_plies} random plies, seed {a.seed}; load {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    faults = {"illegal": 0, "rejected position": 0, "suspect resign": 0, "late": 0, "crash": 0, "hang": 0,
              "fs failure": 0}
    games, total = [], {"W": 0, "L": 0, "D": 0}

    def table_line(rows, label):
        times = [t for r in rows for t in r["times"]]
        res = "-".join(str(sum(r["res"] == k for r in rows)) for k in "WLD")
        return (f"{label:>11} {res:>11} {min(r['rss'] for r in rows) / 1024:7.1f} {max(r['rss'] for r in rows) / 1024:7.1f}"
                f" {statistics.median(times):6.1f} {pct(times, 0.99):6.1f} {max(times):6.1f}"
                f" {max(r['over'] for r in rows):+7.1f}  {sum(r['plies'] for r in rows) / len(rows):5.1f}")

    def table():
        print(f"# {'games':>9} {'W-L-D':>11} {'RSS min':>7} {'RSS max':>7} {'median':>6} {'p99':>6} {'max':>6} "
              f"{'over':>7}  {'plies':>5}   (RSS MiB; koma's answer ms; over = worst ms past clock+byoyomi)")
        for i in range(0, len(games), a.every):
            rows = games[i:i + a.every]
            print("# " + table_line(rows, f"{i + 1}-{i + len(rows)}"))
        print("# " + table_line(games, "all"))
        sys.stdout.flush()

    stop = None
    for g in range(1, a.games + 1):
        koma_sente = g % 2 == 1
        rng = random.Random(f"{a.seed}:{(g + 1) // 2}")
        moves, times, over, res, reason = [], [], -1e9, None, None
        clock = {True: float(a.main), False: float(a.main)}  # sente? -> ms left
        for e in (koma, fs):
            e.send("usinewgame")
            e.isready()
        fs_score = None  # Fairy-Stockfish's last score, from its side
        while res is None:
            value, why, fs_legal = game_end(variant, fen, moves, a.max_plies)
            sente = stm_is_sente(fen, len(moves))
            koma_moves = sente == koma_sente
            if value is not None:
                value = value if koma_moves else -value
                res, reason = "WDL"[1 - value], why
                break
            if len(moves) < a.random_plies:
                moves.append(rng.choice(sorted(m for m in fs_legal if is_legal(variant, fen, moves, fs_legal, m))))
                continue
            engine = koma if koma_moves else fs
            allowed = clock[sente] + a.byoyomi
            args = f"btime {int(clock[True])} wtime {int(clock[False])} byoyomi {a.byoyomi}"
            try:
                mv, took, score = engine.go([usi.to_usi(m) for m in moves], args, allowed / 1000 + 1)
            except EngineError as err:
                if engine is not koma:
                    kind = "fs failure"
                elif isinstance(err, PositionRejected):
                    kind = "rejected position"
                else:
                    kind = "crash" if engine.proc.poll() is not None or "exited" in str(err) else "hang"
                faults[kind] += 1
                stop = f"{kind} in game {g} at ply {len(moves) + 1}: {err}\n  position startpos moves " + \
                    " ".join(usi.to_usi(m) for m in moves)
                break
            ms = took * 1000
            clock[sente] = max(0.0, clock[sente] - ms)
            if engine is fs and mv == "resign":
                res, reason = "W", "Fairy-Stockfish resigns"
                break
            if engine is fs:
                fs_score = score
                try:
                    fs_mv = usi.to_fs(mv)
                except (ValueError, TypeError):
                    fs_mv = None
                if not is_legal(variant, fen, moves, fs_legal, fs_mv):
                    if not any(is_legal(variant, fen, moves, fs_legal, m) for m in fs_legal):
                        res, reason = "W", "no legal move but a forbidden pawn-drop mate"
                        break
                    faults["fs failure"] += 1
                    stop = f"fs failure: Fairy-Stockfish played {mv} in game {g}"
                    break
                moves.append(fs_mv)
                continue
            times.append(ms)
            over = max(over, ms - allowed)
            if ms > allowed:
                faults["late"] += 1
                print(f"  LATE game {g} ply {len(moves) + 1}: {ms:.1f} ms, allowed {allowed:.1f} "
                      f"(go {args}); load {os.getloadavg()[0]:.2f}")
            if mv == "resign":
                # Won, by either engine's last word: koma's own score above 0,
                # or Fairy-Stockfish's below -300 cp / a mate against it.
                stuck = not any(is_legal(variant, fen, moves, fs_legal, m) for m in fs_legal)
                won = not stuck and bool((score and score[1] > 0) or (fs_score and (
                    fs_score[1] < 0 if fs_score[0] == "mate" else fs_score[1] < -300)))
                if won:
                    faults["suspect resign"] += 1
                print(f"  {'SUSPECT ' if won else ''}RESIGN game {g} ply {len(moves) + 1}: "
                      f"koma's score {score}, Fairy-Stockfish's {fs_score}"
                      + (" (only forbidden pawn-drop mates left)" if stuck else ""))
                res, reason = "L", "koma resigns"
                break
            if mv == "win":
                res, reason = "D", "koma declares a win (not judged here; scored as a draw)"
                print(f"  DECLARE game {g} ply {len(moves) + 1}: position startpos moves "
                      + " ".join(usi.to_usi(m) for m in moves))
                break
            try:
                fs_mv = usi.to_fs(mv)
            except (ValueError, TypeError):
                fs_mv = None
            if not is_legal(variant, fen, moves, fs_legal, fs_mv):
                faults["illegal"] += 1
                res, reason = "L", f"koma: illegal move {mv}"
                print(f"  ILLEGAL game {g} ply {len(moves) + 1}: {mv}\n    FEN {sf.get_fen(variant, fen, moves)}\n"
                      f"    position startpos moves {' '.join(usi.to_usi(m) for m in moves)}")
                break
            moves.append(fs_mv)
        if stop:
            break
        rss, hwm = koma.memory_kib()
        games.append({"res": res, "plies": len(moves), "rss": rss, "times": times or [0.0], "over": over})
        total[res] += 1
        t = sorted(times or [0.0])
        print(f"game {g:4d} koma {'sente' if koma_sente else 'gote '} {res} plies {len(moves):3d}  "
              f"rss {rss / 1024:6.1f} MiB  koma ms median {statistics.median(t):5.1f} max {t[-1]:6.1f} "
              f"over {over:+6.1f}  {reason}")
        sys.stdout.flush()
        if g % a.every == 0:
            table()
    if stop:
        print("STOP: " + stop)
        if koma.stderr_lines:
            print("  koma stderr: " + " | ".join(koma.stderr_lines[-5:]))
    if games and len(games) % a.every:
        table()
    if koma.proc.poll() is None:
        rss, hwm = koma.memory_kib()
        print(f"# koma VmRSS {rss / 1024:.1f} MiB, VmHWM {hwm / 1024:.1f} MiB at the end")
    koma.close()
    fs.close()
    load1 = os.getloadavg()
    print(f"# {len(games)} games, koma {total['W']} wins {total['L']} losses {total['D']} draws; faults: "
          + ", ".join(f"{k} {v}" for k, v in faults.items())
          + f"; wall {time.monotonic() - t_start:.0f} s; load at the end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    if faults["illegal"] or faults["rejected position"] or faults["crash"] or faults["hang"]:
        sys.exit(1)
    sys.exit(2 if faults["fs failure"] else 0)


if __name__ == "__main__":
    main()
