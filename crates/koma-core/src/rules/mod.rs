//! The compiled variant: roles, promotions, zones, drop rules and the
//! per-square, per-side move tables the generator runs on.

mod compile;
mod lines;
mod shifts;
mod tables;

use crate::board::{AnyRoles, Bitboard, Color, PieceId, RoleSet, Square, Topology};
use crate::dsl::Mode;
use crate::setup::Setup;

pub use crate::variant::schema::{PromotionRule, RepetitionResult};

pub use compile::{RulesError, compile};
pub(crate) use shifts::Shift;

pub use crate::variant::limits::MAX_ROLES;

/// A piece kind: an index into the variant's table of roles.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Role(pub u16);

impl Role {
    /// The index, usable for tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A role and its colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Which kind.
    pub role: Role,
}

/// What the variant file says about one role, after compilation.
#[derive(Clone, Debug)]
pub struct RoleInfo {
    /// Its name (`rook`, `dragon`).
    pub name: String,
    /// Its ID, upper case (`R`, `FD`; a promoted role has its base's ID).
    pub id: PieceId,
    /// Whether this is the promoted side of another role (written `+R`).
    pub promoted: bool,
    /// The role it promotes to, if any.
    pub promotion: Option<Role>,
    /// The role it goes to hand as when captured (itself if unpromoted).
    pub base: Role,
    /// Its other side: the promoted role of a base role, the base of a promoted one.
    pub other_side: Option<Role>,
    /// Reaching the last rank, where it cannot be captured, wins.
    pub wins_on_last_rank: bool,
    /// Royal: may not be left attacked.
    pub royal: bool,
    /// Most unpromoted pieces of this role per side per file, if limited.
    pub max_per_file: Option<u8>,
    /// No move changes the file of a piece of this role, nor turns another
    /// role into it: more than `max_per_file` of them on a file can then only
    /// come from a setup, never from play.
    pub keeps_file: bool,
    /// Dropping it to give immediate mate is illegal.
    pub drop_mate_illegal: bool,
    /// Kanji for diagrams.
    pub kanji: Option<String>,
    /// Its names in KIF and KI2 moves: the first is written, all are read
    /// (its `kif` names, then its kanji).
    pub kif: Vec<String>,
    /// Its two-letter CSA code, if the variant file gives one.
    pub csa: Option<String>,
    /// The movement as written.
    pub betza: String,
    /// Material value on the board.
    pub value: i32,
    /// Material value of one in hand.
    pub hand_value: i32,
    /// Points under the impasse rule (a promoted role has its base's).
    pub declaration_points: u32,
    /// Whether the role moves by riding at all (so the generator needs occupancy).
    pub rides: bool,
    /// Whether the role has moves in two legs.
    pub two_legs: bool,
    /// Whether the role takes part in the capture limits of [`TradeLimits`].
    pub trade_limited: bool,
    /// Whether the role hops over screens (`p`, `g`).
    pub hops: bool,
    /// Under `promotion: entering`: whether a capture that starts or ends
    /// in the zone lets the role promote.
    pub promotes_capturing_in_zone: bool,
}

/// `rules.trade_limits`, compiled: limits on captures of the roles marked
/// `trade_limited` (chu shogi's lion-trading rules).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TradeLimits {
    /// The marked roles (bit `i`: role `i`).
    pub limited: AnyRoles,
    /// A marked piece may not capture, on its move's last square, a marked
    /// piece of the opponent that stands next to none of the squares around
    /// its start, when a piece of the victim's side attacks that square once
    /// the move is made.
    pub distant_protected: bool,
    /// Roles whose capture on the way does not lift `distant_protected`
    /// (bit `i`: role `i`); `None`: no capture on the way lifts it.
    pub bridge_except: Option<AnyRoles>,
    /// After a marked piece was captured by an unmarked one, the next move
    /// may not capture a marked piece with an unmarked one except on the
    /// square of that capture.
    pub counterstrike: bool,
}

/// `rules.bare_royal`, compiled: when a lone royal ends the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BareRoyal {
    /// A side left with one royal and nothing else that can move loses,
    /// when the opponent has more (see `Position::outcome`).
    pub loses: bool,
    /// Roles that do not count for the side that bares (bit `i`: role `i`).
    pub uncounted: AnyRoles,
    /// Each side left with one royal and nothing else that can move, neither
    /// attacked: a draw.
    pub both_draw: bool,
}

impl TradeLimits {
    /// Whether a role is marked.
    #[inline]
    pub fn marks(&self, role: Role) -> bool {
        self.limited.contains(role.index())
    }
}

/// The first leg of a role's two-leg moves from one square: where it ends,
/// what that square must hold, and where the second leg may end from there.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hop<B> {
    /// Where the first leg ends.
    pub mid: Square,
    /// What `mid` must hold: empty, an opponent's piece (captured), or either.
    pub first: Mode,
    /// Where the second leg may end (the square left counts as empty), by
    /// its mode: moving or capturing, only moving, only capturing.
    pub second: [B; 3],
}

impl<B: Bitboard> Hop<B> {
    /// Where the second leg may end, given the squares a leg may move to
    /// (`left`: the empty ones and the one the piece left) and the
    /// opponent's pieces (`theirs`); `None` when the first leg may not end
    /// on `mid` (it must move there and it is occupied, or capture there
    /// and it is empty).
    #[inline]
    pub fn ends(&self, left: B, theirs: B) -> Option<B> {
        let allowed = match self.first {
            Mode::Both => theirs.contains(self.mid) || left.contains(self.mid),
            Mode::MoveOnly => left.contains(self.mid),
            Mode::CaptureOnly => theirs.contains(self.mid),
        };
        let [both, to_empty, to_capture] = self.second;
        allowed.then(|| (both & (left | theirs)) | (to_empty & left) | (to_capture & theirs))
    }

    /// Where the second leg could end on a board that lets it: every square
    /// of its table, whatever the squares hold.
    #[inline]
    pub fn reach(&self) -> B {
        self.second[0] | self.second[1] | self.second[2]
    }
}

/// A rider's ray in one direction from one square, with where to find it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Ride {
    /// Offset of this ray's (range-limited) table in `Rules::rays`.
    pub ray: u32,
    /// Offset of the same direction's unlimited table in `Rules::rays`.
    pub full: u32,
    /// Whether square indices grow along the ray (the first blocker is the lowest bit).
    pub positive: bool,
    /// Move, capture or both.
    pub mode: Mode,
}

/// The impasse rule (`rules.declaration`): the side to move may declare a
/// win when its royal stands in `camp`, it is not in check, at least `pieces`
/// of its other pieces stand there, and their points with those of its hand
/// reach `points` (by colour).
#[derive(Copy, Clone, Debug)]
pub struct Declaration<B> {
    /// The opponent's camp, by the declaring colour.
    pub camp: [B; 2],
    /// Pieces besides royals needed in the camp.
    pub pieces: u32,
    /// Points needed, by colour.
    pub points: [u32; 2],
}

/// A hopper's line in one direction from one square, with where to find it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct HopRay {
    /// Offset of the direction's unlimited table in `Rules::rays`.
    pub full: u32,
    /// Offset of the table of the squares it may land on (its range).
    pub reach: u32,
    /// Whether square indices grow along the line.
    pub positive: bool,
    /// Move, capture or both.
    pub mode: Mode,
    /// Whether it lands just beyond the screen (`g`), not anywhere beyond (`p`).
    pub next: bool,
}

/// Repetition rules.
#[derive(Copy, Clone, Debug)]
pub struct Repetition {
    /// Occurrences of one position that end the game.
    pub count: u32,
    /// Whether a side that checked with every move of the cycle loses.
    pub perpetual_check_loses: bool,
    /// What the repetition means otherwise.
    pub result: RepetitionResult,
    /// Whether the square a counterstrike limit remembers is part of the
    /// position that repeats.
    pub counterstrike_distinguishes: bool,
}

/// A compiled variant, generic over the bitboard width.
#[derive(Clone, Debug)]
pub struct Rules<B: Bitboard> {
    /// The variant's slug.
    pub slug: String,
    /// The variant's title.
    pub title: String,
    /// The board.
    pub topology: Topology,
    /// Every role, unpromoted and promoted.
    pub roles: Vec<RoleInfo>,
    /// The start position.
    pub start: Setup,
    /// Pixel size of a square in diagrams (`render.cellSize`), if given.
    pub cell_size: Option<u32>,
    /// KIF's `手合割` for the start (`engine.records.kif_handicap`).
    pub kif_handicap: Option<String>,
    /// The PGN `[Variant]` tag (`engine.records.pgn_variant`).
    pub pgn_variant: Option<String>,
    /// The engine's evaluation weights the file gives (`engine.eval`).
    pub eval: crate::variant::schema::EvalSpec,
    /// Whether captured pieces go to hand.
    pub drops: bool,
    /// When pieces promote.
    pub promotion: PromotionRule,
    /// Whether pieces may be dropped where they could never move.
    pub immobile_drops: bool,
    /// Whether a move may leave a piece unpromoted where it could never
    /// move by its own movement.
    pub immobile_moves: bool,
    /// Under `promotion: entering`, whether a move that ends where the piece
    /// could never move again may promote from inside the zone without
    /// capturing.
    pub promotes_where_immobile: bool,
    /// Whether pieces may be dropped promoted side up.
    pub drop_promoted: bool,
    /// Whether a side's last royal may not be left attacked.
    pub check: bool,
    /// Whether giving check wins at once: a side to move that is in check
    /// has lost, and has no move.
    pub check_wins: bool,
    /// The most royal pieces each side can come to have from the start
    /// position: its royals, the pieces that may promote to a royal one,
    /// and with drops the opponent's such pieces (captured, dropped and
    /// promoted), except, under `check`, the one the opponent always keeps.
    /// One means the side's only royal is guarded by `check`.
    pub start_royals: [u32; 2],
    /// Whether some role wins by reaching the last rank.
    pub has_tries: bool,
    /// Whether some role has moves in two legs.
    pub has_two_legs: bool,
    /// Whether some role hops over screens: its attacks then change with
    /// pieces that move onto or off its lines anywhere, and legality is
    /// found by trying each move.
    pub has_hoppers: bool,
    /// Borrowed movement (`rules.move_as_friend_at`): by colour then
    /// square, the square whose friendly piece lends its movement to the
    /// piece there (`None` off the board); empty without borrowing.
    pub(crate) lenders: Vec<Option<Square>>,
    /// Whether legality is found by trying each move, and attacks are
    /// looked for beyond the one-leg tables: some role moves in two legs or
    /// hops, or pieces borrow movement (a move then changes how others move).
    pub by_trial: bool,
    /// The last rank of each colour (the far side).
    pub last_rank: [B; 2],
    /// Repetition rules.
    pub repetition: Repetition,
    /// Limits on captures between marked roles, if the rules have them.
    pub trade: Option<TradeLimits>,
    /// When a lone royal ends the game, if it does.
    pub bare_royal: Option<BareRoyal>,
    /// The impasse rule, if the variant has one.
    pub declaration: Option<Declaration<B>>,
    /// Every square of the board.
    pub all: B,
    /// The holes of the board (cells of its rectangle that are not on it):
    /// screens for hoppers, never a square to stand on.
    pub holes: B,
    /// Promotion zone of each colour.
    pub zone: [B; 2],
    /// Squares of each file.
    pub files: Vec<B>,
    /// Leaps by `(colour, role)` then square, side by side (one lookup for
    /// the three): those that move or capture, those only to empty squares,
    /// those only capturing.
    pub(crate) leaps: Vec<[B; 3]>,
    /// Rider rays by `(colour, role)`.
    pub(crate) rides: Vec<Vec<Ride>>,
    /// Hopper lines by `(colour, role)`.
    pub(crate) hoppers: Vec<Vec<HopRay>>,
    /// By `(colour, role)` then square: the squares from which a hopper of
    /// that colour and role could capture on the square over some screen
    /// (its capturing lines through it); empty without hoppers.
    pub(crate) hop_sources: Vec<B>,
    /// The hops of `(colour, role, square)`, as a range of `hops`.
    pub(crate) hop_index: Vec<(u32, u32)>,
    /// Two-leg moves' first legs, by origin square (lowest `mid` first).
    pub(crate) hops: Vec<Hop<B>>,
    /// Ray tables: for each ray kind, one bitboard per square.
    pub(crate) rays: Vec<B>,
    /// Which rider lines join two squares, by their offset (`lines.rs`).
    pub(crate) rider_lines: lines::Lines,
    /// Squares from which a role of a colour can still move (on an empty board).
    pub(crate) mobile: Vec<B>,
    /// Squares a piece of a colour and role may move to without promoting
    /// there: where it can still move, plus its zone if it may promote
    /// (by `(colour, role)`).
    pub(crate) arrive: Vec<B>,
    /// Squares a role could attack from a square on an empty board, by
    /// colour, square, then role (see [`Rules::reach`]).
    pub(crate) reach: Vec<B>,
    /// [`Rules::ride_xray`] by `(colour, role)` then square.
    pub(crate) xray: Vec<B>,
    /// [`Rules::ends_and_promotions`] by `(colour, role)` then square (empty under
    /// the rules that turn pieces both ways).
    pub(crate) zone_masks: Vec<[B; 2]>,
    /// [`Rules::near_royal`] by colour, square, then role (empty where
    /// it is never read).
    pub(crate) near: Vec<B>,
    /// [`Rules::trial_watch`] by colour then square (empty where it is
    /// never read): the squares always watched, and the range of
    /// `watch_lines` that holds the square's rays.
    pub(crate) watch: Vec<B>,
    pub(crate) watch_index: Vec<(u32, u32)>,
    pub(crate) watch_lines: Vec<B>,
    /// [`Rules::ride_lines`] by colour then square.
    pub(crate) lines: Vec<B>,
    /// The leaps of `(colour, role)` as shifts, where they are translations.
    pub(crate) shifts: shifts::ShiftTable<B>,
    /// The roles that have `shifts`, as a mask over role indices, by colour.
    pub(crate) shift_roles: [B::Roles; 2],
    /// The roles a hand can hold (the unpromoted ones), as a mask over
    /// role indices.
    pub(crate) hand_roles: B::Roles,
    /// The roles that ride, as a mask over role indices.
    pub(crate) rider_roles: B::Roles,
    /// The roles with leaps only to empty squares or only capturing, as a mask.
    pub(crate) mode_leap_roles: B::Roles,
    /// The roles that promote (have a promoted side), as a mask.
    pub(crate) promoting_roles: B::Roles,
    /// The roles that have another side (promoted or base), as a mask.
    pub(crate) two_sided_roles: B::Roles,
    /// The number of squares of the board (`topology.len()`, kept for the
    /// tables' indices).
    pub(crate) squares: usize,
    /// Zobrist keys for (piece code, square).
    pub(crate) z_board: Vec<u64>,
    /// Zobrist keys for one piece of (colour, role) in hand (added per piece).
    pub(crate) z_hand: Vec<u64>,
    /// Zobrist key for gote to move.
    pub(crate) z_turn: u64,
    /// Zobrist keys for the square a counterstrike limit remembers.
    pub(crate) z_strike: Vec<u64>,
}

impl<B: Bitboard> Rules<B> {
    /// Whether the role rides (some of its moves go further than one step).
    #[inline]
    pub(crate) fn rides(&self, role: Role) -> bool {
        self.rider_roles.contains(role.index())
    }
    /// Whether the role has a promoted side.
    #[inline]
    pub(crate) fn promotes(&self, role: Role) -> bool {
        self.promoting_roles.contains(role.index())
    }
    /// Whether the role has another side (promoted or base).
    #[inline]
    pub(crate) fn two_sided(&self, role: Role) -> bool {
        self.two_sided_roles.contains(role.index())
    }
    /// Whether the role has leaps only to empty squares or only capturing.
    #[inline]
    pub(crate) fn mode_leaps(&self, role: Role) -> bool {
        self.mode_leap_roles.contains(role.index())
    }
    /// Whether pieces borrow the movement of a friend (`rules.move_as_friend_at`).
    #[inline]
    pub fn borrows(&self) -> bool {
        !self.lenders.is_empty()
    }

    /// The square whose friendly piece would lend its movement to a piece
    /// of `color` on `sq`, if the rules borrow and that square is on the board.
    #[inline]
    pub fn lender(&self, color: Color, sq: Square) -> Option<Square> {
        self.lenders
            .get(color.index() * self.topology.len() + sq.index())
            .copied()
            .flatten()
    }

    /// Number of roles.
    #[inline]
    pub fn role_count(&self) -> usize {
        self.roles.len()
    }
    /// The information of a role.
    #[inline]
    pub fn role(&self, role: Role) -> &RoleInfo {
        &self.roles[role.index()]
    }
    /// All roles.
    pub fn all_roles(&self) -> impl Iterator<Item = Role> + '_ {
        (0..self.roles.len() as u16).map(Role)
    }
    /// The pieces of the start position, on the board and in hand: each
    /// one's colour and role and how many (letters that name no role are
    /// left out).
    pub(crate) fn start_pieces(&self) -> impl Iterator<Item = (Color, Role, u32)> + '_ {
        let on_board = self
            .start
            .ranks
            .iter()
            .flatten()
            .flatten()
            .map(|p| (p.color, p.id, p.promoted, 1));
        let in_hand = self.start.hands.iter().map(|&(c, l, n)| (c, l, false, n));
        on_board
            .chain(in_hand)
            .filter_map(|(c, l, promoted, n)| Some((c, self.role_by_id(l, promoted)?, n)))
    }
    /// The role with this one-letter ID (either case), promoted or not.
    pub fn role_by_letter(&self, letter: char, promoted: bool) -> Option<Role> {
        self.role_by_id(PieceId::from_letter(letter)?, promoted)
    }
    /// The role with this ID, promoted or not.
    pub fn role_by_id(&self, id: PieceId, promoted: bool) -> Option<Role> {
        self.roles
            .iter()
            .position(|r| r.id == id && r.promoted == promoted)
            .map(|i| Role(i as u16))
    }
    #[inline]
    pub(crate) fn cr(&self, color: Color, role: Role) -> usize {
        color.index() * self.roles.len() + role.index()
    }
    #[inline]
    fn ride(&self, ride: &Ride, sq: Square, occ: B) -> B {
        let n = self.squares;
        let ray = self.rays[ride.ray as usize * n + sq.index()];
        let blockers = ray & occ;
        if blockers.is_empty() {
            ray
        } else {
            let b = if ride.positive {
                blockers.lsb()
            } else {
                blockers.msb()
            };
            ray & !self.rays[ride.full as usize * n + b.index()]
        }
    }

    /// Squares a piece attacks (could capture on) from `sq` given the occupancy.
    #[inline]
    pub fn attacks(&self, color: Color, role: Role, sq: Square, occ: B) -> B {
        let cr = self.cr(color, role);
        let i = cr * self.squares + sq.index();
        let [both, _, capture] = self.leaps[i];
        let mut att = both | capture;
        if self.rides(role) {
            for r in &self.rides[cr] {
                if r.mode != Mode::MoveOnly {
                    att |= self.ride(r, sq, occ);
                }
            }
        }
        att
    }

    /// Squares a piece may move to from `sq`: empty squares it can move to and
    /// squares of `theirs` it can capture on.
    #[inline(always)]
    pub fn targets(&self, color: Color, role: Role, sq: Square, occ: B, theirs: B) -> B {
        let cr = self.cr(color, role);
        let i = cr * self.squares + sq.index();
        let empty = !occ & self.all;
        let leaps = &self.leaps[i];
        let mut t = leaps[0] & (empty | theirs);
        if self.mode_leaps(role) {
            t |= (leaps[1] & empty) | (leaps[2] & theirs);
        }
        if self.rides(role) {
            for r in &self.rides[cr] {
                let ray = self.ride(r, sq, occ);
                t |= ray & r.mode.open(empty, theirs);
            }
        }
        t
    }

    /// Where a hopper's line from `sq` lets it land given the occupancy:
    /// beyond the first piece on the line (the screen), the square just
    /// beyond (`g`), or every square up to and including the next piece
    /// (`p`), within its range.
    #[inline]
    fn hop(&self, h: &HopRay, sq: Square, occ: B) -> B {
        let n = self.squares;
        // A hole is a screen as a piece is, but nothing lands there.
        let occ = occ | self.holes;
        let full = h.full as usize * n;
        let first = |b: B| if h.positive { b.lsb() } else { b.msb() };
        let screens = self.rays[full + sq.index()] & occ;
        if screens.is_empty() {
            return B::EMPTY;
        }
        let beyond = self.rays[full + first(screens).index()];
        if beyond.is_empty() {
            return B::EMPTY;
        }
        if h.next {
            return B::from_square(first(beyond)) & self.all;
        }
        let blockers = beyond & occ;
        let reach = if blockers.is_empty() {
            beyond
        } else {
            beyond & !self.rays[full + first(blockers).index()]
        };
        reach & self.rays[h.reach as usize * n + sq.index()] & self.all
    }

    /// Squares a hopper attacks (could capture on) over a screen from `sq`;
    /// empty for a role that does not hop. Kept out of [`Rules::attacks`]
    /// so that games without hoppers never look at them.
    pub fn hop_attacks(&self, color: Color, role: Role, sq: Square, occ: B) -> B {
        let mut att = B::EMPTY;
        for h in &self.hoppers[self.cr(color, role)] {
            if h.mode != Mode::MoveOnly {
                att |= self.hop(h, sq, occ);
            }
        }
        att
    }

    /// Squares from which a hopper of `color` and `role` could capture on
    /// `sq` over some screen, whatever the occupancy: a bound on
    /// [`Rules::hop_attacks`] seen from its target. Only for a role that hops.
    #[inline]
    pub(crate) fn hop_sources(&self, color: Color, role: Role, sq: Square) -> B {
        self.hop_sources[self.cr(color, role) * self.squares + sq.index()]
    }

    /// Squares a hopper may move to over a screen from `sq` (as
    /// [`Rules::targets`] for its other moves); empty for a role that does
    /// not hop.
    pub fn hop_targets(&self, color: Color, role: Role, sq: Square, occ: B, theirs: B) -> B {
        let empty = !occ & self.all;
        let mut t = B::EMPTY;
        for h in &self.hoppers[self.cr(color, role)] {
            t |= self.hop(h, sq, occ) & h.mode.open(empty, theirs);
        }
        t
    }

    /// Every square a piece attacks from `sq`: [`Rules::attacks`] and its hops.
    pub fn attacks_all(&self, color: Color, role: Role, sq: Square, occ: B) -> B {
        let att = self.attacks(color, role, sq, occ);
        if self.roles[role.index()].hops {
            att | self.hop_attacks(color, role, sq, occ)
        } else {
            att
        }
    }

    /// Every square a piece may move to from `sq` in one leg:
    /// [`Rules::targets`] and its hops.
    pub fn targets_all(&self, color: Color, role: Role, sq: Square, occ: B, theirs: B) -> B {
        let t = self.targets(color, role, sq, occ, theirs);
        if self.roles[role.index()].hops {
            t | self.hop_targets(color, role, sq, occ, theirs)
        } else {
            t
        }
    }

    /// The first legs of the two-leg moves of a piece on `sq`.
    #[inline]
    pub(crate) fn hops(&self, color: Color, role: Role, sq: Square) -> &[Hop<B>] {
        let (a, b) = self.hop_index[self.cr(color, role) * self.squares + sq.index()];
        &self.hops[a as usize..b as usize]
    }

    /// Whether a piece on `from` has the two-leg route through `via` to
    /// `to` on a board that lets it (whatever the squares hold).
    pub(crate) fn has_route(
        &self,
        color: Color,
        role: Role,
        from: Square,
        via: Square,
        to: Square,
    ) -> bool {
        self.hops(color, role, from)
            .iter()
            .any(|h| h.mid == via && h.reach().contains(to))
    }

    /// Whether the role's leaps (not its rides) alone attack `to` from `from`:
    /// such a check cannot be blocked.
    #[inline]
    pub(crate) fn leap_attacks(&self, color: Color, role: Role, from: Square, to: Square) -> bool {
        let i = self.cr(color, role) * self.squares + from.index();
        let [both, _, capture] = self.leaps[i];
        (both | capture).contains(to)
    }

    /// Squares strictly between `a` and `b` along a rider's line (empty if none).
    #[inline]
    pub fn between(&self, a: Square, b: Square) -> B {
        // The squares short of `b` on the line from `a` that reaches it:
        // where several directions join them, the last found.
        let short_of = |at: u32| {
            let from_a = self.rays[at as usize + a.index()];
            from_a
                .contains(b)
                .then(|| from_a & !self.rays[at as usize + b.index()] & !B::from_square(b))
        };
        match self.rider_lines.joined(a, b) {
            lines::Joined::None => B::EMPTY,
            lines::Joined::One(at) => short_of(at).unwrap_or(B::EMPTY),
            lines::Joined::Many(ats) => ats
                .iter()
                .rev()
                .find_map(|&at| short_of(at))
                .unwrap_or(B::EMPTY),
        }
    }

    /// Squares from which the role of the colour has at least one move on an
    /// empty board: elsewhere it may not be dropped nor stay unpromoted.
    #[inline]
    pub fn mobile(&self, color: Color, role: Role) -> B {
        self.mobile[self.cr(color, role)]
    }

    /// Where a move of the role from `from` may end as far as promotion is
    /// concerned: a piece that cannot promote on the move may not go where
    /// it could never move again. A move that turns it over may end
    /// anywhere, as in Fairy-Stockfish, even where the side it turns to
    /// could never move on: under `promotion: capture`, its captures (on
    /// `theirs`).
    #[inline]
    pub(crate) fn arrival(&self, color: Color, role: Role, from: Square, theirs: B) -> B {
        // One test for both of the rules that turn pieces both ways, so
        // that the zone rules pay nothing for `capture`.
        if self.promotion.turns_both_ways() {
            let cr = self.cr(color, role);
            match self.two_sided(role) {
                true if self.promotion == PromotionRule::Flip => self.all,
                true => self.arrive[cr] | theirs,
                false => self.arrive[cr],
            }
        } else {
            self.ends_and_promotions(color, role, from)[0]
        }
    }

    /// Under the zone rules, for a piece of the colour and role on `from`:
    /// where its moves may end ([`Rules::arrival`]) and where they may
    /// promote (everywhere from inside its zone, into the zone from
    /// outside, nowhere for a role that does not promote): one table read
    /// in place of tests that change from piece to piece.
    #[inline]
    pub(crate) fn ends_and_promotions(&self, color: Color, role: Role, from: Square) -> [B; 2] {
        self.zone_masks[self.cr(color, role) * self.squares + from.index()]
    }

    /// The leaps of the role as translations of all its pieces at once, if
    /// they are translations (see `shifts.rs`).
    #[inline]
    pub(crate) fn shifts(&self, color: Color, role: Role) -> Option<&[shifts::Shift<B>]> {
        self.shifts[self.cr(color, role)].as_deref()
    }

    /// Every square the role of the colour could attack from `sq` on an
    /// empty board (read with the other colour, the squares from which the
    /// role could attack `sq`: a piece elsewhere cannot, whatever the
    /// occupancy).
    #[inline]
    pub(crate) fn reach(&self, color: Color, role: Role, sq: Square) -> B {
        self.reaches(color, sq)[role.index()]
    }

    /// [`Rules::reach`] of every role from `sq`, by role.
    #[inline]
    pub(crate) fn reaches(&self, color: Color, sq: Square) -> &[B] {
        let roles = self.roles.len();
        let at = (color.index() * self.squares + sq.index()) * roles;
        &self.reach[at..at + roles]
    }

    /// The squares a rider of this colour and role sees from `sq` on an empty
    /// board, capture-capable rays only (used to find pinning pieces).
    #[inline]
    pub(crate) fn ride_xray(&self, color: Color, role: Role, sq: Square) -> B {
        self.xray[self.cr(color, role) * self.squares + sq.index()]
    }

    /// Where the roles of the other colour could stand to attack, on an
    /// empty board, a square that a royal of `color` on `sq` could move to
    /// (one set a role): the pieces elsewhere cannot matter to the royal's
    /// moves. `None` where the table is not made: where the generator has
    /// no guard, and so never asks.
    #[inline]
    pub(crate) fn near_royal(&self, color: Color, sq: Square) -> Option<&[B]> {
        let roles = self.roles.len();
        let at = (color.index() * self.squares + sq.index()) * roles;
        self.near.get(at..at + roles)
    }

    /// What a move of `color` that leaves its royal on `sq` must touch
    /// (where it starts, passes for a capture on the way, or ends) to be
    /// able to let a piece of the other colour start to attack `sq`: the
    /// squares always watched (`sq` itself, and the squares of every two-leg
    /// move of the other colour that ends on or passes over it), and the
    /// rays from `sq` along which the other colour's riders and capturing
    /// hoppers could attack it, one a direction (a ray matters only where
    /// such a piece stands on it; nothing else starts an attack: a leap
    /// depends on no square). `None` where the table is not made: where
    /// legality is not tried by playing the moves, or where pieces borrow
    /// movement (a move then changes how other pieces move).
    #[inline]
    pub(crate) fn trial_watch(&self, color: Color, sq: Square) -> Option<(B, &[B])> {
        let i = color.index() * self.squares + sq.index();
        let fixed = *self.watch.get(i)?;
        let (a, b) = self.watch_index[i];
        Some((fixed, &self.watch_lines[a as usize..b as usize]))
    }

    /// Every square from which some rider of the other colour could reach
    /// `sq` on an empty board (the union of [`Rules::ride_xray`] over the
    /// roles): a move from elsewhere uncovers no ride onto `sq`.
    #[inline]
    pub(crate) fn ride_lines(&self, color: Color, sq: Square) -> B {
        self.lines[color.index() * self.squares + sq.index()]
    }

    /// [`Rules::ride_xray`] worked out from the rays (to build its table).
    pub(super) fn ride_xray_from_rays(&self, color: Color, role: Role, sq: Square) -> B {
        let cr = self.cr(color, role);
        let n = self.squares;
        let mut b = B::EMPTY;
        for r in &self.rides[cr] {
            if r.mode != Mode::MoveOnly {
                b |= self.rays[r.ray as usize * n + sq.index()];
            }
        }
        b
    }

    #[inline]
    pub(crate) fn z_piece(&self, piece: Piece, sq: Square) -> u64 {
        self.z_board[(piece.role.index() * 2 + piece.color.index()) * self.squares + sq.index()]
    }
    #[inline]
    pub(crate) fn z_hand(&self, color: Color, role: Role) -> u64 {
        self.z_hand[self.cr(color, role)]
    }
}
