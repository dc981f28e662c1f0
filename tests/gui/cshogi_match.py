#!/usr/bin/env python3
"""koma as a shogi GUI starts it: cshogi's USI engine class and its match runner.

1. cshogi.usi.Engine starts `koma` with no command (as GUIs start an engine:
   the first line it reads is `usi`), sets options, and asks for a move from
   the start position of 9x9 shogi (koma's default game in USI), a mate
   (`go mate`) and a move after `position startpos moves 7g7f`; the answers
   are checked with cshogi's own board.
2. cshogi.cli.main plays a short match of koma against Fairy-Stockfish
   (Debian's /usr/games/fairy-stockfish, speaking USI, its default variant
   set to shogi) at a fixed byoyomi; every move of koma is checked legal by
   cshogi (cshogi.cli stops a game on an illegal move and says so).

Usage (after `cargo build --release`):
  python3 tests/gui/cshogi_match.py [--games 2] [--byoyomi 100] [--koma PATH]
Exit status: 0 if every check held and no game had an illegal move.
"""
import argparse
import os
import sys

import cshogi
import cshogi.cli
from cshogi.usi import Engine

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--byoyomi", type=int, default=100)
    ap.add_argument("--draw", type=int, default=160, help="plies before a draw")
    ap.add_argument("--koma", default=os.path.join(REPO, "target", "release", "koma"))
    ap.add_argument("--fs", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()

    failures = []
    # 1. The engine class.
    eng = Engine(a.koma)
    print("engine:", eng.name)
    eng.isready()
    eng.usinewgame()
    board = cshogi.Board()
    eng.position(sfen="sfen " + board.sfen())
    best, ponder = eng.go(byoyomi=a.byoyomi)
    legal = [cshogi.move_to_usi(m) for m in board.legal_moves]
    print("startpos:", best, "ponder", ponder)
    if best not in legal:
        failures.append(f"startpos: {best} is not a legal move")
    eng.position(moves=["7g7f"])
    best, _ = eng.go(byoyomi=a.byoyomi)
    board.push_usi("7g7f")
    if best not in [cshogi.move_to_usi(m) for m in board.legal_moves]:
        failures.append(f"after 7g7f: {best} is not a legal move")
    mate_sfen = "l1g2+B2s/2r5g/1N7/pp1s1p3/P1ppk1P1l/1P3P1p1/nGNSp1G1N/LK2R3L/7S1 b B2P5p 147"
    eng.position(sfen="sfen " + mate_sfen)
    answer = eng.go_mate(byoyomi=5000)
    print("go mate:", answer)
    b = cshogi.Board(mate_sfen)
    moves = answer if isinstance(answer, list) else str(answer).split()
    try:
        for m in moves:
            b.push_usi(m)
        if not b.is_game_over():
            failures.append(f"go mate: {answer} does not mate")
    except Exception as e:  # an unreadable or illegal move
        failures.append(f"go mate: {answer}: {e}")
    eng.quit()

    # 2. A short match against Fairy-Stockfish over USI.
    result = cshogi.cli.main(
        a.koma,
        a.fs,
        options2={"USI_Variant": "shogi"},
        names=["koma", "Fairy-Stockfish"],
        games=a.games,
        byoyomi=a.byoyomi,
        draw=a.draw,
        print_summary=True,
    )
    print("result:", result)
    if not result or sum(result.get(k, 0) for k in ("engine1_won", "engine2_won", "draw")) != a.games:
        failures.append(f"the match did not finish its {a.games} games: {result}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
