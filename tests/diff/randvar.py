#!/usr/bin/env python3
"""Random variants: koma against Fairy-Stockfish on games that neither ships.

From a seed, writes one random variant twice, as a koma variant file
(Markdown + YAML front matter, variants/README.md) and as a Fairy-Stockfish
variants.ini section (loaded with pyffish.load_variant_config), then compares
the two engines on it:

  * perft from the start position (depth 2, depth 3 when the start has at
    most 12 moves), move by move (`koma perft --divide` against a
    Fairy-Stockfish perft through fsoracle.py's legal moves); a mismatch is
    followed down to the first position whose move lists differ;
  * at every ply of a few games (the harness's three styles: random,
    capture, aggressive), the legal moves, the check status and the game-over
    verdict, exactly as tests/diff/harness.py does for the shipped games (its
    Pos, Oracle in --exact mode, Koma and choose are reused from it).

What is varied (the subset both engines express; FS = Fairy-Stockfish):
  board       3-12 files x 4-10 ranks (FS's largeboards limit is 12 x 10);
  holes       in about a third of the variants, 1-3 cells between the camps
              with their 180-degree images are holes (`*` in the setup, FS's
              walls), where every piece of the start keeps a move;
  pieces      a royal piece (K, or another leaper: FS's `king = k:BETZA`)
              and 2-6 other kinds from the shared Betza subset: leapers W F D
              N A H C Z G K, riders R B Q with ranges (R2, B3, ...), the
              nightrider NN, one-letter directions f b l r v s, pairs (fr, rf,
              fs, ...) on single atoms, modes m and c, hoppers p (with a range)
              and g on R B Q (FS customPieceN);
  promotions  about 60% of the kinds, to a random form (FS promotedPieceType);
              a zone of 1 to a third of the ranks; `optional` or `mandatory`
              (FS mandatoryPiecePromotion); dead-end squares (a piece that could
              not move from there may neither stay nor be dropped there: koma's
              derived rule, FS immobilityIllegal);
  drops       on (captures go to hand; sometimes pieces in hand at the start)
              or off (FS pieceDrops, capturesToHand);
  nifu        one kind at most 1 or 2 a file (max_per_file; FS dropNoDoubled,
              dropNoDoubledCount);
  drop mate   one kind may not be dropped to give mate (drop_mate_illegal; the
              oracle's filter, fsoracle.DROP_MATE_ILLEGAL);
  winning     checkmate (and a side without moves loses: FS stalemateValue);
              or check: false, where the royal is captured and the side
              without royals loses (FS checking = false, extinctionPieceTypes);
              or check_wins (FS checkCounting, as check shogi).
Pieces are kept only where Fairy-Stockfish reads them as koma does (with
--no-filter, all are kept): where the two readings of "could never move"
agree (`mobility`), and where FS does not merge parts on one line
(`fs_merges`); nifu is not given to a kind that may be dropped promoted
(FS limits those drops too); immobile drops go only with flip and capture
(with a zone, koma still forces a promotion where the piece could not move on,
FS does not). These differences are described in tests/diff/results.txt.

Usage (a built koma: cargo build --release; pyffish):
    python3 tests/diff/randvar.py --sample            # CI: seeds 1-20, 2 games x 40 plies
    python3 tests/diff/randvar.py --count 300 --seed 1001      # one process
    python3 tests/diff/randvar.py --seeds 17,42 --keep /tmp/rv   # files kept
    python3 tests/diff/randvar.py --print 17          # show seed 17's two texts
    python3 tests/diff/randvar.py --tally --count 320 --seed 1001   # rules drawn

Options: --count N (variants, seeds SEED..SEED+N-1), --seed S, --seeds a,b,
--games G (per variant, default 3), --plies P (default 60), --koma PATH,
--oracle PATH (default: $FSORACLE, else tests/oracle/fsoracle.py beside
this folder), --keep DIR (write every variant's .md and .ini there),
--quiet, --show N (differences printed in full per variant, default 3),
--no-filter (keep the pieces that Fairy-Stockfish reads otherwise than koma),
--tally (only count the rules drawn for the seeds; no engine is run),
--ini-from-koma (give pyffish the section `koma variant export` writes from
each variant's .md instead of this script's own: a check of the exporter),
--import-back (with --ini-from-koma: koma plays the file `koma variant
import` writes back from that section, not the .md: a check of the importer).
Exit: 0 no difference, 1 differences, 2 a tool could not run.
"""
import argparse
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
_spec = importlib.util.spec_from_file_location("harness", HERE / "harness.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)

# ---------------------------------------------------------------------------
# Betza parts and what they reach (Fairy-Stockfish's reading, for the filter)

# atom -> (rank step, file step) pairs, as Fairy-Stockfish's piece.cpp lists them
ATOMS = {"W": [(1, 0)], "F": [(1, 1)], "D": [(2, 0)], "N": [(2, 1)], "A": [(2, 2)],
         "H": [(3, 0)], "C": [(3, 1)], "Z": [(3, 2)], "G": [(3, 3)],
         "K": [(1, 0), (1, 1)], "R": [(1, 0)], "B": [(1, 1)], "Q": [(1, 0), (1, 1)]}
RIDERS = "RBQ"
VERT, HORI = "fbv", "rls"
# the eight images of (a, b) with the direction names that select each
IMAGES = [
    (lambda a, b: (b, a), {"ff", "vv", "rf", "rv"}),
    (lambda a, b: (-b, -a), {"bb", "vv", "lb", "lv"}),
    (lambda a, b: (a, -b), {"rr", "ss", "br", "bs"}),
    (lambda a, b: (-a, b), {"ll", "ss", "fl", "fs"}),
    (lambda a, b: (a, b), {"rr", "ss", "fr", "fs"}),
    (lambda a, b: (-a, -b), {"ll", "ss", "bl", "bs"}),
    (lambda a, b: (b, -a), {"bb", "vv", "rb", "rv"}),
    (lambda a, b: (-b, a), {"ff", "vv", "lf", "lv"}),
]


def directions(dirs, atom_steps):
    out, i = [], 0
    while i < len(dirs):
        c = dirs[i]
        c2 = dirs[i + 1] if i + 1 < len(dirs) else ""
        if c2 and (c2 == c or (c in VERT and c2 in HORI) or (c in HORI and c2 in VERT)):
            out.append(c + c2)
            i += 2
        else:
            out.append(c + c)
            i += 1
    if len(atom_steps) == 1 and atom_steps[0][1] == 0:
        split = []
        for s in out:
            split += [s[0] * 2, s[1] * 2] if s[0] != s[1] else [s]
        out = split
    return out


def offsets(part):
    """(file, rank) unit offsets of a part for sente (FS's reading)."""
    steps = ATOMS[part["atom"]]
    dirs = directions(part["dirs"], steps)
    out = set()
    for a, b in steps:
        for img, names in IMAGES:
            # FS's image k of atom (rank a, file b): (file, rank) below
            if not dirs or names & set(dirs):
                df, dr = img(a, b)
                out.add((df, dr))
    return out


def betza(parts):
    s = ""
    for p in parts:
        s += p["mode"] + p["hop"] + p["dirs"] + p["atom"]
        if p["atom"] == "N" and p.get("ride"):
            s += "N"
        elif p["range"]:
            s += str(p["range"])
    return s


def mobility(parts, cols, rows, holed=frozenset()):
    """(FS's, koma's) sets of squares from which the piece (sente's) can move
    on an empty board with the holes `holed`. FS (immobilityIllegal): a quiet
    move, a hopper read as a rider, and a rider's line read through holes
    (FS asks its attack table on an empty board, where a hole is no blocker,
    then leaves out the holes: a lance below a hole may be dropped; koma
    says it could never move); koma: any move, a rider stopped by a hole, a
    hopper needing a square two or more cells on along its line (past any
    screen, a hole too)."""
    def square(x, y):
        return 0 <= x < cols and 0 <= y < rows and (x, y) not in holed
    fs, km = set(), set()
    for f in range(cols):
        for r in range(rows):
            if (f, r) in holed:
                continue
            for p in parts:
                rider = (p["atom"] in RIDERS or p["ride"]) and p["hop"] != "g"
                reach = p["range"] or max(cols, rows) if rider else 1
                for df, dr in offsets(p):
                    one = square(f + df, r + dr)
                    two = any(square(f + k * df, r + k * dr)
                              for k in range(2, max(cols, rows)))
                    ray = any(square(f + k * df, r + k * dr) for k in range(1, reach + 1))
                    if ray and p["mode"] != "c":
                        fs.add((f, r))
                    if (two if p["hop"] else one):
                        km.add((f, r))
    return fs, km


def line_class(df, dr):
    return "V" if df == 0 else "H" if dr == 0 else "D"


def fs_merges(parts):
    """Whether Fairy-Stockfish would read the piece as more than its parts.

    FS moves a piece by one table per kind of line (slider, hopper,
    grasshopper; horizontal, vertical, diagonal), each unlimited, masked by
    the union of all its parts' reach on an empty board (bitboard.h,
    attacks_bb). Two kinds on one line class in one mode (a slider and a
    hopper, say `fRbpR`) then lend each other their reach: FS lets the rook
    slide backwards as far as the hopper's reach. And FS keeps one range a
    direction for each of those kinds and modes (piece.cpp, from_betza): of
    two parts that give one direction different ranges (`BrlQ2`), the last
    one's wins, where koma moves as either part allows."""
    for modality in "mc":
        seen, ranges = {}, {}
        for p in parts:
            if p["mode"] not in ("", modality):
                continue
            rider = p["atom"] in RIDERS or p["ride"]
            kind = p["hop"] or ("slide" if rider else "leap")
            reach = 1 if p["hop"] == "g" else p["range"]
            for df, dr in offsets(p):
                if ranges.setdefault((kind, df, dr), reach) != reach:
                    return True
                if p["atom"] in RIDERS:
                    seen.setdefault(line_class(df, dr), set()).add(kind)
        if any(len(kinds) > 1 for kinds in seen.values()):
            return True
    return False


def joins_badly(parts):
    """Whether writing the parts one after the other changes them: an atom
    followed by a part that starts with the same atom (`cbR` then `R` is
    `cbRR`, a rider to koma and the rook once to FS; `N` then `N` is the
    nightrider)."""
    return any(betza([a])[-1] == betza([b])[0] for a, b in zip(parts, parts[1:]))


def random_part(rng):
    kind = rng.random()
    mode = rng.choice(["", "", "", "", "m", "c"])
    if kind < 0.5:
        atom = rng.choice("WWFFDNNAHCZGK")
        single = atom in "WFDNAHCZG"
    elif kind < 0.9:
        atom = rng.choice("RRBBQ")
        single = atom != "Q"
    else:
        atom = "N"
        single = True
    dirs = ""
    if rng.random() < 0.55:
        if single and atom not in "WR" and rng.random() < 0.35:
            dirs = rng.choice(["fr", "fl", "br", "bl", "rf", "lf", "rb", "lb", "fs", "bs"])
        else:
            dirs = rng.choice("fbvslr")
            if rng.random() < 0.15 and dirs in "fblr":
                dirs += {"f": "b", "b": "f", "l": "r", "r": "l"}[dirs]
    part = {"mode": mode, "hop": "", "dirs": dirs, "atom": atom, "range": 0, "ride": False}
    if kind >= 0.9:
        part["ride"] = True
    elif atom in RIDERS:
        if rng.random() < 0.15:
            part["hop"] = rng.choice("ppg")
            if part["hop"] == "p" and rng.random() < 0.3:
                part["range"] = rng.randint(2, 4)
        elif rng.random() < 0.35:
            part["range"] = rng.randint(2, 4)
    return part


def random_piece(rng, cols, rows, filt):
    """Parts of a piece that can move from some square on its side of the
    board, and on which the two immobility readings agree (when filt)."""
    while True:
        parts = [random_part(rng) for _ in range(rng.choice([1, 1, 2, 2, 2, 3]))]
        seen = []
        for p in parts:
            if betza([p]) not in (betza([q]) for q in seen):
                seen.append(p)
        parts = seen
        fs, km = mobility(parts, cols, rows)
        home = {(f, r) for f in range(cols) for r in range(max(1, (rows - 1) // 2))}
        if not (home & fs) or not (home & km):
            continue
        if joins_badly(parts) or (filt and (fs != km or fs_merges(parts))):
            continue
        return parts


# ---------------------------------------------------------------------------
# A random variant

LETTERS = "ABCDEFGHIJLMNOPQRSTUVWXYZ"  # K is the royal's


class Variant:
    pass


def generate(seed, filt=True):
    rng = random.Random(f"randvar:{seed}")
    v = Variant()
    v.seed = seed
    v.fs = f"rv{seed}"
    v.cols = rng.choice([3, 4, 5, 5, 6, 6, 7, 7, 8, 9, 9, 10, 11, 12])
    v.rows = rng.choice([4, 5, 5, 6, 6, 7, 7, 8, 9, 9, 10])
    v.zone = rng.randint(1, max(1, v.rows // 3))
    v.promotion = rng.choice(["optional"] * 4 + ["mandatory"] * 2 + ["flip", "capture"])
    if v.promotion in ("flip", "capture"):
        v.zone = 0
    v.drops = rng.random() < 0.75
    v.immobile_drops = rng.random() < 0.15
    if filt and v.zone:
        # with immobile_drops koma still makes a piece promote where it could
        # not move on, FS (immobilityIllegal = false) does not (results.txt)
        v.immobile_drops = False
    v.drop_promoted = v.drops and rng.random() < (0.15 if v.zone else 0.5)
    r = rng.random()
    v.check, v.check_wins = (True, False) if r < 0.75 else ((False, False) if r < 0.9 else (True, True))
    v.flag = not v.check and rng.random() < 0.4
    royal = "K" if rng.random() < 0.6 else rng.choice(["WfF", "FfW", "KN", "WA", "FD", "WF", "KfN"])
    v.royal = [{"mode": "", "hop": "", "dirs": "", "atom": royal, "range": 0, "ride": False}]
    if royal != "K":
        v.royal = []
        i = 0
        while i < len(royal):
            dirs = ""
            while royal[i] in "fbvslr":
                dirs += royal[i]
                i += 1
            v.royal.append({"mode": "", "hop": "", "dirs": dirs, "atom": royal[i], "range": 0,
                            "ride": False})
            i += 1
    letters = list(LETTERS)
    rng.shuffle(letters)
    v.pieces = []
    for i in range(rng.randint(2, 6)):
        p = {"name": f"piece {i + 1}", "letter": letters.pop(),
             "parts": random_piece(rng, v.cols, v.rows, filt), "promo": None}
        if rng.random() < 0.6:
            p["promo"] = {"parts": random_piece(rng, v.cols, v.rows, filt), "letter": letters.pop()}
        v.pieces.append(p)
    v.nifu = v.dropmate = None
    if v.drops and rng.random() < 0.5:
        v.nifu = (rng.choice(v.pieces), rng.choice([1, 1, 2]))
    if v.drops and rng.random() < 0.4:
        v.dropmate = rng.choice(v.pieces)
    if filt and v.nifu and v.drop_promoted and v.nifu[0]["promo"]:
        # FS's dropNoDoubled also stops the kind's promoted drops on a file
        # that has one; koma's max_per_file counts and limits unpromoted
        # pieces only (results.txt)
        v.nifu = None
    v.setup = None
    return v, rng


def place(v, rng):
    """A random start: sente's camp (lower ranks), gote's its 180° turn."""
    camp = max(1, (v.rows - 1) // 2)
    board = [[None] * v.cols for _ in range(v.rows)]  # board[rank][file], rank 0 = sente's first
    kf = rng.randrange(v.cols)
    board[0][kf] = "K"
    per_file = {}
    for p in v.pieces:
        fs, km = mobility(p["parts"], v.cols, v.rows)
        for _ in range(rng.choice([1, 1, 2])):
            free = [(f, r) for r in range(camp) for f in range(v.cols)
                    if board[r][f] is None and (f, r) in fs and (f, r) in km
                    and board[v.rows - 1 - r][v.cols - 1 - f] is None
                    and (v.rows - 1 - r, v.cols - 1 - f) != (r, f)]
            if v.nifu and v.nifu[0] is p:
                free = [(f, r) for f, r in free if per_file.get(f, 0) < v.nifu[1]]
            if not free:
                continue
            f, r = rng.choice(free)
            board[r][f] = p["letter"]
            if p["promo"] and rng.random() < 0.2:
                pfs, pkm = mobility(p["promo"]["parts"], v.cols, v.rows)
                if (f, r) in pfs and (f, r) in pkm:
                    board[r][f] = "+" + p["letter"]
            if v.nifu and v.nifu[0] is p:
                per_file[f] = per_file.get(f, 0) + 1
    for r in range(v.rows):
        for f in range(v.cols):
            pc = board[r][f]
            if pc is not None and pc.isupper():
                board[v.rows - 1 - r][v.cols - 1 - f] = pc.lower()
    holes(v, board)
    hand = ""
    if v.drops and rng.random() < 0.3:
        hand = "".join(rng.choice(v.pieces)["letter"] for _ in range(rng.randint(1, 2)))
        hand = hand + hand.lower()
    rows = []
    for r in reversed(range(v.rows)):
        s, e = "", 0
        for f in range(v.cols):
            if board[r][f] is None:
                e += 1
            else:
                s += (str(e) if e else "") + board[r][f]
                e = 0
        rows.append(s + (str(e) if e else ""))
    v.board = "/".join(rows)
    v.hand = hand
    v.start = f"{v.board}[{hand}] w - - 0 1" if v.drops else f"{v.board} w - - 0 1"


def holes(v, board):
    """Holes ('*': cells that are not on the board, Fairy-Stockfish's walls)
    in about a third of the variants: one to three cells of the ranks
    between the camps, each with its 180-degree image, where they leave
    every piece of the start a move and the two readings of "could never
    move" (mobility) still agree. Drawn from their own random stream, so
    that the rest of a seed's variant does not depend on them."""
    v.holes = set()
    rng = random.Random(f"randvar-holes:{v.seed}")
    camp = max(1, (v.rows - 1) // 2)
    middle = [(f, r) for r in range(camp, v.rows - camp) for f in range(v.cols)]
    if rng.random() >= 0.35 or not middle:
        return
    parts = {p["letter"]: p["parts"] for p in v.pieces}
    parts.update({"+" + p["letter"]: p["promo"]["parts"] for p in v.pieces if p["promo"]})
    parts["K"] = v.royal
    for _ in range(rng.randint(1, 3)):
        f, r = rng.choice(middle)
        cells = {(f, r), (v.cols - 1 - f, v.rows - 1 - r)}
        holed = v.holes | cells
        if len(holed) >= len(middle):
            break
        readings = {pc: mobility(pp, v.cols, v.rows, holed) for pc, pp in parts.items()}
        if any(fs != km for fs, km in readings.values()):
            continue
        placed = [(pf, pr, board[pr][pf]) for pr in range(camp) for pf in range(v.cols)
                  if board[pr][pf] is not None]
        if all((pf, pr) in readings[pc][1] for pf, pr, pc in placed):
            v.holes = holed
    for f, r in v.holes:
        board[r][f] = "*"


def koma_text(v):
    def piece(name, letter, parts, extra=""):
        return f"    {name}:\n      letter: {letter}\n      betza: \"{betza(parts)}\"\n{extra}"
    out = ["---", f"title: \"Random variant {v.seed}\"", f"slug: rv-{v.seed}", "engine:",
           f"  topology: {{ type: grid, rows: {v.rows}, cols: {v.cols} }}",
           f"  setup: \"{v.board}" + (f"[{v.hand}] w" if v.hand else "") + "\"", "  pieces:"]
    flag = "      wins_on_last_rank: true\n" if v.flag else ""
    out.append(piece("royal", "K", v.royal, "      royal: true\n" + flag).rstrip("\n"))
    for p in v.pieces:
        extra = ""
        if v.nifu and v.nifu[0] is p:
            extra += f"      max_per_file: {v.nifu[1]}\n"
        if v.dropmate is p:
            extra += "      drop_mate_illegal: true\n"
        if p["promo"]:
            extra += (f"      promotion: {{ name: promoted {p['name']}, "
                      f"betza: \"{betza(p['promo']['parts'])}\" }}\n")
        out.append(piece(p["name"], p["letter"], p["parts"], extra).rstrip("\n"))
    out += ["  rules:", f"    promotion_zone: {v.zone}", f"    promotion: {v.promotion}",
            f"    drops: {str(v.drops).lower()}", f"    check: {str(v.check).lower()}"]
    if v.check_wins:
        out.append("    check_wins: true")
    if v.immobile_drops:
        out.append("    immobile_drops: true")
    if v.drop_promoted:
        out.append("    drop_promoted: true")
    out += ["---", "", f"A random variant (tests/diff/randvar.py, seed {v.seed}).", ""]
    return "\n".join(out)


def fs_text(v):
    out = [f"[{v.fs}:shogi]", f"maxRank = {v.rows}", f"maxFile = {v.cols}",
           "pieceToCharTable = -"]
    out += [f"{t} = -" for t in ("shogiPawn", "lance", "shogiKnight", "silver", "gold", "bishop",
                                 "rook", "dragonHorse", "bers")]
    n = 0
    promos = []
    if v.check:
        out.append("king = k" if betza(v.royal) == "K" else f"king = k:{betza(v.royal)}")
    else:
        n += 1
        out += ["king = -", f"customPiece{n} = k:{betza(v.royal)}"]
        out += ["checking = false", "extinctionValue = loss", "extinctionPieceTypes = k"]
    for p in v.pieces:
        n += 1
        out.append(f"customPiece{n} = {p['letter'].lower()}:{betza(p['parts'])}")
        if p["promo"]:
            n += 1
            out.append(f"customPiece{n} = {p['promo']['letter'].lower()}:{betza(p['promo']['parts'])}")
            promos.append(f"{p['letter'].lower()}:{p['promo']['letter'].lower()}")
    out.append("promotedPieceType = " + " ".join(promos))
    zone = v.zone or v.rows  # flip, capture: everywhere
    top = range(v.rows - zone + 1, v.rows + 1)
    out.append("promotionRegionWhite = " + " ".join(f"*{r}" for r in top))
    out.append("promotionRegionBlack = " + " ".join(f"*{r}" for r in range(1, zone + 1)))
    out.append(f"mandatoryPiecePromotion = {str(v.promotion != 'optional').lower()}")
    out.append(f"pieceDemotion = {str(not v.zone).lower()}")
    out.append(f"piecePromotionOnCapture = {str(v.promotion == 'capture').lower()}")
    out.append(f"dropPromoted = {str(v.drop_promoted).lower()}")
    if v.flag:
        out += ["flagPiece = k", f"flagRegionWhite = *{v.rows}", "flagRegionBlack = *1",
                "flagPieceSafe = true"]
    out.append(f"pieceDrops = {str(v.drops).lower()}")
    out.append(f"capturesToHand = {str(v.drops).lower()}")
    out.append(f"immobilityIllegal = {str(not v.immobile_drops).lower()}")
    out.append("shogiPawnDropMateIllegal = false")
    if v.nifu:
        out.append(f"dropNoDoubled = {v.nifu[0]['letter'].lower()}")
        out.append(f"dropNoDoubledCount = {v.nifu[1]}")
    else:
        out.append("dropNoDoubled = -")
    if v.check_wins:
        out.append("checkCounting = true")
    out.append(f"startFen = {v.start}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# Comparing

class Refused(Exception):
    """`koma variant export` says the variant cannot go to Fairy-Stockfish."""


class Run:
    """The oracle (harness.Oracle, plain pyffish calls) and koma for variants."""

    def __init__(self, a):
        self.a = a
        self.oracle = harness.Oracle(a.oracle, True, False)
        self.sf = self.oracle.plain_sf
        self.dir = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="randvar-"))
        self.dir.mkdir(parents=True, exist_ok=True)

    def load(self, v):
        v.md = koma_text(v)
        v.path = self.dir / f"rv-{v.seed}.md"
        v.path.write_text(v.md)
        v.ini = self.exported(v) if self.a.ini_from_koma else fs_text(v)
        if v.ini is None:
            return
        (self.dir / f"rv-{v.seed}.ini").write_text(v.ini)
        if self.a.import_back:
            v.path = self.imported(v)
        self.load_section(v, v.dropmate["letter"] if v.dropmate else None)

    def load_section(self, v, dropmate_letter):
        """Loads `v.ini` into pyffish, and gives the oracle the rules where
        pyffish alone does not say them: the piece whose drop may not mate,
        and check counting."""
        self.oracle.sf_raw.load_variant_config(v.ini)
        if dropmate_letter:
            for mod in (self.oracle.plain, self.oracle.fast):
                mod.DROP_MATE_ILLEGAL[v.fs] = dropmate_letter
        if v.check_wins:
            self.oracle.gen.CHECK_COUNTING.add(v.fs)

    def compare(self, v):
        """Perft from the start move by move, then the random games: (perft
        nodes, positions, differences: the perft's first)."""
        nodes, pd = self.perft(v)
        positions, diffs = self.games(v)
        return nodes, positions, ([pd] if pd else []) + diffs

    def compare_counted(self, v, label, name, total, rename=None):
        """compare(v) with its report: the first differences in full, one
        line for the variant, the totals added up; False where the harness
        could not compare (the error printed). export.py and import.py."""
        t1 = time.time()
        try:
            nodes, positions, diffs = self.compare(v)
        except (harness.HarnessError, subprocess.TimeoutExpired) as e:
            print(f"HARNESS ERROR {label}: {e}", flush=True)
            return False
        for d in diffs[:3]:
            text = describe(v, d, self.a)
            print(text.replace(*rename) if rename else text, flush=True)
        total["variants"] += 1
        total["positions"] += positions
        total["nodes"] += nodes
        total["diffs"] += len(diffs)
        print(f"{label} as [{name}]: perft nodes {nodes}, positions {positions}, "
              f"differences {len(diffs)} ({time.time() - t1:.1f} s)", flush=True)
        return True

    def exported(self, v):
        """The section `koma variant export` writes for the variant's file."""
        r = subprocess.run([self.a.koma, "variant", "export", str(v.path), "--to", "ini",
                            "--name", v.fs], capture_output=True, text=True, timeout=60)
        if r.returncode != 0 and "cannot be written as" in r.stderr:
            raise Refused(r.stderr.strip().split("\n", 1)[-1].strip())
        if r.returncode != 0:
            # koma refuses the file itself (a start in check): another start
            return None
        return r.stdout

    def imported(self, v):
        """The koma file `koma variant import` writes from the section."""
        ini = self.dir / f"rv-{v.seed}.ini"
        back = self.dir / f"rv-{v.seed}-back.md"
        r = subprocess.run([self.a.koma, "variant", "import", str(ini), v.fs, "-o", str(back)],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise harness.HarnessError(f"koma variant import {ini} {v.fs}: {r.stderr.strip()}")
        return back

    def start_ok(self, v):
        """Neither side attacked at the start, and FS reads the start as written."""
        if v.ini is None:
            return False
        if harness.pos_key(self.sf.get_fen(v.fs, v.start, [])) != harness.pos_key(v.start):
            return False
        other = v.start.replace(" w ", " b ")
        return not self.sf.gives_check(v.fs, v.start, []) and not self.sf.gives_check(v.fs, other, [])

    def over(self, v, fen, moves):
        """Whether FS ends the game here (only asked where it can end early:
        a royal captured; a check given where giving check wins)."""
        if v.check_wins:
            return bool(moves) and self.sf.gives_check(v.fs, fen, moves)
        if v.check:
            return False
        return self.sf.is_immediate_game_end(v.fs, fen, moves)[0]

    def fs_perft(self, v, moves, depth):
        if self.over(v, v.start, moves):
            return 0
        legal = self.oracle.plain.legal_moves(v.fs, v.start, moves)
        if depth == 1:
            return len(legal)
        return sum(self.fs_perft(v, moves + [m], depth - 1) for m in legal)

    def koma(self, v, args):
        r = subprocess.run([self.a.koma, *args, "--variant", str(v.path), "--fen", v.start,
                            "--notation", "fairy"], capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise harness.HarnessError(f"koma {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    def koma_divide(self, v, moves, depth):
        extra = ["--moves", *moves] if moves else []
        out = {}
        for line in self.koma(v, ["perft", "--depth", str(depth), "--divide", *extra]).splitlines():
            m, _, n = line.partition(": ")
            if m != "total":
                out[m] = int(n)
        return out

    def fs_moves(self, v, moves):
        if self.over(v, v.start, moves):
            return []
        return self.oracle.plain.legal_moves(v.fs, v.start, moves)

    def perft(self, v):
        """Perft from the start, move by move; on a mismatch, the first
        position (moves from the start) whose move lists differ."""
        root = self.fs_moves(v, [])
        depth = 3 if len(root) <= 12 else 2
        path = []
        nodes = 0
        while True:
            kd = self.koma_divide(v, path, depth) if depth > 1 else None
            fm = self.fs_moves(v, path)
            km = set(kd) if kd is not None else set(self.koma(v, ["moves", "--moves", *path]).split())
            if set(fm) != km:
                return nodes, {"kind": "perft", "moves": path,
                               "koma_only": sorted(km - set(fm)), "oracle_only": sorted(set(fm) - km)}
            if depth == 1:
                return nodes, None
            bad = None
            for m in sorted(fm):
                n = self.fs_perft(v, path + [m], depth - 1)
                nodes += n
                if n != kd[m] and bad is None:
                    bad = m
            if bad is None:
                return nodes, None
            path, depth = path + [bad], depth - 1

    def games(self, v):
        diffs, positions = [], 0
        koma = harness.Koma(self.a.koma, str(v.path))
        try:
            for g in range(self.a.games):
                style = harness.STYLES[g % len(harness.STYLES)]
                rng = random.Random(f"randvar:{v.seed}:{g}")
                pos = harness.Pos.parse(v.start)
                rows, moves = [], []
                for ply in range(self.a.plies + 1):
                    fen = pos.fen()
                    legal, res = self.oracle.position(v.fs, fen, pos, pos.key())
                    rows.append((ply, fen, legal, res))
                    if not legal or ply == self.a.plies:
                        break
                    m = harness.choose(rng, style, pos, v.fs, legal)
                    pos.apply(m, keep_hand=v.drops)
                    moves.append(m)
                ref = self.sf.get_fen(v.fs, v.start, moves)
                if harness.pos_key(ref) != pos.key():
                    raise harness.HarnessError(f"computed FEN {pos.fen()!r} != pyffish {ref!r}")
                checks = self.oracle.checks(v.fs, v.start, moves, [r[1] for r in rows])
                answers = koma.query_many([r[1] for r in rows])
                for (ply, fen, legal, res), check, k in zip(rows, checks, answers):
                    positions += 1
                    d = {}
                    if k[0] != "ok":
                        d["koma_error"] = f"{k[0]}: {k[1]}"
                    else:
                        _, kc, kr, km = k
                        if set(km) != set(legal) or len(set(km)) != len(km):
                            d["koma_only"] = sorted(set(km) - set(legal))
                            d["oracle_only"] = sorted(set(legal) - set(km))
                        if kc != check:
                            d["check"] = f"koma {int(kc)} oracle {int(check)}"
                        if kr != res:
                            d["result"] = f"koma {kr} oracle {res}"
                    if d:
                        d.update(kind="game", game=g, ply=ply, style=style, fen=fen)
                        diffs.append(d)
        finally:
            koma.stop()
        return positions, diffs


def describe(v, d, a):
    if d["kind"] == "perft":
        where = f"after {' '.join(d['moves'])}" if d["moves"] else "at the start"
        out = [f"DIFF rv-{v.seed} perft: move lists differ {where}",
               f"  start:       {v.start}"]
    else:
        out = [f"DIFF rv-{v.seed} game {d['game']} ply {d['ply']} ({d['style']})",
               f"  fen:         {d['fen']}"]
    for k, label in (("koma_error", "koma error"), ("check", "check"), ("result", "result")):
        if k in d:
            out.append(f"  {label + ':':<13}{d[k]}")
    if "koma_only" in d:
        out.append(f"  koma-only:   {' '.join(d['koma_only']) or '-'}")
        out.append(f"  oracle-only: {' '.join(d['oracle_only']) or '-'}")
    out.append(f"  files:       python3 {Path(__file__).name} --print {v.seed} "
               f"(or --seeds {v.seed} --keep DIR)")
    return "\n".join(out)


def tally(a):
    """How often each rule comes up among the seeds (no engine is run)."""
    seeds = [int(s) for s in a.seeds.split(",") if s.strip()] or list(range(a.seed, a.seed + a.count))
    t = {}

    def add(k):
        t[k] = t.get(k, 0) + 1
    for seed in seeds:
        v, rng = generate(seed, not a.no_filter)
        add(f"promotion {v.promotion}")
        add("drops" if v.drops else "no drops")
        add("check_wins" if v.check_wins else "checkmate" if v.check else "capture the royal")
        for key, on in (("nifu", v.nifu), ("drop mate illegal", v.dropmate), ("flag (try)", v.flag),
                        ("immobile drops", v.immobile_drops), ("drop promoted", v.drop_promoted),
                        ("royal not K", betza(v.royal) != "K"),
                        ("hopper", any(q["hop"] for p in v.pieces for q in p["parts"]
                                       + (p["promo"]["parts"] if p["promo"] else []))),
                        ("ranged rider", any(q["range"] and not q["hop"] for p in v.pieces
                                             for q in p["parts"]))):
            if on:
                add(key)
        add(f"{len(v.pieces)} kinds")
        # the run's first start (it draws another where that one is in check)
        place(v, rng)
        if v.holes:
            add(f"holes: {len(v.holes)} (first start)")
    print(f"{len(seeds)} variants (seeds {seeds[0]}-{seeds[-1]}):")
    for k in sorted(t):
        print(f"  {k:<22}{t[k]:>5}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="See the module docstring (head of this file) for details.")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", default="")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--sample", action="store_true")
    ap.add_argument("--print", type=int, default=None)
    ap.add_argument("--tally", action="store_true")
    ap.add_argument("--keep", default="")
    ap.add_argument("--no-filter", action="store_true")
    ap.add_argument("--ini-from-koma", action="store_true")
    ap.add_argument("--import-back", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--show", type=int, default=3)
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--oracle", default=os.environ.get("FSORACLE", str(HERE.parent / "oracle" / "fsoracle.py")))
    a = ap.parse_args()
    if a.print is not None:
        v, rng = generate(a.print, not a.no_filter)
        place(v, rng)
        print(koma_text(v))
        print(fs_text(v))
        return
    if a.tally:
        tally(a)
        return
    if a.sample:
        a.seeds, a.games, a.plies = ",".join(str(i) for i in range(1, 21)), 2, 40
    seeds = [int(s) for s in a.seeds.split(",") if s.strip()] or list(range(a.seed, a.seed + a.count))
    a.koma = str(Path(a.koma).resolve())
    if not os.access(a.koma, os.X_OK):
        print(f"randvar: koma binary not found: {a.koma} (cargo build --release, or --koma)",
              file=sys.stderr)
        sys.exit(2)
    try:
        run = Run(a)
    except (Exception, SystemExit) as e:
        print(f"randvar: cannot run the oracle: {e}", file=sys.stderr)
        sys.exit(2)
    t0 = time.time()
    total = {"variants": 0, "positions": 0, "nodes": 0, "diffs": 0, "diff_variants": 0, "retries": 0,
             "refused": 0}
    failed = False
    for seed in seeds:
        v, rng = generate(seed, not a.no_filter)
        try:
            for _try in range(50):
                v.fs = f"rv{seed}t{_try}"
                place(v, rng)
                run.load(v)
                if run.start_ok(v):
                    break
                total["retries"] += 1
            else:
                print(f"rv-{seed}: no start without check in 50 tries", flush=True)
                continue
        except harness.HarnessError as e:
            print(f"HARNESS ERROR rv-{seed}: {e}", flush=True)
            failed = True
            continue
        except Refused as e:
            total["refused"] += 1
            if not a.quiet:
                print(f"rv-{seed}: not exported ({e})", file=sys.stderr, flush=True)
            continue
        t1 = time.time()
        try:
            nodes, positions, diffs = run.compare(v)
        except (harness.HarnessError, subprocess.TimeoutExpired) as e:
            print(f"HARNESS ERROR rv-{seed}: {e}", flush=True)
            failed = True
            continue
        total["variants"] += 1
        total["positions"] += positions
        total["nodes"] += nodes
        total["diffs"] += len(diffs)
        total["diff_variants"] += bool(diffs)
        for d in diffs[:a.show]:
            print(describe(v, d, a), flush=True)
        if not a.quiet:
            print(f"rv-{seed}: {v.cols}x{v.rows} {len(v.pieces)} kinds, "
                  f"{len(v.holes)} holes, "
                  f"{'drops' if v.drops else 'no drops'}, {v.promotion} zone {v.zone}, "
                  f"{'check_wins' if v.check_wins else 'mate' if v.check else 'capture the royal'}; "
                  f"perft nodes {nodes}, positions {positions}, differences {len(diffs)} "
                  f"({time.time() - t1:.1f} s)", file=sys.stderr, flush=True)
    print(f"variants: {total['variants']}, perft nodes: {total['nodes']}, "
          f"positions: {total['positions']}, differences: {total['diffs']} "
          f"(in {total['diff_variants']} variants), time {time.time() - t0:.0f} s"
          + (f"; not exported: {total['refused']}" if a.ini_from_koma else ""))
    sys.exit(2 if failed else 1 if total["diffs"] else 0)


if __name__ == "__main__":
    main()
