//! A game in the terminal, person against engine (or any pair): the session
//! behind `koma play`. Reads one command or move a line, so it can be
//! scripted through any reader; saving goes through a function the caller
//! gives, so the session itself touches no files.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::Error;
use crate::board::Color;
use crate::engine::{Engine, Limits};
use crate::notation::Notation;
use crate::position::{AnyPosition, Move};
use crate::record::{GameRecord, GameResult};
use crate::render::{Style, board_text};

mod commands;

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// Moves typed at the prompt.
    Human,
    /// koma's engine.
    Engine,
}

/// How a game is played.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Who plays sente (moves first).
    pub sente: Player,
    /// Who plays gote.
    pub gote: Player,
    /// The engine's thinking time per move, in seconds (0 < time <= 86400).
    pub time: f64,
    /// Search this many plies per move instead of by time.
    pub depth: Option<u32>,
    /// Draw pieces with the kanji of the variant file.
    pub kanji: bool,
    /// Colour gote's pieces (ANSI).
    pub color: bool,
    /// The engine's hash table, in MiB.
    pub hash_mb: usize,
    /// The engine's search threads (1 to [`crate::engine::MAX_THREADS`]).
    pub threads: usize,
    /// How moves are shown (any notation is read).
    pub notation: Notation,
}

impl PlayOptions {
    /// Refuses options no game can be played with (a time out of range).
    pub fn check(&self) -> Result<(), Error> {
        if !(self.time.is_finite() && self.time > 0.0 && self.time <= 86_400.0) {
            return Err(Error::Usage(format!(
                "--time {}: expected seconds between 0 and 86400",
                self.time
            )));
        }
        if !(1..=crate::engine::MAX_THREADS).contains(&self.threads) {
            return Err(Error::Usage(format!(
                "--threads {}: expected a number from 1 to {}",
                self.threads,
                crate::engine::MAX_THREADS
            )));
        }
        Ok(())
    }
}

/// Writes a game record (`save FILE`): the file name typed and the record.
pub type Saver<'s> = &'s mut dyn FnMut(&str, &str) -> std::io::Result<()>;

const HELP: &str = "\
Without a promotion sign you are asked when both are legal; '=' after a move declines.
Commands:
  moves        list the legal moves
  undo         take back your last move (and the engine's reply)
  hint         ask the engine for a move
  sfen         print the position as SFEN and FEN
  board        draw the board again
  save FILE    write the game record (koma validate --game reads it)
  resign       give up the game
  declare      claim a win under the impasse rule (where the variant has one)
  quit         leave (offers to save a game not saved)
  help         this text";

/// The help text, its examples of moves taken from the legal moves of `pos`:
/// a move, a promotion and a drop where there are some.
fn help(pos: &AnyPosition) -> String {
    let legal = pos.legal_moves();
    let pick = [
        legal
            .iter()
            .find(|m| matches!(m, Move::Normal { promote: false, .. })),
        legal
            .iter()
            .find(|m| matches!(m, Move::Normal { promote: true, .. })),
        legal.iter().find(|m| matches!(m, Move::Drop { .. })),
    ];
    let examples = |n: Notation| -> String {
        let words: Vec<String> = pick
            .iter()
            .flatten()
            .map(|&&m| pos.format_move(m, n))
            .collect();
        if words.is_empty() {
            String::new()
        } else {
            format!(" ({})", words.join(", "))
        }
    };
    format!(
        "Type a move in USI{}, Fairy-Stockfish{} or Japanese notation{}.\n{HELP}",
        examples(Notation::Usi),
        examples(Notation::Fairy),
        examples(Notation::Japanese)
    )
}

/// Plays a game from `pos` on `input`/`out` until `quit` or the end of the
/// input; `save` writes records.
pub fn run(
    pos: AnyPosition,
    options: &PlayOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    save: Saver<'_>,
) -> Result<(), Error> {
    resume(&GameRecord::from_position(&pos), options, input, out, save)
}

/// Goes on with a recorded game (`koma play --load`): from its last
/// position, with its headers; a result it gives (a resignation, a loss on
/// time) holds until `undo` withdraws it.
pub fn resume(
    rec: &GameRecord,
    options: &PlayOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    save: Saver<'_>,
) -> Result<(), Error> {
    options.check()?;
    let pos = rec.position();
    // A result the board does not show (a resignation, a loss on time) was
    // declared; one it shows (checkmate) is taken back with the move.
    let shown = pos.outcome().as_ref().map(GameResult::from);
    // The game as it starts is in its record already: nothing to save yet.
    let saved = Some((pos.history(), rec.result));
    Session {
        args: options,
        saved,
        pos,
        record: rec.clone(),
        engine: {
            let mut e = Engine::new(options.hash_mb.clamp(1, 4096));
            e.set_threads(options.threads);
            e
        },
        over: rec.result,
        declared: rec.result.is_some() && rec.result != shown,
        saver: save,
    }
    .run(input, out)
}

struct Session<'a, 's> {
    args: &'a PlayOptions,
    pos: AnyPosition,
    /// The record the game came from: its headers and comments are saved again.
    record: GameRecord,
    engine: Engine,
    over: Option<GameResult>,
    /// The result was said (a resignation, a record's result), not reached on
    /// the board: `undo` withdraws it.
    declared: bool,
    saver: Saver<'s>,
    /// The moves and result last saved (or loaded): `quit` offers to save
    /// a game that differs.
    saved: Option<(Vec<Move>, Option<GameResult>)>,
}

/// The next line of input; `None` at its end. Bytes that are not UTF-8
/// become U+FFFD, so that such a line is refused as a move, not the game lost.
fn read_line(input: &mut dyn BufRead) -> Result<Option<String>, Error> {
    crate::text::read_line_lossy(input).map_err(Error::io("read the input"))
}

fn io(e: std::io::Error) -> Error {
    Error::io("write to the terminal")(e)
}

impl Session<'_, '_> {
    fn player(&self, color: Color) -> Player {
        if color == Color::Sente {
            self.args.sente
        } else {
            self.args.gote
        }
    }

    fn limits(&self) -> Limits {
        match self.args.depth {
            Some(d) => Limits {
                depth: Some(d.clamp(1, 64)),
                ..Limits::default()
            },
            None => Limits {
                time: Some(Duration::from_secs_f64(self.args.time)),
                ..Limits::default()
            },
        }
    }

    fn show(&self, out: &mut dyn Write) -> Result<(), Error> {
        let style = Style {
            kanji: self.args.kanji,
            color: self.args.color,
        };
        writeln!(out).map_err(io)?;
        write!(out, "{}", board_text(&self.pos, style)).map_err(io)?;
        let mut status = format!(
            "{} — move {}, {} to move",
            self.pos.title(),
            self.pos.move_number(),
            self.pos.turn().name()
        );
        if let Some(m) = self.pos.last_move() {
            let mut before = self.pos.clone();
            before.undo();
            status.push_str(&format!(
                "; last move {}",
                before.format_move(m, self.args.notation)
            ));
        }
        if self.pos.in_check() {
            status.push_str("; check!");
        }
        writeln!(out, "{status}").map_err(io)
    }

    fn finish(&mut self, out: &mut dyn Write) -> Result<(), Error> {
        if self.over.is_none() {
            self.over = self.pos.outcome().as_ref().map(GameResult::from);
            if let Some(o) = &self.over {
                writeln!(out, "Game over: {}", o).map_err(io)?;
                writeln!(
                    out,
                    "(save FILE keeps the record; undo takes back; quit leaves)"
                )
                .map_err(io)?;
            }
        }
        Ok(())
    }

    fn run(mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
        writeln!(
            out,
            "koma plays {}. Type 'help' for commands.",
            self.pos.title()
        )
        .map_err(io)?;
        self.show(out)?;
        if let Some(r) = self.over {
            writeln!(out, "Game over: {r} (undo withdraws it)").map_err(io)?;
        }
        self.finish(out)?;
        loop {
            if self.over.is_none() && self.player(self.pos.turn()) == Player::Engine {
                self.engine_move(out)?;
                continue;
            }
            write!(out, "{}> ", self.pos.turn().name()).map_err(io)?;
            out.flush().map_err(io)?;
            let Some(line) = read_line(input)? else {
                writeln!(out).map_err(io)?;
                return Ok(());
            };
            let line = line.trim();
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            match word {
                "" => {}
                "help" | "?" => writeln!(out, "{}", help(&self.pos)).map_err(io)?,
                "quit" | "exit" => return self.leave(input, out),
                "board" => self.show(out)?,
                "moves" => {
                    let mut list: Vec<String> = self
                        .pos
                        .legal_moves()
                        .iter()
                        .map(|&m| self.pos.format_move(m, self.args.notation))
                        .collect();
                    list.sort();
                    writeln!(out, "{} legal moves: {}", list.len(), list.join(" ")).map_err(io)?;
                }
                "sfen" | "fen" => {
                    writeln!(out, "sfen {}\nfen {}", self.pos.sfen(), self.pos.fen()).map_err(io)?
                }
                "undo" => self.undo(out)?,
                "declare" => self.declare(out)?,
                "hint" => self.hint(out)?,
                "save" => {
                    self.save(rest.trim(), out)?;
                }
                "resign" => self.resign(out)?,
                _ => self.human_move(line, input, out)?,
            }
        }
    }

    fn engine_move(&mut self, out: &mut dyn Write) -> Result<(), Error> {
        // The impasse rule's win is taken when it is there.
        if self.pos.may_declare() {
            return self.win_by_declaration(out);
        }
        let stop = AtomicBool::new(false);
        let limits = self.limits();
        let (best, info) = self.engine.think_any(&mut self.pos, limits, &stop, |_| {});
        let Some(m) = best else {
            self.finish(out)?;
            return Ok(());
        };
        let text = self.pos.format_move(m, self.args.notation);
        let detail = info.map(|i| match i.mate_in() {
            Some(n) => format!(" (mate in {n}, depth {})", i.depth),
            None => format!(" (score {}, depth {})", i.score, i.depth),
        });
        writeln!(
            out,
            "koma ({}) plays {text}{}",
            self.pos.turn().name(),
            detail.unwrap_or_default()
        )
        .map_err(io)?;
        self.play(m, out)
    }

    /// Plays a move of the engine's or one read at the prompt (both legal:
    /// checked all the same, so that a bug cannot corrupt the game).
    fn play(&mut self, m: Move, out: &mut dyn Write) -> Result<(), Error> {
        if let Err(e) = self.pos.try_play(m) {
            return writeln!(out, "That move cannot be played: {e}.").map_err(io);
        }
        self.show(out)?;
        self.finish(out)
    }

    fn human_move(
        &mut self,
        text: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        if let Some(o) = &self.over {
            writeln!(out, "The game is over ({}); undo to go back, or quit.", o).map_err(io)?;
            return Ok(());
        }
        let mut m = match self.pos.parse_move(text) {
            Ok(m) => m,
            Err(e) => {
                writeln!(
                    out,
                    "{e}. Type 'moves' for the legal moves, 'help' for commands."
                )
                .map_err(io)?;
                return Ok(());
            }
        };
        // Ask when the move could also promote and no sign was typed.
        if let Move::Normal {
            from,
            to,
            promote: false,
        } = m
        {
            let promoting = Move::Normal {
                from,
                to,
                promote: true,
            };
            let signed = text.ends_with(['+', '-', '=']);
            if !signed && self.pos.legal_moves().contains(&promoting) {
                // Asked again until the answer is yes or no.
                loop {
                    write!(out, "Promote? [y/n] ").map_err(io)?;
                    out.flush().map_err(io)?;
                    let Some(answer) = read_line(input)? else {
                        return Ok(());
                    };
                    match answer.trim().to_ascii_lowercase().as_str() {
                        "y" | "yes" => m = promoting,
                        "n" | "no" => {}
                        _ => {
                            writeln!(out, "Please answer y (promote) or n (do not).")
                                .map_err(io)?;
                            continue;
                        }
                    }
                    break;
                }
            }
        }
        self.play(m, out)
    }
}
