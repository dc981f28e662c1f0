//! `koma list`: the catalogue of embedded variants.

use std::io::Write;

use koma::{Error, Game, variant, with_rules};

use super::emit;

/// Prints one line per embedded variant: slug, title, board, players.
pub fn run(out: &mut dyn Write) -> Result<(), Error> {
    let mut rows = vec![(
        "slug".to_string(),
        "title".to_string(),
        "board".to_string(),
        "players".to_string(),
    )];
    for slug in variant::catalogue() {
        let v = variant::load(slug)?;
        let game = Game::compile(&v)?;
        let board =
            with_rules!(&game, rules => format!("{}×{}", rules.topology.cols, rules.topology.rows));
        let players = v
            .engine
            .players
            .as_ref()
            .map_or_else(|| "sente, gote".to_string(), |p| p.join(", "));
        rows.push((slug.to_string(), v.title.clone(), board, players));
    }
    let w0 = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    let w2 = rows.iter().map(|r| r.2.chars().count()).max().unwrap_or(0);
    for (slug, title, board, players) in rows {
        let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w - s.chars().count()));
        emit(
            out,
            format_args!(
                "{}  {}  {}  {players}",
                pad(&slug, w0),
                pad(&title, w1),
                pad(&board, w2)
            ),
        )?;
    }
    Ok(())
}
