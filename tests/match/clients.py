"""The clients the match scripts share: an engine over USI or UCI, and
koma's `moves --batch` as the referee (legal moves and result of a
position given by its moves from the start)."""
import subprocess


class Engine:
    """An engine over USI or UCI (`protocol`), playing `variant`."""

    def __init__(self, argv, variant, protocol="usi", hash_mb=None):
        self.protocol = protocol
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(protocol)
        self.wait(f"{protocol}ok")
        prefix = protocol.upper()
        self.send(f"setoption name {prefix}_Variant value {variant}")
        if hash_mb is not None:
            self.send(f"setoption name {'USI_Hash' if protocol == 'usi' else 'Hash'} value {hash_mb}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        """The words of the first line that starts with `word`."""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended while waiting for {word}")
            parts = line.split()
            if parts and parts[0] == word:
                return parts

    def new_game(self):
        self.send(f"{self.protocol}newgame")
        self.send("isready")
        self.wait("readyok")

    def best(self, moves, limit):
        """Its move after `moves` from the start, searched with `go LIMIT`
        (`nodes N`, `movetime MS`); `(none)` if it names none."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go {limit}")
        parts = self.wait("bestmove")
        return parts[1] if len(parts) > 1 else "(none)"

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


class Referee:
    """`koma moves --batch`: the result and legal moves of a position."""

    def __init__(self, binary, variant, notation=None):
        argv = [binary, "moves", "-v", variant, "--batch"]
        if notation:
            argv += ["--notation", notation]
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def judge(self, moves):
        """(result, legal moves) after `moves` from the start: result `-`,
        `sente`, `gote` or `draw`."""
        self.p.stdin.write("startpos" + (" moves " + " ".join(moves) if moves else "") + "\n")
        self.p.stdin.flush()
        fields = self.p.stdout.readline().rstrip("\n").split("\t")
        if fields[0] == "error":
            raise RuntimeError(f"referee: {fields[1]} after {' '.join(moves)}")
        legal = fields[2].split() if len(fields) > 2 and fields[2] else []
        return fields[1], legal

    def close(self):
        self.p.stdin.close()
        self.p.wait()
