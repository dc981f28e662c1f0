#!/usr/bin/env python3
"""Records koma writes, read by libraries nobody on koma wrote.

Random shogi games (played with cshogi's move generator, seeded) are given
results, written by `koma convert` as KIF, KI2, CSA and JKF, and read back
with cshogi (KIF, CSA), json-kifu-format and tsshogi (all four): each must
find the same moves, the same ending and the same final position. The other
way, cshogi (KIF, CSA) and tsshogi (KIF, KI2, CSA, JKF) write random games
ending in a resignation, and koma must read the same moves and result. The
records of tests/records/external must replay, in json-kifu-format, to the
positions tests/records/external/expected.tsv gives (which `cargo test`
holds koma to). Prints one line per difference and a closing
'N passed, N failed' line; exits 1 on any difference.

    python3 tests/records/check.py --koma target/debug/koma [--games 40]
"""
import argparse
import json
import pathlib
import random
import subprocess
import sys
import tempfile

import cshogi
import cshogi.CSA
import cshogi.KIF

HERE = pathlib.Path(__file__).resolve().parent

# koma's result words -> (what the side to move did, CSA word, tsshogi's type)
ENDINGS = {
    "resignation": ("%TORYO", "resign"),
    "checkmate": ("%TSUMI", "mate"),
    "time": ("%TIME_UP", "timeout"),
    "abort": ("%CHUDAN", "interrupt"),
}


def random_game(rng, plies):
    board = cshogi.Board()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(cshogi.move_to_usi(m))
        board.push(m)
    mated = not list(board.legal_moves) and board.is_check()
    turn = "sente" if board.turn == cshogi.BLACK else "gote"
    other = "gote" if turn == "sente" else "sente"
    return moves, mated, turn, other, board.sfen().rsplit(" ", 1)[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--koma", required=True)
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args()
    rng = random.Random(16)
    failures = []
    passed = 0
    work = pathlib.Path(tempfile.mkdtemp(prefix="koma-records-"))
    cases = []  # (file, format, expected moves, ending, winner, sfen)
    for g in range(args.games):
        moves, mated, turn, other, sfen = random_game(rng, rng.randint(1, 160))
        if mated:
            ending, winner = "checkmate", other
            result = f"{other} wins by checkmate"
        else:
            ending = ["resignation", "time", "abort"][g % 3]
            winner = None if ending == "abort" else other
            result = "aborted" if ending == "abort" else f"{other} wins by {ending}"
        src = work / f"game{g}.txt"
        src.write_text(
            "variant: shogi\n"
            f"sente: Player {g}\ngote: 相手 {g}\nevent: check {g}\n"
            + " ".join(moves) + f"\nresult: {result}\n",
            encoding="utf-8",
        )
        # .kif and .ki2 are written in Shift_JIS (the custom), .kifu in UTF-8.
        for ext in ["kif", "kifu", "ki2", "csa", "jkf"]:
            fmt = "kif" if ext == "kifu" else ext
            out = work / f"game{g}.{ext}"
            r = subprocess.run([args.koma, "convert", str(src), "-o", str(out)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"koma convert game{g} to {fmt}: {r.stderr.strip()}")
                continue
            cases.append((str(out), fmt, moves, ending, winner, sfen))

    # cshogi: KIF and CSA.
    for file, fmt, moves, ending, winner, sfen in cases:
        if fmt not in ("kif", "csa"):
            continue
        try:
            if fmt == "kif":
                p = cshogi.KIF.Parser.parse_file(file)
            else:
                p = cshogi.CSA.Parser.parse_file(file)[0]
            got = [cshogi.move_to_usi(m) for m in p.moves]
            want_win = {None: None, "sente": cshogi.BLACK_WIN, "gote": cshogi.WHITE_WIN}[winner]
            problems = []
            if got != moves:
                problems.append(f"moves differ: {got[:8]}... vs {moves[:8]}...")
            want_end = ENDINGS[ending][0]
            if fmt == "kif" and ending in ("time", "checkmate"):
                # cshogi's KIF reader takes the ending from the closing line
                # alone, and knows no closing line for these two: it says
                # nothing (koma writes 切れ負け / 詰み and 時間切れにより /
                # 詰みにより, which json-kifu-format and tsshogi read).
                want_end, want_win = None, None
            if p.endgame != want_end:
                problems.append(f"ending {p.endgame}, expected {want_end}")
            if ending != "abort" and p.win != want_win:
                problems.append(f"winner {p.win}, expected {want_win}")
            board = cshogi.Board(p.sfen)
            for m in p.moves:
                board.push(m)
            if board.sfen().rsplit(" ", 1)[0] != sfen:
                problems.append(f"final position {board.sfen()} vs {sfen}")
        except Exception as e:  # a library that cannot read it is a failure
            problems = [f"cshogi cannot read it: {e}"]
        if problems:
            failures.append(f"cshogi {file}: " + "; ".join(problems))
        else:
            passed += 1

    # json-kifu-format and tsshogi: all four.
    listing = work / "list.json"
    listing.write_text(json.dumps([{"file": c[0], "format": c[1]} for c in cases]))
    r = subprocess.run(["node", str(HERE / "js/check.js"), str(listing)], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"node check.js failed: {r.stderr.strip()[:500]}")
    expected = {c[0]: c for c in cases}
    for line in r.stdout.splitlines():
        o = json.loads(line)
        file, fmt, moves, ending, winner, sfen = expected[o["file"]]
        lib = o["library"]
        if "error" in o:
            failures.append(f"{lib} {file}: {o['error']}")
            continue
        problems = []
        if o["moves"] != moves:
            problems.append(f"moves differ: {o['moves'][:8]}... vs {moves[:8]}...")
        want = ENDINGS[ending][0].lstrip("%") if lib == "json-kifu-format" else ENDINGS[ending][1]
        if o["special"] != want:
            problems.append(f"ending {o['special']}, expected {want}")
        if o["sfen"] != sfen:
            problems.append(f"final position {o['sfen']} vs {sfen}")
        if problems:
            failures.append(f"{lib} {file}: " + "; ".join(problems))
        else:
            passed += 1

    # The external records: json-kifu-format's positions are expected.tsv's.
    ext = HERE / "external"
    rows = [l.split("\t") for l in (ext / "expected.tsv").read_text(encoding="utf-8").splitlines()
            if l and not l.startswith("#")]
    kinds = {".kif": "kif", ".ki2": "ki2", ".csa": "csa"}
    listing.write_text(json.dumps([{"file": str(ext / f), "format": kinds[pathlib.Path(f).suffix]} for f, *_ in rows]))
    r = subprocess.run(["node", str(HERE / "js/check.js"), str(listing)], capture_output=True, text=True)
    want = {str(ext / f): (sfen, int(n)) for f, sfen, n in rows}
    for line in r.stdout.splitlines():
        o = json.loads(line)
        if o["library"] != "json-kifu-format":
            continue
        sfen, n = want[o["file"]]
        if "error" in o or o["sfen"] != sfen or len(o["moves"]) != n:
            failures.append(f"expected.tsv disagrees with json-kifu-format on {o['file']}: {o}")
        else:
            passed += 1

    # The other way: records cshogi (KIF in Shift_JIS, CSA) and tsshogi (KIF,
    # KI2, CSA, JKF) write of the same games, read by koma: the same moves
    # (hence the same final position) and the resignation.
    games = []
    rng = random.Random(61)
    for g in range(args.games // 2):
        moves, mated, turn, other, sfen = random_game(rng, rng.randint(1, 160))
        if mated:
            continue
        prefix = work / f"theirs{g}"
        board = cshogi.Board()
        kif = cshogi.KIF.Exporter(str(prefix) + ".cshogi.kif")
        kif.header(["cshogi sente", "cshogi gote"])
        csa = cshogi.CSA.Exporter(str(prefix) + ".cshogi.csa")
        csa.info(board, ["cshogi sente", "cshogi gote"])
        for u in moves:
            m = board.move_from_usi(u)
            kif.move(m)
            csa.move(m)
            board.push(m)
        kif.end("resign")
        csa.endgame("%TORYO")
        kif.close()
        csa.close()
        games.append((prefix, moves, other))
    listing.write_text(json.dumps([{"usi": "position startpos moves " + " ".join(m), "out": str(p)}
                                   for p, m, _ in games]))
    r = subprocess.run(["node", str(HERE / "js/export.js"), str(listing)], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"node export.js failed: {r.stderr.strip()[:500]}")
    for prefix, moves, winner in games:
        for writer, ext in [("cshogi", "kif"), ("cshogi", "csa"), ("tsshogi", "kif"),
                            ("tsshogi", "ki2"), ("tsshogi", "csa"), ("tsshogi", "jkf")]:
            file = pathlib.Path(f"{prefix}.{writer}.{ext}")
            r = subprocess.run([args.koma, "convert", str(file), "--to", "usi"], capture_output=True, text=True)
            v = subprocess.run([args.koma, "validate", "--game", str(file)], capture_output=True, text=True)
            got = r.stdout.split(" moves ", 1)[1].split() if " moves " in r.stdout else []
            problems = []
            if r.returncode != 0 or v.returncode != 0:
                problems.append(f"koma refuses it: {(r.stderr or v.stderr).strip()}")
            elif got != moves:
                problems.append(f"moves differ: {got[:8]}... vs {moves[:8]}...")
            elif f"recorded result: {winner} wins by resignation" not in v.stdout:
                problems.append(f"result: {v.stdout.strip().splitlines()}")
            if problems:
                failures.append(f"koma reading {writer}'s {file.name}: " + "; ".join(problems))
            else:
                passed += 1

    for f in failures:
        print(f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
