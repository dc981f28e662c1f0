#!/usr/bin/env python3
"""Independent perft of koma's two large test games (tests/large/*.md).

Written from the rules as the variant files state them in words, not from
koma's code: it reads no file and uses nothing of koma. Each game is described
below by hand (board size, promotion zone, every piece's moves as vectors);
the positions are hard-coded FENs. It prints a perft file in the format of
tests/perft/*.perft; `tests/perft/large-boards.perft` is its output:

    python3 tests/large/perft.py > tests/perft/large-boards.perft

Rules (shogi's, on a larger board): sente (upper case) moves first from the
bottom; gote's moves are sente's turned 180 degrees. A rider moves any number
of steps of its vector (up to its range, if limited) while the squares landed
on are empty, and may stop on an enemy piece (capturing it); a leaper jumps
to the square of its vector if that square holds no piece of its own side.
A move that starts or ends in the mover's promotion zone (the far `zone`
ranks) may promote a piece that has a promoted side; it must, if the
unpromoted piece could never move again from where it lands (no vector of
it leads onto the board). A captured piece goes to the captor's hand,
unpromoted. A piece in hand may be dropped on any empty square from which it
could move, a pawn not on a file where its side has an unpromoted pawn, and
not to give checkmate. No move may leave its own king attacked.
"""

import sys

# Vectors from sente's side: (dx, dy, range) with dx toward file a's far side
# (the right of sente), dy forward; range 1 = leap, 0 = ride without limit,
# n = ride at most n squares.
ORTH = [(0, 1), (0, -1), (1, 0), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1)]
CAMEL = [(1, 3), (-1, 3), (1, -3), (-1, -3), (3, 1), (-3, 1), (3, -1), (-3, -1)]


def leaps(vectors):
    return [(dx, dy, 1) for dx, dy in vectors]


def rides(vectors, rng=0):
    return [(dx, dy, rng) for dx, dy in vectors]


KING = leaps(ORTH + DIAG)
GOLD = leaps(ORTH + [(1, 1), (-1, 1)])
SILVER = leaps(DIAG + [(0, 1)])

# letter: (name, moves, promoted moves or None)
SHOGI = {
    "K": ("king", KING, None),
    "R": ("rook", rides(ORTH), rides(ORTH) + leaps(DIAG)),
    "B": ("bishop", rides(DIAG), rides(DIAG) + leaps(ORTH)),
    "G": ("gold", GOLD, None),
    "S": ("silver", SILVER, GOLD),
    "N": ("knight", leaps([(1, 2), (-1, 2)]), GOLD),
    "L": ("lance", rides([(0, 1)]), GOLD),
    "P": ("pawn", leaps([(0, 1)]), GOLD),
}
EXTRA = {
    # phoenix: one step orthogonally or the (2,2) jump; promotes to a queen.
    "X": ("phoenix", leaps(ORTH) + leaps([(2, 2), (2, -2), (-2, 2), (-2, -2)]),
          rides(ORTH + DIAG)),
    # nightrider: knight jumps repeated; promotes to nightrider + king.
    "Y": ("nightrider", rides(KNIGHT), rides(KNIGHT) + KING),
    # chariot: a rook of range 2 or a diagonal step; promotes to rook of range 4 + king.
    "C": ("chariot", rides(ORTH, 2) + leaps(DIAG), rides(ORTH, 4) + KING),
}
EXTRA16 = {
    # dabbaba-man: one step or a two-square jump orthogonally; promotes to rook + (0,2) jump.
    "D": ("dabbaba-man", leaps(ORTH) + leaps([(0, 2), (0, -2), (2, 0), (-2, 0)]),
          rides(ORTH) + leaps([(0, 2), (0, -2), (2, 0), (-2, 0)])),
    # camel: the (1,3) jump or a diagonal step; no promotion.
    "M": ("camel", leaps(CAMEL) + leaps(DIAG), None),
}

GAMES = {
    "large-12x12": {"size": 12, "zone": 4, "pieces": {**SHOGI, **EXTRA}},
    "large-16x16": {"size": 16, "zone": 5, "pieces": {**SHOGI, **EXTRA, **EXTRA16}},
    "huge-20x20": {"size": 20, "zone": 6, "pieces": {**SHOGI, **EXTRA, **EXTRA16}},
    "huge-25x25": {"size": 25, "zone": 8, "pieces": {**SHOGI, **EXTRA, **EXTRA16}},
    "huge-36x36": {"size": 36, "zone": 11, "pieces": {**SHOGI, **EXTRA, **EXTRA16}},
}

# (id, game, FEN, depth). The start positions are the games' setups; the
# others come from random games (hands, promoted pieces, checks) and two
# built by hand where a pawn drop would mate (and is therefore illegal).
POSITIONS = [
    ("large-12x12-start", "large-12x12",
     "lnsgckxcgsnl/1r2y2y2b1/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/1B2Y2Y2R1/LNSGCXKCGSNL[] w - - 0 1", 3),
    ("large-12x12-middle-check", "large-12x12",
     "1nsg1k2gsnl/8p3/lpp2pp3p1/12/4c7/3s1g6/p1n2Y3Y2/12/B2P8/BPP1PCPXPPPP/8G1R1/L3r1KC1SNL[PPPPPpppxyyc] w - - 0 26", 3),
    ("large-12x12-middle-promoted", "large-12x12",
     "lnsgckxcgs1l/1r8b1/pppppppp1ppn/6+Y5/12/3P8/12/12/12/PPPy+yP+yP1PPP/1B6P1R1/LNSGCXK1GSNL[ppppc] b - - 0 8", 3),
    ("large-12x12-middle-gote-check", "large-12x12",
     "ln2ckxcg1nl/2rsg2+Y1sb1/1pp+Ypppppppp/p11/12/12/12/12/3P8/NPP1PPPPPPPP/1B9R/L1SGCXKCGSNL[PYYp] b - - 0 8", 3),
    ("large-12x12-pawn-drop-mate", "large-12x12",
     "g10k/4p7/11G/12/12/10R1/12/12/12/12/12/K11[P] w - - 0 1", 3),
    ("large-16x16-start", "large-16x16",
     "lnsgcxdmkdxcgsnl/2b2y2r2y2b1/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/1B2Y2R2Y2B2/LNSGCXDKMDXCGSNL[] w - - 0 1", 3),
    ("large-16x16-middle-check", "large-16x16",
     "lnsc1xdmkdxc1snl/2b2y2r5+Y1/pppp1ppppp2pppp/4p11/5G10/16/16/16/16/16/16/16/2P5P7/PP1PP1PP1P+pPP1PP/1B3y1R1M3B2/LNSGCXDKD1XCGS+yL[BGPPnpp] w - - 0 11", 3),
    ("large-16x16-middle-gote", "large-16x16",
     "lnsgcx1mkdxcgsnl/2b3d1r2y2b1/ppppppppppYppppp/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPCPPPP/1BS4R2Y2B2/LN1GCXDKMDX1GSNL[PYp] b - - 0 3", 3),
    ("large-16x16-middle-gote-check", "large-16x16",
     "2g1c3kdxc1snl/5x2m1Y5/l2p1ppppp1p1ppp/p3p11/16/16/16/10c2S2/7n8/16/16/12y3/5D4G5/P1NPP1PPPP+b2PPP/1B5R5B1L/L1SGXD1KMDX1GSN1[RBPPPPYppppppyc] b - - 0 23", 3),
    ("large-16x16-pawn-drop-mate", "large-16x16",
     "g14k/5p10/15G/16/16/14R1/16/16/16/16/16/16/16/16/16/K15[P] w - - 0 1", 3),
]

# The boards past 256 squares (tests/large/huge-*.md, on Bitboard1344):
# their starts, written to tests/perft/huge-boards.perft by `--huge`.
HUGE_POSITIONS = [
    ("huge-20x20-start", "huge-20x20",
     "1lnsgcxdmlklmdxcgsnl/y2r2b2y2r2y2b1/pppppppppppppppppppp/20/20/20/20/20/20/20/20/20/20/20/20/20/20/PPPPPPPPPPPPPPPPPPPP/1B2Y2R2Y2B2R2Y/LNSGCXDMLKLMDXCGSNL1[] w - - 0 1", 2),
    ("huge-25x25-start", "huge-25x25",
     "lnsgcxdmlnsgkgsnlmdxcgsnl/3r3b3y3r3y3b1/ppppppppppppppppppppppppp/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/PPPPPPPPPPPPPPPPPPPPPPPPP/1B3Y3R3Y3B3R3/LNSGCXDMLNSGKGSNLMDXCGSNL[] w - - 0 1", 2),
    ("huge-36x36-start", "huge-36x36",
     "1lnsgcxdmlnsgcxdmlklmdxcgsnlmdxcgsnl/4r5b5y5r5y5b1/pppppppppppppppppppppppppppppppppppp/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/36/PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP/1B5Y5R5Y5B5R4/LNSGCXDMLNSGCXDMLKLMDXCGSNLMDXCGSNL1[] w - - 0 1", 2),
    ("huge-36x36-pawn-drop-mate", "huge-36x36",
     "g34k/5p30/35G/36/36/34R1/" + "36/" * 29 + "K35[P] w - - 0 1", 3),
]

SENTE, GOTE = 0, 1


class Game:
    def __init__(self, spec):
        self.n = spec["size"]
        self.zone = spec["zone"]
        # Kinds: index -> (letter, promoted, moves by colour, promotes to, base).
        self.kinds = []
        self.by_letter = {}
        for letter, (_, moves, promoted) in spec["pieces"].items():
            base = len(self.kinds)
            self.kinds.append({"letter": letter, "promoted": False, "moves": moves,
                               "promotion": None, "base": base})
            self.by_letter[(letter, False)] = base
            if promoted is not None:
                self.kinds[base]["promotion"] = base + 1
                self.kinds.append({"letter": letter, "promoted": True, "moves": promoted,
                                   "promotion": None, "base": base})
                self.by_letter[(letter, True)] = base + 1
        for k in self.kinds:
            k["by_color"] = [k["moves"], [(-dx, -dy, r) for dx, dy, r in k["moves"]]]
        self.king = self.by_letter[("K", False)]
        self.pawn = self.by_letter[("P", False)]
        # For attack tests: per colour, per vector, the kinds with it and their
        # range, and how far back along it an attacker may stand.
        self.patterns = []
        for color in (SENTE, GOTE):
            vec = {}
            for i, k in enumerate(self.kinds):
                for dx, dy, r in k["by_color"][color]:
                    vec.setdefault((dx, dy), {})[i] = r
            patterns = []
            for (dx, dy), kinds in vec.items():
                reach = self.n if 0 in kinds.values() else max(kinds.values())
                patterns.append((dx, dy, kinds, reach))
            self.patterns.append(patterns)

    def on(self, f, r):
        return 0 <= f < self.n and 0 <= r < self.n

    def in_zone(self, color, rank):
        return rank >= self.n - self.zone if color == SENTE else rank < self.zone

    def can_move_from(self, kind, color, f, r):
        return any(self.on(f + dx, r + dy) for dx, dy, _ in self.kinds[kind]["by_color"][color])


class Pos:
    def __init__(self, game, fen):
        self.g = game
        n = game.n
        self.board = {}  # (f, r) -> (color, kind)
        board, rest = fen.split("[", 1)
        hands, rest = rest.split("]", 1)
        rows = board.split("/")
        assert len(rows) == n, fen
        for i, row in enumerate(rows):
            r = n - 1 - i
            f = 0
            num = ""
            promoted = False
            for c in row:
                if c.isdigit():
                    num += c
                    continue
                if num:
                    f += int(num)
                    num = ""
                if c == "+":
                    promoted = True
                    continue
                color = SENTE if c.isupper() else GOTE
                self.board[(f, r)] = (color, game.by_letter[(c.upper(), promoted)])
                promoted = False
                f += 1
            if num:
                f += int(num)
            assert f == n, (fen, row)
        self.hands = [[0] * len(game.kinds) for _ in range(2)]
        for c in hands:
            color = SENTE if c.isupper() else GOTE
            self.hands[color][game.by_letter[(c.upper(), False)]] += 1
        self.turn = SENTE if rest.split()[0] == "w" else GOTE
        self.kings = [None, None]
        for sq, (c, k) in self.board.items():
            if k == game.king:
                assert self.kings[c] is None, "one king per side"
                self.kings[c] = sq
        assert None not in self.kings, "each side has its king"

    def king_square(self, color):
        return self.kings[color]

    def attacked(self, sq, by):
        """Whether a piece of `by` attacks `sq`: look back along every vector of its pieces."""
        f0, r0 = sq
        board = self.board
        n = self.g.n
        for dx, dy, kinds, reach in self.g.patterns[by]:
            for k in range(1, reach + 1):
                f, r = f0 - dx * k, r0 - dy * k
                if not (0 <= f < n and 0 <= r < n):
                    break
                p = board.get((f, r))
                if p is not None:
                    if p[0] == by and p[1] in kinds:
                        rng = kinds[p[1]]
                        if rng == 0 or k <= rng:
                            return True
                    break
        return False

    def targets(self, sq, color, kind):
        f, r = sq
        out = set()
        for dx, dy, rng in self.g.kinds[kind]["by_color"][color]:
            k = 1
            while rng == 0 or k <= rng:
                t = (f + dx * k, r + dy * k)
                if not self.g.on(*t):
                    break
                p = self.board.get(t)
                if p is None:
                    out.add(t)
                else:
                    if p[0] != color:
                        out.add(t)
                    break
                k += 1
        return out

    def pseudo_moves(self):
        g = self.g
        us = self.turn
        moves = []
        for sq, (c, kind) in list(self.board.items()):
            if c != us:
                continue
            info = g.kinds[kind]
            for to in self.targets(sq, us, kind):
                if info["promotion"] is not None and (g.in_zone(us, sq[1]) or g.in_zone(us, to[1])):
                    moves.append(("move", sq, to, True))
                    if g.can_move_from(kind, us, to[0], to[1]):
                        moves.append(("move", sq, to, False))
                else:
                    moves.append(("move", sq, to, False))
        empties = [(f, r) for f in range(g.n) for r in range(g.n) if (f, r) not in self.board]
        for kind, count in enumerate(self.hands[us]):
            if count == 0:
                continue
            pawn_files = set()
            if kind == g.pawn:
                pawn_files = {s[0] for s, (c, k) in self.board.items() if c == us and k == g.pawn}
            for to in empties:
                if kind == g.pawn and to[0] in pawn_files:
                    continue
                if not g.can_move_from(kind, us, to[0], to[1]):
                    continue
                moves.append(("drop", kind, to))
        return moves

    def play(self, m):
        us = self.turn
        if m[0] == "move":
            _, frm, to, promote = m
            c, kind = self.board.pop(frm)
            captured = self.board.get(to)
            if captured is not None:
                self.hands[us][self.g.kinds[captured[1]]["base"]] += 1
            self.board[to] = (us, self.g.kinds[kind]["promotion"] if promote else kind)
            if kind == self.g.king:
                self.kings[us] = to
            undo = (m, kind, captured)
        else:
            _, kind, to = m
            self.hands[us][kind] -= 1
            self.board[to] = (us, kind)
            undo = (m, kind, None)
        self.turn = 1 - us
        return undo

    def undo(self, u):
        m, kind, captured = u
        self.turn = 1 - self.turn
        us = self.turn
        if m[0] == "move":
            _, frm, to, _ = m
            del self.board[to]
            self.board[frm] = (us, kind)
            if kind == self.g.king:
                self.kings[us] = frm
            if captured is not None:
                self.board[to] = captured
                self.hands[us][self.g.kinds[captured[1]]["base"]] -= 1
        else:
            _, kind, to = m
            del self.board[to]
            self.hands[us][kind] += 1

    def legal(self, m):
        """Whether the pseudo-legal move `m` of the side to move is legal."""
        us = self.turn
        u = self.play(m)
        ok = not self.attacked(self.king_square(us), 1 - us)
        if ok and m[0] == "drop" and m[1] == self.g.pawn:
            # No checkmate by a pawn drop.
            them = 1 - us
            if self.attacked(self.king_square(them), us) and not self.has_legal_move():
                ok = False
        self.undo(u)
        return ok

    def has_legal_move(self):
        return any(self.legal(m) for m in self.pseudo_moves())

    def legal_moves(self):
        return [m for m in self.pseudo_moves() if self.legal(m)]

    def perft(self, depth):
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            u = self.play(m)
            total += self.perft(depth - 1)
            self.undo(u)
        return total


def print_perft(positions):
    """Each (id, game, FEN, depth) as a perft file's entry, counts to its depth."""
    for pid, game_name, fen, depth in positions:
        game = Game(GAMES[game_name])
        pos = Pos(game, fen)
        print()
        print(f"id {pid}")
        print(f"variant tests/large/{game_name}.md")
        print(f"fen {fen}")
        for d in range(1, depth + 1):
            print(f"perft {d} {pos.perft(d)}")
            sys.stdout.flush()


def main_huge():
    print("# Perft of koma's test games past 256 squares (tests/large/huge-*.md:")
    print("# 20x20, 25x25 and 36x36 with thirteen piece kinds, played on Bitboard1344).")
    print("# Format as the other perft files.")
    print("#")
    print("# Source of the counts: tests/large/perft.py, a standalone Python perft written")
    print("# from the games' rules (hard-coded in the script; it reads no file and shares")
    print("# no code with koma), run as `python3 tests/large/perft.py --huge > this file`.")
    print("# cargo test checks that koma's generator (perft_suite) gives them too.")
    print_perft(HUGE_POSITIONS)


def main():
    print("# Perft of koma's two test games on more than 128 squares (tests/large/*.md:")
    print("# 12x12 and 16x16, played on Bitboard256). Format as the other perft files:")
    print("# `id`, `variant`, `fen` start an entry; each `perft DEPTH NODES` is one count.")
    print("#")
    print("# Source of the counts: tests/large/perft.py, a standalone Python perft written")
    print("# from the games' rules (hard-coded in the script; it reads no file and shares")
    print("# no code with koma), run as `python3 tests/large/perft.py > this file`")
    print("# (about two minutes with CPython 3.11). cargo test checks that koma's")
    print("# generator (perft_suite) and the slow reference walk of")
    print("# tests/koma/properties.rs (large_boards_match_the_reference_*) give them too.")
    print_perft(POSITIONS)


if __name__ == "__main__":
    if sys.argv[1:] == ["--huge"]:
        main_huge()
    else:
        main()
