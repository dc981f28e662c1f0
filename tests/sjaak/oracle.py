#!/usr/bin/env python3
"""Sjaak II as an oracle for wa shogi: legal moves, perft, check and game over.

Sjaak II (Evert Glebbeek; Debian package `sjaakii`, binary /usr/games/sjaakii,
games defined in /usr/share/games/sjaakii/variants.txt) plays wa shogi as
`Wa-Shogi-drop` (with drops) and `Wa-Shogi` (without). This script talks to it
in its own terminal mode (`board off`, `force`) and answers for a FEN:

    python3 tests/sjaak/oracle.py moves  SLUG FEN [--usi]   # legal moves, sorted, one a line
    python3 tests/sjaak/oracle.py status SLUG FEN           # check<TAB>result<TAB>reason
    python3 tests/sjaak/oracle.py perft  SLUG FEN DEPTH [--divide]
    python3 tests/sjaak/oracle.py batch  SLUG [--usi] < fens # one line per FEN, as `koma moves --batch`
    python3 tests/sjaak/oracle.py version

SLUG is koma's name of the game: `wa-shogi` (Sjaak's `Wa-Shogi-drop`) or
`wa-shogi-no-drops` (Sjaak's `Wa-Shogi`). FEN may be `startpos`; Sjaak's FEN is
koma's (`board[hands] w 0 1`, upper case = sente, `w` = sente, `[-]` or `[]`
for empty hands). `$SJAAKII` overrides the binary's path.

How each answer is got from Sjaak (verified by hand on positions built for it,
see tests/diff/results.txt):

  * legal moves: `setboard FEN` then `perft 1 1`, which lists every
    pseudo-legal move with its count: 1 for a legal move, 0 for one that
    leaves the king attacked. Pawn drops that would mate are not listed at all
    (Sjaak's `drop_no_mate`). Sjaak writes `Pe8xe9+` (piece letter, `+` in
    front for a promoted piece, `-` or `x`, `+` at the end when the move
    promotes) and `P@f10` for a drop; squares are files a-k from sente's
    left and ranks 1-11 from sente's side, as in XBoard (and in koma's
    `--notation fairy`). This script writes moves as koma's fairy notation
    (`e8e9+`, `e8e9`, `P@f10`), or with --usi as koma's and lishogi's USI for
    wide boards (files 11..1 from sente's right, ranks a..k from the top:
    `7d7c+`, `P*6b`).
  * check: Sjaak's prompt ends in `+>` when the side to move is in check
    (`#[Wa-Shogi-drop (11x11)] 0b (f)+>`).
  * game over: only when there is no legal move; then Sjaak's own verdict is
    asked with `go` (which, the game being over, prints the result and plays
    nothing): `1-0 {White mates}` = sente wins, `0-1` = gote wins,
    `1/2-1/2 {Stalemate}` = draw. From a FEN alone there is no history, so
    Sjaak's repetition and 50-move rules never apply; its "insufficient
    material" draw is never asked (it counts only the board: with pawns in
    hand and kings alone on the board, `go` says 1/2-1/2).
"""
import os
import re
import subprocess
import sys

SJAAK = os.environ.get("SJAAKII", "/usr/games/sjaakii")
# koma slug -> Sjaak II's variant name
VARIANTS = {"wa-shogi": "wa-shogi-drop", "wa-shogi-no-drops": "wa-shogi"}
START = "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH[] w 0 1"
FILES, RANKS = 11, 11

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROMPT = re.compile(r"#\[[^\]]*\] \d+[wb](?: \(f\))?(\+?)>")
DIVIDE = re.compile(r"^\s*(\S+)\s+(\d+)\s+(\d+)\s*$")
TOTAL = re.compile(r"^\s*(\d+)\s+(\d+)\s+\d+\.\d+\s")
MOVE = re.compile(r"^(\+?[A-Z])([a-k]\d+)[-x]([a-k]\d+)(\+?)$")
DROP = re.compile(r"^([A-Z])@([a-k]\d+)$")
RESULT = re.compile(r"^(1-0|0-1|1/2-1/2) \{(.*)\}")
FEN_LINE = re.compile(r"^[0-9A-Za-z+/]+(?:\[[^\]]*\])? [wb] \d+ \d+$")


class OracleError(Exception):
    pass


def to_usi(move):
    """koma's fairy notation (e8e9+, P@f10) -> USI for 11 files (7d7c+, P*6b)."""
    def sq(s):
        return f"{FILES - (ord(s[0]) - 97)}{chr(97 + RANKS - int(s[1:]))}"
    if "@" in move:
        piece, to = move.split("@")
        return f"{piece}*{sq(to)}"
    m = re.match(r"^([a-k]\d+)([a-k]\d+)(\+?)$", move)
    if not m:
        raise OracleError(f"not a move in fairy notation: {move}")
    return sq(m.group(1)) + sq(m.group(2)) + m.group(3)


def from_sjaak(text):
    """Sjaak's `Pe8xe9+` / `+Sb1-d2` / `P@f10` -> fairy `e8e9+` / `b1d2` / `P@f10`."""
    m = MOVE.match(text)
    if m:
        return m.group(2) + m.group(3) + m.group(4)
    m = DROP.match(text)
    if m:
        return text
    raise OracleError(f"unreadable move from Sjaak II: {text!r}")


def board_of(fen):
    """{square: piece} of a FEN's board (squares as fairy names, a1 = sente's left)."""
    rows = fen.split()[0].split("[")[0].split("/")
    out = {}
    for i, row in enumerate(rows):
        rank, f = len(rows) - i, 0
        for tok in re.findall(r"\d+|\+?[A-Za-z]", row):
            if tok.isdigit():
                f += int(tok)
            else:
                out[f"{chr(97 + f)}{rank}"] = tok
                f += 1
    return out


def sjaak_fen(fen):
    """A FEN as Sjaak reads it: koma's `board[hands] w - - 0 1` or Sjaak's own."""
    if fen == "startpos":
        return START
    fields = fen.split()
    if len(fields) < 2 or fields[1] not in ("w", "b") or not re.match(r"^[0-9A-Za-z+/]+(\[[A-Za-z+-]*\])?$", fields[0]):
        raise OracleError(f"not a FEN: {fen!r}")
    board = fields[0] if "[" in fields[0] else fields[0] + "[]"
    board = board.replace("[]", "[-]")
    nums = [f for f in fields[2:] if f.isdigit()]
    half, full = (nums + ["0", "1"])[:2] if len(nums) < 2 else nums[-2:]
    return f"{board} {fields[1]} {half} {full}"


def koma_fen(fen):
    """Sjaak's FEN (`[-]`, or no hands at all in a game without drops) written
    as koma writes it (`[]`, `- -` fields)."""
    board, side, half, full = fen.split()
    board = board.replace("[-]", "[]") if "[" in board else board + "[]"
    return f"{board} {side} - - {half} {full}"


class Sjaak:
    """One Sjaak II process set to one wa shogi variant."""

    def __init__(self, slug="wa-shogi", path=SJAAK):
        if slug not in VARIANTS:
            raise OracleError(f"unknown game {slug!r}: one of {', '.join(VARIANTS)}")
        try:
            self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError as e:
            raise OracleError(f"cannot run Sjaak II ({path}): {e}; install Debian's sjaakii") from e
        self.slug, self.count = slug, 0
        out = self._run(["board off", f"variant {VARIANTS[slug]}", "new", "force"])
        self.banner = next((l.strip() for l in out if l.startswith("Sjaak II version")), "Sjaak II")
        if self.prompt_name != VARIANTS[slug]:
            raise OracleError(f"Sjaak II did not select {VARIANTS[slug]} (prompt: {self.prompt_name})")

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
            except OSError:
                pass
            self.proc.wait(timeout=10)

    def _run(self, commands):
        """Send commands; return the output lines with prompts removed.

        The end of the answer is an unknown command, which Sjaak answers with
        an error line naming it. The prompt printed just before that line is
        the one of the position the commands left; its `+` says check."""
        self.count += 1
        token = f"end-of-answer-{self.count}"
        try:
            self.proc.stdin.write("\n".join(commands + [token]) + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise OracleError(f"Sjaak II stopped: {e}") from e
        lines = []
        while True:
            raw = self.proc.stdout.readline()
            if not raw:
                raise OracleError("Sjaak II ended unexpectedly")
            line = ANSI.sub("", raw.rstrip("\n"))
            if token in line:
                prompts = PROMPT.findall(line)
                self.last_check = bool(prompts and prompts[-1] == "+")
                name = re.findall(r"#\[([^\]]*)\]", line)
                self.prompt_name = name[-1].split(" (")[0].lower() if name else ""
                return lines
            lines.append(PROMPT.sub("", line))

    def _setboard(self, fen, more):
        out = self._run([f"setboard {sjaak_fen(fen)}"] + more)
        errors = [l for l in out if l.startswith("Error") or "bad FEN" in l]
        if errors:
            # a refused FEN leaves Sjaak's board in an unknown state: reset it
            self._run(["new", "force"])
            raise OracleError(f"Sjaak II refused {fen!r}: {errors[0]}")
        return out

    def legal(self, fen):
        """(in_check, sorted legal moves in fairy notation)."""
        out = self._setboard(fen, ["perft 1 1"])
        moves, total = [], None
        for line in out:
            m = DIVIDE.match(line)
            if m and not m.group(1).isdigit():
                if m.group(2) == "1":
                    moves.append(from_sjaak(m.group(1)))
                elif m.group(2) != "0":
                    raise OracleError(f"perft 1 gave {line!r}")
                continue
            t = TOTAL.match(line)
            if t and t.group(1) == "1":
                total = int(t.group(2))
        if total != len(moves):
            raise OracleError(f"perft 1 total {total} but {len(moves)} legal moves listed for {fen}")
        check = self.last_check
        # `perft` lists some pawn drops that mate (seen: a drop whose pawn
        # is protected by a fox's jump), which Sjaak refuses when the drop
        # is played ("Illegal move (may not be used to give mate)"). A drop
        # gives check only as a pawn in front of the king, so those drops
        # are played to ask.
        side = sjaak_fen(fen).split()[1]
        king = "k" if side == "w" else "K"
        board = board_of(sjaak_fen(fen))
        ksq = next((sq for sq, p in board.items() if p == king), None)
        if ksq:
            front = f"P@{ksq[0]}{int(ksq[1:]) + (-1 if side == 'w' else 1)}"
            if front in moves:
                out = self._setboard(fen, [front, "fen"])
                if any("may not be used to give mate" in l for l in out):
                    moves.remove(front)
                elif any(l.startswith("Illegal") or l.startswith("Error") for l in out):
                    raise OracleError(f"Sjaak II refused {front} in {fen}: {out}")
                self._setboard(fen, [])
        return check, sorted(moves)

    def status(self, fen):
        """{'check', 'moves', 'result' ('-', 'sente', 'gote', 'draw'), 'reason'}."""
        check, moves = self.legal(fen)
        result, reason = "-", ""
        if not moves:
            out = self._run(["go", "force"])
            found = [RESULT.match(l) for l in out if RESULT.match(l)]
            if not found:
                raise OracleError(f"no legal move but no result from Sjaak II for {fen}: {out}")
            score, reason = found[0].group(1), found[0].group(2)
            result = {"1-0": "sente", "0-1": "gote", "1/2-1/2": "draw"}[score]
        return {"check": check, "moves": moves, "result": result, "reason": reason}

    def perft(self, fen, depth, divide=False):
        """Leaf count at DEPTH (and, with divide, [(move, count)] below the root)."""
        out = self._setboard(fen, [f"perft {depth} 1" if divide else f"perft {depth}"])
        # with a print depth, Sjaak prints for each depth 1..DEPTH the split
        # below the root and then that depth's total: keep the last block
        total, block, split = None, [], []
        for line in out:
            m = DIVIDE.match(line)
            if m and not m.group(1).isdigit():
                block.append((from_sjaak(m.group(1)), int(m.group(2))))
                continue
            t = TOTAL.match(line)
            if t:
                if int(t.group(1)) == depth:
                    total, split = int(t.group(2)), block
                block = []
        if total is None:
            raise OracleError(f"no perft {depth} total from Sjaak II for {fen}")
        if divide:
            # Sjaak also lists the illegal moves below the root (counted 0)
            legal = set(self.legal(fen)[1])
            return total, [(mv, n) for mv, n in split if mv in legal]
        return total

    def play(self, fen, move):
        """The FEN (Sjaak's) after MOVE (fairy notation) from FEN."""
        out = self._setboard(fen, [move, "fen"])
        bad = [l for l in out if l.startswith("Error")]
        if bad:
            raise OracleError(f"Sjaak II refused {move} in {fen}: {bad[0]}")
        fens = [l.strip() for l in out if FEN_LINE.match(l.strip())]
        if not fens:
            raise OracleError(f"no FEN from Sjaak II after {move} in {fen}: {out}")
        return fens[-1]


# Random games (tests/diff/wa.py, tests/sjaak/generate.py): styles by game number
STYLES = ["random", "capture", "aggressive", "hunt"]


def choose(rng, style, moves, fen):
    side = fen.split()[1]
    board = board_of(fen)
    captures = [m for m in moves if "@" not in m and target(m) in board]
    drops = [m for m in moves if "@" in m]
    if style == "capture":
        if captures and rng.random() < 0.5:
            return rng.choice(captures)
        if drops and rng.random() < 0.3:
            return rng.choice(drops)
    elif style == "aggressive":
        if captures and rng.random() < 0.8:
            return rng.choice(captures)
        promos = [m for m in moves if m.endswith("+")]
        if promos and rng.random() < 0.6:
            return rng.choice(promos)
        king = "k" if side == "w" else "K"
        ksq = next((s for s, p in board.items() if p == king), None)
        if ksq:
            front = f"{ksq[0]}{int(ksq[1:]) + (-1 if side == 'w' else 1)}"
            aimed = [m for m in drops if m == f"P@{front}"]
            if aimed and rng.random() < 0.5:
                return aimed[0]
        if drops and rng.random() < 0.5:
            return rng.choice(drops)
    elif style == "hunt":
        king = "k" if side == "w" else "K"
        ksq = next((s for s, p in board.items() if p == king), None)
        if captures and rng.random() < 0.6:
            return rng.choice(captures)
        if ksq:
            near = [m for m in moves if distance(target(m), ksq) <= 2]
            if near and rng.random() < 0.8:
                return rng.choice(near)
    return rng.choice(moves)


def distance(a, b):
    return max(abs(ord(a[0]) - ord(b[0])), abs(int(a[1:]) - int(b[1:])))


def target(move):
    """The destination square of a fairy move (`e8e9+` -> e9, `P@f10` -> f10)."""
    if "@" in move:
        return move.split("@")[1]
    body = move.rstrip("+")
    i = 1
    while i < len(body) and body[i].isdigit():
        i += 1
    return body[i:]


def main(argv):
    usi = "--usi" in argv
    divide = "--divide" in argv
    args = [a for a in argv if a not in ("--usi", "--divide")]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if args[0] == "version":
            s = Sjaak()
            print(s.banner)
            s.close()
            return 0
        cmd, slug = args[0], args[1] if len(args) > 1 else ""
        s = Sjaak(slug)
        note = to_usi if usi else (lambda m: m)
        if cmd == "moves" and len(args) == 3:
            for m in s.legal(args[2])[1]:
                print(note(m))
        elif cmd == "status" and len(args) == 3:
            st = s.status(args[2])
            print(f"{int(st['check'])}\t{st['result']}\t{st['reason']}")
        elif cmd == "perft" and len(args) == 4:
            if divide:
                total, split = s.perft(args[2], int(args[3]), divide=True)
                for m, n in sorted(split):
                    print(f"{note(m)}: {n}")
                print(f"total: {total}")
            else:
                print(f"total: {s.perft(args[2], int(args[3]))}")
        elif cmd == "batch" and len(args) == 2:
            for line in sys.stdin:
                fen = line.strip()
                if not fen:
                    continue
                try:
                    st = s.status(fen)
                    print(f"{int(st['check'])}\t{st['result']}\t{' '.join(note(m) for m in st['moves'])}", flush=True)
                except OracleError as e:
                    print(f"error\t{e}", flush=True)
        else:
            print(__doc__, file=sys.stderr)
            return 2
        s.close()
    except OracleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
