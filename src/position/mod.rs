//! Positions: a checked game state on compiled rules, with make/unmake,
//! Zobrist hash, history, legal move generation and the game's outcome.

mod movegen;
mod setup;

use std::fmt;

use crate::board::{Bitboard, Color, Square};
use crate::rules::{MAX_ROLES, Piece, RepetitionResult, Role, Rules};

pub use setup::{MAX_MOVE_NUMBER, Setup, SetupError, SetupPiece};

pub use crate::board::MAX_SQUARES;

/// A move: a piece moving on the board (promoting or not), or a drop from hand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A piece goes from one square to another, capturing what stands there.
    Normal {
        /// Where it starts.
        from: Square,
        /// Where it ends.
        to: Square,
        /// Whether it promotes.
        promote: bool,
    },
    /// A piece from hand is put on an empty square.
    Drop {
        /// The role dropped.
        role: Role,
        /// Where.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }
}

/// Why a setup is not a position of these rules: every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Each problem, in words.
    pub problems: Vec<String>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}

impl std::error::Error for PositionError {}

/// How a game has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A side won, for a reason.
    Win {
        /// The winner.
        winner: Color,
        /// Why, in words ("checkmate").
        reason: &'static str,
    },
    /// Drawn, for a reason.
    Draw {
        /// Why.
        reason: &'static str,
    },
}

impl std::fmt::Display for Outcome {
    /// The outcome in words: "sente wins by checkmate", "draw by repetition".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{} wins by {reason}", winner.name()),
            Outcome::Draw { reason } => write!(f, "draw by {reason}"),
        }
    }
}

/// What make() must remember to undo a move; also the game's history.
#[derive(Copy, Clone, Debug)]
struct State<B> {
    /// XOR of the board's keys and the side to move.
    board_hash: u64,
    /// Sum of the hands' keys (one per piece in hand).
    hand_hash: u64,
    checkers: B,
    /// Piece code captured by the move that led here (0: none).
    captured: u8,
    mv: Option<Move>,
}

impl<B> State<B> {
    #[inline]
    fn hash(&self) -> u64 {
        self.board_hash ^ self.hand_hash
    }
}

/// A legal game state of some rules.
#[derive(Clone)]
pub struct Position<'r, B: Bitboard> {
    rules: &'r Rules<B>,
    /// Piece code per square: 0 empty, else `role * 2 + colour + 1`.
    board: [u8; MAX_SQUARES],
    by_color: [B; 2],
    by_role: [B; MAX_ROLES],
    hands: [[u8; MAX_ROLES]; 2],
    /// Roles that are royal, as a mask over role indices (bit `i`: role `i`).
    royal_roles: RoleMask,
    turn: Color,
    start_move_number: u32,
    states: Vec<State<B>>,
}

/// A set of roles, one bit per role: it holds [`MAX_ROLES`] of them.
type RoleMask = u64;
const _: () = assert!(MAX_ROLES <= RoleMask::BITS as usize);
// Piece codes `role * 2 + colour + 1` are bytes.
const _: () = assert!(MAX_ROLES * 2 <= u8::MAX as usize);

#[inline]
fn code(piece: Piece) -> u8 {
    piece.role.0 * 2 + piece.color as u8 + 1
}

#[inline]
fn decode(c: u8) -> Option<Piece> {
    if c == 0 {
        None
    } else {
        let c = c - 1;
        Some(Piece {
            color: if c & 1 == 0 {
                Color::Sente
            } else {
                Color::Gote
            },
            role: Role(c >> 1),
        })
    }
}

impl<'r, B: Bitboard> Position<'r, B> {
    /// Checks a setup against the rules and makes it a position.
    pub fn new(rules: &'r Rules<B>, setup: &Setup) -> Result<Position<'r, B>, PositionError> {
        let t = rules.topology;
        let mut problems = Vec::new();
        let mut pos = Position {
            rules,
            board: [0; MAX_SQUARES],
            by_color: [B::EMPTY; 2],
            by_role: [B::EMPTY; MAX_ROLES],
            hands: [[0; MAX_ROLES]; 2],
            royal_roles: rules
                .roles
                .iter()
                .enumerate()
                .filter(|(_, r)| r.royal)
                .fold(0, |m: RoleMask, (i, _)| m | 1 << i),
            turn: setup.turn,
            start_move_number: setup.move_number.clamp(1, setup::MAX_MOVE_NUMBER),
            states: Vec::with_capacity(256),
        };
        if setup.ranks.len() != t.rows as usize {
            problems.push(format!(
                "the board has {} ranks, the variant {}",
                setup.ranks.len(),
                t.rows
            ));
        }
        for (i, rank_pieces) in setup.ranks.iter().enumerate().take(t.rows as usize) {
            let rank = t.rows as usize - 1 - i;
            if rank_pieces.len() != t.cols as usize {
                problems.push(format!(
                    "rank {} (the {} written) has {} files, the variant {}",
                    rank + 1,
                    ordinal(i + 1),
                    rank_pieces.len(),
                    t.cols
                ));
                continue;
            }
            for (file, p) in rank_pieces.iter().enumerate() {
                let Some(p) = p else { continue };
                let sq = Square::new((rank * t.cols as usize + file) as u8);
                let written = if p.promoted {
                    format!("+{}", p.letter)
                } else {
                    p.letter.to_string()
                };
                match rules.role_by_letter(p.letter, p.promoted) {
                    None => problems.push(format!(
                        "'{written}' on {} is not a piece of this variant",
                        square_name(rules, sq)
                    )),
                    Some(role) => {
                        let piece = Piece {
                            color: p.color,
                            role,
                        };
                        if !rules.immobile_drops && !rules.mobile(p.color, role).contains(sq) {
                            problems.push(format!(
                                "the {} {} on {} could never move",
                                p.color.name(),
                                rules.role(role).name,
                                square_name(rules, sq)
                            ));
                        }
                        pos.put(piece, sq);
                    }
                }
            }
        }
        for &(color, letter, count) in &setup.hands {
            match rules.role_by_letter(letter, false) {
                None => problems.push(format!("'{letter}' in hand is not a piece of this variant")),
                // A royal that can never be captured can never be in hand.
                Some(role)
                    if rules.role(role).royal
                        && rules.check
                        && rules.start_royals[color.opposite().index()] <= 1 =>
                {
                    problems.push(format!("a royal piece ('{letter}') cannot be in hand"))
                }
                Some(_) if !rules.drops => {
                    problems.push("this variant has no drops, so no piece can be in hand".into())
                }
                Some(role) => pos.hands[color.index()][role.index()] = count.min(255) as u8,
            }
        }
        for color in Color::ALL {
            for role in rules.all_roles() {
                let Some(max) = rules.role(role).max_per_file else {
                    continue;
                };
                for (f, &file) in rules.files.iter().enumerate() {
                    if (pos.pieces(color, role) & file).count() > max as u32 {
                        problems.push(format!(
                            "{} has more than {max} unpromoted {} on file {}",
                            color.name(),
                            rules.role(role).name,
                            t.cols as usize - f
                        ));
                    }
                }
            }
        }
        // Hands count in bytes: no kind of piece may be more than a byte can hold.
        for role in rules.all_roles().filter(|&r| !rules.role(r).promoted) {
            let on_board: u32 = rules
                .all_roles()
                .filter(|&r| rules.role(r).base == role)
                .map(|r| pos.by_role[r.index()].count())
                .sum();
            let in_hand: u32 = Color::ALL
                .iter()
                .map(|&c| pos.hands[c.index()][role.index()] as u32)
                .sum();
            if on_board + in_hand > 250 {
                problems.push(format!(
                    "{} {}s in the game: at most 250",
                    on_board + in_hand,
                    rules.role(role).name
                ));
            }
        }
        if pos.royal_roles != 0 {
            for color in Color::ALL {
                let n = pos.royals(color).count();
                let start = rules.start_royals[color.index()];
                // The start itself is being checked while the rules are compiled.
                let start = if rules.start.ranks.is_empty() {
                    n
                } else {
                    start
                };
                if start == 1 && rules.check && n != 1 {
                    problems.push(format!(
                        "{} has {n} royal pieces on the board; the rules need exactly one",
                        color.name()
                    ));
                } else if n > start.max(1) {
                    problems.push(format!(
                        "{} has {n} royal pieces on the board; the rules allow at most {}",
                        color.name(),
                        start.max(1)
                    ));
                }
            }
        }
        if problems.is_empty() {
            let (board_hash, hand_hash) = pos.compute_hash();
            pos.states.push(State {
                board_hash,
                hand_hash,
                checkers: B::EMPTY,
                captured: 0,
                mv: None,
            });
            let them = pos.turn.opposite();
            if pos.attackers_to_royal(them).any() {
                problems.push(format!(
                    "{} is in check but it is {}'s turn",
                    them.name(),
                    pos.turn.name()
                ));
            }
            let checkers = pos.attackers_to_royal(pos.turn);
            if let Some(s) = pos.states.last_mut() {
                s.checkers = checkers;
            }
        }
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError { problems })
        }
    }

    /// The start position of the rules.
    pub fn start(rules: &'r Rules<B>) -> Position<'r, B> {
        // The start setup was checked when the rules were compiled.
        Position::new(rules, &rules.start)
            .unwrap_or_else(|e| unreachable!("start position checked at load: {e}"))
    }

    /// The rules this position plays by.
    #[inline]
    pub fn rules(&self) -> &'r Rules<B> {
        self.rules
    }
    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.board[sq.index()])
    }
    /// Pieces of a colour and role.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> B {
        self.by_role[role.index()] & self.by_color[color.index()]
    }
    /// All pieces of a colour.
    #[inline]
    pub fn color_pieces(&self, color: Color) -> B {
        self.by_color[color.index()]
    }
    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    /// How many pieces of a role a colour has in hand.
    #[inline]
    pub fn hand(&self, color: Color, role: Role) -> u8 {
        self.hands[color.index()][role.index()]
    }
    /// Zobrist hash of the position (board, hands, side to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.state().hash()
    }
    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> B {
        self.state().checkers
    }
    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }
    /// The move number (1 at the start, +1 after each ply, as SFEN counts).
    pub fn move_number(&self) -> u32 {
        self.start_move_number
            .saturating_add(self.states.len() as u32 - 1)
    }
    /// The moves played since the setup, in order.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.states.iter().filter_map(|s| s.mv)
    }
    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.state().mv
    }

    #[inline]
    fn state(&self) -> &State<B> {
        // There is always the initial state.
        &self.states[self.states.len() - 1]
    }

    /// The royal pieces of a colour.
    #[inline]
    pub fn royals(&self, color: Color) -> B {
        let mut m = self.royal_roles;
        let mut b = B::EMPTY;
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            b |= self.by_role[r];
        }
        b & self.by_color[color.index()]
    }

    /// The square of a colour's only royal, if it has exactly one.
    #[inline]
    pub(crate) fn royal_square(&self, color: Color) -> Option<Square> {
        let r = self.royals(color);
        if r.any() && !r.more_than_one() {
            Some(r.lsb())
        } else {
            None
        }
    }

    /// Pieces of `by` that attack `sq`, given the occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: B) -> B {
        let mine = self.by_color[by.index()];
        let them = by.opposite();
        let mut att = B::EMPTY;
        for (i, &bb) in self.by_role[..self.rules.role_count()].iter().enumerate() {
            let p = bb & mine;
            if p.any() {
                att |= self.rules.attacks(them, Role(i as u8), sq, occ) & p;
            }
        }
        att
    }

    /// Pieces of the opponent attacking `color`'s royal, where the rules hold
    /// it to one royal (otherwise nobody is "in check").
    fn attackers_to_royal(&self, color: Color) -> B {
        if !self.rules.check {
            return B::EMPTY;
        }
        match self.royal_square(color) {
            Some(k) => self.attackers_to(k, color.opposite(), self.occupied()),
            None => B::EMPTY,
        }
    }

    fn compute_hash(&self) -> (u64, u64) {
        let mut board = 0;
        for sq in self.rules.topology.squares() {
            if let Some(p) = self.piece_at(sq) {
                board ^= self.rules.z_piece(p, sq);
            }
        }
        if self.turn == Color::Gote {
            board ^= self.rules.z_turn;
        }
        let mut hand: u64 = 0;
        for color in Color::ALL {
            for role in self.rules.all_roles() {
                hand = hand.wrapping_add(
                    self.rules
                        .z_hand(color, role)
                        .wrapping_mul(self.hand(color, role) as u64),
                );
            }
        }
        (board, hand)
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        let b = B::from_square(sq);
        self.board[sq.index()] = code(piece);
        self.by_color[piece.color.index()] ^= b;
        self.by_role[piece.role.index()] ^= b;
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let b = B::from_square(sq);
        self.board[sq.index()] = 0;
        self.by_color[piece.color.index()] ^= b;
        self.by_role[piece.role.index()] ^= b;
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    pub fn play(&mut self, mv: Move) {
        let us = self.turn;
        let mut hash = self.state().board_hash;
        let mut hand_hash = self.state().hand_hash;
        let mut captured = 0;
        match mv {
            Move::Normal { from, to, promote } => {
                let Some(piece) = self.piece_at(from) else {
                    return;
                };
                if let Some(cap) = self.piece_at(to) {
                    captured = code(cap);
                    self.remove(cap, to);
                    hash ^= self.rules.z_piece(cap, to);
                    if self.rules.drops {
                        let base = self.rules.role(cap.role).base;
                        self.hands[us.index()][base.index()] += 1;
                        hand_hash = hand_hash.wrapping_add(self.rules.z_hand(us, base));
                    }
                }
                self.remove(piece, from);
                hash ^= self.rules.z_piece(piece, from);
                let role = match (promote, self.rules.role(piece.role).other_side) {
                    (true, Some(p)) => p,
                    _ => piece.role,
                };
                let moved = Piece { color: us, role };
                self.put(moved, to);
                hash ^= self.rules.z_piece(moved, to);
            }
            Move::Drop { role, to } => {
                let base = self.rules.role(role).base;
                self.hands[us.index()][base.index()] -= 1;
                hand_hash = hand_hash.wrapping_sub(self.rules.z_hand(us, base));
                let piece = Piece { color: us, role };
                self.put(piece, to);
                hash ^= self.rules.z_piece(piece, to);
            }
        }
        self.turn = us.opposite();
        hash ^= self.rules.z_turn;
        let checkers = self.attackers_to_royal(self.turn);
        self.states.push(State {
            board_hash: hash,
            hand_hash,
            checkers,
            captured,
            mv: Some(mv),
        });
    }

    /// Takes back the last move. Returns it, or `None` at the setup.
    pub fn undo(&mut self) -> Option<Move> {
        if self.states.len() < 2 {
            return None;
        }
        let st = self.states.pop()?;
        let mv = st.mv?;
        let us = self.turn.opposite();
        self.turn = us;
        match mv {
            Move::Normal { from, to, promote } => {
                let moved = self.piece_at(to)?;
                self.remove(moved, to);
                let role = match (promote, self.rules.role(moved.role).other_side) {
                    (true, Some(r)) => r,
                    _ => moved.role,
                };
                self.put(Piece { color: us, role }, from);
                if let Some(cap) = decode(st.captured) {
                    self.put(cap, to);
                    if self.rules.drops {
                        let base = self.rules.role(cap.role).base;
                        self.hands[us.index()][base.index()] -= 1;
                    }
                }
            }
            Move::Drop { role, to } => {
                self.remove(Piece { color: us, role }, to);
                self.hands[us.index()][self.rules.role(role).base.index()] += 1;
            }
        }
        Some(mv)
    }

    /// A copy that keeps only the current state, not the game's history
    /// (cheap, for looking one move ahead).
    pub(crate) fn without_history(&self) -> Position<'r, B> {
        Position {
            rules: self.rules,
            board: self.board,
            by_color: self.by_color,
            by_role: self.by_role,
            hands: self.hands,
            royal_roles: self.royal_roles,
            turn: self.turn,
            start_move_number: self.start_move_number,
            states: vec![*self.state()],
        }
    }

    /// How often the current position has occurred (this time included).
    pub fn repetitions(&self) -> u32 {
        let h = self.hash();
        self.states
            .iter()
            .rev()
            .step_by(2)
            .filter(|s| s.hash() == h)
            .count() as u32
    }

    /// The result, if the game is over: no legal move (the side to move
    /// loses), or the repetition rule.
    pub fn outcome(&self) -> Option<Outcome> {
        let rep = self.rules.repetition;
        if self.repetitions() >= rep.count {
            // The cycle: from the first occurrence of this position to now.
            let h = self.hash();
            let first = self.states.iter().position(|s| s.hash() == h).unwrap_or(0);
            if rep.perpetual_check_loses {
                for checker in Color::ALL {
                    // Moves by `checker` in the cycle: the states after them have
                    // the opponent to move; all must be check.
                    let mut all = true;
                    let mut any = false;
                    for (i, s) in self.states.iter().enumerate().skip(first + 1) {
                        let mover = if (self.states.len() - 1 - i).is_multiple_of(2) {
                            self.turn.opposite()
                        } else {
                            self.turn
                        };
                        if mover == checker {
                            any = true;
                            all &= s.checkers.any();
                        }
                    }
                    if any && all {
                        return Some(Outcome::Win {
                            winner: checker.opposite(),
                            reason: "perpetual check",
                        });
                    }
                }
            }
            let loser = match rep.result {
                RepetitionResult::Draw => None,
                RepetitionResult::SenteLoses => Some(Color::Sente),
                RepetitionResult::GoteLoses => Some(Color::Gote),
                RepetitionResult::RepeaterLoses => Some(self.turn.opposite()),
            };
            return Some(match loser {
                None => Outcome::Draw {
                    reason: "repetition",
                },
                Some(l) => Outcome::Win {
                    winner: l.opposite(),
                    reason: "repetition",
                },
            });
        }
        if let Some(o) = self.terminal() {
            return Some(o);
        }
        if self.legal_moves().is_empty() {
            let reason = if self.in_check() {
                "checkmate"
            } else {
                "no legal move"
            };
            return Some(Outcome::Win {
                winner: self.turn.opposite(),
                reason,
            });
        }
        None
    }

    /// Whether the game ended with the last move: the side to move lost its
    /// last royal piece, or the opponent's piece reached its last rank safely.
    pub(crate) fn terminal(&self) -> Option<Outcome> {
        let us = self.turn;
        let them = us.opposite();
        if self.royal_roles != 0 && self.royals(us).is_empty() {
            return Some(Outcome::Win {
                winner: them,
                reason: "royal piece captured",
            });
        }
        if self.rules.has_tries {
            let occ = self.occupied();
            // Whoever's piece stands on its last rank unattacked has won:
            // the side that just moved there, or the side to move whose piece
            // the opponent left there.
            for side in [them, us] {
                for (i, info) in self.rules.roles.iter().enumerate() {
                    if !info.wins_on_last_rank {
                        continue;
                    }
                    let arrived =
                        self.pieces(side, Role(i as u8)) & self.rules.last_rank[side.index()];
                    if arrived
                        .squares()
                        .any(|sq| self.attackers_to(sq, side.opposite(), occ).is_empty())
                    {
                        return Some(Outcome::Win {
                            winner: side,
                            reason: "reached the last rank",
                        });
                    }
                }
            }
        }
        None
    }

    /// The position as a setup (to print it as FEN or SFEN).
    pub fn to_setup(&self) -> Setup {
        let t = self.rules.topology;
        let ranks = (0..t.rows)
            .rev()
            .map(|rank| {
                (0..t.cols)
                    .map(|file| {
                        self.piece_at(Square::new(rank * t.cols + file))
                            .map(|p| SetupPiece {
                                color: p.color,
                                letter: self.rules.role(p.role).letter,
                                promoted: self.rules.role(p.role).promoted,
                            })
                    })
                    .collect()
            })
            .collect();
        let mut hands = Vec::new();
        for color in Color::ALL {
            for role in self.rules.all_roles() {
                let n = self.hand(color, role);
                if n > 0 {
                    hands.push((color, self.rules.role(role).letter, n as u32));
                }
            }
        }
        Setup {
            ranks,
            hands,
            turn: self.turn,
            move_number: self.move_number(),
        }
    }
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

/// A square's name in USI (`5e`), for messages.
pub fn square_name<B: Bitboard>(rules: &Rules<B>, sq: Square) -> String {
    crate::notation::usi_square(rules.topology, sq)
}
