//! Writing setups: FEN as Fairy-Stockfish writes it and SFEN.

use std::fmt::Write;

use super::Setup;
use crate::board::Color;

impl Setup {
    /// The setup as Fairy-Stockfish writes a FEN (`[hands]`, `w` = sente).
    pub fn to_fen(&self) -> String {
        let setup = self;
        let mut s = board_text(setup);
        s.push('[');
        for &(color, id, n) in &setup.hands {
            for _ in 0..n {
                s.push_str(&id.written(color));
            }
        }
        s.push(']');
        let side = if setup.turn == Color::Sente { 'w' } else { 'b' };
        let _ = write!(s, " {side} - - 0 {}", setup.move_number.div_ceil(2).max(1));
        s
    }

    /// An SFEN's third field: the capture square if there is one, else the
    /// hands (counts before letters; `-` for none).
    pub fn third_field(&self) -> String {
        if let Some(square) = &self.capture_square {
            return square.clone();
        }
        let mut s = String::new();
        if self.hands.is_empty() {
            s.push('-');
        }
        for &(color, id, n) in &self.hands {
            if n > 1 {
                let _ = write!(s, "{n}");
            }
            s.push_str(&id.written(color));
        }
        s
    }

    /// The setup as an SFEN (`b` = sente, counts before letters).
    pub fn to_sfen(&self) -> String {
        let setup = self;
        let mut s = board_text(setup);
        let side = if setup.turn == Color::Sente { 'b' } else { 'w' };
        let _ = write!(s, " {side} {}", setup.third_field());
        let _ = write!(s, " {}", setup.move_number);
        s
    }
}

fn board_text(setup: &Setup) -> String {
    let mut s = String::new();
    for (i, rank) in setup.ranks.iter().enumerate() {
        if i > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for (j, p) in rank.iter().enumerate() {
            let hole = p.is_none() && setup.holes.contains(&(i, j));
            if (hole || p.is_some()) && empty > 0 {
                let _ = write!(s, "{empty}");
                empty = 0;
            }
            match p {
                None if hole => s.push('*'),
                None => empty += 1,
                Some(p) => {
                    if p.promoted {
                        s.push('+');
                    }
                    s.push_str(&p.id.written(p.color));
                }
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
    }
    s
}
