//! Squares, the board's shape, bitboards and piece IDs.

mod bitboard;
mod id;
mod role_set;

pub use bitboard::{Bitboard, Bitboard256, Bitboard1344, BitboardWords, CellCode, Squares};
pub use id::{MAX_ID_LETTERS, PieceId, read_written_id};
pub use role_set::{AnyRoles, RoleIter, RoleSet, RoleWords};

/// The most squares a board may have: 36×36, the board of taikyoku shogi,
/// held by the widest bitboard, [`Bitboard1344`].
pub const MAX_SQUARES: usize = 1296;

/// A square, numbered `rank * cols + file` with rank 0 at sente's side
/// (the bottom of a diagram) and file 0 at sente's left (file `a`).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u16);

impl Square {
    /// The square with this index.
    #[inline]
    pub const fn new(index: u16) -> Square {
        Square(index)
    }
    /// The index, usable for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The two players. Sente moves first and sits at the bottom (upper-case letters).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player (black in shogi terms, "w" in Fairy-Stockfish FEN).
    Sente = 0,
    /// The second player.
    Gote = 1,
}

impl Color {
    /// Both colours, sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// The other player.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }
    /// 0 for sente, 1 for gote.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The player's name as shogi players say it.
    pub fn name(self) -> &'static str {
        match self {
            Color::Sente => "sente",
            Color::Gote => "gote",
        }
    }
}

/// A rectangular board: `rows` ranks by `cols` files, some of whose cells
/// may be holes. A hole (`*` in a setup) is a cell that is not on the
/// board, with Fairy-Stockfish's wall semantics: nothing stands, lands or is
/// dropped there, a rider stops before it, a leaper jumps over it, and a
/// hopper may use it as its screen. Cells are numbered as squares are
/// (`rank * cols + file`); a hole keeps its number so that tables stay
/// rectangular, but [`Topology::square`], [`Topology::step`] and
/// [`Topology::squares`] never give it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Topology {
    /// Number of ranks.
    pub rows: u8,
    /// Number of files.
    pub cols: u8,
    /// The holes, one bit a cell (bit `i % 64` of word `i / 64`).
    holes: [u64; MAX_SQUARES.div_ceil(64)],
}

impl Topology {
    /// A full rectangle of `rows` ranks by `cols` files, without holes.
    pub const fn rectangle(rows: u8, cols: u8) -> Topology {
        Topology {
            rows,
            cols,
            holes: [0; MAX_SQUARES.div_ceil(64)],
        }
    }
    /// The same board with the cell at `file`, `rank` (0-based) made a
    /// hole; unchanged if that cell is outside the rectangle.
    pub fn with_hole(mut self, file: i32, rank: i32) -> Topology {
        if let Some(cell) = self.cell(file, rank) {
            self.holes[cell.index() / 64] |= 1 << (cell.index() % 64);
        }
        self
    }
    /// Number of cells of the rectangle, holes included: the length of
    /// every per-square table.
    #[inline]
    pub fn len(self) -> usize {
        self.rows as usize * self.cols as usize
    }
    /// Whether the board has no square (never true for a loaded variant).
    pub fn is_empty(self) -> bool {
        self.squares().next().is_none()
    }
    /// Whether the board has holes.
    pub fn has_holes(self) -> bool {
        self.holes.iter().any(|&w| w != 0)
    }
    /// Whether a cell of the rectangle is a hole.
    #[inline]
    pub fn is_hole(self, cell: Square) -> bool {
        self.holes[cell.index() / 64] >> (cell.index() % 64) & 1 == 1
    }
    /// The holes, in index order.
    pub fn holes(self) -> impl Iterator<Item = Square> {
        self.cells().filter(move |&c| self.is_hole(c))
    }
    /// The holes as a setup lists them: (rank from the top, file from
    /// sente's left), 0-based, in reading order.
    pub fn holes_as_written(self) -> Vec<(usize, usize)> {
        let mut holes: Vec<_> = self
            .holes()
            .map(|c| {
                (
                    (self.rows - 1 - self.rank(c)) as usize,
                    self.file(c) as usize,
                )
            })
            .collect();
        holes.sort_unstable();
        holes
    }
    /// The cell at `file`, `rank` (0-based) of the rectangle, a square or a
    /// hole; `None` outside it.
    #[inline]
    pub fn cell(self, file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && rank >= 0 && file < self.cols as i32 && rank < self.rows as i32 {
            Some(Square::new((rank * self.cols as i32 + file) as u16))
        } else {
            None
        }
    }
    /// The square at `file`, `rank` (0-based), if on the board: inside the
    /// rectangle and not a hole.
    #[inline]
    pub fn square(self, file: i32, rank: i32) -> Option<Square> {
        self.cell(file, rank).filter(|&c| !self.is_hole(c))
    }
    /// The 0-based file of a square.
    #[inline]
    pub fn file(self, sq: Square) -> u8 {
        (sq.index() % self.cols as usize) as u8
    }
    /// The 0-based rank of a square (0 = sente's back rank).
    #[inline]
    pub fn rank(self, sq: Square) -> u8 {
        (sq.index() / self.cols as usize) as u8
    }
    /// Every cell of the rectangle, holes included, in index order.
    pub fn cells(self) -> impl Iterator<Item = Square> {
        (0..self.len()).map(|i| Square::new(i as u16))
    }
    /// All squares (the cells that are not holes), in index order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        self.cells().filter(move |&c| !self.is_hole(c))
    }

    /// The middle square, or the square nearest it where the middle is a
    /// hole (a piece's movement diagram, its reach on an empty board).
    pub fn middle(self) -> Square {
        let middle = ((self.cols / 2) as i32, (self.rows / 2) as i32);
        self.squares()
            .min_by_key(|&sq| {
                (self.file(sq) as i32 - middle.0).pow(2) + (self.rank(sq) as i32 - middle.1).pow(2)
            })
            .unwrap_or(Square::new(0))
    }

    /// The square `k` steps of `(dx, dy)` away from `sq` (dx toward file
    /// `a`'s far side, dy toward gote), if it is on the board: the one seam
    /// through which move tables see the board's shape.
    #[inline]
    pub fn step(self, sq: Square, dx: i32, dy: i32, k: i32) -> Option<Square> {
        self.square(self.file(sq) as i32 + dx * k, self.rank(sq) as i32 + dy * k)
    }
    /// As [`Topology::step`], but to any cell of the rectangle, a hole
    /// too: the lines along which a hopper finds its screen.
    #[inline]
    pub fn step_cell(self, sq: Square, dx: i32, dy: i32, k: i32) -> Option<Square> {
        self.cell(self.file(sq) as i32 + dx * k, self.rank(sq) as i32 + dy * k)
    }
    /// The squares of a file (0-based from sente's left), bottom first.
    pub fn file_squares(self, file: u8) -> impl Iterator<Item = Square> {
        (0..self.rows as i32).filter_map(move |r| self.square(file as i32, r))
    }
    /// Whether square indices grow along the direction `(dx, dy)`.
    #[inline]
    pub fn ascending(self, dx: i32, dy: i32) -> bool {
        dy * self.cols as i32 + dx > 0
    }

    /// A square's USI name: file number from sente's right, rank letters
    /// from the top (`5e`; past the 26th rank `aa`, `ab`, … as
    /// [`square_letters`] names them: `1ab`).
    pub fn usi_name(self, sq: Square) -> String {
        let file = self.cols - self.file(sq);
        let rank = square_letters((self.rows - 1 - self.rank(sq)) as usize);
        format!("{file}{rank}")
    }

    /// A square's Fairy-Stockfish name: file letters from sente's left
    /// ([`square_letters`]: `a` to `z`, then `aa`, `ab`, …), rank number
    /// from the bottom (`c3`, `ab3`).
    pub fn fairy_name(self, sq: Square) -> String {
        let file = square_letters(self.file(sq) as usize);
        format!("{file}{}", self.rank(sq) + 1)
    }

    /// Reads a USI square name (file number, rank letters: `5e`, `10i`,
    /// `1ab`) at the start of `text`: the cell it names (a hole too) and
    /// the rest of the text; `None` if none of this board starts it.
    pub fn read_usi_cell(self, text: &str) -> Option<(Square, &str)> {
        let (file, rest) = read_number(text)?;
        let (rank, rest) = read_letters(rest)?;
        let cell = self.cell(self.cols as i32 - file, self.rows as i32 - 1 - rank)?;
        Some((cell, rest))
    }

    /// Reads a Fairy-Stockfish square name (file letters, rank number:
    /// `c3`, `ab12`) at the start of `text`: the cell it names (a hole
    /// too) and the rest of the text; `None` if none of this board starts it.
    pub fn read_fairy_cell(self, text: &str) -> Option<(Square, &str)> {
        let (file, rest) = read_letters(text)?;
        let (rank, rest) = read_number(rest)?;
        let cell = self.cell(file, rank - 1)?;
        Some((cell, rest))
    }

    /// The square of a USI name (`5e`, `10i`, `1ab`), if the whole text is
    /// one on this board (not a hole).
    pub fn parse_usi_name(self, name: &str) -> Option<Square> {
        match self.read_usi_cell(name) {
            Some((sq, "")) if !self.is_hole(sq) => Some(sq),
            _ => None,
        }
    }

    /// The name of a rank as USI and the diagrams write it, counted from
    /// the top (0 = gote's back rank): `a`, `b`, …
    pub fn rank_letters_from_top(self, row: u8) -> String {
        square_letters(row as usize)
    }
}

/// The letters that name the `index`-th (0-based) file in Fairy-Stockfish
/// notation or rank in USI: `a` to `z`, then `aa` to `az`, `ba`, … as a
/// spreadsheet names its columns, so that every board koma holds has names
/// of one or two letters.
pub fn square_letters(index: usize) -> String {
    let mut n = index + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Reads the lower-case letters at the start of `text` as
/// [`square_letters`] writes them: the 0-based index and the rest.
fn read_letters(text: &str) -> Option<(i32, &str)> {
    let len = text
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(text.len());
    // Three letters already name more files than a board can have.
    if len == 0 || len > 3 {
        return None;
    }
    let n = text.as_bytes()[..len]
        .iter()
        .fold(0, |n, &b| n * 26 + i32::from(b - b'a') + 1);
    Some((n - 1, &text[len..]))
}

/// Reads the decimal number at the start of `text` (no leading zero): the
/// number and the rest.
fn read_number(text: &str) -> Option<(i32, &str)> {
    let len = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    if len == 0 || len > 4 || text.starts_with('0') {
        return None;
    }
    Some((text[..len].parse().ok()?, &text[len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_go_on_past_z_as_spreadsheet_columns() {
        let names: Vec<String> = [0, 1, 25, 26, 27, 35, 51, 52, 701, 702]
            .into_iter()
            .map(square_letters)
            .collect();
        assert_eq!(
            names,
            ["a", "b", "z", "aa", "ab", "aj", "az", "ba", "zz", "aaa"]
        );
        for i in 0..702 {
            let name = square_letters(i);
            assert_eq!(read_letters(&name), Some((i as i32, "")), "{name}");
        }
    }

    #[test]
    fn every_square_name_reads_back_on_boards_past_26_files_or_ranks() {
        for t in [
            Topology::rectangle(7, 36),
            Topology::rectangle(36, 7),
            Topology::rectangle(9, 9),
            Topology::rectangle(1, 1),
        ] {
            let mut usi = std::collections::HashSet::new();
            let mut fairy = std::collections::HashSet::new();
            for sq in t.squares() {
                let (u, f) = (t.usi_name(sq), t.fairy_name(sq));
                assert_eq!(t.parse_usi_name(&u), Some(sq), "{u}");
                assert_eq!(t.read_usi_cell(&u), Some((sq, "")), "{u}");
                assert_eq!(t.read_fairy_cell(&f), Some((sq, "")), "{f}");
                // Followed by another name or a suffix, as in a move.
                assert_eq!(t.read_usi_cell(&format!("{u}1a+")), Some((sq, "1a+")));
                assert_eq!(t.read_fairy_cell(&format!("{f}a1")), Some((sq, "a1")));
                assert!(usi.insert(u) && fairy.insert(f));
            }
        }
        let wide = Topology::rectangle(7, 36);
        let corner = wide.square(35, 6).expect("on the board");
        assert_eq!(wide.fairy_name(corner), "aj7");
        assert_eq!(wide.usi_name(corner), "1a");
        let tall = Topology::rectangle(36, 7);
        let corner = tall.square(0, 0).expect("on the board");
        assert_eq!(tall.usi_name(corner), "7aj");
        assert_eq!(tall.fairy_name(corner), "a1");
    }

    #[test]
    fn names_off_the_board_or_malformed_read_as_none() {
        let t = Topology::rectangle(9, 9);
        for text in [
            "", "0e", "05e", "10e", "5j", "5", "e", "j1", "a0", "a10", "a01", "5E", "aaaa1",
        ] {
            assert_eq!(
                t.read_usi_cell(text).filter(|(_, r)| r.is_empty()),
                None,
                "{text}"
            );
            assert_eq!(
                t.read_fairy_cell(text).filter(|(_, r)| r.is_empty()),
                None,
                "{text}"
            );
        }
        // A hole is a cell a name can read, but not a square.
        let holed = t.with_hole(0, 0);
        assert_eq!(
            holed.read_fairy_cell("a1").map(|(c, _)| holed.is_hole(c)),
            Some(true)
        );
        assert_eq!(holed.parse_usi_name("9i"), None);
    }
}
