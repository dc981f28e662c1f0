#!/usr/bin/env python3
"""Differential harness for dai and chu shogi: koma against HaChu.

HaChu (H. G. Muller's engine for the large shogis, Debian `hachu`, XBoard
protocol) has no perft and no move-list command, but when it refuses a move
it prints, as debug lines, the move list of the root position it searched:

    # moveNr = 121 in {47,121}
    # -3. 0003f09c 0003c0b4 g5g6
    ...

(`end - start` lines, each `# N. HEX HEX MOVE`; then, when it keeps them,
the moves it refused as repetitions, numbered again from 0). What is stable:

  * it needs `memory N` before `new` to keep a root list at all;
  * `new` then `variant dai` (the other order leaves it on chu);
  * a move from a square off the board (`usermove p1p2`) is refused without
    side effects, so it prints the list of the position;
  * the list holds holes printed `@@@@ ` with the code 00000000, left out,
    and a lion's pass, which HaChu makes a null move (`@@@@`, the XBoard
    protocol's pass): koma's passes (one per piece that can pass, as
    `f1e2f1` through an empty square) are compared as one `pass`;
  * a move that can promote is listed once, promoting (`h11h12+`); the same
    move without `+` is accepted as a deferral unless the piece may not
    stay unpromoted there. So the comparison is by move with its promotion
    choice folded: koma's `m` and `m+` against HaChu's `m+` (and `m` where
    it lists one); which non-promotions HaChu accepts is asked of it move by
    move (`usermove m`, then `undo` when it was played).

HaChu's `undo` replays the game from its start (`TakeBack` calls `SetUp`,
then `MakeMove2` for each move), and so forgets what a typed deferral did
to a pawn: a pawn (value 40) that declines a promotion its list did not
offer unpromoted may promote only on the last rank from then on (`ParseMove`
sets its flags to LAST_RANK), and after an `undo` it may again promote by a
capture in the zone. Where such a pawn is still on the board unpromoted,
`HaChu.undo` starts the game again and types its moves anew.

Moves are in HaChu's (XBoard's) coordinates, which are koma's Fairy-Stockfish
notation for this board (files a-o from sente's left, ranks 1-15 from the
bottom); HaChu writes a lion's two steps `f1e2,e2d3` where koma writes
`f1e2d3`.

Where the side to move can capture the opponent's last royal piece, HaChu's
search stops at once (it has won: `1-0 {king capture}`) and makes no new
root list: it prints the last one again. The game stops there; koma must
list a move after which the mover has won (checked move by move), else it is
a difference. Where the game is over (no king and no prince) the same.

HaChu picks each move of a random game from its own list and the deferrals
it accepts (so HaChu's game is
the reference); koma gets the same game as `startpos moves ...` on one
`koma moves --variant dai-shogi --batch --notation fairy` process. At every
ply the two lists are compared as sets.

Run from the repository root after `cargo build --release`:

    python3 tests/diff/hachu.py --sample
    python3 tests/diff/hachu.py --games 20 --plies 150
    python3 tests/diff/hachu.py --variant chu-shogi --games 300 --plies 200
    python3 tests/diff/hachu.py --perft 3    # perft 1-3 from HaChu's lists

Options: --variant dai-shogi|chu-shogi (HaChu's `dai`, `chu`; default
dai-shogi), --games N (default 10), --plies P (default 120), --seed S (default
1), --koma PATH (default target/release/koma), --hachu PATH (default
/usr/games/hachu), --show N (differences printed in full, default 5),
--quiet. Exit code 0 if no difference, 1 if any, 2 if koma or HaChu cannot
be run.
"""
import argparse
import random
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The promotion bit of HaChu's move codes.
PROMOTE = 0x800000
LIST_HEAD = re.compile(r"^# moveNr = (-?\d+) in \{(-?\d+),(-?\d+)\}$")
LIST_LINE = re.compile(r"^# (-?\d+)\. ([0-9a-f]{8}) [0-9a-f]{8} (\S+)$")
# koma's slug: HaChu's name of the game, the board's files (= ranks), and
# the ranks of the pawns at the start (see `HaChu.undo`).
VARIANTS = {"dai-shogi": ("dai", 15, (5, 11)), "chu-shogi": ("chu", 12, (4, 9))}


class HaChuError(Exception):
    pass


class HaChu:
    """One HaChu process playing one game in force mode."""

    def __init__(self, path, slug="dai-shogi"):
        variant, self.size, pawn_ranks = VARIANTS[slug]
        self.pawns = frozenset(f"{chr(ord('a') + f)}{r}" for f in range(self.size) for r in pawn_ranks)
        # A row of its board dump: the files and 3 guard cells each side, 4 wide.
        self.board_row = re.compile(r"#(?:[ \d]{4}){%d}" % (self.size + 6))
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.send("xboard")
        self.send("protover 2")
        self.banner = None
        for line in self.lines_until(lambda l: l.startswith("feature done=1")):
            m = re.search(r'myname="([^"]+)"', line)
            if m:
                self.banner = m.group(1)
        self.variant = variant
        # The moves of the game, each with the squares of the unpromoted
        # pawns after it and of those of them that declined (see `undo`).
        self.history = []
        self.replays = 0
        self.send("memory 16")
        self.start()

    def start(self):
        self.send("new")
        self.send(f"variant {self.variant}")
        self.send("force")
        self.ping()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def lines_until(self, done):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise HaChuError("HaChu exited")
            line = line.rstrip("\n")
            out.append(line)
            if done(line):
                return out

    def ping(self):
        self.send("ping 1")
        return self.lines_until(lambda l: l == "pong 1")

    def moves(self):
        """The root move list of the current position, in koma's text, and
        the empty squares of HaChu's board dump (printed with it)."""
        self.send("usermove p1p2")
        lines = self.lines_until(lambda l: l.startswith("Illegal move"))
        n = self.size
        rows = [l for l in lines if self.board_row.fullmatch(l)]
        if len(rows) != n + 6:
            raise HaChuError(f"no board dump of {n + 6} rows: {len(rows)}")
        empty = set()
        for r, row in enumerate(rows[3:3 + n]):  # the last rank first
            for f in range(n):
                if row[1 + 4 * (f + 3):5 + 4 * (f + 3)].strip() in ("", "0"):
                    empty.add(f"{chr(ord('a') + f)}{n - r}")
        for i, line in enumerate(lines):
            m = LIST_HEAD.match(line)
            if m:
                n = int(m.group(3)) - int(m.group(2))
                got = [LIST_LINE.match(l) for l in lines[i + 1:i + 1 + n]]
                if len(got) != n or not all(got):
                    raise HaChuError(f"a move list of {n} lines expected: {lines[i:i + 1 + n]}")
                # `@@@@` is a hole (00000000) or a pass, which XBoard
                # writes as a null move.
                return {("pass" if g.group(3) == "@@@@" else koma_text(g.group(3)))
                        for g in got if g.group(2) != "00000000"}, empty
        raise HaChuError(f"no move list: {lines}")

    def play(self, move, deferral=False):
        """Plays a move: None where HaChu refused it, else whether the move it
        made promotes (the PROMOTE bit, 0x800000, of the code in its
        `# makemove CODE` line). A deferral it may not make (a pawn to the
        last rank) it accepts and makes as the promotion. `deferral`: the
        move is a promotable move typed unpromoted that HaChu's list does
        not hold (see `undo`)."""
        promoted, _ = self.type_move(move, deferral)
        return promoted

    def type_move(self, move, deferral):
        """Types a move: (None, HaChu's reason) where it refused it, else
        (whether the move it made promotes, None), the move added to the
        history."""
        self.send(f"usermove {hachu_text(move)}")
        lines = self.ping()
        for l in lines:
            if l.startswith("Illegal move"):
                return None, l[len("Illegal move"):].strip(" {}") or None
        made = [l.split()[2] for l in lines if l.startswith("# makemove ")]
        if len(made) != 1:
            raise HaChuError(f"no makemove line for {move}: {lines}")
        promoted = bool(int(made[0], 16) & PROMOTE)
        self.push(move, promoted, deferral and not promoted)
        return promoted, None

    def push(self, move, promoted, deferral):
        """Adds a move HaChu made to the history, with the unpromoted pawns'
        squares after it and those of them that declined (see `undo`)."""
        pawns = self.history[-1][1] if self.history else self.pawns
        self.history.append((move, moved(pawns, move, promoted),
                             moved(self.declined(), move, promoted,
                                   deferral and SQUARE.findall(move)[0] in pawns)))

    def declined(self):
        """The squares of the pawns that declined a promotion HaChu's list
        did not offer unpromoted and are still on the board unpromoted."""
        return self.history[-1][2] if self.history else frozenset()

    def refusal(self, move):
        """The reason HaChu gives for refusing a move (`Illegal move
        {REASON}`), or None; a move it takes is taken back."""
        promoted, reason = self.type_move(move, False)
        if promoted is not None:
            self.undo()
        return reason

    def undo(self):
        """Takes back the last move. HaChu's `undo` replays the game from its
        start without what a typed deferral changed: a pawn (or any piece of
        value 40: chu's and dai's pawn) that declined promotion loses its
        right to promote but on the last rank (`ParseMove`, `promoFlag &=
        LAST_RANK`), and the replay (`TakeBack` through `MakeMove2`) gives
        it back. Where such a piece is still on the board unpromoted, the
        game is started again and its moves typed anew instead."""
        self.history.pop()
        if not self.declined():
            self.send("undo")
            self.ping()
            return
        self.replays += 1
        self.start()
        for move, _, _ in self.history:
            self.send(f"usermove {hachu_text(move)}")
        lines = self.ping()
        refused = [l for l in lines if l.startswith("Illegal move")]
        if refused:
            raise HaChuError(f"HaChu refused its own game on replay: {refused[0]}")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


SQUARE = re.compile(r"[a-o]\d+")


def hachu_text(move):
    """koma's `f1e2d3` (a lion's two steps) as HaChu writes it: `f1e2,e2d3`."""
    sq = SQUARE.findall(move)
    tail = move[len("".join(sq)):]
    if len(sq) == 3:
        return f"{sq[0]}{sq[1]},{sq[1]}{sq[2]}{tail}"
    return move


def koma_text(move):
    """HaChu's `f1e2,e2d3` as koma writes it: `f1e2d3`."""
    if "," not in move:
        return move
    first, second = move.split(",")
    a, b = SQUARE.findall(first)
    sq = SQUARE.findall(second)
    return a + b + sq[1] + second[len("".join(sq)):]


def moved(marked, move, promoted, mark=False):
    """The squares of `marked` pieces after `move`: a marked piece that moves
    takes its mark along unless it promotes, a piece taken (on any square
    the move names) loses it, and with `mark` the moving piece gets one."""
    sq = SQUARE.findall(move)
    mover = sq[0] in marked
    out = set(marked) - set(sq)
    if mark or (mover and not promoted):
        out.add(sq[-1])
    return frozenset(out)


def canonical(move, empty):
    """One text per move: a lion's two steps through an empty square are its
    jump to the end square, or its pass when it comes back (koma lists one
    move per result, HaChu one per route)."""
    sq = SQUARE.findall(move)
    tail = move[len("".join(sq)):]
    if len(sq) == 3 and sq[1] in empty:
        return "pass" if sq[0] == sq[2] else f"{sq[0]}{sq[2]}{tail}"
    return move


def fold(moves):
    """Moves with the promotion choice left out."""
    return {m.rstrip("+") for m in moves}


def counted(hc, moves, empty):
    """HaChu's moves of the position as koma counts them: one per result,
    with the deferrals HaChu accepts (asked move by move)."""
    out = {canonical(m, empty) for m in moves}
    for m in sorted(out):
        sq = SQUARE.findall(m)
        if m.endswith("+") and m[:-1] not in out and sq[0] != sq[-1]:
            promoted = hc.play(m[:-1])
            if promoted is not None:
                hc.undo()
            if promoted is False:
                out.add(m[:-1])
    return out


def perft(hachu_path, slug, depth):
    """perft 1 to `depth` from the start, counted from HaChu's move lists
    (each move played and taken back; a pass is counted, not played)."""
    hc = HaChu(hachu_path, slug)
    counts = [0] * (depth + 1)

    def walk(d):
        moves, empty = hc.moves()
        here = counted(hc, moves, empty)
        counts[d] += len(here)
        if d == depth:
            return
        for m in sorted(here):
            if m == "pass":
                continue
            if hc.play(m) is None:
                raise HaChuError(f"HaChu refused its own move {m}")
            walk(d + 1)
            hc.undo()

    walk(1)
    print(f"oracle: {hc.banner}")
    for d in range(1, depth + 1):
        print(f"perft {d} {counts[d]}")
    hc.close()
    return 0


def result_after(koma, moves):
    """koma's verdict after these moves from the start: -, sente, gote, draw."""
    koma.stdin.write(f"startpos moves {' '.join(moves)}\n")
    koma.stdin.flush()
    return koma.stdout.readline().split("\t")[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="dai-shogi", choices=sorted(VARIANTS))
    ap.add_argument("--koma-variant", default=None,
                    help="the variant koma plays (a slug or a file; default: --variant)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first-game", type=int, default=0,
                    help="number of the first game (a game's moves depend on the seed and its number)")
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--hachu", default="/usr/games/hachu")
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--sample", action="store_true", help="CI sample: 2 games of 40 plies, seed 1")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--perft", type=int, default=0, metavar="DEPTH",
                    help="print perft 1..DEPTH from the start as HaChu's lists count them")
    a = ap.parse_args()
    if a.perft:
        return perft(a.hachu, a.variant, a.perft)
    if a.sample:
        a.games, a.plies, a.seed = 2, 40, 1
    start = time.time()
    try:
        koma = subprocess.Popen([a.koma, "moves", "--variant", a.koma_variant or a.variant, "--batch",
                                 "--notation", "fairy"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as e:
        print(f"cannot run koma: {e}", file=sys.stderr)
        return 2
    positions = diffs = deferrals = promotions = repeats = stale = over = takes = replays = 0
    banner = None
    for g in range(a.first_game, a.first_game + a.games):
        rng = random.Random(f"{a.seed}:{a.variant}:{g}")
        try:
            hc = HaChu(a.hachu, a.variant)
        except (OSError, HaChuError) as e:
            print(f"cannot run HaChu: {e}", file=sys.stderr)
            return 2
        banner = hc.banner
        played = []
        previous = None
        for ply in range(a.plies + 1):
            line = "startpos" + (" moves " + " ".join(played) if played else "")
            koma.stdin.write(line + "\n")
            koma.stdin.flush()
            reply = koma.stdout.readline().rstrip("\n").split("\t")
            if reply[0] == "error" or len(reply) < 2:
                print(f"koma: {reply} for {line}", file=sys.stderr)
                return 2
            h_raw, empty = hc.moves()
            k_raw = reply[2].split() if len(reply) > 2 else []
            # HaChu's search stops where the side to move can take the last
            # royal (or none is left) and prints its last list again (that of
            # the other side): the game stops there (see the top).
            # The list printed again is the one HaChu made for the last move
            # (in ParseMove), which may differ from the one printed before
            # it in promotions only (see the top). The other side's list
            # never has the same moves.
            if previous is not None and fold(h_raw) == fold(previous):
                mover = "sente" if ply % 2 == 0 else "gote"
                if reply[1] != "-":
                    over += 1  # a king taken: koma says who won
                elif any(result_after(koma, played + [m]) == mover for m in sorted(k_raw)):
                    takes += 1  # the side to move can take the last royal
                else:
                    stale += 1
                    diffs += 1
                    print(f"DIFF game {g} ply {ply}: HaChu prints no new list, and koma's side to move "
                          f"cannot take the last royal; moves: {' '.join(played)}")
                break
            if reply[1] != "-":
                problems_over = f"koma says the game is over ({reply[1]} won); HaChu lists moves"
            else:
                problems_over = None
            previous = h_raw
            k_moves = {canonical(m, empty) for m in k_raw}
            h_moves = {canonical(m, empty) for m in h_raw}
            positions += 1
            problems = [problems_over] if problems_over else []
            # HaChu refuses a move that brings back an earlier position (its
            # option "Allow repeats" is off); koma plays it, and the side that
            # made it loses (`repetition: repeater_loses`). Such moves are
            # counted, not compared.
            mover = "sente" if ply % 2 == 0 else "gote"
            for m in sorted(fold(k_moves) - fold(h_moves)):
                if m == "pass":
                    continue
                after = next(x for x in (m, m + "+") if x in k_moves)
                if result_after(koma, played + [after]) not in ("-", mover):
                    k_moves = {x for x in k_moves if x.rstrip("+") != m}
                    repeats += 1
            if fold(k_moves) != fold(h_moves):
                only = sorted(fold(k_moves) - fold(h_moves))
                reasons = {why for why in (hc.refusal(m) for m in only[:3] if m != "pass") if why}
                problems.append(f"koma-only:  {' '.join(only) or '-'}"
                                + (f" (HaChu: {'; '.join(sorted(reasons))})" if reasons else ""))
                problems.append(f"hachu-only: {' '.join(sorted(fold(h_moves) - fold(k_moves))) or '-'}")
            # Where a move may promote, which choices each side offers.
            deferred = []
            for m in sorted(fold(k_moves) & fold(h_moves)):
                k = {x for x in (m, m + "+") if x in k_moves}
                h = {x for x in (m, m + "+") if x in h_moves}
                if m + "+" not in k and m + "+" not in h:
                    continue
                promotions += 1
                sq = SQUARE.findall(m)
                if m + "+" in h and m not in h and sq[0] != sq[-1]:
                    # HaChu's deferral: ask whether it takes the move unpromoted.
                    promoted = hc.play(m)
                    if promoted is not None:
                        hc.undo()
                    if promoted is False:
                        h.add(m)
                        deferrals += 1
                        deferred.append(m)
                if k != h:
                    problems.append(f"{m}: koma {' '.join(sorted(k))}, hachu {' '.join(sorted(h))}")
            if problems:
                diffs += 1
                if diffs <= a.show:
                    print(f"DIFF game {g} ply {ply} (seed {a.seed}:{a.variant}:{g})")
                    print(f"  moves:  {' '.join(played) or '-'}")
                    for p in problems:
                        print(f"  {p}")
            if ply == a.plies or not h_raw:
                break
            # The games take deferrals too (a promotable move made
            # unpromoted), so that pieces go on unpromoted in the zone.
            move = rng.choice(sorted(m for m in h_raw if m != "pass") + deferred)
            if hc.play(move, deferral=move in deferred) is None:
                print(f"HaChu refused its own move {move} after {' '.join(played)}", file=sys.stderr)
                return 2
            played.append(move)
        replays += hc.replays
        hc.close()
        if not a.quiet:
            print(f"... game {g}: {len(played)} plies, {positions} positions, {diffs} differences, "
                  f"{time.time() - start:.0f} s", file=sys.stderr)
    koma.stdin.close()
    koma.wait()
    print(f"{a.variant}: games: {a.games}, plies up to {a.plies}, seed {a.seed}, oracle: {banner}")
    print(f"moves that may promote: {promotions}, of them taken unpromoted by HaChu as a deferral: {deferrals}")
    print(f"take-backs by a replay of the game (a pawn that declined is on the board): {replays}")
    print(f"moves that repeat a position (refused by HaChu, lost in koma): {repeats}")
    print(f"games over (a side without king and prince; HaChu prints no new list): {over}")
    print(f"games stopped where the side to move can take the last royal (HaChu prints no new list): {takes}")
    print(f"games stopped where HaChu printed no new list otherwise (differences): {stale}")
    print(f"seconds: {time.time() - start:.0f}")
    print(f"positions: {positions}, differences: {diffs}")
    return 0 if diffs == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
