//! The session's commands beyond moves: `undo`, `hint`, `resign`,
//! `declare`, `save` and `quit`.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::Error;
use crate::engine::Limits;
use crate::position::{AnyPosition, Move};
use crate::record::{self, Ending, Format, GameRecord, GameResult};

use super::{Player, Session, io, read_line};

impl Session<'_, '_> {
    /// `resign`: the side to move gives up.
    pub(super) fn resign(&mut self, out: &mut dyn Write) -> Result<(), Error> {
        if self.over.is_some() {
            return Ok(());
        }
        let loser = self.pos.turn();
        self.declared = true;
        self.over = Some(GameResult::win(loser.opposite(), Ending::Resignation));
        writeln!(
            out,
            "{} resigns. Game over: {} wins by resignation.",
            loser.name(),
            loser.opposite().name()
        )
        .map_err(io)
    }

    /// `declare`: the side to move claims a win under the variant's impasse
    /// rule (`rules.declaration`), granted only when the rule's conditions
    /// hold; otherwise says why not.
    pub(super) fn declare(&mut self, out: &mut dyn Write) -> Result<(), Error> {
        if let Some(o) = &self.over {
            return writeln!(out, "The game is over ({o}); undo to go back, or quit.").map_err(io);
        }
        if !self.pos.has_declaration_rule() {
            return writeln!(
                out,
                "This game has no impasse rule: a win cannot be declared."
            )
            .map_err(io);
        }
        let us = self.pos.turn();
        if !self.pos.may_declare() {
            return writeln!(
                out,
                "{} may not declare: the impasse rule needs the king in the camp, not in check, \
                 with enough pieces there and enough points (see the variant's rules).",
                us.name()
            )
            .map_err(io);
        }
        self.win_by_declaration(out)
    }

    /// The side to move wins by declaring (its conditions checked).
    pub(super) fn win_by_declaration(&mut self, out: &mut dyn Write) -> Result<(), Error> {
        let us = self.pos.turn();
        self.declared = true;
        self.over = Some(GameResult::win(us, Ending::Impasse));
        writeln!(
            out,
            "{} declares a win under the impasse rule. Game over: {} wins by impasse.",
            us.name(),
            us.name()
        )
        .map_err(io)
    }

    pub(super) fn undo(&mut self, out: &mut dyn Write) -> Result<(), Error> {
        if std::mem::take(&mut self.declared) {
            let what = match self.over.take() {
                Some(r) if r.ending == Ending::Resignation => "Resignation".to_string(),
                Some(r) => format!("The result ({r})"),
                None => "The result".to_string(),
            };
            writeln!(out, "{what} withdrawn.").map_err(io)?;
            return Ok(());
        }
        let mut taken = Vec::new();
        let mut take_back = |pos: &mut AnyPosition| -> bool {
            let Some(m) = pos.undo() else {
                return false;
            };
            taken.push(format!(
                "{} ({})",
                pos.format_move(m, self.args.notation),
                pos.turn().name()
            ));
            true
        };
        if !take_back(&mut self.pos) {
            writeln!(out, "Nothing to undo.").map_err(io)?;
            return Ok(());
        }
        while self.player(self.pos.turn()) == Player::Engine && take_back(&mut self.pos) {}
        writeln!(out, "Took back {}.", taken.join(" and ")).map_err(io)?;
        self.over = None;
        self.show(out)?;
        self.finish(out)
    }

    pub(super) fn hint(&mut self, out: &mut dyn Write) -> Result<(), Error> {
        let stop = AtomicBool::new(false);
        let limits = Limits {
            time: Some(Duration::from_secs_f64(self.args.time.min(1.0))),
            depth: self.args.depth,
            ..Limits::default()
        };
        match self
            .engine
            .think_any(&mut self.pos, limits, &stop, |_| {})
            .0
        {
            Some(m) => {
                writeln!(out, "hint: {}", self.pos.format_move(m, self.args.notation)).map_err(io)
            }
            None => writeln!(out, "No move: the game is over.").map_err(io),
        }
    }

    /// `quit`: a game with moves or a result not saved since is offered to
    /// be saved first.
    pub(super) fn leave(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<(), Error> {
        let unsaved = self.saved.as_ref() != Some(&self.state());
        if !unsaved || (self.pos.history().is_empty() && self.over.is_none()) {
            return Ok(());
        }
        loop {
            write!(
                out,
                "Save the game first? Type a file name, or press Enter to leave without saving: "
            )
            .map_err(io)?;
            out.flush().map_err(io)?;
            let Some(answer) = read_line(input)? else {
                return writeln!(out).map_err(io);
            };
            let path = answer.trim();
            if path.is_empty() || self.save(path, out)? {
                return Ok(());
            }
        }
    }

    /// What a save keeps: the moves and the result.
    pub(super) fn state(&self) -> (Vec<Move>, Option<GameResult>) {
        (self.pos.history(), self.over)
    }

    /// `save FILE`; whether it was saved.
    pub(super) fn save(&mut self, path: &str, out: &mut dyn Write) -> Result<bool, Error> {
        if path.is_empty() {
            writeln!(out, "save needs a file name: save game.txt").map_err(io)?;
            return Ok(false);
        }
        let mut rec = GameRecord::from_position(&self.pos);
        rec.headers = self.record.headers.clone();
        rec.start_comment = self.record.start_comment.clone();
        for (m, old) in rec.moves.iter_mut().zip(&self.record.moves) {
            if m.mv != old.mv {
                break;
            }
            m.comment = old.comment.clone();
            m.time = old.time;
        }
        rec.result = self.over;
        let text = record::write(&rec, Format::Koma).unwrap_or_default();
        match (self.saver)(path, &text) {
            Ok(()) => {
                self.saved = Some(self.state());
                writeln!(out, "Saved the game to {path}.").map_err(io)?;
                Ok(true)
            }
            Err(e) => {
                writeln!(out, "Cannot save to {path}: {e}").map_err(io)?;
                Ok(false)
            }
        }
    }
}
