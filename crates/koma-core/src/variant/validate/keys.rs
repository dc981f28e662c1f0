//! The keys the validator knows, section by section, and the words some
//! keys take. A test keeps these lists, the serde types of
//! [`crate::variant::schema`] and the reference tables of
//! `variants/README.md` equal.

/// The keys of `engine`.
pub(super) const ENGINE: &[&str] = &[
    "topology", "players", "setup", "render", "pieces", "rules", "records", "eval",
];
/// The keys of `engine.topology`.
pub(super) const TOPOLOGY: &[&str] = &["type", "rows", "cols"];
/// The keys of `engine.render`.
pub(super) const RENDER: &[&str] = &["cellSize"];
/// The keys of one piece, `engine.pieces.NAME`.
pub(super) const PIECE: &[&str] = &[
    "letter",
    "betza",
    "kanji",
    "kif",
    "csa",
    "royal",
    "max_per_file",
    "drop_mate_illegal",
    "wins_on_last_rank",
    "trade_limited",
    "promotes_capturing_in_zone",
    "value",
    "hand_value",
    "declaration_points",
    "promotion",
];
/// The keys of a piece's promoted side, `engine.pieces.NAME.promotion`.
pub(super) const PROMOTION: &[&str] = &[
    "name",
    "betza",
    "kanji",
    "kif",
    "csa",
    "royal",
    "trade_limited",
    "value",
];
/// The keys of `engine.rules`.
pub(super) const RULES: &[&str] = &[
    "promotion_zone",
    "promotion",
    "drops",
    "immobile_drops",
    "immobile_moves",
    "promotes_where_immobile",
    "drop_promoted",
    "move_as_friend_at",
    "check",
    "check_wins",
    "repetition",
    "trade_limits",
    "bare_royal",
    "declaration",
];
/// The keys of `engine.rules.trade_limits`.
pub(super) const TRADE_LIMITS: &[&str] = &["distant_protected", "bridge_except", "counterstrike"];
/// The keys of `engine.rules.move_as_friend_at`.
pub(super) const MOVE_AS_FRIEND_AT: &[&str] = &["forward", "right"];
/// The keys of `engine.rules.bare_royal`.
pub(super) const BARE_ROYAL: &[&str] = &["loses", "uncounted", "both_draw"];
/// The keys of `engine.records`.
pub(super) const RECORDS: &[&str] = &["kif_handicap", "pgn_variant"];
/// The keys of `engine.eval`: the engine's weights (`koma::engine::Params`).
pub(super) const EVAL: &[&str] = &crate::variant::schema::EVAL_WEIGHTS;
/// The keys of `engine.rules.repetition`.
pub(super) const REPETITION: &[&str] = &[
    "count",
    "result",
    "perpetual_check_loses",
    "counterstrike_distinguishes",
];
/// The keys of `engine.rules.declaration`.
pub(super) const DECLARATION: &[&str] = &["zone", "pieces", "sente_points", "gote_points"];

/// Every section with its keys, by the section's path (`NAME`: any piece).
#[cfg(test)]
pub(super) const SECTIONS: &[(&str, &[&str])] = &[
    ("engine", ENGINE),
    ("engine.topology", TOPOLOGY),
    ("engine.render", RENDER),
    ("engine.pieces.NAME", PIECE),
    ("engine.pieces.NAME.promotion", PROMOTION),
    ("engine.rules", RULES),
    ("engine.rules.repetition", REPETITION),
    ("engine.rules.trade_limits", TRADE_LIMITS),
    ("engine.rules.move_as_friend_at", MOVE_AS_FRIEND_AT),
    ("engine.rules.bare_royal", BARE_ROYAL),
    ("engine.rules.declaration", DECLARATION),
    ("engine.records", RECORDS),
    ("engine.eval", EVAL),
];

/// The board kinds of `engine.topology.type`.
pub(super) const TOPOLOGY_TYPES: &[&str] = &["grid"];
/// The words of `engine.rules.promotion`.
pub(super) const PROMOTION_RULES: &[&str] =
    &["optional", "mandatory", "flip", "capture", "entering"];
/// The words of `engine.rules.repetition.result`.
pub(super) const REPETITION_RESULTS: &[&str] =
    &["draw", "sente_loses", "gote_loses", "repeater_loses"];
