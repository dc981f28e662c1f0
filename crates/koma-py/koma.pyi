"""koma: shogi variants as data.

Variants are named by a built-in slug or alias (``koma.variants()``), by a
file's path, or by the slug of one loaded with ``load_variant``. Positions
are Fairy-Stockfish FENs (``fen``; None or ``"startpos"`` is the start) or
SFENs where the call says so. Moves are read in any notation koma knows
(Fairy-Stockfish, USI, Japanese) and written in the one asked for:
``"fairy"`` (as pyffish writes them), ``"usi"`` or ``"japanese"``.
"""

from typing import List, Literal, Optional, Sequence, Tuple, final

__all__ = [
    "__version__",
    "KomaError", "VariantError", "FenError", "MoveError", "RecordError", "OptionError",
    "Position", "variants", "load_variant", "title", "start_fen", "start_sfen", "legal_moves",
    "get_fen", "get_sfen", "sfen_to_fen", "fen_to_sfen", "validate_fen", "format_move",
    "gives_check", "is_capture", "game_result", "outcome", "perft", "svg", "read_record",
    "best_move",
]

__version__: str

_Notation = Literal["fairy", "uci", "usi", "japanese", "ki2"]
_Labels = Literal["kanji", "latin", "letters"]
_RecordFormat = Literal["kif", "kifu", "ki2", "ki2u", "csa", "pgn", "jkf", "json", "koma", "usi"]
_Winner = Optional[Literal["sente", "gote"]]
_Score = Tuple[Literal["cp", "mate"], int]

class KomaError(Exception):
    """Any error koma reports: its message says what is wrong and where."""

class VariantError(KomaError):
    """A variant that cannot be found, read or compiled (with file, line and column)."""

class FenError(KomaError):
    """A FEN or SFEN that cannot be read, or that is not a position of the variant."""

class MoveError(KomaError):
    """A move that cannot be read, is illegal, or comes after the end of the game."""

class RecordError(KomaError):
    """A game record that cannot be read, or a format that cannot hold the game."""

class OptionError(KomaError):
    """An argument outside what the call accepts (a notation, a format, a depth)."""

def variants() -> List[str]:
    """The slugs of every variant: the built-in ones, then those loaded with load_variant."""

def load_variant(source: str, name: Optional[str] = None) -> str:
    """Loads a variant from a path or from a document's text (starting with ``---``;
    ``name`` names it in messages); returns its slug, which then names it."""

def title(variant: str) -> str:
    """The variant's title."""

def start_fen(variant: str) -> str:
    """The variant's start as a Fairy-Stockfish FEN."""

def start_sfen(variant: str) -> str:
    """The variant's start as an SFEN."""

def legal_moves(
    variant: str, fen: Optional[str] = None, moves: Optional[Sequence[str]] = None, notation: _Notation = "fairy"
) -> List[str]:
    """The legal moves after ``moves`` from ``fen``."""

def get_fen(variant: str, fen: Optional[str] = None, moves: Optional[Sequence[str]] = None) -> str:
    """The FEN after ``moves`` from ``fen``."""

def get_sfen(variant: str, fen: Optional[str] = None, moves: Optional[Sequence[str]] = None) -> str:
    """The SFEN after ``moves`` from ``fen``."""

def sfen_to_fen(variant: str, sfen: str) -> str:
    """An SFEN written as a Fairy-Stockfish FEN."""

def fen_to_sfen(variant: str, fen: str) -> str:
    """A Fairy-Stockfish FEN written as an SFEN."""

def validate_fen(variant: str, fen: str, sfen: bool = False) -> None:
    """Raises FenError unless ``fen`` (an SFEN with ``sfen=True``) is a position of the variant."""

def format_move(
    variant: str, fen: Optional[str], moves: Optional[Sequence[str]], move: str, notation: _Notation = "usi"
) -> str:
    """A legal move rewritten in another notation."""

def gives_check(variant: str, fen: Optional[str] = None, moves: Optional[Sequence[str]] = None) -> bool:
    """Whether the side to move is in check after ``moves``."""

def is_capture(variant: str, fen: Optional[str], moves: Optional[Sequence[str]], move: str) -> bool:
    """Whether the legal move ``move`` captures."""

def game_result(
    variant: str, fen: Optional[str] = None, moves: Optional[Sequence[str]] = None
) -> Literal["1-0", "0-1", "1/2-1/2", "*"]:
    """The result after ``moves``: sente won, gote won, drawn, or not over."""

def outcome(
    variant: str, fen: Optional[str] = None, moves: Optional[Sequence[str]] = None
) -> Optional[Tuple[_Winner, str]]:
    """None while the game goes on, else (winner, reason); winner None for a draw."""

def perft(variant: str, fen: Optional[str], moves: Optional[Sequence[str]], depth: int) -> int:
    """The number of leaves of the tree of legal moves ``depth`` plies deep."""

def svg(
    variant: str, fen: Optional[str] = None, moves: Optional[Sequence[str]] = None, labels: _Labels = "kanji"
) -> str:
    """The position as an SVG document."""

def read_record(text: str, variant: Optional[str] = None, name: str = "record") -> "Position":
    """The position at the end of a game record (KIF, KI2, CSA, PGN, JKF, USI lines,
    koma's own), its moves as history; ``name`` names the record in messages."""

def best_move(
    variant: str,
    fen: Optional[str] = None,
    moves: Optional[Sequence[str]] = None,
    *,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    movetime: Optional[float] = None,
    notation: _Notation = "fairy",
) -> Optional[str]:
    """The engine's best move (None when the game is over); give a depth, a number
    of nodes or a time in seconds."""

@final
class Position:
    """A position of a variant that keeps its moves."""

    def __new__(
        cls,
        variant: str,
        fen: Optional[str] = None,
        moves: Optional[Sequence[str]] = None,
        *,
        sfen: Optional[str] = None,
    ) -> "Position": ...
    @property
    def variant(self) -> str:
        """The variant's slug."""
    @property
    def turn(self) -> Literal["sente", "gote"]:
        """The side to move."""
    @property
    def move_number(self) -> int:
        """The move number, 1 at the start as an SFEN counts."""
    def fen(self) -> str: ...
    def sfen(self) -> str: ...
    def legal_moves(self, notation: _Notation = "fairy") -> List[str]: ...
    def is_legal(self, move: str) -> bool: ...
    def push(self, move: str) -> None:
        """Plays a legal move written in any notation; MoveError otherwise."""
    def pop(self, notation: _Notation = "fairy") -> str:
        """Takes back the last move and returns it; MoveError at the start."""
    def history(self, notation: _Notation = "fairy") -> List[str]: ...
    def in_check(self) -> bool: ...
    def is_capture(self, move: str) -> bool: ...
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2", "*"]: ...
    def outcome(self) -> Optional[Tuple[_Winner, str]]: ...
    def repetitions(self) -> int: ...
    def perft(self, depth: int) -> int: ...
    def svg(self, labels: _Labels = "kanji") -> str: ...
    def record(self, format: _RecordFormat = "koma") -> str:
        """The game from its setup to here as a record in ``format``."""
    def best_move(
        self,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[float] = None,
        notation: _Notation = "fairy",
    ) -> Optional[Tuple[str, _Score]]:
        """The engine's best move and its score, or None when the game is over."""
    def copy(self) -> "Position": ...
    def __copy__(self) -> "Position": ...
