#!/usr/bin/env python3
"""Writes the starting corpora of the fuzz targets from files already in the
repo: variant files, movement strings, FENs of tests/oracle/*.tsv (and their
SFENs, asked of koma), legal moves, game records, protocol and play sessions.

    python3 tests/fuzz/seed.py [--koma target/debug/koma] OUT_DIR

OUT_DIR/<target>/ gets one file per input. The first byte of fen, sfen,
moves, record, protocol and play inputs chooses the variant (see targets.rs);
variants are numbered in `koma list` order (sorted slugs).
"""
import argparse
import hashlib
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def slugs():
    return sorted(p.stem for p in (ROOT / "variants").glob("*.md") if p.name != "README.md")


def put(out, target, data):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--koma", default=str(ROOT / "target/debug/koma"))
    ap.add_argument("out")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    names = slugs()
    index = {s: i for i, s in enumerate(names)}

    # variant: every variant file, valid or broken.
    files = [p for p in (ROOT / "variants").glob("*.md") if p.name != "README.md"]
    files += list((ROOT / "tests/validate").rglob("*.md"))
    for p in files:
        put(out, "variant", p.read_bytes())

    # dsl: every movement written in the variant files.
    for p in files:
        for m in re.finditer(r"betza:\s*['\"]?([^'\",}\n#]+)", p.read_text(errors="replace")):
            put(out, "dsl", m.group(1).strip().encode())

    # fen, sfen, moves: positions of the oracle files, a few per variant.
    for slug in names:
        tsv = ROOT / f"tests/oracle/{slug}.tsv"
        rows = [l.split("\t") for l in tsv.read_text().splitlines() if l and not l.startswith("#")]
        for row in rows[::40]:
            fen, moves = row[0], row[2].split() if len(row) > 2 else []
            put(out, "fen", bytes([index[slug]]) + fen.encode())
            r = subprocess.run(
                [args.koma, "play", "--variant", slug, "--fen", fen, "--sente", "human", "--gote", "human"],
                input="sfen\nquit\n", capture_output=True, text=True)
            for line in r.stdout.splitlines():
                if "sfen " in line:
                    put(out, "sfen", bytes([index[slug]]) + line.split("sfen ", 1)[1].encode())
        start = rows[0][2].split() if rows and len(rows[0]) > 2 else []
        put(out, "moves", bytes([index[slug]]) + " ".join(start[:6]).encode())

    # record: the game records of tests/validate/games (judkins-shogi when they name no variant).
    for p in (ROOT / "tests/validate/games").rglob("*.txt"):
        put(out, "record", bytes([index.get("judkins-shogi", 0)]) + p.read_bytes())

    # kif, ki2, csa, pgn, jkf: the records of tests/records/external (shogi),
    # and each game record of tests/validate/games/ok written in every
    # format by koma (the variant it names).
    ext = ROOT / "tests/records/external"
    for p in sorted(ext.glob("*")):
        target = {".kif": "kif", ".ki2": "ki2", ".csa": "csa"}.get(p.suffix)
        if target:
            put(out, target, bytes([index["shogi"]]) + p.read_bytes())
            for fmt in ["pgn", "jkf"]:
                r = subprocess.run([args.koma, "convert", str(p), "--to", fmt], capture_output=True)
                if r.returncode == 0:
                    put(out, fmt, bytes([index["shogi"]]) + r.stdout)
    for p in sorted((ROOT / "tests/validate/games/ok").glob("*.txt")):
        for fmt in ["kif", "ki2", "csa", "pgn", "jkf"]:
            r = subprocess.run([args.koma, "convert", str(p), "--to", fmt, "--variant", "judkins-shogi"]
                               if "variant:" not in p.read_text() else [args.koma, "convert", str(p), "--to", fmt],
                               capture_output=True)
            if r.returncode == 0:
                put(out, fmt, bytes([index["shogi"]]) + r.stdout)

    # protocol: USI and UCI sessions.
    usi = b"usi\nisready\nusinewgame\nposition startpos moves 6e6d 6a6d\ngo depth 2\nsetoption name Hash value 1\nposition sfen 4k1/6/6/6/6/K5 b P 1\ngo nodes 100\nquit\n"
    uci = b"uci\nsetoption name UCI_Variant value minishogi\nucinewgame\nposition startpos moves a2a3\ngo movetime 10\nposition fen rbsgk/4p/5/P4/KGSBR[-] w 0 1\ngo infinite\nstop\n"
    put(out, "protocol", bytes([2 * index["judkins-shogi"]]) + usi)
    put(out, "protocol", bytes([2 * index["judkins-shogi"] + 1]) + uci)

    # play: the scripted games of tests/play, and commands.
    for p in (ROOT / "tests/play").glob("*.input"):
        put(out, "play", bytes([index["judkins-shogi"], 2]) + p.read_bytes())
    put(out, "play", bytes([index["judkins-shogi"], 0]) + b"help\nmoves\n2f5c\nhint\nundo\nboard\nsfen\nsave g.txt\nresign\nundo\n1e1d\ny\nquit\n")


if __name__ == "__main__":
    main()
