#!/usr/bin/env python3
"""The oracle: Fairy-Stockfish's answers through pyffish, its Python binding,
with pawn-drop mate made illegal where the game forbids it.

koma's move generator is held against Fairy-Stockfish, the most widely used
engine for shogi variants. Every test tool of this repository that needs a
reference answer (tests/diff/harness.py, tests/oracle/generate.py,
tests/perft/middle_games.py, tests/match/*.py, tests/engine/make_*.py,
tests/soak/usi_soak.py) asks this file, by a path found from its own file.

Why the filter: in shogi and several of its variants a pawn (in tori shogi a
swallow) may not be dropped to give immediate checkmate. Fairy-Stockfish
lists such a drop among the legal moves and scores the game as lost for the
side that plays it; by the rules as written the drop is not a legal move at
all. So here it is taken out of the legal-move list for the variants of
DROP_MATE_ILLEGAL; everything else is Fairy-Stockfish's own answer.

Needs pyffish: python3 -m pip install pyffish

Notation (Fairy-Stockfish's): FEN with the hands in brackets, e.g.
    rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1
upper case is the first player (sente), who moves as "w" and starts on ranks
1-2, files a.. from the left; moves in its UCI style: a2a3, e1a5+ (promotes),
e1a5 (does not), P@c3 (a drop).

Command line:
  fsoracle.py variants                            variant names pyffish knows, sorted
  fsoracle.py start VARIANT                       the variant's start FEN
  fsoracle.py moves VARIANT FEN [MOVE ...]        legal moves after the MOVEs, sorted, one a line
  fsoracle.py perft VARIANT FEN DEPTH [--divide]  leaf count of the legal-move tree
                                                  (slow: a Python recursion, ~3 ms a pyffish call)
  fsoracle.py games VARIANT FEN [--count N] [--seed S] [--plies P]
        N random games (default 10, seed 0, at most P = 120 plies each) as
        JSON lines, one per position visited: game, ply, fen, legal (sorted),
        check (the side to move is in check) and, where there is no legal
        move, result (pyffish's game_result). Each move is drawn uniformly
        from the sorted legal list by one random.Random(S) for all games.

As a module: legal_moves(variant, fen, moves), perft(variant, fen, moves,
depth) and the table DROP_MATE_ILLEGAL (callers may add variants to it). The
module-level name `sf` is the pyffish module; callers may replace it with a
wrapper (for speed or to count calls), so it is looked up at every call.
"""
import argparse
import json
import random
import sys

try:
    import pyffish as sf
except ImportError:
    sys.exit("fsoracle.py: the Python module pyffish is not installed "
             "(python3 -m pip install pyffish)")

# Fairy-Stockfish variant name -> letter of the piece that may not be dropped
# to give immediate mate there (the pawn; in tori shogi the swallow).
DROP_MATE_ILLEGAL = {
    "shogi": "P",
    "minishogi": "P",
    "judkins": "P",
    "gorogoro": "P",
    "euroshogi": "P",
    "checkshogi": "P",
    "torishogi": "S",
}


def is_drop_of(move, letter):
    """Whether `move` drops the piece `letter` (either case: P@c3, p@c3)."""
    return move[:2] in (letter.upper() + "@", letter.lower() + "@")


def mates_by_drop(variant, fen, moves, drop):
    """Whether playing `drop` after `moves` checks and leaves no legal reply.

    gives_check is asked first: it is cheap to answer for a drop, and most
    drops give no check, so the reply list is asked only after a check."""
    after = list(moves) + [drop]
    if not sf.gives_check(variant, fen, after):
        return False
    return not sf.legal_moves(variant, fen, after)


def legal_moves(variant, fen, moves):
    """Fairy-Stockfish's legal moves after `moves` from `fen`, less the drops
    that mate where DROP_MATE_ILLEGAL forbids them (in pyffish's order)."""
    found = sf.legal_moves(variant, fen, moves)
    letter = DROP_MATE_ILLEGAL.get(variant)
    if letter is None:
        return found
    return [m for m in found
            if not (is_drop_of(m, letter) and mates_by_drop(variant, fen, moves, m))]


def perft(variant, fen, moves, depth):
    """Number of move sequences of length `depth` after `moves` from `fen`."""
    if depth <= 0:
        return 1
    found = legal_moves(variant, fen, moves)
    if depth == 1:
        return len(found)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in found)


def print_games(variant, fen, count, seed, plies):
    """The `games` command: random games as JSON lines (see the docstring)."""
    rng = random.Random(seed)
    for game in range(count):
        played = []
        for _ in range(plies + 1):
            legal = sorted(legal_moves(variant, fen, played))
            row = {
                "game": game,
                "ply": len(played),
                "fen": sf.get_fen(variant, fen, played),
                "legal": legal,
                "check": sf.gives_check(variant, fen, played),
            }
            if not legal:
                row["result"] = sf.game_result(variant, fen, played)
                print(json.dumps(row))
                break
            print(json.dumps(row))
            played.append(rng.choice(legal))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    cmd = ap.add_subparsers(dest="cmd", required=True)
    cmd.add_parser("variants", help="variant names, sorted")
    c = cmd.add_parser("start", help="a variant's start FEN")
    c.add_argument("variant")
    c = cmd.add_parser("moves", help="legal moves, sorted, one a line")
    c.add_argument("variant")
    c.add_argument("fen")
    c.add_argument("moves", nargs="*")
    c = cmd.add_parser("perft", help="leaf count of the legal-move tree")
    c.add_argument("variant")
    c.add_argument("fen")
    c.add_argument("depth", type=int)
    c.add_argument("--divide", action="store_true", help="one count per first move, then the total")
    c = cmd.add_parser("games", help="random games as JSON lines")
    c.add_argument("variant")
    c.add_argument("fen")
    c.add_argument("--count", type=int, default=10)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--plies", type=int, default=120)
    a = ap.parse_args()

    if a.cmd == "variants":
        print("\n".join(sorted(sf.variants())))
    elif a.cmd == "start":
        print(sf.start_fen(a.variant))
    elif a.cmd == "moves":
        print("\n".join(sorted(legal_moves(a.variant, a.fen, a.moves))))
    elif a.cmd == "perft" and a.divide:
        total = 0
        for m in sorted(legal_moves(a.variant, a.fen, [])):
            n = perft(a.variant, a.fen, [m], a.depth - 1)
            print(f"{m}: {n}")
            total += n
        print(f"total: {total}")
    elif a.cmd == "perft":
        print(perft(a.variant, a.fen, [], a.depth))
    else:
        print_games(a.variant, a.fen, a.count, a.seed, a.plies)


if __name__ == "__main__":
    main()
