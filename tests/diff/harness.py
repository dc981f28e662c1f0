#!/usr/bin/env python3
"""Differential harness: koma's move generator against Fairy-Stockfish (and lishogi).

Plays random and semi-random games in every variant (or --variants a,b) and,
at EVERY ply, compares what koma says about the position with what the
oracle (Fairy-Stockfish through pyffish, wrapped by fsoracle.py) says:

  * the legal moves (sorted, Fairy-Stockfish notation: a2a3, e1a5+ promotes,
    e1a5 declines, c4b4- demotes in kyoto shogi, P@c3 / +P@c3 drops);
  * whether the side to move is in check;
  * whether the game is over and who won (sente, gote, draw or `-`).

Run from anywhere (needs python3 with pyffish, and a built koma:
`cargo build --release`; for check shogi also node with shogiops:
`npm ci --prefix tests/shogiops`):

    python3 tests/diff/harness.py --sample            # small fixed sample, for CI (< 1 min)
    python3 tests/diff/harness.py --games 50 --plies 200 --jobs 2
    python3 tests/diff/harness.py --jobs 2 --max-seconds 2400   # as many games as fit

Options:
  --variants a,b    koma slugs or Fairy-Stockfish names (default: all fifteen)
  --games N         games per variant (default 20; unlimited with --max-seconds)
  --first-game G    number the games from G (default 0): a run stopped by
                    --max-seconds after its games 0..G-1 of each variant is
                    continued by the same command with --first-game G
  --plies P         at most P moves a game (default 200)
  --seed S          base seed (default 1); game g of variant v uses the seed
                    "S:v:g", so a game is the same whatever --jobs is
  --jobs J          worker processes (default: min(2, CPUs))
  --max-seconds T   stop cleanly after T seconds (games in flight stop at the
                    next ply; the positions seen so far are compared and counted)
  --sample          CI sample: 3 games x 40 plies per variant, seed 1 (1678
                    positions; 44 s with --jobs 1 on a loaded machine, the
                    first 1498 about 13 s on 2 idle cores; add --self-check to also
                    verify the speed-ups, about 75 s). Its check shogi games
                    end before any check: run longer games for that ending
  --self-check      also recompute every answer the slow, plain way (see
                    "Speed-ups") and count any disagreement as a harness error
  --exact           use only the plain way (no speed-ups; ~3x slower)
  --backend B       pyffish (default) or ffish: the same Fairy-Stockfish
                    functions answered by npm ffish (Fairy-Stockfish as
                    WebAssembly, `npm ci --prefix tests/ffish`) in one node
                    process per worker (tests/ffish/oracle.cjs), which keeps
                    its board instead of re-initialising the variant at every
                    call as pyffish does (see "Backends")
  --compare-backends  also ask the other backend every question the oracle
                    answers (legal moves and verdict of every position, the
                    check flags, the FEN after the game) and count any
                    disagreement as a harness error; games follow --backend
  --koma PATH       koma binary (default: <repo>/target/release/koma)
  --koma-module     ask the Python module `koma` (python3 -m pip install
                    ./crates/koma-py) in this process instead of a koma binary
  --oracle PATH     fsoracle.py (default: $FSORACLE, else the repository's
                    tests/oracle/fsoracle.py, found from this file's own path)
  --show N          print at most N differences per variant in full (default 5;
                    all of them go to --diff-file)
  --diff-file PATH  write every difference as one JSON object a line
  --quiet           no progress lines on stderr

Output: one block per difference (printed as found, up to --show per
variant), then a summary table per variant, then the final line
`positions: N, differences: D`. Exit code: 0 if D = 0, 1 if D > 0, 2 if koma
or the oracle cannot be run (or the harness disagrees with itself under
--self-check).

A difference block is reproducible on its own:
    DIFF <slug> game <g> ply <p> (<style>, seed <S:v:g>)
      fen:         <Fairy-Stockfish FEN of the position>
      koma-only:   moves koma lists and the oracle does not
      oracle-only: moves the oracle lists and koma does not
      check:       koma <0|1> oracle <0|1>          (only if they differ)
      result:      koma <r> oracle <r>              (only if they differ)
      koma error:  <message>                        (koma refused the FEN / died)
      reproduce:   echo '<fen>' | koma moves --variant <slug> --batch --notation fairy
                   python3 fsoracle.py moves <fs-name> '<fen>'

Oracle semantics (per position, from its FEN alone, no move history):
  * legal moves: fsoracle.legal_moves(variant, fen, []) -- Fairy-Stockfish's
    legal moves with pawn-drop mate (swallow-drop mate in tori shogi) removed
    where the game forbids it;
  * game over: pyffish.is_immediate_game_end (dobutsu: lion captured or lion
    safe on the far rank; sho shogi: king and prince gone) -- then the oracle's
    legal list is empty and the winner comes from its value; otherwise, with
    no legal move, pyffish.game_result (mate or stalemate); a value > 0 wins
    for the side to move, < 0 loses, 0 is a draw;
  * check: pyffish's gives_check (FS's checkers() of the side to move). FS has
    no royal piece in dobutsu, so check is always 0 there (koma must say 0),
    and none in sho shogi while king and prince are both on the board (0).
  * variants defined in Fairy-Stockfish's variants.ini (goro goro plus,
    cannon shogi) are
    loaded into pyffish, and the oracle's pawn-drop-mate table is completed
    (okisaki, goro goro plus), from tests/oracle/generate.py (VARIANTS_INI,
    MORE_DROP_MATE_ILLEGAL), which generates the oracle files the same way;
  * check shogi: FS counts checks, and its FEN says how many are left; from a
    FEN without the count a side in check is not lost in FS. The harness asks
    FS whether a position whose side to move is in check is over with the
    count the check left (the opponent's one check spent): FS then ends the
    game, as it does after a checking move in play. The oracle's drop-mate
    test is asked with the count put back (generate.py's ChecksReset), since
    FS ends the game at any check: a drop mate is a check with no answer.
    Every check shogi position is also compared with lishogi's rules
    (tests/shogiops/oracle.mjs, npm shogiops 0.18.0): legal moves and result
    (kinds shogiops_moves, shogiops_result): koma follows lishogi where the
    two engines differ (variants/check-shogi.md).
  Moves are compared as sets; koma's list must also have no duplicates.

How games are played: from the variant's start FEN (judkins: koma's own
start, rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1), each move picked from the
ORACLE's legal list, so the game follows Fairy-Stockfish's rules even where
koma differs. Three styles, by game number g mod 3:
  random     uniformly random legal move;
  capture    (as tests/oracle/generate.py) a capture with probability 0.5 if
             there is one, otherwise a drop with probability 0.3, otherwise
             uniform -- hands fill and pieces promote;
  aggressive a capture with probability 0.8; else a promotion (0.6); else a
             pawn/swallow drop in front of the enemy king (0.5: drop checks,
             drop mates); else a drop (0.5); else uniform.
A game ends when the oracle says it is over, or after --plies moves.

Speed-ups (pyffish costs ~2.5 ms a call whatever it does, as every call
re-initialises the piece tables; the harness is bound by that):
  * the next FEN is computed in Python from the FEN and the move (board,
    hands, side to move; captured pieces go to the captor's hand unpromoted,
    none in sho shogi); at the end of every game it is checked against
    pyffish.get_fen(start, moves) (board, hands and side to move), and a
    mismatch is a harness error;
  * the check status of the positions of a game comes from one call per game:
    pyffish.get_san_moves(start, moves, NOTATION_SAN) marks every move that
    gives check with '+' or '#' (FS's gives_check(move)); the start position
    asks gives_check once. Not in sho shogi: there FS's gives_check(move) was
    seen to miss a check that gives_check(fen) reports (after a move leaving
    one royal), so sho asks gives_check(fen) at every ply;
  * is_immediate_game_end is asked only in dobutsu (when a lion is missing or
    on its far rank) and sho shogi (when a king is missing), the only
    variants here with such rules; other variants get "not over";
  * inside the oracle (as in generate.py), a pawn/swallow drop gives check
    exactly when it lands in front of the enemy king (a drop uncovers no line
    and such a pawn attacks the king), so the oracle's gives_check() for a
    pawn drop is answered without asking FS; only such drops then cost one
    legal_moves() call (is it mate?);
  * oracle answers for a FEN are cached (early plies repeat across games).
  --self-check verifies all of this against the plain calls at every ply
  (get_fen, gives_check(fen), is_immediate_game_end(fen) in every variant,
  legal moves through an unwrapped oracle); --exact uses only the plain calls.

Backends: pyffish 0.0.90 and npm ffish 0.7.10 (tests/ffish/package-lock.json)
are both "Fairy-Stockfish 230826 LB by Fabian Fichter" (their info()). The
oracle's logic (fsoracle.py's drop-mate filter, generate.py's variants.ini
games, drop-mate table and check counting, the speed-ups above) is the same
Python for both; only the pyffish functions it calls are answered by ffish
instead (class FfishSF, which says how is_immediate_game_end and game_result
are read from ffish's result()). A pyffish call costs ~3.5 ms; an ffish call
is one line to node and back (~0.1 ms). tests/diff/results.txt has the
--compare-backends run that showed the two equal.
"""
import argparse
import hashlib
import importlib.util
import json
import multiprocessing
import os
import random
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# the repository's oracle wrapper, found from this file (not the current folder)
FSORACLE = Path(__file__).resolve().parents[1] / "oracle" / "fsoracle.py"
GENERATE = REPO / "tests" / "oracle" / "generate.py"
SHOGIOPS_SCRIPT = REPO / "tests" / "shogiops" / "oracle.mjs"
FFISH_SCRIPT = REPO / "tests" / "ffish" / "oracle.cjs"

# (koma slug, Fairy-Stockfish name, start FEN)
VARIANTS = [
    ("judkins-shogi", "judkins", "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1"),
    ("shogi", "shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"),
    ("minishogi", "minishogi", "rbsgk/4p/5/P4/KGSBR[] w - - 0 1"),
    ("gorogoro-shogi", "gorogoro", "sgkgs/5/1ppp1/1PPP1/5/SGKGS[] w - - 0 1"),
    ("euroshogi", "euroshogi", "1nbgkgn1/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/1NGKGBN1[] w - - 0 1"),
    ("yari-shogi", "yarishogi", "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR[] w - - 0 1"),
    ("tori-shogi", "torishogi", "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1"),
    ("dobutsu-shogi", "dobutsu", "gle/1c1/1C1/ELG[] w - - 0 1"),
    ("kyoto-shogi", "kyotoshogi", "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1"),
    ("sho-shogi", "shoshogi", "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1"),
    ("okisaki-shogi", "okisakishogi",
     "lnsgkqgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQKGSNL[] w - - 0 1"),
    ("gorogoro-plus", "gorogoroplus", "sgkgs/5/1ppp1/1PPP1/5/SGKGS[LNln] w - - 0 1"),
    ("check-shogi", "checkshogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"),
    ("micro-shogi", "micro", "kb+r+l/p3/4/3P/+L+RBK[] w - - 0 1"),
    ("cannon-shogi", "cannonshogi",
     "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[] w - - 0 1"),
]
BY_NAME = {}
for _slug, _fs, _start in VARIANTS:
    BY_NAME[_slug] = BY_NAME[_fs] = (_slug, _fs, _start)

# variants whose pawn (swallow) drop may not give mate: FS name -> letter (as in fsoracle)
DROP_PAWN = {"shogi": "P", "minishogi": "P", "judkins": "P", "gorogoro": "P",
             "euroshogi": "P", "torishogi": "S", "okisakishogi": "P", "gorogoroplus": "P",
             "checkshogi": "P"}
# variants with pawn-like drops worth aiming at the king in the aggressive style
AIM_PAWN = dict(DROP_PAWN, yarishogi="P", dobutsu="C", kyotoshogi="P", micro="P")
NO_HANDS = {"shoshogi"}
# variants whose check status is asked from the FEN at every ply: in sho shogi
# FS's gives_check(move), behind the SAN '+', can miss a check that
# gives_check(fen) reports (seen after a move that leaves one royal)
CHECK_FROM_FEN = {"shoshogi"}
# variants also compared with lishogi's rules (npm shogiops, through
# tests/shogiops/oracle.mjs, which plays check shogi)
SHOGIOPS = {"checkshogi"}
STYLES = ["random", "capture", "aggressive"]

MOVE_RE = re.compile(r"^(?:(\+?[A-Za-z])@|([a-z])(\d+))([a-z])(\d+)([+-]?)$")
# a run of empty squares, a hole ('*', Fairy-Stockfish's wall), or a piece
TOKEN_RE = re.compile(r"\d+|\*|\+?[A-Za-z]~?")
KOMA_TIMEOUT = 60.0


class HarnessError(Exception):
    pass


# ---------------------------------------------------------------------------
# Positions in Python (FEN in, move applied, FEN out)

class Pos:
    """A Fairy-Stockfish FEN split into board (rows[0] = top rank), hand, side."""
    __slots__ = ("rows", "hand", "side", "full", "brackets", "nfiles", "nranks")

    @staticmethod
    def parse(fen):
        p = Pos()
        fields = fen.split()
        board = fields[0]
        p.brackets = "[" in board
        hand = ""
        if p.brackets:
            board, hand = board.split("[", 1)
            hand = hand.rstrip("]")
            if hand == "-":
                hand = ""
        p.rows = []
        for row in board.split("/"):
            r = []
            for tok in TOKEN_RE.findall(row):
                if tok.isdigit():
                    r.extend([None] * int(tok))
                else:
                    r.append(tok.rstrip("~"))
            p.rows.append(r)
        p.nranks = len(p.rows)
        p.nfiles = len(p.rows[0])
        p.hand = list(hand)
        p.side = fields[1]
        try:
            p.full = int(fields[-1])
        except (ValueError, IndexError):
            p.full = 1
        return p

    def at(self, file_ch, rank):
        return self.rows[self.nranks - rank][ord(file_ch) - 97]

    def put(self, file_ch, rank, piece):
        self.rows[self.nranks - rank][ord(file_ch) - 97] = piece

    def board_str(self):
        out = []
        for r in self.rows:
            s, empty = "", 0
            for pc in r:
                if pc is None:
                    empty += 1
                else:
                    if empty:
                        s += str(empty)
                        empty = 0
                    s += pc
            if empty:
                s += str(empty)
            out.append(s)
        return "/".join(out)

    def hand_str(self):
        white = sorted(c for c in self.hand if c.isupper())
        black = sorted(c for c in self.hand if c.islower())
        return "".join(white + black)

    def key(self):
        return self.board_str() + "[" + self.hand_str() + "] " + self.side

    def fen(self):
        b = self.board_str()
        if self.brackets:
            b += "[" + self.hand_str() + "]"
        return f"{b} {self.side} - - 0 {self.full}"

    def apply(self, move, keep_hand=True):
        m = MOVE_RE.match(move)
        if m is None:
            raise HarnessError(f"unexpected move {move!r}")
        white = self.side == "w"
        drop, ff, fr, tf, tr, suffix = m.groups()
        tr = int(tr)
        if drop:
            base = drop[-1].upper() if white else drop[-1].lower()
            try:
                self.hand.remove(base)
            except ValueError:
                raise HarnessError(f"drop {move!r} without {base!r} in hand")
            self.put(tf, tr, ("+" if drop.startswith("+") else "") + base)
        else:
            pc = self.at(ff, int(fr))
            if pc is None:
                raise HarnessError(f"move {move!r} from an empty square")
            cap = self.at(tf, tr)
            if cap is not None and keep_hand:
                c = cap[-1]
                self.hand.append(c.upper() if white else c.lower())
            self.put(ff, int(fr), None)
            if suffix == "+":
                pc = "+" + pc.lstrip("+")
            elif suffix == "-":
                pc = pc.lstrip("+")
            self.put(tf, tr, pc)
        if not white:
            self.full += 1
        self.side = "b" if white else "w"

    def sfen(self):
        """The position as an SFEN (shogi's letters; b = sente), for shogiops."""
        counts = {}
        for c in self.hand:
            counts[c] = counts.get(c, 0) + 1
        hands = "".join((str(counts[c]) if counts[c] > 1 else "") + c
                        for c in "RBGSNLPrbgsnlp" if c in counts)
        return f"{self.board_str()} {'b' if self.side == 'w' else 'w'} {hands or '-'} 1"

    def find(self, piece):
        """Squares (file letter, rank) holding exactly `piece`."""
        out = []
        for i, r in enumerate(self.rows):
            for j, pc in enumerate(r):
                if pc == piece:
                    out.append((chr(97 + j), self.nranks - i))
        return out


def pos_key(fen):
    """Board, hands and side to move of a FEN (hands sorted)."""
    return Pos.parse(fen).key()


def front_of_king(pos):
    """Square in front of the enemy king (from the side to move's view), or None."""
    white = pos.side == "w"
    kings = pos.find("k" if white else "K")
    if len(kings) != 1:
        return None
    f, r = kings[0]
    r2 = r - 1 if white else r + 1
    if not 1 <= r2 <= pos.nranks:
        return None
    return f"{f}{r2}"


# ---------------------------------------------------------------------------
# The oracle

def load_oracle(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class CountingSF:
    """pyffish, counting the calls (each costs ~2.5 ms)."""

    def __init__(self, sf, counter):
        self._sf = sf
        self._n = counter

    def __getattr__(self, name):
        f = getattr(self._sf, name)
        if not callable(f):
            return f

        def call(*a, **k):
            self._n[0] += 1
            return f(*a, **k)
        return call


class FastSF(CountingSF):
    """Stand-in for pyffish inside the oracle (speed only; see the docstring).

    gives_check() of a single pawn/swallow drop is answered from the board (a
    pawn drop checks exactly when it lands in front of the enemy king); the
    last legal_moves() answer is remembered."""

    def __init__(self, sf, counter):
        super().__init__(sf, counter)
        self._last = None
        self._front = None

    def legal_moves(self, variant, fen, moves):
        key = (variant, fen, tuple(moves))
        if self._last is None or self._last[0] != key:
            self._n[0] += 1
            self._last = (key, self._sf.legal_moves(variant, fen, moves))
        return list(self._last[1])

    def gives_check(self, variant, fen, moves):
        if len(moves) == 1:
            m = MOVE_RE.match(moves[0])
            if m is not None and m.group(1) and m.group(1).upper() in ("P", "S"):
                if self._front is None or self._front[0] != fen:
                    self._front = (fen, front_of_king(Pos.parse(fen)))
                return self._front[1] == f"{m.group(4)}{m.group(5)}"
        self._n[0] += 1
        return self._sf.gives_check(variant, fen, moves)


class FfishSF:
    """pyffish's functions as the harness and the oracle call them, answered
    by Fairy-Stockfish compiled to WebAssembly (npm ffish, pinned in
    tests/ffish/package-lock.json) in one `node tests/ffish/oracle.cjs`
    process, which keeps one Board and sets its FEN (microseconds a call,
    where pyffish re-initialises the variant every call: ~3.5 ms).

    is_immediate_game_end and game_result come from ffish's result(), which
    asks, in this order, FS's is_immediate_game_end, insufficient material
    (a draw) and, with no legal move, mate or stalemate. pyffish's
    game_result is asked only with no legal move and reads the immediate end,
    else mate or stalemate: the same verdict unless ffish called insufficient
    material. is_immediate_game_end is reported over where result() says the
    game is over, also with no legal move: the harness then answers no moves
    and result()'s verdict, which is the answer of pyffish's path (no immediate
    end, no legal move, game_result). Where ffish reports insufficient
    material and a draw, the two readings cannot be told apart, and pyffish
    itself is asked (counted in `fallbacks`)."""

    NOTATION_SAN = "SAN"

    def __init__(self):
        self.proc = None
        self.fallbacks = 0
        self._pyffish = None
        self._config = None

    def _start(self):
        if not FFISH_SCRIPT.parent.joinpath("node_modules", "ffish").exists():
            raise HarnessError(f"ffish is not installed: npm ci --prefix {FFISH_SCRIPT.parent}")
        self.proc = subprocess.Popen(["node", str(FFISH_SCRIPT)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        if self._config is not None:
            self._ask("config", self._config.replace("\n", "\\n"), "", [])

    def _ask(self, cmd, variant, fen, moves):
        if self.proc is None:
            self._start()
        self.proc.stdin.write(f"{cmd}\t{variant}\t{fen}\t{' '.join(moves)}\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise HarnessError(f"ffish ended (exit status {self.proc.poll()}) on "
                                   f"{cmd} {variant} {fen} {' '.join(moves)}")
            if line.startswith("@ "):
                return line[2:].rstrip("\n")
            if line.startswith("! "):
                raise HarnessError(f"ffish: {line[2:].strip()} ({cmd} {variant} {fen} "
                                   f"{' '.join(moves)})")

    def stop(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
            self.proc = None

    def info(self):
        return self._ask("info", "", "", [])

    def variants(self):
        return self._ask("variants", "", "", []).split()

    def load_variant_config(self, text):
        self._config = text
        self._ask("config", text.replace("\n", "\\n"), "", [])

    def legal_moves(self, variant, fen, moves, chess960=False):
        out = self._ask("legal", variant, fen, moves)
        return out.split() if out else []

    def gives_check(self, variant, fen, moves, chess960=False):
        return self._ask("check", variant, fen, moves) == "1"

    def get_fen(self, variant, fen, moves, chess960=False):
        return self._ask("fen", variant, fen, moves)

    def get_san_moves(self, variant, fen, moves, chess960=False, notation=None):
        out = self._ask("san", variant, fen, moves)
        return out.split() if out else []

    def _value(self, variant, fen, moves):
        """(over, value for the side to move) from ffish's result()."""
        result, _legal, insufficient = self._ask("result", variant, fen, moves).split()
        if result == "*":
            return False, 0
        if result == "1/2-1/2":
            if insufficient == "1":
                return None
            return True, 0
        white = self.get_fen(variant, fen, moves).split()[1] == "w" if moves else \
            fen.split()[1] == "w"
        return True, 1 if (result == "1-0") == white else -1

    def _plain(self):
        if self._pyffish is None:
            import pyffish
            if self._config is not None:
                pyffish.load_variant_config(self._config)
            self._pyffish = pyffish
        self.fallbacks += 1
        return self._pyffish

    def is_immediate_game_end(self, variant, fen, moves, chess960=False):
        ans = self._value(variant, fen, moves)
        if ans is None:
            return tuple(self._plain().is_immediate_game_end(variant, fen, moves))
        return ans

    def game_result(self, variant, fen, moves, chess960=False):
        ans = self._value(variant, fen, moves)
        if ans is None:
            return self._plain().game_result(variant, fen, moves)
        if not ans[0]:
            raise HarnessError(f"game_result asked where ffish says the game goes on: {fen}")
        return ans[1]


def verdict(value, side):
    """FS value (for the side to move) -> winner name."""
    if value == 0:
        return "draw"
    mover_wins = value > 0
    white = side == "w"
    return "sente" if mover_wins == white else "gote"


def may_end_now(fs, pos):
    """Could FS's is_immediate_game_end be true here? (dobutsu, sho only)"""
    if fs == "dobutsu":
        white_l, black_l = pos.find("L"), pos.find("l")
        if len(white_l) != 1 or len(black_l) != 1:
            return True
        return white_l[0][1] == pos.nranks or black_l[0][1] == 1
    if fs == "shoshogi":
        return not pos.find("K") or not pos.find("k")
    return False


def with_check_given(pos):
    """The FEN of a position whose side to move is in check, with FS's check
    counter saying that the opponent gave it (its one check spent: 1+0 when
    sente is to move, 0+1 when gote is)."""
    board = pos.board_str() + ("[" + pos.hand_str() + "]" if pos.brackets else "")
    count = "1+0" if pos.side == "w" else "0+1"
    return f"{board} {pos.side} - - {count} 0 {pos.full}"


class Oracle:
    def __init__(self, path, exact, self_check, backend="pyffish"):
        if backend == "ffish":
            sf = FfishSF()
        else:
            import pyffish as sf
        self.backend = backend
        self.sf_raw = sf
        # The definitions generate.py completes the oracle with: variants.ini
        # games, pawn-drop mate where fsoracle.py does not list it, and the
        # drop-mate test where FS counts checks (ChecksReset).
        self.gen = load_oracle(str(GENERATE), "generate")
        defined = re.findall(r"^\[(\w+)", self.gen.VARIANTS_INI, re.M)
        if not all(v in sf.variants() for v in defined):
            sf.load_variant_config(self.gen.VARIANTS_INI)
        self.calls = [0]
        self.exact = exact
        self.self_check = self_check
        self.plain_sf = CountingSF(sf, self.calls)
        self.plain = load_oracle(path, "fsoracle_plain")
        self.plain.sf = self.gen.ChecksReset(self.plain_sf)
        if exact:
            self.fast = self.plain
        else:
            self.fast = load_oracle(path, "fsoracle_fast")
            self.fast.sf = self.gen.ChecksReset(FastSF(sf, self.calls))
        for mod in (self.plain, self.fast):
            for variant, letter in self.gen.MORE_DROP_MATE_ILLEGAL.items():
                mod.DROP_MATE_ILLEGAL.setdefault(variant, letter)
        self.cache = {}
        self.start_check = {}

    def ended(self, fs, fen, pos):
        """(over, FS value for the side to move) of a position from its FEN.

        Where FS counts checks (check shogi), its FEN carries the count, and
        a FEN without it (1+1) is a game in which nobody has checked yet: a
        side to move in check is not lost there. The harness's FENs have no
        count, so a side in check is asked of FS with the count the check
        left (the opponent's one check spent): FS then ends the game, as it
        does after the checking move in play."""
        sf = self.plain_sf
        if fs in self.gen.CHECK_COUNTING:
            if not sf.gives_check(fs, fen, []):
                return False, 0
            return sf.is_immediate_game_end(fs, with_check_given(pos), [])
        return sf.is_immediate_game_end(fs, fen, [])

    def position(self, fs, fen, pos, key):
        """(legal moves sorted, verdict) of a FEN from the oracle (key: pos_key)."""
        key = (fs, key)
        hit = self.cache.get(key)
        if hit is not None and not self.self_check:
            return hit
        sf = self.plain_sf
        if self.exact or may_end_now(fs, pos) or fs in self.gen.CHECK_COUNTING:
            end, value = self.ended(fs, fen, pos)
        else:
            end, value = False, 0
        if end:
            ans = ([], verdict(value, pos.side))
        else:
            legal = sorted(self.fast.legal_moves(fs, fen, []))
            if legal:
                ans = (legal, "-")
            else:
                ans = ([], verdict(sf.game_result(fs, fen, []), pos.side))
        if self.self_check and not self.exact:
            end2, value2 = self.ended(fs, fen, pos)
            ref = ([], verdict(value2, pos.side)) if end2 else None
            if ref is None:
                legal2 = sorted(self.plain.legal_moves(fs, fen, []))
                ref = (legal2, "-") if legal2 else ([], verdict(sf.game_result(fs, fen, []), pos.side))
            if ref != ans:
                raise HarnessError(f"speed-up disagrees with plain oracle at {fs} {fen}: "
                                   f"fast {ans} plain {ref}")
        if len(self.cache) > 200000:
            self.cache.clear()
        self.cache[key] = ans
        return ans

    def checks(self, fs, start, moves, fens):
        """In-check flags of the positions start, start+moves[:1], ... (len(moves)+1;
        fens are their FENs)."""
        sf = self.plain_sf
        if self.exact or fs in CHECK_FROM_FEN:
            return [bool(sf.gives_check(fs, fen, [])) for fen in fens]
        if (fs, start) not in self.start_check:
            self.start_check[(fs, start)] = bool(sf.gives_check(fs, start, []))
        out = [self.start_check[(fs, start)]]
        if moves:
            sans = sf.get_san_moves(fs, start, moves, False, self.sf_raw.NOTATION_SAN)
            for uci, san in zip(moves, sans):
                if "=" in san:
                    tail = san[san.rindex("=") + 2:]
                elif uci.endswith(("+", "-")):
                    raise HarnessError(f"no promotion mark in SAN {san!r} of {uci!r}")
                else:
                    tail = san[-1:]
                out.append(tail in ("+", "#"))
        return out


# ---------------------------------------------------------------------------
# koma

class Koma:
    """One `koma moves --batch` process per variant, talked to line by line."""

    def __init__(self, path, slug):
        self.path, self.slug = path, slug
        self.proc = None
        self.buf = b""
        self.restarts = 0

    def start(self):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [self.path, "moves", "--variant", self.slug, "--batch", "--notation", "fairy"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, bufsize=0)
        self.buf = b""

    def stop(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def _fail(self, why):
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.wait()
        self.err.seek(0)
        tail = self.err.read().decode(errors="replace").strip().splitlines()[-3:]
        self.proc = None
        self.restarts += 1
        return ("crash", f"{why}; exit status {self.proc_rc}; stderr: {' | '.join(tail)}")

    def query(self, fen):
        """('ok', check, result, moves) or ('error', message) or ('crash', message)."""
        self.send(fen)
        return self.receive()

    def query_many(self, fens, chunk=32):
        """Answers to many FENs, sent CHUNK lines at a time (a chunk of FENs
        fits in a pipe buffer, so writing it cannot block on koma's output)."""
        out = []
        i = 0
        while i < len(fens):
            part = fens[i:i + chunk]
            self.send("\n".join(part))
            for _ in part:
                ans = self.receive()
                out.append(ans)
                if ans[0] == "crash":
                    break
            i = len(out)
        return out

    def send(self, fen):
        if self.proc is None:
            self.start()
        try:
            self.proc.stdin.write((fen + "\n").encode())
            self.sent = None
        except OSError as e:
            self.sent = e

    def receive(self):
        if self.sent is not None:
            self.proc_rc = self.proc.poll()
            return self._fail(f"cannot write to koma: {self.sent}")
        fd = self.proc.stdout.fileno()
        deadline = time.time() + KOMA_TIMEOUT
        while b"\n" not in self.buf:
            left = deadline - time.time()
            r = select.select([fd], [], [], max(0.0, left))[0] if left > 0 else []
            if not r:
                self.proc_rc = "none (killed after timeout)"
                return self._fail(f"no answer in {KOMA_TIMEOUT:.0f} s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self.proc_rc = self.proc.wait()
                return self._fail("koma exited")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        parts = line.decode().rstrip("\r").split("\t")
        if parts[0] == "error":
            return ("error", "\t".join(parts[1:]))
        if len(parts) != 3 or parts[0] not in ("0", "1"):
            return ("error", f"unreadable answer {line!r}")
        return ("ok", parts[0] == "1", parts[1], parts[2].split() if parts[2] else [])


# `--koma-module`: the same questions asked of the Python module `koma`
# (crates/koma-py) in this process instead of a `koma moves --batch` process.
MODULE = ":python-module:"


class KomaModule:
    """The answers of Koma, from the Python module `koma` in process."""

    def __init__(self, slug):
        import koma
        self.koma, self.slug = koma, slug
        self.restarts = 0

    def start(self):
        pass

    def stop(self):
        pass

    def query(self, line):
        words = line.split()
        cut = words.index("moves") if "moves" in words else len(words)
        fen = " ".join(words[:cut])
        try:
            pos = self.koma.Position(self.slug, None if fen == "startpos" else fen, words[cut + 1:])
            out = pos.outcome()
            result = "-" if out is None else (out[0] or "draw")
            return ("ok", pos.in_check(), result, sorted(pos.legal_moves("fairy")))
        except self.koma.KomaError as e:
            return ("error", str(e))
        except Exception as e:  # a bug in the module: counted as koma dying
            self.restarts += 1
            return ("crash", f"the Python module raised {type(e).__name__}: {e}")

    def query_many(self, fens, chunk=32):
        return [self.query(f) for f in fens]


def koma_client(path, slug):
    """A `koma moves --batch` process, or the Python module under --koma-module."""
    return KomaModule(slug) if path == MODULE else Koma(path, slug)


class Shogiops:
    """lishogi's rules: one `node tests/shogiops/oracle.mjs checkshogi moves` process,
    SFEN lines in, `sfen<TAB>result<TAB>moves` (USI) lines out."""

    def __init__(self):
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(["node", str(SHOGIOPS_SCRIPT), "checkshogi", "moves"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     bufsize=1)

    def stop(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
            self.proc = None

    def query_many(self, positions, chunk=32):
        """[(verdict, moves in FS notation)] of Pos objects (9x9 boards)."""
        if self.proc is None:
            self.start()
        out = []
        for i in range(0, len(positions), chunk):
            part = positions[i:i + chunk]
            self.proc.stdin.write("".join(p.sfen() + "\n" for p in part))
            self.proc.stdin.flush()
            for p in part:
                cols = self.proc.stdout.readline().rstrip("\n").split("\t")
                if len(cols) < 2 or cols[0] == "error":
                    raise HarnessError(f"shogiops: {' '.join(cols) or 'no answer'} for {p.sfen()}")
                winner = cols[1].split(":")[0]
                res = "-" if cols[1] == "-" else ("draw" if winner == "none" else winner)
                moves = [usi_to_fs(m, p.nfiles, p.nranks) for m in cols[2].split()] if len(cols) > 2 else []
                out.append((res, moves))
        return out


def usi_to_fs(move, nfiles, nranks):
    """A USI move (7g7f, 8h2b+, P*5e) in Fairy-Stockfish's notation (c3c4, ..., P@e5)."""
    def square(sq):
        return f"{chr(ord('a') + nfiles - int(sq[:-1]))}{nranks - (ord(sq[-1]) - ord('a'))}"
    if "*" in move:
        role, to = move.split("*")
        return f"{role}@{square(to)}"
    promote = "+" if move.endswith("+") else ""
    body = move.rstrip("+")
    m = re.match(r"^(\d+[a-z])(\d+[a-z])$", body)
    if m is None:
        raise HarnessError(f"unexpected USI move {move!r} from shogiops")
    return square(m.group(1)) + square(m.group(2)) + promote


# ---------------------------------------------------------------------------
# games

def choose(rng, style, pos, fs, legal):
    if style == "random":
        return rng.choice(legal)
    caps, drops, promos = [], [], []
    for m in legal:
        mm = MOVE_RE.match(m)
        if mm.group(1):
            drops.append(m)
            continue
        if pos.at(mm.group(4), int(mm.group(5))) is not None:
            caps.append(m)
        if mm.group(6) == "+":
            promos.append(m)
    if style == "capture":
        if caps and rng.random() < 0.5:
            return rng.choice(caps)
        if drops and rng.random() < 0.3:
            return rng.choice(drops)
        return rng.choice(legal)
    # aggressive
    if caps and rng.random() < 0.8:
        return rng.choice(caps)
    if promos and rng.random() < 0.6:
        return rng.choice(promos)
    if drops:
        pawn = AIM_PAWN.get(fs)
        front = front_of_king(pos) if pawn else None
        if front:
            aim = [m for m in drops if m == f"{pawn}@{front}"]
            if aim and rng.random() < 0.5:
                return aim[0]
        if rng.random() < 0.5:
            return rng.choice(drops)
    return rng.choice(legal)


class Worker:
    def __init__(self, cfg):
        self.cfg = cfg
        self.oracle = Oracle(cfg["oracle"], cfg["exact"], cfg["self_check"], cfg["backend"])
        # --compare-backends: the other backend's oracle, asked the same questions
        self.other = None
        if cfg["compare"]:
            other = "ffish" if cfg["backend"] == "pyffish" else "pyffish"
            self.other = Oracle(cfg["oracle"], cfg["exact"], False, other)
        self.komas = {}
        self.shogiops = Shogiops()

    def koma(self, slug):
        k = self.komas.get(slug)
        if k is None:
            k = self.komas[slug] = koma_client(self.cfg["koma"], slug)
        return k

    def game(self, slug, g, deadline):
        slug, fs, start = BY_NAME[slug]
        cfg = self.cfg
        seed = f"{cfg['seed']}:{slug}:{g}"
        style = STYLES[g % len(STYLES)]
        rng = random.Random(seed)
        calls0 = self.oracle.calls[0]
        fallbacks0 = getattr(self.oracle.sf_raw, "fallbacks", 0)
        koma = self.koma(slug)
        fen = start
        pos = Pos.parse(fen)
        moves, rows = [], []
        harness = []
        stopped = False
        for ply in range(cfg["plies"] + 1):
            if deadline and time.time() > deadline:
                stopped = True
                break
            fen = pos.fen()
            key = pos.key()
            legal, res = self.oracle.position(fs, fen, pos, key)
            if self.other is not None:
                ans2 = self.other.position(fs, fen, pos, key)
                if ans2 != (legal, res):
                    harness.append(f"{slug} game {g} ply {ply}: backends disagree at {fen}: "
                                   f"{self.oracle.backend} {(legal, res)} "
                                   f"{self.other.backend} {ans2}")
            rows.append([ply, fen, legal, res, None, key])
            if not legal or ply == cfg["plies"]:
                break
            move = choose(rng, style, pos, fs, legal)
            pos.apply(move, keep_hand=fs not in NO_HANDS)
            moves.append(move)
        moves = moves[:len(rows) - 1] if rows else []
        # koma's answers do not steer the game: ask for all positions at once
        for row, ans in zip(rows, koma.query_many([r[1] for r in rows])):
            row[4] = ans
        lishogi = self.shogiops.query_many([Pos.parse(r[1]) for r in rows]) if fs in SHOGIOPS else None
        checks = self.oracle.checks(fs, start, moves, [r[1] for r in rows]) if rows else []
        if rows and self.other is not None:
            checks2 = self.other.checks(fs, start, moves, [r[1] for r in rows])
            if checks2 != checks:
                i = next(i for i, (a, b) in enumerate(zip(checks, checks2)) if a != b)
                harness.append(f"{slug} game {g} ply {rows[i][0]}: backends disagree on check at "
                               f"{rows[i][1]}: {self.oracle.backend} {checks[i]} "
                               f"{self.other.backend} {checks2[i]}")
        if rows and not self.oracle.exact:
            oracles = [self.oracle] + ([self.other] if self.other is not None else [])
            for o in oracles:
                ref = o.plain_sf.get_fen(fs, start, moves)
                if pos_key(ref) != rows[-1][5]:
                    harness.append(f"{slug} game {g}: computed FEN {rows[-1][1]!r} != "
                                   f"{o.backend} get_fen {ref!r} after {' '.join(moves)}")
        if self.oracle.self_check and not self.oracle.exact:
            sf = self.oracle.plain_sf
            for i, (ply, fen, _l, _r, _k, key) in enumerate(rows):
                ref = sf.get_fen(fs, start, moves[:i])
                if pos_key(ref) != key:
                    harness.append(f"{slug} game {g} ply {ply}: computed FEN {fen!r} != {ref!r}")
                    break
                c = bool(sf.gives_check(fs, fen, []))
                if c != checks[i]:
                    harness.append(f"{slug} game {g} ply {ply}: SAN check {checks[i]} != "
                                   f"gives_check {c} at {fen}")
        diffs, stats = [], {"positions": 0, "check": 0, "over": 0, "hand": 0, "promoted": 0,
                            "keys": []}
        for i, ((ply, fen, legal, res, k, key), check) in enumerate(zip(rows, checks)):
            stats["positions"] += 1
            stats["check"] += check
            stats["over"] += res != "-"
            board = fen.split()[0]
            stats["hand"] += "[" in board and not board.endswith("[]")
            stats["promoted"] += "+" in board.split("[")[0]
            stats["keys"].append(int.from_bytes(
                hashlib.blake2b(key.encode(), digest_size=8).digest(), "little"))
            d = {}
            if k[0] != "ok":
                d["koma_error"] = f"{k[0]}: {k[1]}"
            else:
                _, kc, kr, km = k
                if len(set(km)) != len(km):
                    d["koma_duplicates"] = sorted({m for m in km if km.count(m) > 1})
                ks, os_ = set(km), set(legal)
                if ks != os_:
                    d["koma_only"] = sorted(ks - os_)
                    d["oracle_only"] = sorted(os_ - ks)
                if kc != check:
                    d["check"] = {"koma": int(kc), "oracle": int(check)}
                if kr != res:
                    d["result"] = {"koma": kr, "oracle": res}
                if lishogi is not None:
                    lr, lm = lishogi[i]
                    if set(km) != set(lm):
                        d["shogiops_moves"] = {"koma_only": sorted(set(km) - set(lm)),
                                               "shogiops_only": sorted(set(lm) - set(km))}
                    if kr != lr:
                        d["shogiops_result"] = {"koma": kr, "shogiops": lr}
            if d:
                d.update(variant=slug, fs=fs, game=g, ply=ply, style=style, seed=seed, fen=fen)
                diffs.append(d)
        return {"variant": slug, "game": g, "stats": stats, "diffs": diffs, "harness": harness,
                "calls": self.oracle.calls[0] - calls0, "stopped": stopped,
                "fallbacks": getattr(self.oracle.sf_raw, "fallbacks", 0) - fallbacks0}


_WORKER = None


def _init_worker(cfg):
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = Worker(cfg)


def _run_game(task):
    slug, g, deadline = task
    if deadline and time.time() > deadline:
        return None
    try:
        return _WORKER.game(slug, g, deadline)
    except HarnessError as e:
        return {"variant": slug, "game": g, "fatal": str(e)}


# ---------------------------------------------------------------------------
# reporting

def describe(d, koma_path, oracle_path):
    koma_path = "koma" if koma_path == MODULE else koma_path
    out = [f"DIFF {d['variant']} game {d['game']} ply {d['ply']} ({d['style']}, seed {d['seed']})",
           f"  fen:         {d['fen']}"]
    if "koma_error" in d:
        out.append(f"  koma error:  {d['koma_error']}")
    if "koma_only" in d:
        out.append(f"  koma-only:   {' '.join(d['koma_only']) or '-'}")
        out.append(f"  oracle-only: {' '.join(d['oracle_only']) or '-'}")
    if "koma_duplicates" in d:
        out.append(f"  duplicates:  {' '.join(d['koma_duplicates'])}")
    if "check" in d:
        out.append(f"  check:       koma {d['check']['koma']} oracle {d['check']['oracle']}")
    if "result" in d:
        out.append(f"  result:      koma {d['result']['koma']} oracle {d['result']['oracle']}")
    if "shogiops_moves" in d:
        out.append(f"  koma-only:   {' '.join(d['shogiops_moves']['koma_only']) or '-'} (against shogiops)")
        out.append(f"  shogiops-only: {' '.join(d['shogiops_moves']['shogiops_only']) or '-'}")
    if "shogiops_result" in d:
        out.append(f"  result:      koma {d['shogiops_result']['koma']} shogiops {d['shogiops_result']['shogiops']}")
    out.append(f"  reproduce:   echo '{d['fen']}' | {koma_path} moves --variant {d['variant']} "
               f"--batch --notation fairy")
    out.append(f"               python3 {oracle_path} moves {d['fs']} '{d['fen']}'")
    if d["fs"] in SHOGIOPS:
        out.append(f"               echo '{Pos.parse(d['fen']).sfen()}' | node {SHOGIOPS_SCRIPT} checkshogi moves")
    return "\n".join(out)


def kinds(d):
    return [k for k in ("koma_error", "koma_only", "check", "result", "koma_duplicates",
                        "shogiops_moves", "shogiops_result") if k in d]


def probe_koma(path, slugs):
    if path == MODULE:
        try:
            import koma  # noqa: F401
        except ImportError as e:
            return f"cannot import the Python module koma ({e}): python3 -m pip install ./crates/koma-py"
    elif not os.access(path, os.X_OK):
        return f"koma binary not found or not executable: {path} (cargo build --release, or --koma)"
    for slug in slugs:
        k = koma_client(path, slug)
        try:
            k.start()
        except OSError as e:
            return f"cannot start koma: {e}"
        ans = k.query(BY_NAME[slug][2])
        k.stop()
        if ans[0] != "ok":
            return f"koma cannot answer for {slug}: {ans[1]}"
    return None


def probe_shogiops():
    lishogi = Shogiops()
    try:
        ans = lishogi.query_many([Pos.parse(BY_NAME["checkshogi"][2])])
        lishogi.stop()
    except (OSError, HarnessError, subprocess.TimeoutExpired) as e:
        if lishogi.proc is not None:
            lishogi.proc.kill()
        return (f"cannot run shogiops ({e}): install node and then npm ci --prefix "
                f"{SHOGIOPS_SCRIPT.parent}")
    return None if ans and ans[0][1] else "shogiops lists no move at the start"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="See the module docstring (head of this file) for details.")
    ap.add_argument("--variants", default="")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--first-game", type=int, default=0)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--max-seconds", type=float, default=0)
    ap.add_argument("--sample", action="store_true")
    ap.add_argument("--self-check", action="store_true")
    ap.add_argument("--exact", action="store_true")
    ap.add_argument("--backend", choices=["pyffish", "ffish"], default="pyffish")
    ap.add_argument("--compare-backends", action="store_true")
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--koma-module", action="store_true")
    ap.add_argument("--oracle", default=os.environ.get("FSORACLE", str(FSORACLE)))
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--diff-file", default="")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    t0 = time.time()

    if a.sample:
        a.games, a.plies, a.seed = 3, 40, "1"
    if a.games is None:
        a.games = 0 if a.max_seconds else 20
    slugs = []
    for name in (s.strip() for s in a.variants.split(",") if s.strip()):
        if name not in BY_NAME:
            sys.exit(f"harness: unknown variant {name!r} (known: {', '.join(v[0] for v in VARIANTS)})")
        slugs.append(BY_NAME[name][0])
    if not slugs:
        slugs = [v[0] for v in VARIANTS]

    a.oracle = str(Path(a.oracle).resolve())
    try:
        if not Path(a.oracle).exists():
            raise RuntimeError(f"oracle not found: {a.oracle} (use --oracle or FSORACLE)")
        backends = [a.backend] + (["ffish" if a.backend == "pyffish" else "pyffish"]
                                  if a.compare_backends else [])
        for backend in backends:
            probe = Oracle(a.oracle, a.exact, False, backend)
            version = probe.sf_raw.info() if backend == "ffish" else \
                "pyffish " + ".".join(map(str, probe.sf_raw.version())) + ", " + probe.sf_raw.info()
            if backend == "ffish":
                probe.sf_raw.stop()
            if not a.quiet:
                print(f"oracle backend {backend}: {version}", file=sys.stderr)
    except (Exception, SystemExit) as e:
        print(f"harness: cannot run the oracle: {e}", file=sys.stderr)
        sys.exit(2)
    a.koma = MODULE if a.koma_module else str(Path(a.koma).resolve())
    why = probe_koma(a.koma, slugs)
    if not why and any(BY_NAME[s][1] in SHOGIOPS for s in slugs):
        why = probe_shogiops()
    if why:
        print(f"harness: {why}", file=sys.stderr)
        sys.exit(2)

    cfg = {"oracle": a.oracle, "koma": a.koma, "exact": a.exact, "self_check": a.self_check,
           "seed": a.seed, "plies": a.plies, "backend": a.backend, "compare": a.compare_backends}
    deadline = t0 + a.max_seconds if a.max_seconds else 0

    def tasks():
        g = a.first_game
        while not a.games or g < a.first_game + a.games:
            for slug in slugs:
                if deadline and time.time() > deadline:
                    return
                yield (slug, g, deadline)
            g += 1

    per = {s: {"games": 0, "positions": 0, "check": 0, "over": 0, "hand": 0, "promoted": 0,
               "diffs": 0, "kinds": {}, "calls": 0, "keys": set()} for s in slugs}
    shown = {s: 0 for s in slugs}
    harness_errors = []
    fatal = []
    total_pos = total_diff = fallbacks = 0
    last_note = time.time()
    diff_out = open(a.diff_file, "w") if a.diff_file else None
    pool = multiprocessing.Pool(max(1, a.jobs), initializer=_init_worker, initargs=(cfg,))
    interrupted = False
    try:
        for r in pool.imap_unordered(_run_game, tasks(), chunksize=1):
            if r is None:
                continue
            s = per[r["variant"]]
            if "fatal" in r:
                fatal.append(f"{r['variant']} game {r['game']}: {r['fatal']}")
                print(f"HARNESS ERROR {fatal[-1]}", flush=True)
                continue
            st = r["stats"]
            s["games"] += 1
            for k in ("positions", "check", "over", "hand", "promoted"):
                s[k] += st[k]
            s["keys"].update(st["keys"])
            s["calls"] += r["calls"]
            fallbacks += r["fallbacks"]
            total_pos += st["positions"]
            for h in r["harness"]:
                harness_errors.append(h)
                print(f"HARNESS ERROR {h}", flush=True)
            for d in r["diffs"]:
                s["diffs"] += 1
                total_diff += 1
                for k in kinds(d):
                    s["kinds"][k] = s["kinds"].get(k, 0) + 1
                if diff_out:
                    diff_out.write(json.dumps(d) + "\n")
                    diff_out.flush()
                if shown[r["variant"]] < a.show:
                    shown[r["variant"]] += 1
                    print(describe(d, a.koma, a.oracle), flush=True)
            if not a.quiet and time.time() - last_note > 30:
                last_note = time.time()
                print(f"[{time.time() - t0:6.0f} s] positions {total_pos}, differences {total_diff}",
                      file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        interrupted = True
        pool.terminate()
    else:
        pool.close()
    pool.join()
    if diff_out:
        diff_out.close()

    elapsed = time.time() - t0
    print()
    print(f"{'variant':<16}{'games':>7}{'positions':>11}{'distinct':>10}{'in check':>10}"
          f"{'game over':>10}{'w/ hand':>9}{'promoted':>9}{'diffs':>7}  kinds")
    for slug in slugs:
        s = per[slug]
        kd = ", ".join(f"{k} {v}" for k, v in sorted(s["kinds"].items())) or "-"
        print(f"{slug:<16}{s['games']:>7}{s['positions']:>11}{len(s['keys']):>10}{s['check']:>10}"
              f"{s['over']:>10}{s['hand']:>9}{s['promoted']:>9}{s['diffs']:>7}  {kd}")
    calls = sum(s["calls"] for s in per.values())
    print(f"time {elapsed:.0f} s, {total_pos / max(elapsed, 1e-9):.0f} positions/s, jobs {a.jobs}, "
          f"{a.backend} calls {calls} ({calls / max(total_pos, 1):.2f} a position), "
          + (f"pyffish fallbacks {fallbacks}, " if a.backend == "ffish" else "")
          + f"distinct positions {sum(len(s['keys']) for s in per.values())}"
          + (", stopped at --max-seconds" if deadline and time.time() >= deadline else "")
          + (", interrupted" if interrupted else ""))
    for slug in slugs:
        hidden = per[slug]["diffs"] - shown[slug]
        if hidden > 0:
            print(f"({slug}: {hidden} more differences not shown"
                  + (f"; all in {a.diff_file})" if a.diff_file else "; use --diff-file or --show)"))
    if harness_errors or fatal:
        print(f"harness errors: {len(harness_errors) + len(fatal)}")
    print(f"positions: {total_pos}, differences: {total_diff}")
    if harness_errors or fatal:
        sys.exit(2)
    sys.exit(1 if total_diff else 0)


if __name__ == "__main__":
    main()
