#!/usr/bin/env python3
"""Fairy-Stockfish's start position of every name koma accepts that it knows.

Writes tests/oracle/fs-starts.txt: `name FEN` lines, FEN as pyffish gives it
(`sf.start_fen(name)`). The test `fs_start_positions_are_those_of_the_alias`
(tests/koma/oracle.rs) checks that koma, loaded under each name, starts there:
an alias such as `judkins` whose Fairy-Stockfish setup differs from the
variant's file carries that setup itself (`aliases: [{name, setup}]`).

Usage: python3 tests/oracle/fs_starts.py > tests/oracle/fs-starts.txt
The names are read from `koma uci`'s UCI_Variant option (target/release/koma).
"""
import os
import subprocess
import sys

import pyffish as sf

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
koma = os.path.join(REPO, "target", "release", "koma")
out = subprocess.run([koma, "uci"], input="uci\nquit\n", capture_output=True, text=True).stdout
line = next(l for l in out.splitlines() if l.startswith("option name UCI_Variant"))
names = line.split(" var ")[1:]
known = set(sf.variants())
print(f"# pyffish {'.'.join(map(str, sf.version()))}: sf.start_fen(name) for koma's names that it knows")
for name in names:
    if name in known:
        print(name, sf.start_fen(name))
