#!/usr/bin/env python3
"""A match between koma's engine and HaChu in dai (or chu) shogi.

koma plays through `koma uci` (UCI_Variant, Fairy-Stockfish's coordinates,
which are XBoard's for these boards); HaChu (Debian `hachu`) through the
XBoard protocol, as tests/diff/hachu.py drives it. Colours alternate; each
side gets about the same time a move: koma `go movetime T`, HaChu a clock
of `--hachu-clock` centiseconds before each of its moves (`time`, `otim`),
from which it takes about 1/78 of it on a 15×15 board (its own rule).

The judge is koma's rules (`koma moves --batch`): every move of either side
must be in the list of the position, and the game ends when koma says it is
over (a side without king and prince, the repetition rule, no legal move)
or after --max-plies (a draw). A move the judge refuses ends the game and
is reported (it counts as a loss for the side that made it).

    python3 tests/match/hachu_match.py --games 10 --movetime 250

Output: one line a game (colours, result, plies, why), then the score with
its 95% interval (tests/match/score.py).
"""
import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "diff"))
sys.path.insert(0, str(REPO / "tests" / "match"))
import hachu  # noqa: E402
import score  # noqa: E402
from clients import Engine, Referee  # noqa: E402


def hachu_move(hc):
    """HaChu's next move in koma's text, or None and the result it claims
    instead of moving (it has no move that saves its king: it resigns)."""
    parts = []
    while True:
        line = hc.p.stdout.readline()
        if not line:
            raise hachu.HaChuError("HaChu exited")
        line = line.strip()
        if line.startswith("move "):
            parts.append(line[5:])
            if not line.endswith(","):
                return hachu.koma_text("".join(parts)), None
        elif line.startswith(("1-0", "0-1", "1/2-1/2", "resign")):
            return None, line
        elif line.startswith(("Illegal move", "Error")):
            # HaChu refuses koma's last move (which the judge let through)
            # and waits for another: the two rules disagree here.
            return None, line


def for_hachu(judge, before, m):
    """koma's move `m` after the moves `before` as HaChu reads it: a pass
    (three squares, back where it started, nothing taken) is XBoard's null
    move `@@@@`, the only form of a pass HaChu takes."""
    sq = hachu.SQUARE.findall(m)
    if len(sq) == 3 and sq[0] == sq[2]:
        try:
            if judge.judge(before + ["@@@@"]) == judge.judge(before + [m]):
                return "@@@@"
        except RuntimeError:
            pass
    return hachu.hachu_text(m)


def play_game(a, koma_sente):
    """One game: the result for koma (koma, hachu, draw), its plies, why it
    ended, its moves."""
    hc = hachu.HaChu(a.hachu, a.variant)
    judge = Referee(a.koma, a.variant, "fairy")
    engine = Engine([a.koma, "uci"], a.variant, "uci")
    moves = []
    # HaChu starts in force mode; `go` makes it play the side to move from
    # then on, answering each `usermove` with its own move.
    engaged = False
    result, why = "draw", "max plies"
    clock = f"time {a.hachu_clock}\notim {a.hachu_clock}"
    try:
        for ply in range(a.max_plies):
            koma_to_move = (ply % 2 == 0) == koma_sente
            if koma_to_move:
                m = engine.best(moves, f"movetime {a.movetime}")
            else:
                if not engaged:
                    hc.send(clock)
                    hc.send("go")
                    engaged = True
                m, claim = hachu_move(hc)
                if m is None:
                    # With no move of its own HaChu gives the game up (or
                    # claims a draw).
                    if claim.startswith(("Illegal move", "Error")):
                        result, why = "disagreement", f"HaChu refused koma's move {moves[-1]}: {claim}"
                        break
                    result = "draw" if claim.startswith("1/2") else "koma"
                    why = f"HaChu made no move and wrote '{claim}'"
                    break
            _, legal = judge.judge(moves)
            # HaChu writes a lion's pass as XBoard's null move, `@@@@`,
            # which koma reads as that pass (tests/diff/hachu.py says more).
            if m == "@@@@":
                try:
                    judge.judge(moves + [m])
                except RuntimeError:
                    legal = []
                else:
                    legal = [m]
            if m not in legal:
                who = "koma" if koma_to_move else "HaChu"
                result = "hachu" if koma_to_move else "koma"
                why = f"{who}'s move {m} refused by the judge"
                break
            moves.append(m)
            over, _ = judge.judge(moves)
            if over != "-":
                result = "draw" if over == "draw" else ("koma" if (over == "sente") == koma_sente else "hachu")
                why = f"{over} won" if over != "draw" else "draw by the rules"
                break
            if koma_to_move:
                if engaged:
                    hc.send(clock)
                hc.send(f"usermove {for_hachu(judge, moves[:-1], m)}")
    finally:
        hc.close()
        engine.close()
        judge.close()
    return result, len(moves), why, moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="dai-shogi", choices=sorted(hachu.VARIANTS))
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=250, help="koma's milliseconds a move")
    ap.add_argument("--hachu-clock", type=int, default=2000,
                    help="HaChu's clock before each move, centiseconds (it spends about 1/78 of it)")
    ap.add_argument("--max-plies", type=int, default=500)
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--hachu", default="/usr/games/hachu")
    a = ap.parse_args()
    wins = draws = losses = disagreements = 0
    start = time.time()
    for g in range(a.games):
        koma_sente = g % 2 == 0
        result, plies, why, moves = play_game(a, koma_sente)
        wins += result == "koma"
        draws += result == "draw"
        losses += result == "hachu"
        disagreements += result == "disagreement"
        colours = "koma sente" if koma_sente else "koma gote"
        print(f"game {g + 1}: {colours}, {result} after {plies} plies ({why})", flush=True)
        if "refused" in why:
            print(f"  moves: {' '.join(moves)}", flush=True)
    n = wins + draws + losses
    s, half = score.interval(wins, draws, losses) or (0.0, 0.0)
    print(f"{a.variant}: koma {wins} wins, {draws} draws, {losses} losses of {n} against HaChu "
          f"({100 * s:.1f}%, 95% interval {100 * max(s - half, 0):.1f}-{100 * min(s + half, 1):.1f}%), "
          f"koma {a.movetime} ms a move, HaChu clock {a.hachu_clock} cs; {time.time() - start:.0f} s"
          + (f"; {disagreements} games stopped where HaChu refused koma's move" if disagreements else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
