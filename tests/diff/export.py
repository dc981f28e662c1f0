#!/usr/bin/env python3
"""koma's variants.ini export checked against Fairy-Stockfish.

Each shipped variant that `koma variant export VARIANT --to ini` can write is
exported, its section loaded into pyffish (load_variant_config) and compared
with koma playing the variant's own file: perft from the start (move by move
where it differs) and random games, position by position (the legal moves,
check, the result), as tests/diff/randvar.py does for random variants. The
variants it refuses are listed with the first reason it gives.

Usage (a built koma: cargo build --release; pyffish):
    python3 tests/diff/export.py                    # every shipped variant
    python3 tests/diff/export.py --games 20 --plies 80 shogi tori-shogi
Options: --games G (default 4), --plies P (default 60), --koma PATH,
--oracle PATH (default: tests/oracle/fsoracle.py beside this folder),
--keep DIR (write each section there). Exit status 1 if anything differs.
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
import harness  # noqa: E402
import randvar  # noqa: E402


def section(ini):
    """The section's name and its keys (the last value of each)."""
    name = re.search(r"^\[([^:\]]+)", ini, re.M).group(1)
    keys = dict(re.findall(r"^(\w+) = (.*)$", ini, re.M))
    return name, keys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variants", nargs="*")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--koma", default=str(REPO / "target" / "release" / "koma"))
    ap.add_argument("--oracle", default=os.environ.get("FSORACLE", str(HERE.parent / "oracle" / "fsoracle.py")))
    ap.add_argument("--keep", default="")
    a = ap.parse_args()
    a.koma = str(Path(a.koma).resolve())
    keep = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="export-"))
    keep.mkdir(parents=True, exist_ok=True)
    a.keep = str(keep)
    slugs = a.variants or [line.split()[0] for line in subprocess.run(
        [a.koma, "list"], capture_output=True, text=True, check=True).stdout.splitlines()[1:]]
    run = randvar.Run(a)
    t0 = time.time()
    total = {"variants": 0, "positions": 0, "nodes": 0, "diffs": 0}
    refused = []
    for slug in slugs:
        r = subprocess.run([a.koma, "variant", "export", slug, "--to", "ini"],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            lines = r.stderr.strip().splitlines()
            refused.append((slug, lines[1].strip() if len(lines) > 1 else r.stderr.strip()))
            continue
        ini = r.stdout
        (keep / f"{Path(slug).stem}.ini").write_text(ini)
        name, keys = section(ini)
        v = randvar.Variant()
        v.seed, v.fs, v.path, v.ini = slug, name, slug, ini
        v.start = keys["startFen"]
        v.drops = keys["pieceDrops"] == "true"
        v.check = keys.get("checking") != "false"
        v.check_wins = keys.get("checkCounting") == "true"
        dropmate = keys.get("shogiPawnDropMateIllegal") == "true"
        run.load_section(v, keys["shogiPawn"].upper() if dropmate else None)
        if not run.compare_counted(v, slug, name, total, (f"rv-{slug}", slug)):
            total["diffs"] += 1
    for slug, why in refused:
        print(f"{slug}: not exported ({why})")
    print(f"exported variants: {total['variants']}, perft nodes: {total['nodes']}, "
          f"positions: {total['positions']}, differences: {total['diffs']}, "
          f"not exported: {len(refused)}, time {time.time() - t0:.0f} s")
    sys.exit(1 if total["diffs"] else 0)


if __name__ == "__main__":
    main()
