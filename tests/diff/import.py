#!/usr/bin/env python3
"""`koma variant import` checked against Fairy-Stockfish.

Three kinds of sections are imported into koma files and each file is
compared with pyffish playing the section, as tests/diff/export.py does:
perft from the start (move by move where it differs) and random games,
position by position (the legal moves, check, the result).

  built-in   an empty section over each Fairy-Stockfish built-in variant
             koma follows as a parent (`[xshogi:shogi]`): the import's
             transcription of the built-in (src/export/fairy-stockfish.ini)
             against pyffish's own variant;
  fairy      Fairy-Stockfish's own shogi-family sections of its
             src/variants.ini (tests/oracle/generate.py's VARIANTS_INI, and
             antiminishogi below, which koma refuses);
  round      every shipped variant that `koma variant export` writes,
             imported back: the section pyffish loads against the koma file
             written from it.

Usage (a built koma: cargo build --release; pyffish):
    python3 tests/diff/import.py                       # all three
    python3 tests/diff/import.py --games 2 --plies 40 --kinds built-in,fairy
Options: --games G (default 4), --plies P (default 60), --koma PATH,
--oracle PATH, --keep DIR (write each section and file there). Exit status 1
if anything differs or a section expected to import does not.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "oracle"))
import harness  # noqa: E402
import randvar  # noqa: E402
import generate  # noqa: E402

BUILT_IN = ["minishogi", "shogi", "judkins", "gorogoro", "kyotoshogi", "euroshogi", "checkshogi", "dobutsu"]

# Fairy-Stockfish's src/variants.ini (GitHub fairy-stockfish/Fairy-Stockfish,
# commit bfa82b4d), verbatim: refused by koma (mustCapture, and a commoner
# whose capture wins for the side that loses it all: extinctionPieceTypes = *).
ANTIMINISHOGI = """[antiminishogi:minishogi]
king = -
commoner = k
mustCapture = true
stalemateValue = win
extinctionValue = win
extinctionPieceTypes = *
"""


def sections(text):
    return re.findall(r"^\[([^:\]]+)", text, re.M)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--kinds", default="built-in,fairy,round")
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--oracle", default=os.environ.get("FSORACLE", str(HERE.parent / "oracle" / "fsoracle.py")))
    ap.add_argument("--keep", default="")
    a = ap.parse_args()
    a.koma = str(Path(a.koma).resolve())
    keep = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="import-"))
    keep.mkdir(parents=True, exist_ok=True)
    a.keep = str(keep)
    kinds = set(a.kinds.split(","))
    run = randvar.Run(a)

    # (label, ini text, section, fs name, load the text into pyffish, expected to import)
    cases = []
    if "built-in" in kinds:
        for name in BUILT_IN:
            cases.append((f"built-in {name}", f"[x{name}:{name}]\n", f"x{name}", name, False, True))
    if "fairy" in kinds:
        for name in sections(generate.VARIANTS_INI):
            cases.append((f"fairy {name}", generate.VARIANTS_INI, name, name, True, True))
        cases.append(("fairy antiminishogi", ANTIMINISHOGI, "antiminishogi", "antiminishogi", True, False))
    if "round" in kinds:
        slugs = [line.split()[0] for line in subprocess.run(
            [a.koma, "list"], capture_output=True, text=True, check=True).stdout.splitlines()[1:]]
        for slug in slugs:
            r = subprocess.run([a.koma, "variant", "export", slug, "--to", "ini"],
                               capture_output=True, text=True, timeout=60)
            if r.returncode == 0:
                name = sections(r.stdout)[0]
                cases.append((f"round {slug}", r.stdout, name, name, True, True))

    t0 = time.time()
    total = {"variants": 0, "positions": 0, "nodes": 0, "diffs": 0, "errors": 0}
    refused = []
    for label, ini, name, fs, load, expected in cases:
        tag = label.replace(" ", "-")
        ini_path = keep / f"{tag}.ini"
        md_path = keep / f"{tag}.md"
        ini_path.write_text(ini)
        r = subprocess.run([a.koma, "variant", "import", str(ini_path), name, "-o", str(md_path)],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            why = r.stderr.strip().splitlines()
            refused.append((label, why[1].strip() if len(why) > 1 else r.stderr.strip()))
            if expected:
                print(f"IMPORT FAILED {label}:\n{r.stderr.strip()}", flush=True)
                total["errors"] += 1
            continue
        if not expected:
            print(f"IMPORTED {label}, which koma should refuse", flush=True)
            total["errors"] += 1
            continue
        md = md_path.read_text()
        v = randvar.Variant()
        v.seed, v.fs, v.path, v.ini = tag, fs, md_path, ini
        v.drops = "    drops: true" in md
        v.check = "    check: true" in md
        v.check_wins = "    check_wins: true" in md
        # The oracle's table of drop-mate pieces for a loaded section.
        dropmate = re.search(r"letter: (\w+)\n      betza: \S+\n      drop_mate_illegal: true", md)
        if load and fs not in run.sf.variants():
            run.load_section(v, dropmate.group(1) if dropmate else None)
        v.start = run.sf.start_fen(fs)
        if not run.compare_counted(v, label, name, total):
            total["errors"] += 1
    for label, why in refused:
        print(f"{label}: not imported ({why})")
    print(f"imported sections: {total['variants']}, perft nodes: {total['nodes']}, "
          f"positions: {total['positions']}, differences: {total['diffs']}, "
          f"not imported: {len(refused)}, errors: {total['errors']}, time {time.time() - t0:.0f} s")
    sys.exit(1 if total["diffs"] or total["errors"] else 0)


if __name__ == "__main__":
    main()
