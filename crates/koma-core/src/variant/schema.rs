//! The typed schema of the `engine:` section: what the validator
//! ([`mod@crate::variant::validate`]) accepted, read into types. Every key is
//! documented in `variants/README.md`; a test keeps these types' keys, the
//! validator's and the README's equal. Unknown keys are refused here too
//! (`deny_unknown_fields`), which only the validator's own mistakes can reach.

use serde::Deserialize;
use serde_yaml::Mapping;

/// The `engine:` section of a variant's front matter.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// The board's shape.
    pub topology: TopologySpec,
    /// The players' names, first mover first (informational).
    #[serde(default)]
    pub players: Option<Vec<String>>,
    /// The start position: the board part of a FEN, optionally with hands and side.
    pub setup: String,
    /// Drawing settings.
    #[serde(default)]
    pub render: Option<RenderSpec>,
    /// The pieces, keyed by name, in the order they are declared, as written
    /// (each typed as a [`PieceSpec`] by the validator: see `Variant::pieces`).
    #[serde(default)]
    pub pieces: Mapping,
    /// The rules.
    #[serde(default)]
    pub rules: RulesSpec,
    /// How game records name the variant.
    #[serde(default)]
    pub records: Option<RecordsSpec>,
    /// The engine's evaluation weights for this variant (`koma tune` finds
    /// them); a weight not given keeps the engine's generic default.
    #[serde(default)]
    pub eval: Option<EvalSpec>,
}

/// The names of the weights `engine.eval` may give, in the order the
/// engine keeps them (`koma::engine::Params::NAMES` is this list; the
/// validator's keys of `engine.eval` too).
pub const EVAL_WEIGHTS: [&str; 14] = [
    "mobility",
    "camp_attack",
    "promotion",
    "king_attack",
    "king_weak",
    "king_defender",
    "king_hand",
    "king_drop_check",
    "king_divisor",
    "king_max",
    "tempo",
    "hand",
    "hanging",
    "contempt",
];

/// `engine.eval`: weights of the engine's evaluation (and its contempt),
/// as `koma::engine::Params` names and reads them; each one given replaces
/// the engine's default when it plays this variant.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct EvalSpec {
    #[serde(default)]
    pub mobility: Option<i32>,
    #[serde(default)]
    pub camp_attack: Option<i32>,
    #[serde(default)]
    pub promotion: Option<i32>,
    #[serde(default)]
    pub king_attack: Option<i32>,
    #[serde(default)]
    pub king_weak: Option<i32>,
    #[serde(default)]
    pub king_defender: Option<i32>,
    #[serde(default)]
    pub king_hand: Option<i32>,
    #[serde(default)]
    pub king_drop_check: Option<i32>,
    #[serde(default)]
    pub king_divisor: Option<i32>,
    #[serde(default)]
    pub king_max: Option<i32>,
    #[serde(default)]
    pub tempo: Option<i32>,
    #[serde(default)]
    pub hand: Option<i32>,
    #[serde(default)]
    pub hanging: Option<i32>,
    #[serde(default)]
    pub contempt: Option<i32>,
}

/// `engine.records`: the names game records give the variant.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordsSpec {
    /// KIF's `手合割` for the variant's start (`平手`, `5五将棋`).
    #[serde(default)]
    pub kif_handicap: Option<String>,
    /// The PGN `[Variant]` tag's value (as Fairy-Stockfish names the variant).
    #[serde(default)]
    pub pgn_variant: Option<String>,
}

/// `engine.topology`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopologySpec {
    /// Only `grid` is known.
    #[serde(rename = "type")]
    pub kind: String,
    /// Ranks.
    pub rows: u32,
    /// Files.
    pub cols: u32,
}

/// `engine.render`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderSpec {
    /// Pixel size of a square in diagrams.
    #[serde(rename = "cellSize", default)]
    pub cell_size: Option<u32>,
}

/// One entry of `engine.pieces`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// The FEN letter (upper case; gote's is its lower case).
    pub letter: String,
    /// How it moves, in Betza notation.
    pub betza: String,
    /// Its name in kanji, for diagrams.
    #[serde(default)]
    pub kanji: Option<String>,
    /// Its names in KIF and KI2 moves, space-separated: the first is written,
    /// all are read (default: the kanji).
    #[serde(default)]
    pub kif: Option<String>,
    /// Its two-letter CSA code (`FU`).
    #[serde(default)]
    pub csa: Option<String>,
    /// Whether it is royal: it may not be left attacked, and mate ends the game.
    #[serde(default)]
    pub royal: bool,
    /// At most this many unpromoted pieces of this kind of one side on a file
    /// (shogi's pawn: 1); drops that would exceed it are illegal.
    #[serde(default)]
    pub max_per_file: Option<u32>,
    /// Whether reaching the last rank wins the game, if the piece cannot be
    /// captured there (dobutsu shogi's "try").
    #[serde(default)]
    pub wins_on_last_rank: bool,
    /// Whether dropping this piece to give immediate checkmate is illegal.
    #[serde(default)]
    pub drop_mate_illegal: bool,
    /// Whether the piece takes part in the capture limits of
    /// `rules.trade_limits` (chu shogi's lion).
    #[serde(default)]
    pub trade_limited: bool,
    /// Under `promotion: entering`: whether a capture that starts or ends
    /// in the zone lets the piece promote (`None`: it does).
    #[serde(default)]
    pub promotes_capturing_in_zone: Option<bool>,
    /// Material value for the engine's evaluation.
    #[serde(default)]
    pub value: Option<i32>,
    /// Value of one such piece in hand (shogi players value a piece in hand
    /// above the same piece on the board). Default: `value` plus 15%.
    #[serde(default)]
    pub hand_value: Option<i32>,
    /// Its points under the impasse rule (`rules.declaration`), promoted or
    /// not, on the board or in hand. Default: 1 (0 for a royal piece).
    #[serde(default)]
    pub declaration_points: Option<u32>,
    /// What it becomes on promotion, written `+LETTER` in FEN.
    #[serde(default)]
    pub promotion: Option<PromotionSpec>,
}

/// The promoted side of a piece.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionSpec {
    /// Its name (Dragon, Tokin...).
    pub name: String,
    /// How it moves, in Betza notation.
    pub betza: String,
    /// Its name in kanji.
    #[serde(default)]
    pub kanji: Option<String>,
    /// Its names in KIF and KI2 moves (see [`PieceSpec::kif`]).
    #[serde(default)]
    pub kif: Option<String>,
    /// Its two-letter CSA code (`TO`).
    #[serde(default)]
    pub csa: Option<String>,
    /// Whether the promoted side is royal (sho shogi's crown prince).
    #[serde(default)]
    pub royal: bool,
    /// Whether the promoted side takes part in `rules.trade_limits`.
    #[serde(default)]
    pub trade_limited: bool,
    /// Material value.
    #[serde(default)]
    pub value: Option<i32>,
}

/// `engine.rules`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesSpec {
    /// How many ranks on the far side form the promotion zone.
    #[serde(default = "default_zone")]
    pub promotion_zone: u32,
    /// When pieces promote: `optional` (shogi), `mandatory` (a piece that may
    /// promote must), `flip` (every move turns the piece over, both ways).
    #[serde(default)]
    pub promotion: PromotionRule,
    /// Whether captured pieces go to the captor's hand and may be dropped.
    #[serde(default = "yes")]
    pub drops: bool,
    /// Whether a piece may be dropped where it could never move.
    #[serde(default)]
    pub immobile_drops: bool,
    /// Whether a move may leave a piece unpromoted where it could never
    /// move by its own movement (no promotion is forced); `None`: only
    /// under `promotion: entering`.
    #[serde(default)]
    pub immobile_moves: Option<bool>,
    /// Under `promotion: entering`, whether a move that ends where the piece
    /// could never move again may promote wherever it starts; `false`: only
    /// a move into the zone from outside or a capture promotes.
    #[serde(default)]
    pub promotes_where_immobile: Option<bool>,
    /// Whether a piece in hand may be dropped with its promoted side up.
    #[serde(default)]
    pub drop_promoted: bool,
    /// Borrowed movement: a piece moves as the friendly piece on this
    /// square relative to it (from its owner's side), if there is one.
    #[serde(default)]
    pub move_as_friend_at: Option<FriendSquareSpec>,
    /// Whether a side's last royal piece may not be left attacked (check).
    /// Without it, royals may be captured, and losing the last one loses.
    #[serde(default = "yes")]
    pub check: bool,
    /// Whether giving check wins at once: the side whose move attacks the
    /// opponent's royal has won, and the game is over (check shogi).
    #[serde(default)]
    pub check_wins: bool,
    /// Repetition: how often a position may recur before the game ends.
    #[serde(default)]
    pub repetition: RepetitionSpec,
    /// Limits on captures between `trade_limited` pieces.
    #[serde(default)]
    pub trade_limits: Option<TradeLimitsSpec>,
    /// When a lone royal piece ends the game.
    #[serde(default)]
    pub bare_royal: Option<BareRoyalSpec>,
    /// The impasse rule: when a side may declare a win.
    #[serde(default)]
    pub declaration: Option<DeclarationSpec>,
}

/// `engine.rules.move_as_friend_at`: the square, relative to a piece and
/// seen from its owner's side, whose friendly piece lends it its movement
/// (annan shogi's piece directly behind: `forward: -1`).
#[derive(Copy, Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FriendSquareSpec {
    /// Ranks toward the opponent (negative: toward the owner's side).
    #[serde(default)]
    pub forward: i32,
    /// Files toward the owner's right (negative: toward its left).
    #[serde(default)]
    pub right: i32,
}

/// `engine.rules.bare_royal`: ends by a lone royal piece (chu shogi's bare
/// king, as lishogi judges it).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BareRoyalSpec {
    /// A side left with one royal and no other piece that can move loses,
    /// when the opponent has one royal, not attacked, and counted pieces
    /// besides it: two or more, or one not next to the bare royal.
    #[serde(default)]
    pub loses: bool,
    /// Pieces that do not count for the side that bares.
    #[serde(default)]
    pub uncounted: Option<Vec<String>>,
    /// Both sides left with one royal and no other piece that can move,
    /// neither attacked: a draw.
    #[serde(default)]
    pub both_draw: bool,
}

/// `engine.rules.trade_limits`: limits on capturing the pieces marked
/// `trade_limited` (chu shogi's lion-trading rules).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TradeLimitsSpec {
    /// A marked piece may not capture a marked piece of the opponent that
    /// stands on no square next to where it started when that piece is
    /// protected (attacked by its own side once the capture is made).
    #[serde(default)]
    pub distant_protected: bool,
    /// With this list, `distant_protected` does not hold for a move that
    /// captured, on its way, a piece of a kind not named here (chu's bridge
    /// capture); without it, no capture on the way lifts it.
    #[serde(default)]
    pub bridge_except: Option<Vec<String>>,
    /// After a marked piece was captured by an unmarked one, the opponent's
    /// next move may not capture a marked piece with an unmarked one, except
    /// on the square of that capture (lishogi's `lastLionCapture`).
    #[serde(default)]
    pub counterstrike: bool,
}

/// `engine.rules.declaration`: a side to move may declare a win when its
/// royal stands in the opponent's camp, it is not in check, enough of its
/// other pieces stand there too, and those pieces with its hand make enough
/// points (shogi's 27-point rule of CSA and USI).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclarationSpec {
    /// How many far ranks form the camp. Default: the promotion zone.
    #[serde(default)]
    pub zone: Option<u32>,
    /// Pieces besides the royal that must stand in the camp.
    #[serde(default)]
    pub pieces: u32,
    /// Points sente needs (its pieces in the camp and in hand).
    pub sente_points: u32,
    /// Points gote needs.
    pub gote_points: u32,
}

impl Default for RulesSpec {
    fn default() -> Self {
        RulesSpec {
            promotion_zone: default_zone(),
            promotion: PromotionRule::default(),
            drops: true,
            immobile_drops: false,
            immobile_moves: None,
            promotes_where_immobile: None,
            drop_promoted: false,
            move_as_friend_at: None,
            check: true,
            check_wins: false,
            repetition: RepetitionSpec::default(),
            trade_limits: None,
            bare_royal: None,
            declaration: None,
        }
    }
}

/// When pieces promote.
#[derive(Copy, Clone, Debug, Deserialize, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PromotionRule {
    /// A move that starts or ends in the zone may promote.
    #[default]
    Optional,
    /// A move that starts or ends in the zone promotes.
    Mandatory,
    /// Every move turns the moving piece to its other side.
    Flip,
    /// Every capture turns the capturing piece to its other side, both ways;
    /// a move to an empty square never does.
    Capture,
    /// A move that starts or ends in the zone may promote when it enters the
    /// zone from outside, captures on its last square, or ends where the
    /// piece could never move again; never forced.
    Entering,
}

impl PromotionRule {
    /// Whether pieces turn over both ways (promote and demote) by the move
    /// itself, wherever they are: `flip` and `capture`.
    #[inline]
    pub fn turns_both_ways(self) -> bool {
        matches!(self, PromotionRule::Flip | PromotionRule::Capture)
    }
}

/// What a repetition means.
#[derive(Copy, Clone, Debug, Deserialize, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RepetitionResult {
    /// Nobody wins.
    #[default]
    Draw,
    /// Sente loses.
    SenteLoses,
    /// Gote loses.
    GoteLoses,
    /// The side whose move completed the repetition loses.
    RepeaterLoses,
}

/// `engine.rules.repetition`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepetitionSpec {
    /// The number of occurrences of one position that ends the game (sennichite: 4).
    #[serde(default = "default_repetitions")]
    pub count: u32,
    /// What the repetition means (unless perpetual check decides).
    #[serde(default)]
    pub result: RepetitionResult,
    /// Whether a side that gave check with every move of the repetition loses.
    #[serde(default = "yes")]
    pub perpetual_check_loses: bool,
    /// Whether two positions that differ only in the square a counterstrike
    /// limit remembers (`trade_limits.counterstrike`) are different positions
    /// for the count: they are (the moves allowed differ), but HaChu
    /// compares the board, the hands and the side to move only.
    #[serde(default = "yes")]
    pub counterstrike_distinguishes: bool,
}

impl Default for RepetitionSpec {
    fn default() -> Self {
        RepetitionSpec {
            count: default_repetitions(),
            result: RepetitionResult::Draw,
            perpetual_check_loses: true,
            counterstrike_distinguishes: true,
        }
    }
}

fn default_zone() -> u32 {
    3
}
fn default_repetitions() -> u32 {
    4
}
fn yes() -> bool {
    true
}
