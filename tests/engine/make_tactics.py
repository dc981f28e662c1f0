#!/usr/bin/env python3
"""Harvest tactics positions for tests/engine/tactics.tsv from Fairy-Stockfish.

For each variant, Fairy-Stockfish plays itself at a low Skill Level (so that
it blunders) with `go movetime --movetime`; every position from ply 6 on is
analysed by a full-strength Fairy-Stockfish at `go depth --depth` with
`MultiPV 2`. A position is kept when
  mate    the best line mates in at most --max-mate moves (the row's answer
          is the number of moves: a move that mates as fast is right), or
  win     the best move scores at least --win-cp for the side to move, the
          second best at least --gap-cp less and at most half as much (the
          row's answer is the best move: only it wins that much).
A win is then analysed again at `go depth --verify-depth` and kept only if
the same move still wins that way (a shallower gap can close deeper).
At most --per-variant of each kind are kept per variant, the first found,
and at most one position per game (positions of one game are alike).

Output: rows of tests/engine/tactics.tsv (tab-separated):
  variant  kind  answer  fen  source
where variant is koma's slug, fen is pyffish's FEN (which koma reads), the
answer is a move in Fairy-Stockfish notation (win) or a number of moves
(mate), and the source names the analysis (engine, depth, score).

Usage (from the repository root):
  python3 tests/engine/make_tactics.py --seed 1 >> tests/engine/tactics.tsv
  python3 tests/engine/make_tactics.py --verify ROWS.tsv   (re-analyses the
      win rows of a file at --verify-depth; prints the rows that hold, with
      the deeper analysis added to their source, and the others commented)
"""
import argparse
import os
import random
import shutil
import sys

# the repository's oracle wrapper, tests/oracle/fsoracle.py, found from this file
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import pyffish as sf  # noqa: E402
import fsoracle  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "match"))
from fs_uci import Fs  # noqa: E402

# UCI variant name -> koma slug, and the start FEN koma uses where it differs.
VARIANTS = {
    "judkins": ("judkins-shogi", "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1"),
    "shogi": ("shogi", None),
    "minishogi": ("minishogi", None),
    "gorogoro": ("gorogoro-shogi", None),
    "euroshogi": ("euroshogi", None),
    "yarishogi": ("yari-shogi", None),
    "torishogi": ("tori-shogi", None),
    "dobutsu": ("dobutsu-shogi", None),
    "shoshogi": ("sho-shogi", None),
}


def analyse(fs, fen, moves, depth):
    """{multipv: (kind, value, move)} of the last depth reached."""
    best = {}
    for line in fs.search(fen, moves, depth):
        w = line.split()
        if "multipv" in w and "score" in w and "pv" in w and w[w.index("depth") + 1] == str(depth):
            i = w.index("score")
            best[int(w[w.index("multipv") + 1])] = (w[i + 1], int(w[i + 2]), w[w.index("pv") + 1])
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--skill", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=20)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--max-mate", type=int, default=3)
    ap.add_argument("--win-cp", type=int, default=300)
    ap.add_argument("--gap-cp", type=int, default=300)
    ap.add_argument("--per-variant", type=int, default=2)
    ap.add_argument("--verify-depth", type=int, default=16)
    ap.add_argument("--verify")
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fs", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    a = ap.parse_args()

    def wins(lines):
        """The best move if the analysis says only it wins, else None."""
        if 1 not in lines or 2 not in lines:
            return None
        (k1, v1, m1), (k2, v2, _) = lines[1], lines[2]
        if k1 == "cp" and k2 == "cp" and v1 >= a.win_cp and v1 - v2 >= a.gap_cp and 2 * v2 <= v1:
            return m1, v1, v2
        return None

    if a.verify:
        slugs = {slug: uci for uci, (slug, _) in VARIANTS.items()}
        judges = {}
        for line in open(a.verify):
            line = line.rstrip("\n")
            f = line.split("\t")
            if line.startswith("#") or len(f) != 5 or f[1] != "win":
                print(line)
                continue
            uci = slugs[f[0]]
            if uci not in judges:
                judges[uci] = Fs(a.fs, uci)
                judges[uci].send("setoption name MultiPV value 2")
                judges[uci].ready()
            w = wins(analyse(judges[uci], f[3], [], a.verify_depth))
            if w and w[0] == f[2]:
                f[4] += f"; depth {a.verify_depth}: {w[0]} {w[1]:+d} cp, second best {w[2]:+d} cp"
                print("\t".join(f))
            else:
                print(f"# not confirmed at depth {a.verify_depth} ({w}): " + line)
            sys.stdout.flush()
        for j in judges.values():
            j.close()
        return

    for variant in a.variants.split(","):
        slug, start = VARIANTS[variant]
        fen = start or sf.get_fen(variant, sf.start_fen(variant), [])
        player = Fs(a.fs, variant)
        player.send(f"setoption name Skill Level value {a.skill}")
        judge = Fs(a.fs, variant)
        judge.send("setoption name MultiPV value 2")
        judge.ready()
        found = {"mate": 0, "win": 0}
        seen = set()
        rng = random.Random(f"{a.seed}:{variant}")
        for g in range(a.games):
            if all(n >= a.per_variant for n in found.values()):
                break
            moves = []
            # A random first move or two, so that the games differ.
            for _ in range(2):
                legal = sorted(fsoracle.legal_moves(variant, fen, moves))
                if legal:
                    moves.append(rng.choice(legal))
            player.send("ucinewgame")
            player.ready()
            kept_this_game = False
            while len(moves) < a.max_plies:
                legal = fsoracle.legal_moves(variant, fen, moves)
                if not legal or sf.is_immediate_game_end(variant, fen, moves)[0] \
                        or sf.is_optional_game_end(variant, fen, moves)[0]:
                    break
                if len(moves) >= 6 and len(legal) >= 2 and not kept_this_game:
                    cur = sf.get_fen(variant, fen, moves)
                    key = cur.split(" ")[0]
                    if key not in seen:
                        seen.add(key)
                        lines = analyse(judge, fen, moves, a.depth)
                        row = None
                        if 1 in lines and 2 in lines:
                            k1, v1, m1 = lines[1]
                            w = wins(lines) if found["win"] < a.per_variant else None
                            if k1 == "mate" and 0 < v1 <= a.max_mate and found["mate"] < a.per_variant:
                                row = ("mate", str(v1), f"mate in {v1}, best {m1}")
                            elif w:
                                deeper = wins(analyse(judge, fen, moves, a.verify_depth))
                                if deeper and deeper[0] == w[0]:
                                    row = ("win", w[0], f"{w[0]} {w[1]:+d} cp, second best {w[2]:+d} cp; "
                                           f"depth {a.verify_depth}: {deeper[1]:+d} cp, second best {deeper[2]:+d} cp")
                        if row:
                            kind, answer, why = row
                            found[kind] += 1
                            kept_this_game = True
                            print(f"{slug}\t{kind}\t{answer}\t{cur}\t"
                                  f"Fairy-Stockfish 11.1 depth {a.depth} MultiPV 2: {why} "
                                  f"(self-play at Skill Level {a.skill}, seed {a.seed}, game {g + 1}, ply {len(moves) + 1})")
                            sys.stdout.flush()
                player.send(f"position fen {fen} moves {' '.join(moves)}")
                player.send(f"go movetime {a.movetime}")
                mv = player.wait("bestmove")[-1].split()[1]
                if mv not in legal:
                    # The binary and pyffish disagree (their versions differ): end the game.
                    print(f"# {variant} game {g + 1}: {mv} is not legal for pyffish; game ended", file=sys.stderr)
                    break
                moves.append(mv)
        player.close()
        judge.close()
        print(f"# {variant}: {found['mate']} mate, {found['win']} win", file=sys.stderr)


if __name__ == "__main__":
    main()
