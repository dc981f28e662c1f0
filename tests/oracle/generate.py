#!/usr/bin/env python3
"""Generate koma's move-list test data from Fairy-Stockfish (the oracle).

Run from the repository root (needs pyffish: python3 -m pip install pyffish):

    python3 tests/oracle/generate.py

Options: --oracle PATH (default: $FSORACLE, else fsoracle.py beside this
file: tests/oracle/fsoracle.py), --out DIR (default: tests/oracle),
--only SLUG[,SLUG...] (write just those files; "drop-mates" names the
drop-mate file), --jobs N (worker processes; default: CPUs, at most 4),
--verify N (write nothing; check the speed-ups below against plain pyffish
on N positions per variant). Output is deterministic for a given pyffish
version and oracle, whatever --jobs: every random choice comes from a seeded
random.Random; only the date in the header changes from run to run.
Takes about 1.5-4 minutes on 2 cores (pyffish costs ~3 ms a call).

The legal moves come from the oracle's own legal_moves() (fsoracle.py is
imported from its path): Fairy-Stockfish's legal moves with pawn-drop mate
(swallow-drop mate in tori shogi) removed where the game forbids it. For
speed, the pyffish module inside the oracle is wrapped (class FastSF): a
pawn drop that does not land in front of the enemy king is answered "gives
no check" without asking FS (exact: a drop uncovers no line), and the last
legal_moves() answer is reused.

Variants not built into pyffish (gorogoroplus) are loaded from their
variants.ini definition (VARIANTS_INI, Fairy-Stockfish's own), and the oracle's
table of pawn-drop-mate variants is completed where its rules say so
(MORE_DROP_MATE_ILLEGAL). In check shogi (CHECK_COUNTING), FS counts checks:
the move that gives check ends the game (legal_moves() is then empty; the
position is kept, in check with no legal move), FENs are written without FS's
check counter, and the oracle's drop-mate test is asked with the counter put
back (class ChecksReset), as a drop mate is a check that cannot be answered.

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
recorded; check shogi: a check, recorded as said above), or after
MAX_PLIES. Every position is looked up from its FEN alone (no move history;
in check shogi the FEN's check counter says whether a check was given).
Distinct positions (FEN without the move counters) go
into a pool; from it the file takes every mate (up to 15 % of the target),
positions in check (up to 25 %), then a seeded random sample of the rest,
preferring positions with pieces in hand or promoted pieces; the lines come
out in the order the games visited them. Positions given by hand (EXTRA,
e.g. a pawn-drop-mate position in judkins, shogi's drop-mate positions read
as check shogi) are added at the end.

Drop-mate positions are those met in the games above (at most
DROPMATE_PER_GAME per game, as a random game can sit in one mating net for
many plies), plus, for a variant with fewer than DROPMATE_WANT, further
games (base seed 90000 + 1000 * index) until there are enough.
"""
import argparse
import datetime
import importlib.util
import multiprocessing
import os
import random
import re
import shlex
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# FS variant name -> koma slug
SLUG = {
    "judkins": "judkins-shogi", "shogi": "shogi", "minishogi": "minishogi",
    "gorogoro": "gorogoro-shogi", "euroshogi": "euroshogi", "yarishogi": "yari-shogi",
    "torishogi": "tori-shogi", "dobutsu": "dobutsu-shogi", "kyotoshogi": "kyoto-shogi",
    "shoshogi": "sho-shogi", "okisakishogi": "okisaki-shogi", "gorogoroplus": "gorogoro-plus",
    "checkshogi": "check-shogi", "micro": "micro-shogi", "cannonshogi": "cannon-shogi",
}
DROP_MATE_VARIANTS = ["judkins", "shogi", "minishogi", "gorogoro", "euroshogi", "torishogi",
                      "okisakishogi", "gorogoroplus"]
# Variants the oracle (fsoracle.py) does not list in its DROP_MATE_ILLEGAL but
# whose pawn may not be dropped to mate, as their rules say (Fairy-Stockfish:
# shogiPawnDropMateIllegal); added to the oracle's table when it is loaded.
MORE_DROP_MATE_ILLEGAL = {"okisakishogi": "P", "gorogoroplus": "P"}
# Variants that pyffish knows only from a variants.ini definition, loaded with
# pyffish.load_variant_config() when the oracle is loaded. gorogoroplus and
# cannonshogi are Fairy-Stockfish's own definitions, verbatim from its
# src/variants.ini (GitHub fairy-stockfish/Fairy-Stockfish, commit c19b5f6c),
# where they are not built in.
VARIANTS_INI = """
[gorogoroplus:gorogoro]
startFen = sgkgs/5/1ppp1/1PPP1/5/SGKGS[LNln] w 0 1
lance = l
shogiKnight = n
promotedPieceType = l:g n:g
pieceToCharTable = P....SLN.G.+....+Kp....sln.g.+....+k

[cannonshogi:shogi]
dropNoDoubled = -
shogiPawnDropMateIllegal = false
soldier = p
cannon = u
customPiece1 = a:pR
customPiece2 = c:mBcpB
customPiece3 = i:pB
customPiece4 = w:mRpRmFpB2
customPiece5 = f:mBpBmWpR2
promotedPieceType = u:w a:w c:f i:f p:g
startFen = lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[-] w 0 1
"""
# Variants where Fairy-Stockfish counts checks (checkCounting; one check
# wins). Its FEN then carries the checks still to give ("1+1"), which koma
# does not read: the files have FENs without that field. The game ends with
# the move that gives check: pyffish.legal_moves() is then empty, and such
# positions are kept (in check, no legal move), as koma ends the game there too.
CHECK_COUNTING = {"checkshogi"}
CHECKS_RE = re.compile(r" \d+\+\d+(?= )")
MAX_PLIES = 200
# drop-mate file: extra search games per variant where the main games found fewer than DROPMATE_WANT
DROPMATE_WANT = 4
DROPMATE_PER_GAME = 1
DROPMATE_GAMES = {"judkins": 200, "minishogi": 200, "gorogoro": 200, "shogi": 40, "euroshogi": 40, "torishogi": 60,
                  "okisakishogi": 40, "gorogoroplus": 200}
MOVE_RE = re.compile(r"^(?:(\+?[A-Za-z])@|([a-z])(\d+))([a-z])(\d+)([+-]?)$")


def load_oracle(path):
    spec = importlib.util.spec_from_file_location("fsoracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    defined = re.findall(r"^\[(\w+)", VARIANTS_INI, re.M)
    if not all(v in mod.sf.variants() for v in defined):
        mod.sf.load_variant_config(VARIANTS_INI)
    for variant, letter in MORE_DROP_MATE_ILLEGAL.items():
        mod.DROP_MATE_ILLEGAL.setdefault(variant, letter)
    mod.sf = FastSF(ChecksReset(mod.sf))
    return mod


def without_checks(fen):
    """A FEN without Fairy-Stockfish's check counter ("... w - - 1+1 0 1")."""
    return CHECKS_RE.sub("", fen)


class ChecksReset:
    """pyffish for the oracle's drop-mate test where FS counts checks.

    The oracle calls a pawn drop a drop mate when it gives check and
    legal_moves(fen, [drop]) is empty. Where checks are counted, the check
    itself ends the game in FS and legal_moves() is then always empty, which
    would make every checking pawn drop a "mate". Mate means that the check
    has no legal answer by the rules of movement: so legal_moves() after
    moves is asked of the position after them with the check counter put
    back to 1+1 (the game not over). Not a speed-up: --verify's plain oracle
    goes through it too."""

    def __init__(self, sf):
        self._sf = sf

    def __getattr__(self, name):
        return getattr(self._sf, name)

    def legal_moves(self, variant, fen, moves):
        if moves and variant in CHECK_COUNTING:
            after = self._sf.get_fen(variant, fen, moves)
            fen, moves = CHECKS_RE.sub(" 1+1", after), []
        return self._sf.legal_moves(variant, fen, moves)


class FastSF:
    """Stand-in for the pyffish module inside the oracle, for speed only.

    Every pyffish call costs ~3 ms here (it re-initialises the variant), and
    the oracle asks gives_check() for every pawn drop. A dropped pawn (or
    swallow) moves one step forward and a drop uncovers no line, so the drop
    gives check exactly when it lands on the square in front of the enemy
    king; other pawn drops get False without asking Fairy-Stockfish. The last
    legal_moves() answer is also remembered, so the raw list the generator
    compares with costs nothing. `--verify N` checks this against plain pyffish.
    """

    def __init__(self, sf):
        self._sf = sf
        self._last = None

    def __getattr__(self, name):
        return getattr(self._sf, name)

    def legal_moves(self, variant, fen, moves):
        key = (variant, fen, tuple(moves))
        if self._last is None or self._last[0] != key:
            self._last = (key, self._sf.legal_moves(variant, fen, moves))
        return list(self._last[1])

    def gives_check(self, variant, fen, moves):
        if len(moves) == 1 and not self.drop_may_check(fen, moves[0]):
            return False
        return self._sf.gives_check(variant, fen, moves)

    @staticmethod
    def drop_may_check(fen, move):
        m = MOVE_RE.match(move)
        if m is None or not m.group(1) or m.group(1).upper() not in ("P", "S"):
            return True  # not a pawn/swallow drop: ask FS
        side = fen.split(" ")[1]
        board = board_of(fen)
        step = 1 if side == "w" else -1
        ahead = f"{m.group(4)}{int(m.group(5)) + step}"
        return board.get(ahead) == ("k" if side == "w" else "K")


# Start FENs in Fairy-Stockfish's notation (the start positions of
# tests/perft/*.perft); kept here so that the generator depends on no other file.
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
    "okisakishogi": ["lnsgkqgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQKGSNL[] w - - 0 1"],
    "gorogoroplus": ["sgkgs/5/1ppp1/1PPP1/5/SGKGS[LNln] w - - 0 1"],
    "checkshogi": ["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"],
    "micro": ["kb+r+l/p3/4/3P/+L+RBK[] w - - 0 1"],
    "cannonshogi": ["lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[] w - - 0 1"],
}

# Sets per output file: (variant, start fen, number of positions, base seed)
SETS = {
    "judkins": [("judkins", STARTS["judkins"][0], 400, 1000),
                ("judkins", STARTS["judkins"][1], 200, 2000)],
}
for _i, _v in enumerate(["shogi", "minishogi", "gorogoro", "euroshogi", "yarishogi",
                         "torishogi", "dobutsu", "kyotoshogi", "shoshogi", "okisakishogi",
                         "gorogoroplus", "checkshogi", "micro", "cannonshogi"]):
    SETS[_v] = [(_v, STARTS[_v][0], 150, 3000 + 1000 * _i)]

# Positions always included (variant -> fens), e.g. a pawn-drop-mate test.
EXTRA = {
    "judkins": ["kr4/6/1G4/6/6/5K[P] w - - 0 1"],
    # Shogi positions of drop-mates.tsv where a pawn drop would mate, read as
    # check shogi positions: the drop stays illegal there.
    "checkshogi": [
        "1ns1k2r1/+L1p1B1Ps1/1P7/ps1p2RP1/5g3/+s1P5b/L2P1g3/2+l6/4K3+l[NPPggnnpppppppp] b - - 1 69",
        "1p3B2n/1gn2P3/2p1pgLl1/P2+R2p2/5pnp1/2kp3+sP/K8/G1SS5/L4G2L[NPPPPSRBpppp] w - - 1 91",
        "4knsn1/2G4p1/l4S3/l1r3G2/p1P1gr3/5g1Np/P1N+s5/3B5/L1SKB1P1+l[PPPPPppppppp] w - - 0 61",
    ],
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


def drop_check_possible(variant, fen):
    """Can the side to move drop a pawn (swallow) giving check? Needs one in
    hand and an empty square in front of the enemy king."""
    pawn = "S" if variant == "torishogi" else "P"
    side = fen.split(" ")[1]
    if (pawn if side == "w" else pawn.lower()) not in hand_of(fen):
        return False
    board = board_of(fen)
    king = "k" if side == "w" else "K"
    step = 1 if side == "w" else -1
    for sq, pc in board.items():
        if pc == king:
            ahead = f"{sq[0]}{int(sq[1:]) - step}"
            return int(sq[1:]) - step >= 1 and ahead not in board and int(sq[1:]) - step <= len(fen.split(" ")[0].split("/"))
    return False


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

    def game(self, variant, start, seed, on_position, search=False):
        """Play one random game; on_position(ply, fen, legal, check, dropmate) per position.

        With search=True (looking for drop mates only), positions where no
        pawn drop can give check are not shown to on_position, and the game
        there follows FS's raw move list (cheaper)."""
        rng = random.Random(seed)
        fen = start
        for ply in range(MAX_PLIES + 1):
            if variant in ("dobutsu", "shoshogi") and self.sf.is_immediate_game_end(variant, fen, [])[0]:
                return
            if search and not drop_check_possible(variant, fen):
                legal = self.sf.legal_moves(variant, fen, [])
            else:
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
        state = {"game": 0, "seed": seed0}

        def on_position(ply, fen, legal, check, dm):
            key = pos_key(fen)
            if dm and variant in DROP_MATE_VARIANTS:
                add_dropmate(dropmates, variant, key, state["seed"], (fen, check, legal))
            if key in pool:
                return
            pool[key] = (fen, check, legal, state["game"], ply)
            order.append(key)

        # play games until the pool is about 4x the target (at most 400 games)
        g = 0
        while len(pool) < 4 * target and g < 400:
            state["game"], state["seed"] = g, seed0 + g
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
    return f"{without_checks(fen)}\t{int(check)}\t{' '.join(legal)}"


def header(extra):
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


def build_variant(oracle_path, variant):
    """Positions of one output file: (lines, header notes, drop-mate finds)."""
    gen = Gen(load_oracle(oracle_path))
    dropmates = {}
    lines, notes, seen = [], [], set()
    t0 = time.time()
    for (v, start, target, seed0) in SETS[variant]:
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
            add_dropmate(dropmates, variant, pos_key(fen), ("extra", fen), (fen, check, legal))
        notes.append(f"# extra: {fen!r} (given by hand)")
        lines.append(line(fen, check, legal))
    print(f"generate: {variant}: {time.time() - t0:.1f} s", file=sys.stderr)
    return variant, lines, notes, dropmates


def add_dropmate(found, variant, key, game, row):
    """Keep a drop-mate position, at most DROPMATE_PER_GAME of them per game
    (a random game can sit in the same mating net for many plies)."""
    if (variant, key) in found:
        return
    if sum(1 for v in found.values() if v[0] == game) >= DROPMATE_PER_GAME:
        return
    found[(variant, key)] = (game, row)


def search_dropmates(oracle_path, variant, seed0, games, want):
    """Extra random games looking for drop-mate positions only, until `want`
    are found or after `games` games."""
    gen = Gen(load_oracle(oracle_path))
    found = {}
    g = 0
    while g < games and len(found) < want:
        g += 1
        gen.game(variant, STARTS[variant][0], seed0 + g - 1,
                 lambda ply, fen, legal, check, dm: dm and add_dropmate(found, variant, pos_key(fen), ("search", g), (fen, check, legal)),
                 search=True)
    return variant, found, seed0, g


def verify(oracle_path, n):
    """Check the FastSF shortcuts against plain pyffish on n random positions per variant."""
    o = load_oracle(oracle_path)
    plain = o.sf._sf
    gen = Gen(o)
    bad = 0
    for variant in SETS:
        count = [0]

        def on_position(ply, fen, legal, check, dm):
            nonlocal bad
            if count[0] >= n:
                return
            count[0] += 1
            o.sf = plain
            ref = sorted(o.legal_moves(variant, fen, []))
            o.sf = gen.sf
            end = plain.is_immediate_game_end(variant, fen, [])[0]
            if ref != legal or (end and variant not in ("dobutsu", "shoshogi") and variant not in CHECK_COUNTING):
                bad += 1
                print(f"MISMATCH {variant} {fen}", file=sys.stderr)

        for g in range(100):
            if count[0] >= n:
                break
            gen.game(variant, STARTS[variant][0], 777 + g, on_position)
        print(f"verify: {variant}: {count[0]} positions checked", file=sys.stderr)
    print(f"verify: {bad} mismatches", file=sys.stderr)
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", default=os.environ.get("FSORACLE", str(Path(__file__).resolve().parent / "fsoracle.py")))
    ap.add_argument("--out", default=str(REPO / "tests" / "oracle"))
    ap.add_argument("--only", default="", help="comma-separated slugs (and/or drop-mates) to write")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="worker processes (output does not depend on it)")
    ap.add_argument("--verify", type=int, default=0, metavar="N",
                    help="instead of writing files, check the speed-ups against plain pyffish on N positions per variant")
    a = ap.parse_args()
    a.oracle = str(Path(a.oracle).resolve())
    if not Path(a.oracle).exists():
        sys.exit(f"generate: oracle not found: {a.oracle} (use --oracle or FSORACLE)")
    if a.verify:
        sys.exit(0 if verify(a.oracle, a.verify) else 1)
    only = set(s for s in a.only.split(",") if s)
    want_dm = not only or "drop-mates" in only
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    variants = [v for v in SETS if not only or SLUG[v] in only or (want_dm and v in DROP_MATE_VARIANTS)]
    # biggest jobs first
    variants.sort(key=lambda v: -sum(t for (_, _, t, _) in SETS[v]) * (3 if v in ("shogi", "euroshogi", "shoshogi") else 1))

    dropmates = {}
    with multiprocessing.Pool(max(1, a.jobs)) as pool:
        results = pool.starmap(build_variant, [(a.oracle, v) for v in variants])
        for variant, lines, notes, dms in results:
            dropmates.update(dms)
            slug = SLUG[variant]
            if not only or slug in only:
                path = out / f"{slug}.tsv"
                path.write_text("\n".join(header(notes) + lines) + "\n")
                print(f"{path}: {len(lines)} positions", file=sys.stderr)

        if want_dm:
            # more games where the main sets found few drop mates
            jobs = []
            for i, variant in enumerate(DROP_MATE_VARIANTS):
                have = sum(1 for (v, _) in dropmates if v == variant)
                if have < DROPMATE_WANT:
                    jobs.append((a.oracle, variant, 90000 + 1000 * i, DROPMATE_GAMES[variant], DROPMATE_WANT - have))
            extra_notes = []
            for variant, found, s0, n in pool.starmap(search_dropmates, jobs):
                extra_notes.append(f"# search: {variant}: {n} extra games with seeds {s0}..{s0 + n - 1}, {len(found)} found")
                for k, val in found.items():
                    dropmates.setdefault(k, val)

    if want_dm:
        rows = []
        for variant in DROP_MATE_VARIANTS:
            for (v, key), (_, (fen, check, legal)) in sorted(dropmates.items(), key=lambda kv: kv[0][1]):
                if v == variant:
                    rows.append(f"{SLUG[variant]}\t{line(fen, check, legal)}")
        counts = {}
        for (variant, _) in dropmates:
            if variant in DROP_MATE_VARIANTS:
                counts[SLUG[variant]] = counts.get(SLUG[variant], 0) + 1
        notes = ["# positions met in the games of the main files (same seeds) and in extra searches, "
                 "where FS's raw legal_moves has a pawn/swallow drop that the oracle removes as a drop mate",
                 "# per variant: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))] + extra_notes
        hdr = header(notes)
        hdr[-1] = "# columns: slug<TAB>fen<TAB>in_check(0|1)<TAB>sorted legal moves (oracle's, drop mates removed)"
        path = out / "drop-mates.tsv"
        path.write_text("\n".join(hdr + rows) + "\n")
        print(f"{path}: {len(rows)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
