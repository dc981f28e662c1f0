#!/usr/bin/env python3
"""Play koma against a random mover or Fairy-Stockfish, every move checked by the oracle.

koma is driven over UCI (Fairy-Stockfish's dialect) as a subprocess: `koma uci`,
then `uci`, `setoption name UCI_Variant value V`, `ucinewgame`, `isready`,
`position fen <START> moves ...`, `go movetime T` -> `bestmove M`.  The opponent
is either

  random            a uniform random choice among the oracle's legal moves
                    (the sorted list, drawn with a random.Random seeded from
                    --seed and the game number), or
  fairy-stockfish   the Fairy-Stockfish binary over UCI, given the same
                    UCI_Variant, the same `position fen ... moves ...` and
                    `go movetime` (--fs-movetime, default --movetime), and
                    optionally `setoption name Skill Level value N` (--fs-skill),
  uci               any other UCI engine (--engine "COMMAND ARGS", e.g. an
                    older koma: --engine "/tmp/koma-base uci"), driven exactly
                    as Fairy-Stockfish is (without the Skill Level).

The oracle is tests/oracle/fsoracle.py (pyffish, with pawn-drop mate made
illegal where the game forbids it).  Before a move of koma is played it must be
in the oracle's legal-move list; an illegal move, `bestmove (none)` while legal
moves exist, no answer within the time limit, a crash of koma, or koma
rejecting the `position` command (an `info string error` line before
`readyok`) loses the game for koma and is counted under "illegal moves" (the FEN and move are printed).
A move of Fairy-Stockfish that the oracle rejects voids the game (printed, and
counted apart; it is not koma's fault).

Game end, checked before every ply, from the side to move's point of view:
  1. pyffish.is_immediate_game_end (variant rules: e.g. a king reaching the far
     rank in dobutsu)           -> its result;
  2. the oracle's legal-move list is empty -> pyffish.game_result when
     Fairy-Stockfish agrees that there are no moves, else (only a forbidden
     pawn-drop mate was possible) a loss for the side to move;
  3. pyffish.is_optional_game_end (repetition, perpetual check ...) -> its result;
  4. --max-plies reached -> draw by adjudication.
When the game ends with no legal move and koma is the side to move, koma is also
asked for a move once: it should answer `bestmove (none)`; anything else is
printed as a "terminal mismatch" (not scored, the game is already over).

koma plays sente (the first player, upper case, "w" in the FEN) in odd-numbered
games and gote in even-numbered ones.  With --book FILE (one opening per line:
moves in Fairy-Stockfish notation from the start position, `#` comments),
games 2k-1 and 2k both begin with the opening k (modulo the book's length):
each opening is played once with each colour, and the moves of the book are
part of the move list sent to both engines.

Usage (from the repository root, after `cargo build --release`):
  python3 tests/match/match.py --opponent random --games 20 --movetime 100 --seed 1
  python3 tests/match/match.py --opponent fairy-stockfish --games 10 --movetime 100
  python3 tests/match/match.py --variant minishogi --games 4 --movetime 30
  python3 tests/match/match.py --variant lanceshogi \\
      --variant-ini tests/walkthrough/lance-shogi.ini \\
      --engine-variant tests/walkthrough/lance-shogi.md --games 2 --movetime 50
Options:
  --variant V          UCI variant name (default judkins)
  --variant-ini FILE   load Fairy-Stockfish variant definitions (variants.ini
                       sections) into pyffish first, for a --variant it has no
                       built-in for; a section [name:parent] keeps the oracle's
                       pawn-drop-mate rule of its parent (unless it sets
                       shogiPawnDropMateIllegal = false)
  --engine-variant V   the UCI_Variant value sent to koma and to a --opponent uci
                       engine instead of --variant, e.g. the path of a variant
                       file (koma loads a path given as UCI_Variant); that
                       opponent's UCI_Variant list is then not checked.
                       Fairy-Stockfish as the opponent is always sent --variant
  --start-fen FEN      start position (default: koma's Judkins set-up
                       "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1" for judkins,
                       pyffish.start_fen(V) for the other variants, normalised
                       by pyffish.get_fen to six fields: "...[] w - - 0 1";
                       a --start-fen is sent to the engines exactly as given)
  --games N            number of games (default 2)
  --first-game K       number the games from K (default 1): a match of games
                       K.. continues one of games 1..K-1 (the opening, colours
                       and random seed follow the game's number; K odd keeps
                       an opening's two games together)
  --opponent O         random | fairy-stockfish (default random)
  --movetime MS        koma's `go movetime` (default 100)
  --fs-movetime MS     Fairy-Stockfish's `go movetime` (default: --movetime)
  --fs-skill N         `setoption name Skill Level value N` for Fairy-Stockfish
  --fs PATH            Fairy-Stockfish binary (default: `fairy-stockfish` on PATH,
                       else /usr/games/fairy-stockfish)
  --koma PATH          koma binary (default target/release/koma under the repo root)
  --koma-go ARGS       replace koma's `go` arguments, e.g. "depth 4" or
                       "nodes 20000" (for fully reproducible games)
  --engine CMD         the opponent's command line for --opponent uci
  --engine-go ARGS     replace the opponent's `go` arguments as --koma-go does
                       koma's (e.g. both at "nodes 20000": a comparison of two
                       komas that does not depend on the machine's load)
  --koma-option N=V    `setoption name N value V` for koma (repeatable), e.g.
                       an evaluation weight: --koma-option mobility=5
  --engine-option N=V  the same for the opponent (uci or fairy-stockfish)
  --engine-name NAME   its name in the output (default: "engine")
  --book FILE          openings (see above)
  --tc MAIN+INC        play on clocks instead of movetime: each side starts
                       with MAIN ms and gains INC ms after each move; the
                       engines get `go wtime W btime B winc I binc I` (+
                       ` byoyomi Y` with --byoyomi) and the time from `go` to
                       `bestmove` is taken off the mover's clock; a side that
                       runs past its clock (and byoyomi) loses on time
  --byoyomi MS         with --tc: time per move once the main time is spent
  --max-plies N        adjudicate a draw after N plies (default 300)
  --seed S             seed of the random mover (default 0)
  --timeout-ms MS      extra time allowed beyond movetime for a bestmove (default 5000)
  --send current       give koma `position fen <current FEN>` (from pyffish.get_fen)
                       with no move list instead of the start FEN and the moves
                       (a diagnostic: keeps koma playing when it cannot read the
                       move notation, e.g. kyotoshogi's "-"; koma then does not
                       see the game's history, so repetitions are its blind spot)
  --send startpos      give both engines `position startpos moves ...` (each its
                       own start of UCI_Variant); the game starts from
                       pyffish.start_fen(V), Fairy-Stockfish's start, also for
                       judkins (a check that koma's alias starts there too)
  --verbose            print every move
Determinism: with --opponent random the random mover's choices are a function
of --seed, the game number and the position; koma's own choices under
`go movetime` depend on its speed, so only `--koma-go "depth N"` (or nodes)
makes whole games reproducible.
Output: one line per game, then `koma: W wins, D draws, L losses, I illegal moves`,
then koma's score (wins + draws/2 over the games scored) with its Elo difference
and a 95% interval from the games' spread, the results by koma's colour, the
wall time and the load average (1, 5, 15 min) at the start and at the end: the
machine may be shared, and a loaded machine slows both engines unevenly.
Exit status: 1 if koma made any illegal move (or failed to answer), else 0.
"""
import argparse
import os
import queue
import random
import shlex
import shutil
import subprocess
import sys
import threading
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# the repository's oracle wrapper (tests/oracle/fsoracle.py), found from this file
ORACLE_DIR = os.path.join(REPO, "tests", "oracle")
sys.path.insert(0, ORACLE_DIR)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import elo, interval  # noqa: E402  (this folder's score.py)
try:
    import pyffish as sf
    import fsoracle
except ImportError as e:  # pragma: no cover
    sys.exit(f"match.py: {e}; needs pyffish (python3 -m pip install pyffish) and {ORACLE_DIR}/fsoracle.py")

JUDKINS_FEN = "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1"


def load_variant_ini(path):
    """Loads Fairy-Stockfish variant definitions (variants.ini sections) into
    pyffish. A section `[name:parent]` whose parent forbids pawn-drop mate in
    fsoracle.DROP_MATE_ILLEGAL inherits that rule there, unless the section
    says `shogiPawnDropMateIllegal = false`."""
    import re
    with open(path) as f:
        text = f.read()
    sf.load_variant_config(text)
    for m in re.finditer(r"^\[(\w+):(\w+)\]([^\[]*)", text, re.M):
        name, parent, body = m.groups()
        off = re.search(r"^shogiPawnDropMateIllegal\s*=\s*false", body, re.M)
        if parent in fsoracle.DROP_MATE_ILLEGAL and not off:
            fsoracle.DROP_MATE_ILLEGAL.setdefault(name, fsoracle.DROP_MATE_ILLEGAL[parent])


class EngineError(Exception):
    pass


class PositionRejected(EngineError):
    """The engine answered `position` with an `info string error` line."""


class UciEngine:
    """A UCI engine as a subprocess; lines are read by a thread into a queue."""

    def __init__(self, name, argv, log=None):
        self.name = name
        self.argv = argv
        self.log = log
        self.proc = None
        self.lines = None
        self.stderr_lines = []
        self.latencies = []  # seconds from `go` to `bestmove`
        self.id_name = None
        self.options = {}
        self.start()

    def start(self):
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._drain_err, args=(self.proc.stderr,), daemon=True).start()

    @staticmethod
    def _pump(stream, q):
        for line in stream:
            q.put(line.rstrip("\r\n"))
        q.put(None)  # end of file

    def _drain_err(self, stream):
        for line in stream:
            self.stderr_lines.append(line.rstrip("\n"))

    def send(self, line):
        if self.log:
            self.log(f"  > {self.name}: {line}")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"{self.name}: cannot write ({e}); exit code {self.proc.poll()}")

    def expect(self, pred, timeout):
        """Read lines until pred(line) holds; return that line."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"{self.name}: no answer within {timeout:.1f}s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                time.sleep(0.05)
                raise EngineError(f"{self.name}: exited (code {self.proc.poll()})"
                                  + (f"; stderr: {self.stderr_lines[-5:]}" if self.stderr_lines else ""))
            if self.log and not line.startswith("info"):
                self.log(f"  < {self.name}: {line}")
            if pred(line):
                return line

    def handshake(self, timeout=10):
        self.send("uci")
        while True:
            line = self.expect(lambda l: True, timeout)
            if line.startswith("id name "):
                self.id_name = line[len("id name "):]
            elif line.startswith("option name "):
                rest = line[len("option name "):]
                name = rest.split(" type ")[0]
                self.options[name] = rest
            elif line == "uciok":
                return

    def isready(self, timeout=10):
        self.send("isready")
        self.expect(lambda l: l == "readyok", timeout)

    def set_position(self, fen, moves):
        """Sends `position startpos|fen F [moves ...]` and waits for `readyok`;
        an `info string error` before it raises PositionRejected."""
        start = "position startpos" if fen is None else f"position fen {fen}"
        pos = start + (" moves " + " ".join(moves) if moves else "")
        self.send(pos)
        self.send("isready")
        errors = []
        def ready(l):
            if l.startswith("info string") and "error" in l:
                errors.append(l)
            return l == "readyok"
        self.expect(ready, 10)
        if errors:
            raise PositionRejected(f"{self.name}: rejected `{pos}`: {errors[0]}")

    def bestmove(self, fen, moves, go_args, timeout):
        self.set_position(fen, moves)
        self.send("go " + go_args)
        t0 = time.monotonic()
        line = self.expect(lambda l: l == "bestmove" or l.startswith("bestmove "), timeout)
        self.latencies.append(time.monotonic() - t0)
        parts = line.split()
        return parts[1] if len(parts) > 1 else None

    def close(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=3)
            except (EngineError, subprocess.TimeoutExpired):
                self.proc.kill()  # our own child
                self.proc.wait()

    def restart(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()  # our own child, hung or confused
            self.proc.wait()
        self.start()


def stm_is_sente(fen, nmoves):
    first = fen.split()[1] == "w"
    return first if nmoves % 2 == 0 else not first


def terminal(variant, fen, moves, max_plies):
    """None while the game goes on, else (value for the side to move: 1/0/-1, reason, legal)."""
    legal = fsoracle.legal_moves(variant, fen, moves)
    over, value = sf.is_immediate_game_end(variant, fen, moves)
    if over:
        return (sign(value), "variant rule (immediate game end)", legal)
    if not legal:
        if not sf.legal_moves(variant, fen, moves):
            value = sf.game_result(variant, fen, moves)
            in_check = sf.gives_check(variant, fen, moves)
            return (sign(value), "checkmate" if in_check else "no legal move, not in check", legal)
        return (-1, "no legal move but a forbidden pawn-drop mate", legal)
    over, value = sf.is_optional_game_end(variant, fen, moves)
    if over:
        return (sign(value), "repetition / optional game end", legal)
    if len(moves) >= max_plies:
        return (0, f"adjudicated at {max_plies} plies", legal)
    return None, None, legal


def sign(v):
    return (v > 0) - (v < 0)


def find_fs(path):
    if path:
        return path
    for cand in (shutil.which("fairy-stockfish"), "/usr/games/fairy-stockfish"):
        if cand and os.access(cand, os.X_OK):
            return cand
    sys.exit("match.py: fairy-stockfish not found (apt-get install -y fairy-stockfish)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="judkins")
    ap.add_argument("--variant-ini")
    ap.add_argument("--engine-variant")
    ap.add_argument("--start-fen")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--first-game", type=int, default=1)
    ap.add_argument("--opponent", choices=["random", "fairy-stockfish", "uci"], default="random")
    ap.add_argument("--engine")
    ap.add_argument("--engine-name", default="engine")
    ap.add_argument("--book")
    ap.add_argument("--koma-option", action="append", default=[])
    ap.add_argument("--tc")
    ap.add_argument("--byoyomi", type=int, default=0)
    ap.add_argument("--engine-option", action="append", default=[])
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--fs-movetime", type=int)
    ap.add_argument("--fs-skill", type=int)
    ap.add_argument("--fs")
    ap.add_argument("--koma", default=os.path.join(REPO, "target", "release", "koma"))
    ap.add_argument("--koma-go")
    ap.add_argument("--engine-go")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout-ms", type=int, default=5000)
    ap.add_argument("--send", choices=["moves", "current", "startpos"], default="moves")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    variant = a.variant
    if a.variant_ini:
        load_variant_ini(a.variant_ini)
    engine_variant = a.engine_variant or variant
    if variant not in sf.variants():
        sys.exit(f"match.py: pyffish does not know the variant {variant!r}")
    # pyffish's own start FENs have four fields and "[-]" for empty hands
    # ("... [-] w 0 1"); they are normalised by pyffish.get_fen to the
    # six-field form ("... [] w - - 0 1"), the same position.  A --start-fen
    # is sent exactly as given.
    if a.start_fen:
        fen = a.start_fen
    elif a.send == "startpos":
        fen = sf.get_fen(variant, sf.start_fen(variant), [])
    elif variant == "judkins":
        fen = JUDKINS_FEN
    else:
        fen = sf.get_fen(variant, sf.start_fen(variant), [])
    if sf.validate_fen(fen, variant) != sf.FEN_OK:
        sys.exit(f"match.py: pyffish rejects the FEN {fen!r} for {variant}")
    koma_go = a.koma_go or f"movetime {a.movetime}"
    tc = None
    if a.tc:
        main_ms, _, inc_ms = a.tc.partition("+")
        tc = (int(main_ms), int(inc_ms or 0))
        koma_go = f"on a clock of {a.tc} ms" + (f", byoyomi {a.byoyomi} ms" if a.byoyomi else "")
    fs_movetime = a.fs_movetime if a.fs_movetime is not None else a.movetime
    opp_go = a.engine_go or f"movetime {fs_movetime}"
    log = print if a.verbose else None

    book = []
    if a.book:
        with open(a.book) as f:
            for n, line in enumerate(f, 1):
                line = line.split("#")[0].split()
                if not line:
                    continue
                for i, mv in enumerate(line):
                    if mv not in fsoracle.legal_moves(variant, fen, line[:i]):
                        sys.exit(f"match.py: {a.book}:{n}: {mv} is not legal after {' '.join(line[:i]) or 'the start'}")
                book.append(line)
        if not book:
            sys.exit(f"match.py: {a.book} has no opening")

    started = time.monotonic()
    load_start = os.getloadavg()
    koma = UciEngine("koma", [a.koma, "uci"], log)
    koma.handshake()
    opp = None
    opp_name = a.opponent
    if a.opponent in ("fairy-stockfish", "uci"):
        if a.opponent == "uci":
            if not a.engine:
                sys.exit("match.py: --opponent uci needs --engine COMMAND")
            opp_name = a.engine_name
            argv = shlex.split(a.engine)
        else:
            argv = [find_fs(a.fs)]
        opp = UciEngine(opp_name, argv, log)
        opp.handshake()
        if not (a.engine_variant and a.opponent == "uci") and f" var {variant}" not in opp.options.get("UCI_Variant", "") + " ":
            sys.exit(f"match.py: {opp.id_name} does not offer UCI_Variant {variant}")
        if a.fs_skill is not None and a.opponent == "fairy-stockfish":
            opp.send(f"setoption name Skill Level value {a.fs_skill}")

    def koma_view(moves):
        if a.send == "current":
            return sf.get_fen(variant, fen, moves), []
        if a.send == "startpos":
            return None, moves
        return fen, moves

    def setup(engine):
        name = variant if engine is opp and a.opponent == "fairy-stockfish" else engine_variant
        engine.send(f"setoption name UCI_Variant value {name}")
        for opt in (a.koma_option if engine is koma else a.engine_option):
            name, _, value = opt.partition("=")
            engine.send(f"setoption name {name} value {value}")
        engine.isready()

    setup(koma)
    if opp:
        setup(opp)

    print(f"# variant {variant}  start {fen}")
    if a.variant_ini or a.engine_variant:
        print(f"# oracle's definition {a.variant_ini or 'built in'}; engines' UCI_Variant {engine_variant}")
    print(f"# koma {koma.id_name} ({a.koma}) " + ("" if tc else "go ") + f"{koma_go}" + (f"; options {' '.join(a.koma_option)}" if a.koma_option else ""))
    if opp:
        skill = f", Skill Level {a.fs_skill}" if a.fs_skill is not None and a.opponent == "fairy-stockfish" else ""
        cmd = f" ({a.engine})" if a.opponent == "uci" else ""
        opts = f"; options {' '.join(a.engine_option)}" if a.engine_option else ""
        go_text = koma_go if tc else f"go {opp_go}"
        print(f"# opponent {opp.id_name}{cmd} {go_text}{skill}{opts}")
    else:
        print(f"# opponent random mover, seed {a.seed}")
    print(f"# max plies {a.max_plies}" + ("; koma is sent the current FEN without moves" if a.send == "current" else ""))
    if book:
        print(f"# book {a.book}: {len(book)} openings, each played with both colours")
    print(f"# load average at the start: {load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f}")
    sys.stdout.flush()
    by_colour = {True: [0, 0, 0], False: [0, 0, 0]}  # koma sente? -> wins, draws, losses

    wins = draws = losses = illegal = void = mismatches = 0
    timeout = lambda ms: ms / 1000.0 + a.timeout_ms / 1000.0
    flags = {True: 0, False: 0}  # is koma -> games lost on time
    least_left = {True: None, False: None}  # is koma -> least margin to the flag at a move (ms)
    clock = {}

    def go_args(is_koma, sente):
        """The `go` arguments and the answer's time limit (ms) for a move."""
        if tc is None:
            return (koma_go, a.movetime) if is_koma else (opp_go, fs_movetime)
        mine, theirs = clock[is_koma], clock[not is_koma]
        w, b = (mine, theirs) if sente else (theirs, mine)
        args = f"wtime {int(w)} btime {int(b)} winc {tc[1]} binc {tc[1]}"
        if a.byoyomi:
            args += f" byoyomi {a.byoyomi}"
        return args, mine + a.byoyomi

    def spend(is_koma, engine):
        """Takes the last move's time off the clock; False if the side lost on time."""
        if tc is None:
            return True
        used = engine.latencies[-1] * 1000
        if used > clock[is_koma] + a.byoyomi:
            flags[is_koma] += 1
            return False
        slack = clock[is_koma] + a.byoyomi - used
        least_left[is_koma] = slack if least_left[is_koma] is None else min(least_left[is_koma], slack)
        clock[is_koma] = max(0.0, clock[is_koma] - used) if a.byoyomi else clock[is_koma] - used
        clock[is_koma] += tc[1]
        return True
    for g in range(a.first_game, a.first_game + a.games):
        koma_sente = (g % 2 == 1)
        rng = random.Random(f"{a.seed}:{g}")
        moves = list(book[((g - 1) // 2) % len(book)]) if book else []
        for e in (koma, opp):
            if e:
                e.send("ucinewgame")
                e.isready()
        outcome = None  # (koma score 1/0/-1 or None for void, reason)
        if tc:
            clock[True] = clock[False] = float(tc[0])
        while outcome is None:
            value, reason, legal = terminal(variant, fen, moves, a.max_plies)
            sente_to_move = stm_is_sente(fen, len(moves))
            koma_to_move = (sente_to_move == koma_sente)
            if value is not None:
                outcome = (value if koma_to_move else -value, reason)
                if not legal and koma_to_move:
                    # koma should see that it has no move.
                    try:
                        args, limit = go_args(True, sente_to_move)
                        bm = koma.bestmove(*koma_view(moves), args, timeout(limit))
                    except EngineError as e:
                        bm = f"<{e}>"
                        if not isinstance(e, PositionRejected):
                            koma.restart(); koma.handshake(); setup(koma)
                    if bm not in (None, "(none)"):
                        mismatches += 1
                        print(f"  TERMINAL MISMATCH game {g}: no legal move ({reason}) but koma answered "
                              f"bestmove {bm}\n    FEN {sf.get_fen(variant, fen, moves)}\n"
                              f"    position fen {fen} moves {' '.join(moves)}")
                break
            current = sf.get_fen(variant, fen, moves)
            if koma_to_move:
                try:
                    args, limit = go_args(True, sente_to_move)
                    mv = koma.bestmove(*koma_view(moves), args, timeout(limit))
                    problem = None if mv in legal else (
                        "bestmove (none)" if mv in (None, "(none)") else f"illegal move {mv}")
                    if not problem and not spend(True, koma):
                        outcome = (-1, "koma lost on time")
                        print(f"  TIME game {g} ply {len(moves) + 1}: koma took {koma.latencies[-1] * 1000:.0f} ms")
                        break
                except EngineError as e:
                    mv, problem = None, str(e).removeprefix("koma: ")
                    if not isinstance(e, PositionRejected):
                        koma.restart(); koma.handshake(); setup(koma)
                if problem:
                    illegal += 1
                    outcome = (-1, f"koma: {problem}")
                    print(f"  ILLEGAL game {g} ply {len(moves) + 1}: koma {problem}\n"
                          f"    FEN {current}\n"
                          f"    position fen {fen} moves {' '.join(moves)}\n"
                          f"    oracle legal moves ({len(legal)}): {' '.join(sorted(legal))}")
                    break
            elif opp is None:
                mv = rng.choice(sorted(legal))
            else:
                try:
                    args, limit = go_args(False, sente_to_move)
                    mv = opp.bestmove(None if a.send == "startpos" else fen, moves, args, timeout(limit))
                    problem = None if mv in legal else f"illegal move {mv}"
                    if not problem and not spend(False, opp):
                        outcome = (1, f"{opp_name} lost on time")
                        break
                except EngineError as e:
                    mv, problem = None, str(e).removeprefix(opp_name + ": ")
                    opp.restart(); opp.handshake()
                    if a.fs_skill is not None:
                        opp.send(f"setoption name Skill Level value {a.fs_skill}")
                    setup(opp)
                if problem:
                    void += 1
                    outcome = (None, f"opponent: {problem}")
                    print(f"  OPPONENT ILLEGAL game {g} ply {len(moves) + 1}: {opp_name} {problem}\n"
                          f"    FEN {current}\n"
                          f"    position fen {fen} moves {' '.join(moves)}")
                    break
            if log:
                log(f"  {len(moves) + 1}. {'koma' if koma_to_move else opp_name}: {mv}")
            moves.append(mv)
        score, reason = outcome
        if score is None:
            verdict = "void"
        elif score > 0:
            wins += 1; verdict = "koma wins"; by_colour[koma_sente][0] += 1
        elif score < 0:
            losses += 1; verdict = "koma loses"; by_colour[koma_sente][2] += 1
        else:
            draws += 1; verdict = "draw"; by_colour[koma_sente][1] += 1
        sente, gote = ("koma", opp_name) if koma_sente else (opp_name, "koma")
        opening = f"  opening: {' '.join(book[((g - 1) // 2) % len(book)])}" if book else ""
        print(f"game {g:3d}: sente={sente} gote={gote}  {verdict:10s} plies={len(moves):3d}  reason: {reason}{opening}")
        if score is not None and score < 0 and opp is None and not reason.startswith("koma:"):
            print(f"  LOSS TO RANDOM game {g}: position fen {fen} moves {' '.join(moves)}")
        if a.verbose or (score is not None and score < 0 and not reason.startswith("koma:")):
            print(f"    moves: {' '.join(moves)}")
        sys.stdout.flush()

    koma.close()
    if opp:
        opp.close()
    for e in (koma, opp):
        if e and e.latencies:
            lat = sorted(e.latencies)
            print(f"# {e.name} go->bestmove: {len(lat)} searches, median {lat[len(lat) // 2] * 1000:.0f} ms, "
                  f"max {lat[-1] * 1000:.0f} ms")
    if koma.stderr_lines:
        print(f"# koma stderr ({len(koma.stderr_lines)} lines), last: {koma.stderr_lines[-5:]}")
    print(f"koma: {wins} wins, {draws} draws, {losses} losses, {illegal} illegal moves")
    n = wins + draws + losses
    if n:
        score, half = interval(wins, draws, losses)
        print(f"# score {100 * score:.1f}% over {n} games (95% interval {100 * max(0, score - half):.1f}% .. "
              f"{100 * min(1, score + half):.1f}%), Elo difference {elo(score):+.0f} "
              f"({elo(score - half):+.0f} .. {elo(score + half):+.0f})")
        for side, name in ((True, "sente"), (False, "gote")):
            w, d, l = by_colour[side]
            print(f"# koma as {name}: {w} wins, {d} draws, {l} losses")
    if tc:
        for is_koma, name in ((True, "koma"), (False, opp_name)):
            if least_left[is_koma] is not None:
                print(f"# {name}: {flags[is_koma]} games lost on time; least margin "
                      f"{least_left[is_koma]:.0f} ms (time left on the clock plus byoyomi, less the move's time)")
    load_end = os.getloadavg()
    print(f"# wall time {time.monotonic() - started:.0f} s; load average at the end: "
          f"{load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f}")
    if void or mismatches:
        print(f"other: {void} games void by an opponent's illegal move or failure, "
              f"{mismatches} terminal mismatches")
    sys.exit(1 if illegal else 0)


if __name__ == "__main__":
    main()
