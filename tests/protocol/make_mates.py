#!/usr/bin/env python3
"""Shogi positions with a forced mate, and the mate's length, from cshogi.

Writes tests/protocol/mates.tsv: `sfen<TAB>plies` where `plies` is the
shortest mate cshogi's mate search finds (`Board.mate_move_in_1ply()`, then
`Board.mate_move(p)` for p = 3, 5, 7: the first that gives a move; positions
in check are left out, as cshogi's search asks). The positions are from random games
(seeded) in which the side to move has a mate of at most 7 plies; the test
`go_mate_finds_the_mates_cshogi_finds` (tests/koma/protocol.rs) asks koma's
`go mate` for each and checks its mate has that length.

Usage: python3 tests/protocol/make_mates.py > tests/protocol/mates.tsv
"""
import random

import cshogi

rng = random.Random(16)
want = {1: 4, 3: 4, 5: 3, 7: 2}
found = {k: [] for k in want}
games = 0
while any(len(found[k]) < n for k, n in want.items()) and games < 3000:
    games += 1
    b = cshogi.Board()
    for ply in range(200):
        moves = list(b.legal_moves)
        if not moves or b.is_draw() == cshogi.REPETITION_DRAW:
            break
        if ply > 30 and not b.is_check():
            for p in (1, 3, 5, 7):
                if (b.mate_move_in_1ply() if p == 1 else b.mate_move(p)):
                    if len(found[p]) < want[p] and b.sfen() not in found[p]:
                        found[p].append(b.sfen())
                    break
        b.push(rng.choice(moves))
print(f"# cshogi 1.1.0: shortest mate by mate_move_in_1ply / mate_move(plies); {games} random games, seed 16")
for p in sorted(found):
    for s in found[p]:
        print(f"{s}\t{p}")
