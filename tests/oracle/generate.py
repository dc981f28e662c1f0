#!/usr/bin/env python3
"""Generate koma's move-list test data from Fairy-Stockfish (the oracle).

Run from the repository root (needs pyffish: python3 -m pip install pyffish):

    python3 tests/oracle/generate.py

Options: --oracle PATH (default: $FSORACLE, else ../shared/oracle/fsoracle.py
relative to the repository root), --out DIR (default: tests/oracle),
--only SLUG[,SLUG...] (regenerate just those files; "drop-mates" names the
drop-mate file). Output is deterministic for a given pyffish version and
oracle: every random choice comes from a seeded random.Random; only the date
in the header changes from run to run.

The legal moves come from the oracle's own legal_moves() (fsoracle.py is
imported from its path): Fairy-Stockfish's legal moves with pawn-drop mate
(swallow-drop mate in tori shogi) removed where the game forbids it.

Files written (slug = koma's variant name; FS = Fairy-Stockfish variant name):
  <slug>.tsv       one position a line:
                   <fen> TAB <in_check 0|1> TAB <legal moves, space-separated>
                   The moves are in FS's UCI style (a2a3, e1a5+ promotes,
                   e1a5 declines, c4b4- demotes in kyoto shogi, P@c3 drops,
                   +P@c3 drops a piece promoted in kyoto shogi) and sorted in
                   Python's string order (byte order); the field is empty
                   where there is no legal move (mate or stalemate). in_check
                   is FS's gives_check() of the position: the side to move's
                   royal piece is attacked (FS has no royal piece in dobutsu,
                   and none in sho shogi while king and prince are both on
                   the board, so in_check is 0 there).
  drop-mates.tsv   <slug> TAB <fen> TAB <in_check> TAB <legal moves>: positions
                   where the side to move has a pawn (swallow) drop giving
                   check that pyffish.legal_moves lists but the oracle drops
                   as a drop mate; the moves are the oracle's (filtered) list.
Lines starting with '#' are comments (source, pyffish version, date, sets).

How positions are chosen: random games from a start FEN, one per seed
(seed = base seed + game number), each ply choosing a capture with
probability 0.5 if there is one, otherwise a drop with probability 0.3 if
there is one, else a uniformly random legal move, so that hands fill
and pieces promote. A game stops at a position with no legal move, at one FS
calls an immediate game end (dobutsu: lion captured or lion safely on the
far rank; sho shogi: last king/prince captured; such positions are not
recorded), or after MAX_PLIES. Every position is looked up from its FEN alone
(no move history). Distinct positions (FEN without the move counters) go
into a pool; from it the file takes every mate (up to 15 % of the target),
positions in check (up to 25 %), then a seeded random sample of the rest,
preferring positions with pieces in hand or promoted pieces; the lines come
out in the order the games visited them.
"""
import argparse
import datetime
import importlib.util
import os
import random
import re
import shlex
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# FS variant name -> koma slug
SLUG = {
    "judkins": "judkins-shogi", "shogi": "shogi", "minishogi": "minishogi",
    "gorogoro": "gorogoro-shogi", "euroshogi": "euroshogi", "yarishogi": "yari-shogi",
    "torishogi": "tori-shogi", "dobutsu": "dobutsu-shogi", "kyotoshogi": "kyoto-shogi",
    "shoshogi": "sho-shogi",
}
DROP_MATE_VARIANTS = ["judkins", "shogi", "minishogi", "gorogoro", "euroshogi", "torishogi"]
MAX_PLIES = 200
MOVE_RE = re.compile(r"^(?:(\+?[A-Za-z])@|([a-z])(\d+))([a-z])(\d+)([+-]?)$")


def load_oracle(path):
    spec = importlib.util.spec_from_file_location("fsoracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# Start FENs (as in shared/perft/start-positions.tsv; kept here so that the
# generator does not depend on that file).
STARTS = {
    "judkins": ["rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1", "rbnsgk/5p/6/6/P5/KGSNBR[] w - - 0 1"],
    "minishogi": ["rbsgk/4p/5/P4/KGSBR[] w - - 0 1"],
    "gorogoro": ["sgkgs/5/1ppp1/1PPP1/5/SGKGS[] w - - 0 1"],
    "dobutsu": ["gle/1c1/1C1/ELG[] w - - 0 1"],
    "kyotoshogi": ["p+nks+l/5/5/5/+LSK+NP[] w - - 0 1"],
    "torishogi": ["rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1"],
    "euroshogi": ["1nbgkgn1/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/1NGKGBN1[] w - - 0 1"],
    "yarishogi": ["rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR[] w - - 0 1"],
    "shogi": ["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"],
    "shoshogi": ["lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1"],
}

# Sets per output file: (variant, start fen, number of positions, base seed)
SETS = {
    "judkins": [("judkins", STARTS["judkins"][0], 400, 1000),
                ("judkins", STARTS["judkins"][1], 200, 2000)],
}
for _i, _v in enumerate(["shogi", "minishogi", "gorogoro", "euroshogi", "yarishogi",
                         "torishogi", "dobutsu", "kyotoshogi", "shoshogi"]):
    SETS[_v] = [(_v, STARTS[_v][0], 150, 3000 + 1000 * _i)]

# Positions always included (variant -> fens), e.g. a pawn-drop-mate test.
EXTRA = {
    "judkins": ["kr4/6/1G4/6/6/5K[P] w - - 0 1"],
}


def board_of(fen):
    """{square name: piece} of a FS FEN's board (promoted pieces keep their '+')."""
    board_part = fen.split(" ")[0].split("[")[0]
    ranks = board_part.split("/")
    n = len(ranks)
    squares = {}
    for i, row in enumerate(ranks):
        rank = n - i
        f = 0
        for tok in re.findall(r"\d+|\+?[A-Za-z]~?", row):
            if tok.isdigit():
                f += int(tok)
            else:
                squares[f"{chr(ord('a') + f)}{rank}"] = tok
                f += 1
    return squares


def hand_of(fen):
    m = re.search(r"\[([^\]]*)\]", fen)
    return "" if m is None or m.group(1) == "-" else m.group(1)


def pos_key(fen):
    """The FEN without its move counters (board, hands, side to move, ...)."""
    f = fen.split(" ")
    return " ".join(f[:-2]) if len(f) > 3 else fen


class Gen:
    def __init__(self, oracle):
        self.o = oracle
        self.sf = oracle.sf

    def info(self, variant, fen):
        legal = sorted(self.o.legal_moves(variant, fen, []))
        raw = self.sf.legal_moves(variant, fen, [])
        check = bool(self.sf.gives_check(variant, fen, []))
        return legal, check, len(raw) != len(legal)

    def game(self, variant, start, seed, on_position):
        """Play one random game; on_position(ply, fen, legal, check, dropmate) per position."""
        rng = random.Random(seed)
        fen = start
        for ply in range(MAX_PLIES + 1):
            if self.sf.is_immediate_game_end(variant, fen, [])[0]:
                return
            legal, check, dm = self.info(variant, fen)
            on_position(ply, fen, legal, check, dm)
            if not legal:
                return
            board = board_of(fen)
            caps, drops = [], []
            for m in legal:
                mm = MOVE_RE.match(m)
                if mm is None:
                    raise SystemExit(f"generate: unexpected move {m!r} in {variant} {fen}")
                if mm.group(1):
                    drops.append(m)
                elif f"{mm.group(4)}{mm.group(5)}" in board:
                    caps.append(m)
            r = rng.random()
            if caps and r < 0.5:
                move = rng.choice(caps)
            elif drops and rng.random() < 0.3:
                move = rng.choice(drops)
            else:
                move = rng.choice(legal)
            fen = self.sf.get_fen(variant, fen, [move])

    def collect(self, variant, start, target, seed0, dropmates):
        """Pool of distinct positions from enough games for `target` picks."""
        pool = {}
        order = []
        state = {"game": 0}

        def on_position(ply, fen, legal, check, dm):
            key = pos_key(fen)
            if dm and variant in DROP_MATE_VARIANTS:
                dropmates.setdefault((variant, key), (fen, check, legal))
            if key in pool:
                return
            pool[key] = (fen, check, legal, state["game"], ply)
            order.append(key)

        # play games until the pool is about 8x the target (at most 400 games)
        g = 0
        while len(pool) < 8 * target and g < 400:
            state["game"] = g
            self.game(variant, start, seed0 + g, on_position)
            g += 1
        return pool, order, g

    def select(self, pool, order, target, seed):
        rng = random.Random(seed)
        mates = [k for k in order if not pool[k][2]]
        checks = [k for k in order if pool[k][1] and pool[k][2]]
        rest = [k for k in order if not pool[k][1] and pool[k][2]]
        chosen = set(rng.sample(mates, min(len(mates), max(1, target * 15 // 100))))
        chosen |= set(rng.sample(checks, min(len(checks), target * 25 // 100)))
        fancy = [k for k in rest if hand_of(pool[k][0]) or "+" in pool[k][0].split(" ")[0].split("[")[0]]
        plain = [k for k in rest if k not in set(fancy)]
        need = target - len(chosen)
        n_plain = min(len(plain), need // 5)          # ~20 % plain positions (early plies)
        chosen |= set(rng.sample(plain, n_plain))
        need = target - len(chosen)
        chosen |= set(rng.sample(fancy, min(len(fancy), need)))
        need = target - len(chosen)
        if need > 0:
            left = [k for k in plain if k not in chosen]
            chosen |= set(rng.sample(left, min(len(left), need)))
        return [k for k in order if k in chosen]


def line(fen, check, legal):
    return f"{fen}\t{int(check)}\t{' '.join(legal)}"


def header(oracle_path, extra):
    try:
        from importlib.metadata import version
        pv = version("pyffish")
    except Exception:
        pv = "unknown"
    import pyffish
    return [
        "# Generated by tests/oracle/generate.py (see its docstring); do not edit by hand.",
        "# command: python3 " + shlex.join(sys.argv),
        f"# oracle: fsoracle.py (Fairy-Stockfish via pyffish, pawn-drop mate illegal where forbidden)",
        f"# pyffish {pv} (pyffish.version() = {pyffish.version()})",
        "# date: " + datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
    ] + extra + ["# columns: fen<TAB>in_check(0|1)<TAB>sorted legal moves (space-separated; empty = none)"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", default=os.environ.get("FSORACLE", str(REPO.parent / "shared" / "oracle" / "fsoracle.py")))
    ap.add_argument("--out", default=str(REPO / "tests" / "oracle"))
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    oracle = load_oracle(a.oracle)
    gen = Gen(oracle)
    only = set(s for s in a.only.split(",") if s)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    dropmates = {}

    for variant, sets in SETS.items():
        slug = SLUG[variant]
        want = not only or slug in only
        if not want and not (variant in DROP_MATE_VARIANTS and (not only or "drop-mates" in only)):
            continue
        lines, notes, seen = [], [], set()
        for (v, start, target, seed0) in sets:
            pool, order, games = gen.collect(v, start, target, seed0, dropmates)
            picked = [k for k in gen.select(pool, order, target, seed0) if k not in seen]
            seen.update(picked)
            n_m = sum(1 for k in picked if not pool[k][2])
            n_c = sum(1 for k in picked if pool[k][1])
            n_h = sum(1 for k in picked if hand_of(pool[k][0]))
            n_p = sum(1 for k in picked if "+" in pool[k][0].split(" ")[0].split("[")[0])
            notes.append(f"# set: {len(picked)} positions from {start!r}: games with seeds "
                         f"{seed0}..{seed0 + games - 1} (max {MAX_PLIES} plies), pool {len(pool)} distinct; "
                         f"{n_m} without legal moves, {n_c} in check, {n_h} with pieces in hand, {n_p} with promoted pieces")
            lines += [line(pool[k][0], pool[k][1], pool[k][2]) for k in picked]
        for fen in EXTRA.get(variant, []):
            if pos_key(fen) in seen:
                continue
            legal, check, dm = gen.info(variant, fen)
            if dm:
                dropmates.setdefault((variant, pos_key(fen)), (fen, check, legal))
            notes.append(f"# extra: {fen!r} (given by hand)")
            lines.append(line(fen, check, legal))
        if want:
            path = out / f"{slug}.tsv"
            path.write_text("\n".join(header(a.oracle, notes) + lines) + "\n")
            print(f"{path}: {len(lines)} positions", file=sys.stderr)

    if not only or "drop-mates" in only:
        # more games where the main sets found few drop mates
        extra_notes = []
        for i, variant in enumerate(DROP_MATE_VARIANTS):
            have = sum(1 for (v, _) in dropmates if v == variant)
            seed0 = 90000 + 1000 * i
            g = 0
            limit = {"shogi": 60, "euroshogi": 60, "torishogi": 80}.get(variant, 300)
            while have < 4 and g < limit:
                gen.game(variant, STARTS[variant][0], seed0 + g,
                         lambda ply, fen, legal, check, dm: dm and dropmates.setdefault((variant, pos_key(fen)), (fen, check, legal)))
                have = sum(1 for (v, _) in dropmates if v == variant)
                g += 1
            if g:
                extra_notes.append(f"# search: {variant}: {g} extra games with seeds {seed0}..{seed0 + g - 1}")
        rows = []
        for (variant, key), (fen, check, legal) in dropmates.items():
            rows.append(f"{SLUG[variant]}\t{line(fen, check, legal)}")
        counts = {}
        for (variant, _) in dropmates:
            counts[SLUG[variant]] = counts.get(SLUG[variant], 0) + 1
        notes = ["# positions met in the games of the main files (same seeds) and in extra searches, "
                 "where FS's raw legal_moves has a pawn/swallow drop that the oracle removes as a drop mate",
                 "# per variant: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))] + extra_notes
        hdr = header(a.oracle, notes)
        hdr[-1] = "# columns: slug<TAB>fen<TAB>in_check(0|1)<TAB>sorted legal moves (oracle's, drop mates removed)"
        path = out / "drop-mates.tsv"
        path.write_text("\n".join(hdr + rows) + "\n")
        print(f"{path}: {len(rows)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
