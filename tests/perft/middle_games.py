#!/usr/bin/env python3
"""Write tests/perft/middle-games.perft: perft from the middle of random games.

Run from the repository root (needs pyffish: python3 -m pip install pyffish):

    python3 tests/perft/middle_games.py

Options: --oracle PATH (default: $FSORACLE, else tests/oracle/fsoracle.py,
found from this file's own path), --out FILE (default:
tests/perft/middle-games.perft), --only SLUG[,SLUG...] (just those variants),
--list (print the chosen positions and stop, computing nothing).
One process; takes about 12 minutes (pyffish costs ~2.5 ms a call and the
oracle's perft is a Python recursion). Rerunning reproduces the file exactly
apart from the date in the header: the choice of positions has no randomness
and the choice of depths depends only on counts (never on the clock).

Positions: for each of the ten variants, 6 positions from
tests/oracle/<slug>.tsv (written by tests/oracle/generate.py from seeded random
games; '#' lines skipped, positions with no legal move skipped). Each
position is scored 2 for pieces in both hands (not in sho shogi, which has no
drops) plus 1 for a promoted piece on the board ('+' in the board part).
Up to 2 come from the positions where the side to move is in check (the tsv's
in_check = 1; there is none in dobutsu shogi, where Fairy-Stockfish has no
royal piece), the rest from the others; within each group the best-scoring
positions (the next score down only where too few) are sorted by number of
legal moves (then line order) and taken at evenly spaced ranks, from the
fewest moves to the most, so the sizes vary (for the positions in check,
only the half with the most evasions). Entries are numbered in the
order of the tsv lines.

Counts: fsoracle.perft() imported from the oracle as is (Fairy-Stockfish's
legal moves with pawn-drop mate, swallow-drop mate in tori shogi, removed where
the game forbids it). perft 1 is the length of the oracle's legal move list
(checked against the tsv), perft 2 is always computed, perft 3 where its
estimated cost is under MAX_SECONDS: the pyffish calls the depth-2 run made
plus n2 times the mean calls of the move list at a fixed sample of 24 nodes
two plies down (the oracle asks gives_check() for every pawn drop, so the
cost of a node varies a lot), at MS_PER_CALL milliseconds a call. The calls
are counted, not timed, so the choice does not depend on the machine.
"""
import argparse
import datetime
import importlib.util
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# koma slug -> Fairy-Stockfish variant name, in the order of the output file
VARIANTS = [
    ("judkins-shogi", "judkins"), ("shogi", "shogi"), ("minishogi", "minishogi"),
    ("gorogoro-shogi", "gorogoro"), ("euroshogi", "euroshogi"), ("yari-shogi", "yarishogi"),
    ("tori-shogi", "torishogi"), ("dobutsu-shogi", "dobutsu"), ("kyoto-shogi", "kyotoshogi"),
    ("sho-shogi", "shoshogi"),
]
NO_DROPS = {"sho-shogi"}
PER_VARIANT = 6
MAX_CHECKS = 2
MAX_SECONDS = 60.0
MS_PER_CALL = 2.5
SAMPLE_1, SAMPLE_2 = 8, 3


class CountingSF:
    """Stands in for the pyffish module inside the oracle: counts the calls, changes nothing."""

    def __init__(self, sf):
        self._sf = sf
        self.calls = 0

    def __getattr__(self, name):
        attr = getattr(self._sf, name)
        if not callable(attr):
            return attr

        def counted(*args, **kwargs):
            self.calls += 1
            return attr(*args, **kwargs)
        return counted


def load_oracle(path):
    spec = importlib.util.spec_from_file_location("fsoracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.sf = CountingSF(mod.sf)
    return mod


def read_positions(slug):
    out = []
    path = REPO / "tests" / "oracle" / f"{slug}.tsv"
    for line_no, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fen, check, moves = line.split("\t")
        moves = moves.split()
        field = fen.split(" ", 1)[0]
        board, _, rest = field.partition("[")
        hand = rest.partition("]")[0]
        both_hands = any(c.isupper() for c in hand) and any(c.islower() for c in hand)
        promoted = "+" in board
        score = (0 if slug in NO_DROPS else 2 * both_hands) + promoted
        out.append({"line": line_no, "fen": fen, "check": check == "1", "legal": len(moves),
                    "score": score})
    return out


def spread(pool, k, upper_half=False):
    """k positions of pool: best scores first, evenly spaced by number of legal moves
    (with upper_half, among the half of the best-scoring ones with the most moves)."""
    if k <= 0 or not pool:
        return []
    tier = []
    for score in sorted({p["score"] for p in pool}, reverse=True):
        tier += [p for p in pool if p["score"] == score]
        if len(tier) >= k:
            break
    tier.sort(key=lambda p: (p["legal"], p["line"]))
    if upper_half and len(tier) >= 2 * k:
        tier = tier[len(tier) // 2:]
    if len(tier) <= k:
        return tier
    if k == 1:
        return [tier[(len(tier) - 1) // 2]]
    return [tier[round(i * (len(tier) - 1) / (k - 1))] for i in range(k)]


def choose(slug):
    seen, cands = set(), []
    for p in read_positions(slug):
        if p["legal"] > 0 and p["fen"] not in seen:
            seen.add(p["fen"])
            cands.append(p)
    checks = [p for p in cands if p["check"]]
    chosen = spread(checks, min(MAX_CHECKS, len(checks)), upper_half=True)
    chosen += spread([p for p in cands if not p["check"]], PER_VARIANT - len(chosen))
    return sorted(chosen, key=lambda p: p["line"])


def evenly(items, k):
    items = sorted(items)
    if len(items) <= k:
        return items
    return [items[round(i * (len(items) - 1) / (k - 1))] for i in range(k)]


def calls_per_node(oracle, fs, fen):
    """Mean pyffish calls of the oracle's legal_moves() at a sample of the nodes
    two plies down (SAMPLE_1 evenly spaced first moves, SAMPLE_2 replies each)."""
    counter = oracle.sf
    calls = []
    for m1 in evenly(oracle.legal_moves(fs, fen, []), SAMPLE_1):
        for m2 in evenly(oracle.legal_moves(fs, fen, [m1]), SAMPLE_2):
            counter.calls = 0
            oracle.legal_moves(fs, fen, [m1, m2])
            calls.append(counter.calls)
    return sum(calls) / len(calls) if calls else 0.0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--oracle", default=os.environ.get("FSORACLE", str(Path(__file__).resolve().parents[1] / "oracle" / "fsoracle.py")))
    p.add_argument("--out", default=str(REPO / "tests" / "perft" / "middle-games.perft"))
    p.add_argument("--only", default="")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    only = set(filter(None, a.only.split(",")))
    variants = [(s, v) for s, v in VARIANTS if not only or s in only]

    if a.list:
        for slug, _ in variants:
            for i, q in enumerate(choose(slug), 1):
                print(f"{slug}-middle-{i}\tline {q['line']}\tcheck {int(q['check'])}\t"
                      f"legal {q['legal']}\tscore {q['score']}\t{q['fen']}")
        return

    oracle = load_oracle(a.oracle)
    counter = oracle.sf
    version = ".".join(map(str, counter._sf.version()))
    blocks = []
    started = time.time()
    for slug, fs in variants:
        for i, q in enumerate(choose(slug), 1):
            fen = q["fen"]
            t0 = time.time()
            n1 = len(oracle.legal_moves(fs, fen, []))
            if n1 != q["legal"]:
                sys.exit(f"{slug} line {q['line']}: oracle gives {n1} moves, the tsv {q['legal']}")
            counter.calls = 0
            n2 = oracle.perft(fs, fen, [], 2)
            calls2 = counter.calls
            t2 = time.time() - t0
            # depth 3 repeats the depth-2 calls and expands the n2 nodes
            est = (calls2 + n2 * calls_per_node(oracle, fs, fen)) * MS_PER_CALL / 1000
            lines = [f"id {slug}-middle-{i}", f"variant {slug}", f"fen {fen}",
                     f"perft 1 {n1}", f"perft 2 {n2}"]
            note = "depth 3 skipped"
            if est <= MAX_SECONDS:
                t3 = time.time()
                n3 = oracle.perft(fs, fen, [], 3)
                lines.append(f"perft 3 {n3}")
                note = f"perft 3 {n3} in {time.time() - t3:.1f}s"
            print(f"{slug}-middle-{i}: perft 1 {n1}, 2 {n2} ({calls2} calls, {t2:.1f}s), "
                  f"depth 3 estimated {est:.0f}s: {note}", file=sys.stderr, flush=True)
            blocks.append("\n".join(lines))

    header = (
        "# Perft from the middle of random games (positions of tests/oracle/<slug>.tsv):\n"
        "# pieces in hand, promoted pieces and checks. Source: tests/oracle/fsoracle.py\n"
        f"# perft (Fairy-Stockfish via pyffish {version}, pawn-drop mate illegal where the game\n"
        f"# forbids it), computed on {datetime.date.today().isoformat()}.\n"
    )
    Path(a.out).write_text(header + "\n" + "\n\n".join(blocks) + "\n")
    print(f"wrote {a.out}: {len(blocks)} entries in {time.time() - started:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
