//! XBoard's engine-defined variants: the `setup` and `piece` commands that
//! tell XBoard the board, the pieces and their moves of a variant it does
//! not know, sent in answer to `variant NAME`.
//!
//! XBoard has 22 piece slots below its king: a piece in slot `i` of the
//! first eleven promotes to slot `i + 11`, written `+` in the table; the
//! king is the table's last letter. Each koma piece that promotes takes one
//! of the first eleven slots (the one XBoard draws as the piece of its
//! letter where there is one: P, N, B, R, L, S, G), the others the slots
//! left; the parent variant is `shogi`, whose rules XBoard applies beside
//! the moves (drops, the promotion zone of its board's size), and each
//! piece's moves are its Betza text (`piece P& fW@6`, the drop ranks after
//! `@`, one `f` for each piece of its kind a file may hold).

use crate::board::Bitboard;
use crate::rules::Rules;

/// The variants XBoard knows by name: it draws and checks them itself.
pub const XBOARD_KNOWS: &[&str] = &["shogi", "chu"];

/// Slots whose drops XBoard's shogi limits as shogi's (its pawn: not on
/// the last rank nor on a file with another; its knight: not on the last two
/// ranks; its lance: not on the last rank): only a piece that moves so may
/// take them.
const SHOGI_SLOTS: &[(usize, &str)] = &[(0, "fW"), (1, "fN"), (4, "fR")];

/// Slots XBoard draws as a piece of this letter.
const PICTURES: &[(char, usize)] = &[
    ('P', 0),
    ('N', 1),
    ('B', 2),
    ('R', 3),
    ('L', 4),
    ('S', 5),
    ('G', 9),
];

/// The `setup` and `piece` lines for the rules, or why XBoard cannot be
/// told them.
pub fn engine_defined<B: Bitboard>(rules: &Rules<B>) -> Result<Vec<String>, String> {
    use crate::variant::schema::PromotionRule;
    let t = rules.topology;
    // Rules XBoard's shogi would judge otherwise, so that it would call
    // koma's legal moves illegal.
    if !rules.check {
        return Err(
            "the royal piece may be left attacked and captured, which XBoard's shogi forbids"
                .into(),
        );
    }
    if rules.check_wins {
        return Err("giving check wins, which XBoard's shogi does not know".into());
    }
    if rules.borrows() {
        return Err("pieces move as a friend behind them, which XBoard cannot be told".into());
    }
    if !matches!(
        rules.promotion,
        PromotionRule::Optional | PromotionRule::Mandatory
    ) {
        return Err(
            "pieces promote otherwise than in a zone, which XBoard's shogi does not know".into(),
        );
    }
    let mut table = ['.'; 22];
    let mut royal = None;
    let mut pieces = Vec::new();
    let base: Vec<usize> = (0..rules.roles.len())
        .filter(|&i| !rules.roles[i].promoted)
        .collect();
    let letter = |i: usize| {
        rules.roles[i].id.letter().ok_or_else(|| {
            format!(
                "the piece ID '{}' has more than one letter",
                rules.roles[i].id
            )
        })
    };
    // Promoting pieces first: they need one of the first eleven slots.
    let mut order = base.clone();
    order.sort_by_key(|&i| rules.roles[i].promotion.is_none());
    for i in order {
        let info = &rules.roles[i];
        let c = letter(i)?.to_ascii_uppercase();
        if info.royal {
            if royal.is_some() || info.promotion.is_some() {
                return Err("XBoard's shogi has one royal piece, which does not promote".into());
            }
            royal = Some((i, c));
            continue;
        }
        let promotes = info.promotion.is_some();
        let picture = PICTURES.iter().find(|(l, _)| *l == c).map(|&(_, s)| s);
        // A promoting piece needs a slot of the first eleven whose promoted
        // slot is free; the others take any free slot, the first eleven
        // first (a letter in a promoted slot is a piece of its own to XBoard,
        // not a promotion, which it writes `+`).
        let shogi_rules = |s: usize| {
            SHOGI_SLOTS
                .iter()
                .all(|&(slot, betza)| slot != s || info.betza == betza)
        };
        let free = |s: usize| {
            table[s] == '.' && shogi_rules(s) && (!promotes || (s < 11 && table[s + 11] == '.'))
        };
        let slot = picture
            .filter(|&s| free(s))
            .or_else(|| (0..22).find(|&s| free(s)))
            .ok_or_else(|| "more piece kinds than XBoard's 22 slots".to_string())?;
        table[slot] = c;
        if promotes {
            table[slot + 11] = '+';
        }
        pieces.push(i);
    }
    let Some((king, king_letter)) = royal else {
        return Err("XBoard's shogi needs a royal piece".into());
    };
    let last = table.iter().rposition(|&c| c != '.').map_or(0, |i| i + 1);
    let mut white: String = table[..last].iter().collect();
    white.push(king_letter);
    let black = white.to_ascii_lowercase();
    let holdings = if rules.drops { base.len() - 1 } else { 0 };
    let mut fen = rules.start.to_fen();
    if rules.drops {
        fen = fen.replacen("[]", "[-]", 1);
    }
    let mut lines = vec![format!(
        "setup ({white}{black}) {}x{}+{holdings}_shogi {fen}",
        t.cols, t.rows
    )];
    let drop_suffix = |i: usize| {
        if !rules.drops {
            return String::new();
        }
        let files = rules.roles[i]
            .max_per_file
            .map_or(String::new(), |n| "f".repeat(n as usize));
        format!("{files}@{}", t.rows)
    };
    for i in pieces.into_iter().chain([king]) {
        let info = &rules.roles[i];
        let c = letter(i)?.to_ascii_uppercase();
        lines.push(format!("piece {c}& {}{}", info.betza, drop_suffix(i)));
        if let Some(p) = info.promotion {
            lines.push(format!("piece +{c}& {}", rules.roles[p.index()].betza));
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::engine_defined;
    use crate::{Game, with_rules};

    fn lines(slug: &str) -> Result<Vec<String>, String> {
        let game = Game::load(slug).unwrap();
        with_rules!(&game, r => engine_defined(r))
    }

    #[test]
    fn minishogi_is_described_as_fairy_stockfish_describes_it() {
        // Fairy-Stockfish 11.1 (Debian) answers `variant minishogi` with this
        // table and these moves (its shogi's extra piece types aside).
        let l = lines("minishogi").unwrap();
        assert_eq!(
            l[0],
            "setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi rbsgk/4p/5/P4/KGSBR[-] w - - 0 1"
        );
        for p in [
            "piece P& fWf@5",
            "piece +P& WfF",
            "piece B& B@5",
            "piece +B& BW",
            "piece K& K@5",
        ] {
            assert!(l.iter().any(|x| x == p), "{p} in {l:?}");
        }
    }

    #[test]
    fn every_promoting_piece_has_its_promoted_slot_and_long_ids_are_refused() {
        let l = lines("judkins-shogi").unwrap();
        assert!(
            l[0].starts_with("setup (PNBR.S...G.++++.+Kpnbr.s...g.++++.+k) 6x6+6_shogi "),
            "{}",
            l[0]
        );
        let l = lines("tori-shogi").unwrap();
        assert!(
            l.iter().filter(|x| x.starts_with("piece +")).count() == 2,
            "{l:?}"
        );
        for (slug, why) in [
            ("kyoto-shogi", "otherwise than in a zone"),
            ("dobutsu-shogi", "left attacked"),
            ("check-shogi", "giving check wins"),
            ("annan-shogi", "a friend behind them"),
        ] {
            let e = lines(slug).unwrap_err();
            assert!(e.contains(why), "{slug}: {e}");
        }
        let why = lines("tests/moves/variants/long-ids.md").unwrap_err();
        assert!(why.contains("more than one letter"), "{why}");
        let why = lines("wa-shogi").unwrap_err();
        assert!(why.contains("22 slots"), "{why}");
    }
}
