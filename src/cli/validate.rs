//! `koma validate`: variant files, or a game record with `--game`.

use std::io::Write;

use clap::Args;
use koma::{Error, Game, with_rules};

use super::emit;

/// Arguments of `koma validate`.
#[derive(Args)]
pub struct ValidateArgs {
    /// Variant files to check (or, with --game, nothing).
    files: Vec<String>,
    /// Check a game record instead: its moves are replayed and judged.
    #[arg(long, value_name = "RECORD")]
    game: Option<String>,
    /// The record's variant, when the record does not name one.
    #[arg(long, short = 'v')]
    variant: Option<String>,
}

/// Runs the checks; an invalid input is an error (exit 1).
pub fn run(args: &ValidateArgs, out: &mut dyn Write) -> Result<(), Error> {
    match &args.game {
        Some(path) => {
            if !args.files.is_empty() {
                return Err(Error::Usage(
                    "give either variant files or --game RECORD, not both".into(),
                ));
            }
            game(path, args.variant.as_deref(), out)
        }
        None if args.files.is_empty() => Err(Error::Usage(
            "name the variant files to check, or --game RECORD".into(),
        )),
        None => {
            let mut failed = 0;
            for file in &args.files {
                match Game::load(file) {
                    Ok(g) => {
                        with_rules!(&g, rules => emit(out, format_args!("{file}: ok: {}", summary(rules)))?)
                    }
                    Err(e) => {
                        failed += 1;
                        let _ = writeln!(std::io::stderr(), "{e}");
                    }
                }
            }
            if failed > 0 {
                Err(Error::Invalid(format!(
                    "{failed} of {} variant files are invalid",
                    args.files.len()
                )))
            } else {
                Ok(())
            }
        }
    }
}

fn game(path: &str, variant: Option<&str>, out: &mut dyn Write) -> Result<(), Error> {
    let (rec, format, encoding) = super::load_record(path, variant)?;
    let pos = rec.position();
    emit(
        out,
        format_args!(
            "{path}: {} moves of {}, all legal",
            rec.moves.len(),
            rec.game.title()
        ),
    )?;
    emit(
        out,
        format_args!(
            "to move: {}{}",
            pos.turn().name(),
            if pos.in_check() { " (in check)" } else { "" }
        ),
    )?;
    let verdict = match pos.outcome() {
        None => "the game goes on".to_string(),
        Some(o) => o.to_string(),
    };
    emit(out, format_args!("result: {verdict}"))?;
    if let Some(r) = &rec.result {
        emit(out, format_args!("recorded result: {r}"))?;
    }
    emit(
        out,
        format_args!("repetitions of the final position: {}", pos.repetitions()),
    )?;
    emit(out, format_args!("sfen: {}", pos.sfen()))?;
    emit(out, format_args!("read as: {format} ({encoding})"))?;
    Ok(())
}

/// A variant's rules in one line.
fn summary<B: koma::board::Bitboard>(rules: &koma::rules::Rules<B>) -> String {
    use koma::rules::{PromotionRule, RepetitionResult};
    let t = rules.topology;
    let base: Vec<String> = rules
        .roles
        .iter()
        .filter(|r| !r.promoted)
        .map(|r| r.id.to_string())
        .collect();
    let promoted: Vec<String> = rules
        .roles
        .iter()
        .filter(|r| r.promoted)
        .map(|r| format!("+{}", r.id))
        .collect();
    let zone = rules.zone[0].count() / t.cols as u32;
    let ranks = if zone == 1 {
        "the last rank".to_string()
    } else {
        format!("the last {zone} ranks")
    };
    let promotion = match rules.promotion {
        PromotionRule::Optional => format!("promotion optional in {ranks}"),
        PromotionRule::Mandatory => format!("promotion mandatory in {ranks}"),
        PromotionRule::Flip => "pieces flip at every move".to_string(),
        PromotionRule::Capture => "pieces flip at every capture".to_string(),
        PromotionRule::Entering => format!("promotion on entering {ranks} or capturing there"),
    };
    let drops = if rules.drops { "drops" } else { "no drops" };
    let mut check = if rules.check_wins {
        ", giving check wins".to_string()
    } else {
        String::new()
    };
    if rules.borrows() {
        check += ", pieces move as a friend they borrow from";
    }
    let rep = rules.repetition;
    let result = match rep.result {
        RepetitionResult::Draw => "draw",
        RepetitionResult::SenteLoses => "sente loses",
        RepetitionResult::GoteLoses => "gote loses",
        RepetitionResult::RepeaterLoses => "repeater loses",
    };
    format!(
        "{} — {}×{}, pieces {}{}, {promotion}, {drops}{check}, repetition ×{} {result}",
        rules.title,
        t.cols,
        t.rows,
        base.join(" "),
        if promoted.is_empty() {
            String::new()
        } else {
            format!(" ({})", promoted.join(" "))
        },
        rep.count
    )
}
