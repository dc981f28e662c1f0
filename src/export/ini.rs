//! A Fairy-Stockfish `variants.ini` section written from compiled rules:
//! what pychess-variants accepts and pyffish's `load_variant_config` reads.
//!
//! The section inherits from Fairy-Stockfish's `shogi` (as sections on
//! pychess-variants do), takes all of shogi's pieces away and sets every key
//! it relies on, so that nothing of the parent but the shogi family's
//! defaults (no castling, no double steps) is left to chance. Each piece is
//! a `customPiece` with its Betza text; a piece whose drop may not give mate
//! is Fairy-Stockfish's shogi pawn, the only piece that rule knows. What
//! Fairy-Stockfish cannot hold is refused, each thing with the key of the
//! variant file that holds it.

use crate::board::{Bitboard, Color};
use crate::rules::{Role, Rules};
use crate::variant::schema::{PromotionRule, RepetitionResult};

/// The largest board Fairy-Stockfish's large-board build (pyffish's, and
/// pychess-variants') plays: 12 files by 10 ranks.
pub const MAX_FILES: u8 = 12;
/// See [`MAX_FILES`].
pub const MAX_RANKS: u8 = 10;

/// The most `customPiece` lines Fairy-Stockfish reads (`customPiece1` to
/// `customPiece25`).
pub const MAX_CUSTOM_PIECES: usize = 25;

/// One thing of a variant that a `variants.ini` section cannot say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The variant file's key that holds it (`engine.rules.trade_limits`).
    pub key: String,
    /// Why Fairy-Stockfish cannot take it.
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.reason)
    }
}

/// What the section leaves out because Fairy-Stockfish has no key for it,
/// though the moves are the same without it: each with its key and what
/// it does.
pub fn left_out<B: Bitboard>(rules: &Rules<B>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if rules.declaration.is_some() {
        out.push((
            "engine.rules.declaration".to_string(),
            "a win by declaration (impasse), which Fairy-Stockfish does not know".to_string(),
        ));
    }
    out
}

/// The section `[name:shogi]` that plays these rules in Fairy-Stockfish, or
/// everything that keeps it from doing so.
pub fn variants_ini<B: Bitboard>(rules: &Rules<B>, name: &str) -> Result<String, Vec<Refusal>> {
    let mut refused = Vec::new();
    let mut refuse = |key: &str, reason: String| {
        refused.push(Refusal {
            key: key.to_string(),
            reason,
        })
    };
    let t = rules.topology;
    if t.cols > MAX_FILES || t.rows > MAX_RANKS {
        refuse(
            "engine.topology",
            format!(
                "a board of {}×{}: Fairy-Stockfish plays at most {MAX_FILES} files by {MAX_RANKS} ranks",
                t.cols, t.rows
            ),
        );
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || name.is_empty()
    {
        refuse(
            "name",
            format!("'{name}' cannot name a section: letters, digits, '-' and '_' only"),
        );
    }

    // Rules Fairy-Stockfish has no key for.
    let rule = |key: &str| format!("engine.rules.{key}");
    if rules.promotion == PromotionRule::Entering {
        refuse(
            &rule("promotion"),
            "'entering' (promotion on entering the zone, inside it only by capture) has no Fairy-Stockfish key; its promotion is on any move that starts or ends in the zone ('optional')".into(),
        );
    }
    if !rules.promotes_where_immobile {
        refuse(
            &rule("promotes_where_immobile"),
            "false has no Fairy-Stockfish key".into(),
        );
    }
    if rules.trade.is_some() {
        refuse(
            &rule("trade_limits"),
            "Fairy-Stockfish has no limits on trades".into(),
        );
    }
    if rules.bare_royal.is_some() {
        refuse(
            &rule("bare_royal"),
            "Fairy-Stockfish has no bare-king rule".into(),
        );
    }
    if rules.borrows() {
        refuse(
            &rule("move_as_friend_at"),
            "Fairy-Stockfish has no borrowed movement".into(),
        );
    }
    let zoned = matches!(
        rules.promotion,
        PromotionRule::Optional | PromotionRule::Mandatory
    );
    if rules.promotion == PromotionRule::Optional && rules.immobile_drops != rules.immobile_moves {
        refuse(
            &rule("immobile_drops"),
            format!(
                "{} with immobile_moves {}: Fairy-Stockfish's one key (immobilityIllegal) rules drops and moves alike",
                rules.immobile_drops, rules.immobile_moves
            ),
        );
    }

    // The pieces: each role one character, promoted sides a letter no
    // unpromoted piece uses.
    let piece_key = |r: Role| format!("engine.pieces.{}", rules.role(r).name);
    let roles: Vec<Role> = (0..rules.roles.len()).map(|i| Role(i as u16)).collect();
    let mut chars: Vec<Option<char>> = vec![None; roles.len()];
    for &r in &roles {
        let info = rules.role(r);
        if info.promoted {
            continue;
        }
        match info.id.letter() {
            Some(c) => chars[r.index()] = Some(c.to_ascii_lowercase()),
            None => refuse(
                &format!("{}.letter", piece_key(r)),
                format!(
                    "'{}' has {} letters; Fairy-Stockfish names a piece by one",
                    info.id,
                    info.id.len()
                ),
            ),
        }
    }
    let unused: Vec<char> = ('a'..='z').filter(|c| !chars.contains(&Some(*c))).collect();
    let mut free = unused.into_iter();
    for &r in &roles {
        if rules.role(r).promoted {
            match free.next() {
                Some(c) => chars[r.index()] = Some(c),
                None => refuse(
                    &piece_key(r),
                    "no letter is left for this promoted piece: Fairy-Stockfish names each kind by its own letter".into(),
                ),
            }
        }
    }
    let royals: Vec<Role> = roles
        .iter()
        .copied()
        .filter(|&r| rules.role(r).royal)
        .collect();
    if royals.len() != 1
        || rules.role(royals[0]).promoted
        || rules.role(royals[0]).promotion.is_some()
    {
        refuse(
            "engine.pieces",
            format!(
                "{} royal kinds ({}): Fairy-Stockfish has one royal piece, which does not promote",
                royals.len(),
                royals
                    .iter()
                    .map(|&r| rules.role(r).name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    let drop_mate: Vec<Role> = roles
        .iter()
        .copied()
        .filter(|&r| rules.role(r).drop_mate_illegal)
        .collect();
    for &r in &drop_mate {
        let info = rules.role(r);
        if info.betza != "fW" || info.promoted || drop_mate.len() > 1 {
            refuse(
                &format!("{}.drop_mate_illegal", piece_key(r)),
                "Fairy-Stockfish forbids a drop that mates only to its shogi pawn: one kind, unpromoted, moving fW".into(),
            );
        }
    }
    let nifu: Vec<Role> = roles
        .iter()
        .copied()
        .filter(|&r| rules.role(r).max_per_file.is_some())
        .collect();
    if nifu.len() > 1 {
        refuse(
            "engine.pieces",
            format!(
                "{} kinds have max_per_file: Fairy-Stockfish limits one (dropNoDoubled)",
                nifu.len()
            ),
        );
    }
    for &r in &nifu {
        if rules.drop_promoted && rules.role(r).promotion.is_some() {
            refuse(
                &format!("{}.max_per_file", piece_key(r)),
                "with drop_promoted, Fairy-Stockfish's dropNoDoubled also forbids its promoted drops on such a file, koma's limit does not".into(),
            );
        }
    }
    for &r in &roles {
        let info = rules.role(r);
        if info.two_legs {
            refuse(
                &format!("{}.betza", piece_key(r)),
                format!(
                    "'{}' moves in two legs, which Fairy-Stockfish's shogi does not read",
                    info.betza
                ),
            );
        }
        if !info.promotes_capturing_in_zone && info.promotion.is_some() && !info.promoted {
            refuse(
                &format!("{}.promotes_capturing_in_zone", piece_key(r)),
                "false has no Fairy-Stockfish key".into(),
            );
        }
        if info.wins_on_last_rank && (rules.check || !info.royal) {
            refuse(
                &format!("{}.wins_on_last_rank", piece_key(r)),
                "written for Fairy-Stockfish only on the royal piece of a game won by capturing it (flagPiece)".into(),
            );
        }
    }
    let customs = roles
        .iter()
        .filter(|&&r| !(drop_mate.contains(&r) || rules.check && rules.role(r).royal))
        .count();
    if customs > MAX_CUSTOM_PIECES {
        refuse(
            "engine.pieces",
            format!(
                "{customs} kinds: Fairy-Stockfish takes at most {MAX_CUSTOM_PIECES} custom pieces"
            ),
        );
    }
    if !refused.is_empty() {
        return Err(refused);
    }

    let ch = |r: Role| chars[r.index()].unwrap_or('?');
    let mut s = String::new();
    let mut line = |text: String| {
        s.push_str(&text);
        s.push('\n');
    };
    line(format!(
        "# {} (koma {}), written by `koma variant export`",
        rules.title, rules.slug
    ));
    for (key, what) in left_out(rules) {
        line(format!("# left out: {key} ({what})"));
    }
    line(format!("[{name}:shogi]"));
    line(format!("maxRank = {}", t.rows));
    line(format!("maxFile = {}", t.cols));
    line("pieceToCharTable = -".into());
    for builtin in [
        "shogiPawn",
        "lance",
        "shogiKnight",
        "silver",
        "gold",
        "bishop",
        "rook",
        "dragonHorse",
        "bers",
    ] {
        // The shogi pawn is set below where a piece is one (a key written
        // twice is an error to Python's configparser).
        if builtin != "shogiPawn" || drop_mate.is_empty() {
            line(format!("{builtin} = -"));
        }
    }
    let royal = royals[0];
    let mut n = 0;
    if rules.check {
        let info = rules.role(royal);
        line(if info.betza == "K" {
            format!("king = {}", ch(royal))
        } else {
            format!("king = {}:{}", ch(royal), info.betza)
        });
    } else {
        line("king = -".into());
    }
    for &r in &roles {
        if rules.check && r == royal {
            continue;
        }
        if drop_mate.contains(&r) {
            line(format!("shogiPawn = {}", ch(r)));
            continue;
        }
        n += 1;
        line(format!(
            "customPiece{n} = {}:{}",
            ch(r),
            rules.role(r).betza
        ));
    }
    if !rules.check {
        line("checking = false".into());
        line("extinctionValue = loss".into());
        line(format!("extinctionPieceTypes = {}", ch(royal)));
    }
    let promoted: Vec<String> = roles
        .iter()
        .filter(|&&r| !rules.role(r).promoted)
        .filter_map(|&r| match rules.role(r).promotion {
            Some(p) => Some(format!("{}:{}", ch(r), ch(p))),
            // The shogi pawn keeps the promotion it has in Fairy-Stockfish's
            // shogi unless told it has none.
            None if drop_mate.contains(&r) => Some(format!("{}:-", ch(r))),
            None => None,
        })
        .collect();
    line(format!("promotedPieceType = {}", promoted.join(" ")));
    // The zone: the far ranks the compiled zone holds (all of them where
    // every move may turn a piece).
    let zone_ranks = (0..t.rows)
        .filter(|&rank| {
            t.squares()
                .any(|sq| t.rank(sq) == rank && rules.zone[Color::Sente.index()].contains(sq))
        })
        .count() as u8;
    let zone = if zoned { zone_ranks } else { t.rows };
    let ranks = |from: u8, to: u8| {
        (from..=to)
            .map(|r| format!("*{r}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    line(format!(
        "promotionRegionWhite = {}",
        ranks(t.rows - zone + 1, t.rows)
    ));
    line(format!("promotionRegionBlack = {}", ranks(1, zone)));
    line(format!(
        "mandatoryPiecePromotion = {}",
        rules.promotion != PromotionRule::Optional
    ));
    line(format!("pieceDemotion = {}", !zoned));
    line(format!(
        "piecePromotionOnCapture = {}",
        rules.promotion == PromotionRule::Capture
    ));
    line(format!("dropPromoted = {}", rules.drop_promoted));
    if rules.role(royal).wins_on_last_rank {
        line(format!("flagPiece = {}", ch(royal)));
        line(format!("flagRegionWhite = *{}", t.rows));
        line("flagRegionBlack = *1".into());
        line("flagPieceSafe = true".into());
    }
    line(format!("pieceDrops = {}", rules.drops));
    line(format!("capturesToHand = {}", rules.drops));
    line(format!("immobilityIllegal = {}", !rules.immobile_drops));
    line(format!(
        "shogiPawnDropMateIllegal = {}",
        !drop_mate.is_empty()
    ));
    match nifu.first() {
        Some(&r) => {
            line(format!("dropNoDoubled = {}", ch(r)));
            line(format!(
                "dropNoDoubledCount = {}",
                rules.role(r).max_per_file.unwrap_or(1)
            ));
        }
        None => line("dropNoDoubled = -".into()),
    }
    if rules.check_wins {
        line("checkCounting = true".into());
    }
    line("stalemateValue = loss".into());
    let rep = rules.repetition;
    line(format!("nFoldRule = {}", rep.count));
    let (value, absolute) = match rep.result {
        RepetitionResult::Draw => ("draw", false),
        // The side to move after the repetition is the one that did not
        // complete it.
        RepetitionResult::RepeaterLoses => ("win", false),
        RepetitionResult::SenteLoses => ("loss", true),
        RepetitionResult::GoteLoses => ("win", true),
    };
    line(format!("nFoldValue = {value}"));
    line(format!("nFoldValueAbsolute = {absolute}"));
    line(format!(
        "perpetualCheckIllegal = {}",
        rep.perpetual_check_loses
    ));
    let mut fen = rules.start.to_fen();
    if !rules.drops {
        fen = fen.replacen("[]", "", 1);
    }
    line(format!("startFen = {fen}"));
    Ok(s)
}
