"""Tests of the Python module `koma` (crates/koma-py), run by pytest:

    python3 -m pip install ./crates/koma-py
    python3 -m pytest tests/python

The reference numbers are the repository's own test data (tests/perft, the
variant files), so a module that answers differently from them fails here.
"""

import copy
import re
import threading
from pathlib import Path

import pytest

import koma

REPO = Path(__file__).resolve().parents[2]


def perft_cases(limit=200_000):
    """(file, id, variant, fen, depth, count) of every tests/perft case whose
    count is at most `limit` nodes."""
    cases = []
    for path in sorted((REPO / "tests" / "perft").glob("*.perft")):
        case = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                case = {"id": value}
            elif key in ("variant", "fen"):
                case[key] = value
            elif key == "perft":
                depth, count = map(int, value.split())
                if count <= limit:
                    cases.append((path.name, case["id"], case["variant"], case["fen"], depth, count))
            else:
                raise ValueError(f"{path}: unknown key {key!r}")
    return cases


CASES = perft_cases()


def test_the_perft_data_is_read():
    assert len(CASES) > 200
    assert {c[0] for c in CASES} == {p.name for p in (REPO / "tests" / "perft").glob("*.perft")}


@pytest.mark.parametrize("file,id,variant,fen,depth,count", CASES,
                         ids=[f"{c[1]}-{c[4]}" for c in CASES])
def test_perft_matches_the_reference(file, id, variant, fen, depth, count):
    # Variants named by a path are the repository's test files.
    if variant.endswith(".md"):
        variant = str(REPO / variant)
    assert koma.perft(variant, fen, [], depth) == count
    if depth == 1:
        assert len(koma.legal_moves(variant, fen)) == count
        assert len(set(koma.legal_moves(variant, fen, notation="usi"))) == count


def front_matter_setup(slug):
    text = (REPO / "variants" / f"{slug}.md").read_text(encoding="utf-8")
    m = re.search(r"^\s+setup:\s*['\"]?([^'\"\n]+)['\"]?\s*$", text, re.M)
    return m.group(1).strip() if m else None


def test_every_variant_file_is_built_in():
    files = sorted(p.stem for p in (REPO / "variants").glob("*.md") if p.stem != "README")
    assert set(files) <= set(koma.variants())
    assert koma.title("judkins-shogi") == "Judkins' Shogi"


def test_judkins_starts_from_the_seed_setup():
    setup = front_matter_setup("judkins-shogi")
    assert setup is not None
    assert koma.start_sfen("judkins-shogi").split()[0] == setup.split()[0]
    assert koma.fen_to_sfen("judkins-shogi", koma.start_fen("judkins-shogi")) == koma.start_sfen("judkins-shogi")
    assert koma.sfen_to_fen("judkins-shogi", koma.start_sfen("judkins-shogi")) == koma.start_fen("judkins-shogi")


def test_moves_fen_and_notations():
    moves = ["7g7f", "3c3d", "8h2b+"]
    assert koma.get_sfen("shogi", None, moves) == "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    fen = koma.get_fen("shogi", None, moves)
    assert koma.get_sfen("shogi", fen) == koma.get_sfen("shogi", None, moves)
    # Moves may be given in Fairy-Stockfish notation as pyffish writes them.
    fairy = [koma.format_move("shogi", None, moves[:i], m, "fairy") for i, m in enumerate(moves)]
    assert fairy == ["c3c4", "g7g6", "b2h8+"]
    assert koma.get_fen("shogi", None, fairy) == fen
    assert koma.format_move("shogi", None, [], "7g7f", "japanese") == "▲７六歩"
    assert koma.is_capture("shogi", None, moves[:2], "8h2b+")
    assert not koma.is_capture("shogi", None, moves[:2], "2g2f")
    # Every legal move reads back in every notation as the same move.
    pos = koma.Position("chu-shogi")
    for usi in pos.legal_moves("usi"):
        fairy = koma.format_move("chu-shogi", None, [], usi, "fairy")
        assert koma.format_move("chu-shogi", None, [], fairy, "usi") == usi


def test_mate_and_the_end_of_a_game():
    sfen = "4k4/9/4G4/9/9/9/9/9/4K4 b G 1"
    fen = koma.sfen_to_fen("shogi", sfen)
    assert koma.game_result("shogi", fen) == "*"
    assert koma.outcome("shogi", fen) is None
    assert not koma.gives_check("shogi", fen)
    assert koma.best_move("shogi", fen, depth=3, notation="usi") == "G*5b"
    pos = koma.Position("shogi", sfen=sfen)
    assert pos.best_move(depth=3, notation="usi") == ("G*5b", ("mate", 1))
    pos.push("G*5b")
    assert pos.in_check()
    assert pos.outcome() == ("sente", "checkmate")
    assert pos.result() == "1-0"
    assert pos.legal_moves() == []
    assert pos.best_move(depth=2) is None
    assert koma.gives_check("shogi", fen, ["G*5b"])
    assert koma.game_result("shogi", fen, ["G*5b"]) == "1-0"


def test_position_push_pop_history_copy():
    pos = koma.Position("judkins-shogi")
    start = pos.fen()
    assert pos.turn == "sente" and pos.move_number == 1 and pos.variant == "judkins-shogi"
    played = []
    for _ in range(6):
        mv = sorted(pos.legal_moves("usi"))[0]
        pos.push(mv)
        played.append(mv)
    assert pos.history("usi") == played
    assert pos.fen() == koma.get_fen("judkins-shogi", None, played)
    other = pos.copy()
    dup = copy.copy(pos)
    assert pos.pop("usi") == played[-1]
    assert other.fen() == dup.fen() == koma.get_fen("judkins-shogi", None, played)
    while pos.history():
        pos.pop()
    assert pos.fen() == start
    with pytest.raises(koma.MoveError, match="no move to take back"):
        pos.pop()
    assert pos.is_legal("6e6d") and not pos.is_legal("6e6a")
    assert pos.repetitions() == 1
    assert repr(pos).startswith("koma.Position('judkins-shogi', sfen='")


def test_records():
    pos = koma.read_record("1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n5 ４五角打\n", name="game.kif")
    assert pos.variant == "shogi"
    assert pos.history("usi") == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
    assert pos.record("usi") == "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n"
    back = koma.read_record(pos.record("kif"))
    assert back.sfen() == pos.sfen()
    with pytest.raises(koma.RecordError, match=r"game\.kif:2: move 2"):
        koma.read_record("1 ７六歩(77)\n2 ７五歩(73)\n", name="game.kif")
    with pytest.raises(koma.RecordError):
        koma.Position("judkins-shogi").record("csa")
    with pytest.raises(koma.OptionError, match="unknown record format 'doc'"):
        pos.record("doc")


def test_svg():
    picture = koma.svg("minishogi", labels="latin")
    assert picture.startswith("<?xml")
    assert 'width="352" height="280"' in picture
    assert koma.Position("minishogi").svg() != picture  # kanji labels


TYPO = """---
title: Minishogi without drops
slug: minishogi-no-drops-typo
parent: minishogi
engine:
  rules:
    drops: sometimes
---
"""

GOOD = TYPO.replace("sometimes", "false").replace("-typo", "")


def test_load_variant_from_text_and_its_errors():
    with pytest.raises(koma.VariantError) as e:
        koma.load_variant(TYPO, "no-drops.md")
    assert "engine.rules.drops must be true or false, not text" in str(e.value)
    assert "no-drops.md:7:12" in str(e.value)
    slug = koma.load_variant(GOOD)
    assert slug == "minishogi-no-drops"
    assert slug in koma.variants()
    # Captured pieces leave the game: no drop after a capture.
    pos = koma.Position(slug, sfen="4k/5/5/2p2/K1R2 b - 1")
    pos.push("3e3d")
    pos.push("1a2a")
    assert not [m for m in pos.legal_moves("usi") if "*" in m]
    assert koma.load_variant(str(REPO / "variants" / "minishogi.md")) == "minishogi"


def test_errors_are_typed_and_located():
    with pytest.raises(koma.VariantError, match="unknown variant 'shogii'"):
        koma.legal_moves("shogii")
    with pytest.raises(koma.FenError, match="cannot read the FEN"):
        koma.legal_moves("shogi", "lnsgkgsnl/9 w - - 0 x")
    with pytest.raises(koma.FenError, match="royal"):
        koma.validate_fen("shogi", "4k4/9/9/9/9/9/9/9/9 b - 1", sfen=True)
    koma.validate_fen("shogi", koma.start_sfen("shogi"), sfen=True)
    with pytest.raises(koma.MoveError, match="move 2"):
        koma.legal_moves("shogi", None, ["7g7f", "7g7f"])
    with pytest.raises(koma.MoveError):
        koma.Position("shogi").push("zz")
    with pytest.raises(koma.OptionError, match="unknown notation"):
        koma.legal_moves("shogi", notation="western")
    with pytest.raises(koma.OptionError, match="depth, nodes or movetime"):
        koma.best_move("shogi")
    with pytest.raises(koma.OptionError, match="movetime"):
        koma.best_move("shogi", movetime=-1)
    with pytest.raises(koma.OptionError, match="not both"):
        koma.Position("shogi", fen=koma.start_fen("shogi"), sfen=koma.start_sfen("shogi"))
    with pytest.raises(TypeError):
        koma.legal_moves("shogi", None, "7g7f")  # a string is not a list of moves
    assert issubclass(koma.FenError, koma.KomaError) and issubclass(koma.KomaError, Exception)


def test_perft_runs_beside_other_threads():
    # The search and perft let go of the GIL: two threads give the same count.
    out = []
    threads = [threading.Thread(target=lambda: out.append(koma.perft("shogi", None, [], 3))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [25_470, 25_470]


def python_blocks(page):
    text = (REPO / page).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("page", ["docs/python.md", "README.md"])
def test_the_pages_examples_run(page):
    blocks = python_blocks(page)
    assert blocks, f"{page} has no python example"
    for block in blocks:
        exec(compile(block, page, "exec"), {})
