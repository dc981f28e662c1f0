"""A Fairy-Stockfish process spoken to over UCI, for the scripts that ask it
to judge positions (tests/match/make_book.py, tests/engine/make_tactics.py)."""
import os
import subprocess
import sys


class Fs:
    """Fairy-Stockfish at `path`, set to UCI_Variant `variant` and ready;
    `variant_path` is a variants.ini file it loads first (VariantPath)."""

    def __init__(self, path, variant, who="fs_uci.py", variant_path=None):
        self.who = who
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if variant_path:
            self.send(f"setoption name VariantPath value {os.path.abspath(variant_path)}")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        """The lines read up to and including the first that starts with `word`."""
        lines = []
        for line in self.p.stdout:
            line = line.strip()
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines
        sys.exit(f"{self.who}: Fairy-Stockfish exited")

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def search(self, fen, moves, depth):
        """The lines of `go depth` from the position after `moves`."""
        self.send(f"position fen {fen} moves {' '.join(moves)}")
        self.send(f"go depth {depth}")
        return self.wait("bestmove")

    def close(self):
        self.send("quit")
        self.p.wait()
