//! Iterative deepening at the root, with aspiration windows, MultiPV and
//! the principal variation read back from the table: what one search
//! thread does for the whole of a `think`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::board::Bitboard;
use crate::position::{Move, Position};

use super::search::Run;
use super::{INFINITY, Info, Limits, MATE, MATE_BOUND, MAX_PLY, Params, Score, Worker};

/// What the threads of one `think` share.
#[derive(Copy, Clone)]
pub(super) struct Shared<'a> {
    pub start: Instant,
    /// Set when the search is to stop.
    pub stop: &'a AtomicBool,
    /// Nodes of all threads, as each has counted them so far.
    pub nodes: &'a AtomicU64,
    /// The depth this thread's deepening starts at.
    pub first_depth: u32,
}

impl Worker {
    /// Deepens until a limit, `stop` or a mate found; the best root move
    /// of the deepest iteration and its information.
    pub(super) fn iterate<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        params: &Params,
        legal: &[Move],
        limits: Limits,
        shared: Shared<'_>,
        mut report: impl FnMut(&Info),
    ) -> (Option<Move>, Option<Info>) {
        let start = shared.start;
        let mut run = Run::new(pos, params, limits, shared);
        // Statistics of the last move are a guide, not the truth.
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.eval_cache.iter_mut().for_each(|e| *e = (0, 0));
        let mut best = legal[0];
        let mut last: Option<Info> = None;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        // With one legal move there is nothing to choose: one iteration, for
        // the information.
        let max_depth = if legal.len() == 1 && limits.time.is_some() {
            1
        } else {
            max_depth
        };
        let mut score = 0;
        for depth in shared.first_depth.min(max_depth)..=max_depth {
            run.begin_iteration(depth as i32);
            let s = self.aspiration(pos, &mut run, depth as i32, score);
            if run.stopped {
                // An unfinished iteration: a move it proved better than the
                // last iteration's best is played.
                if let Some((m, _)) = run.root_best {
                    best = m;
                }
                if last.is_some() {
                    break;
                }
            }
            score = s;
            if let Some((m, _)) = run.root_best {
                best = m;
            }
            let mut pv = vec![best];
            self.extend_pv(pos, best, depth as usize, run.salt, &mut pv);
            let mut info = Info {
                depth,
                seldepth: run.seldepth as u32,
                score,
                nodes: run.all_nodes(),
                elapsed: start.elapsed(),
                pv,
                multipv: 1,
            };
            if run.stopped {
                // Not a finished depth: keep it only when there is nothing else.
                last = Some(info);
                break;
            }
            let lines = (limits.lines.max(1) as usize).min(legal.len());
            if lines > 1 {
                // The other lines: the root searched again without the moves
                // of the lines above, each with a full window.
                let mut others = Vec::new();
                run.excluded = vec![best];
                for k in 2..=lines {
                    run.begin_iteration(depth as i32);
                    let s = self.negamax(pos, &mut run, depth as i32, 0, -INFINITY, INFINITY, true);
                    let Some((m, _)) = run.root_best.filter(|_| !run.stopped) else {
                        break;
                    };
                    let mut pv = vec![m];
                    self.extend_pv(pos, m, depth as usize, run.salt, &mut pv);
                    others.push(Info {
                        depth,
                        seldepth: run.seldepth as u32,
                        score: s,
                        nodes: run.all_nodes(),
                        elapsed: start.elapsed(),
                        pv,
                        multipv: k as u32,
                    });
                    run.excluded.push(m);
                }
                run.excluded.clear();
                if run.stopped {
                    // The depth is not finished: line 1 stands, unreported.
                    last = Some(info);
                    break;
                }
                // A later line, searched without the moves above it, may
                // score more than they did (the table has learnt since):
                // the lines are reported best first, and the best is played.
                let mut lines = vec![info];
                lines.append(&mut others);
                lines.sort_by_key(|l| std::cmp::Reverse(l.score));
                for (k, l) in lines.iter_mut().enumerate() {
                    l.multipv = k as u32 + 1;
                }
                lines.iter().for_each(&mut report);
                info = lines.swap_remove(0);
                best = info.pv[0];
                score = info.score;
            } else {
                report(&info);
            }
            let mate_plies = (info.score.abs() > MATE_BOUND).then(|| MATE - info.score.abs());
            last = Some(info);
            // Stopped while the depth was being reported (e.g. by `report`
            // itself, as UCI's `go mate` does when it has its mate).
            if shared.stop.load(Ordering::Relaxed) {
                break;
            }
            // A mate in p plies: deeper iterations look for a shorter one
            // that reductions hid (the search is not full-width), up to
            // twice its length.
            if mate_plies.is_some_and(|p| depth as i32 >= 2 * p) {
                break;
            }
            if limits.optimum.is_some_and(|t| start.elapsed() * 10 > t * 6) {
                break;
            }
        }
        (Some(best), last)
    }

    /// Iteration `depth` at the root, in a window around the last score
    /// that widens when the score falls outside.
    fn aspiration<B: Bitboard>(
        &mut self,
        pos: &mut Position<B>,
        run: &mut Run<'_, B>,
        depth: i32,
        last: Score,
    ) -> Score {
        if depth < 5 || last.abs() >= MATE_BOUND {
            return self.negamax(pos, run, depth, 0, -INFINITY, INFINITY, true);
        }
        let unit = run.eval.unit;
        let mut delta = (unit / 4).max(1);
        let (mut alpha, mut beta) = (last - delta, last + delta);
        loop {
            let s = self.negamax(pos, run, depth, 0, alpha, beta, true);
            if run.stopped {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = s - delta;
            } else if s >= beta {
                beta = s + delta;
            } else {
                return s;
            }
            delta += delta;
            if delta > 4 * unit {
                alpha = -INFINITY;
                beta = INFINITY;
            }
            alpha = alpha.max(-INFINITY);
            beta = beta.min(INFINITY);
        }
    }

    /// Follows the table's best moves after `first`, up to `max` moves in
    /// all (the table's keys mixed with the search's `salt`).
    fn extend_pv<B: Bitboard>(
        &self,
        pos: &mut Position<B>,
        first: Move,
        max: usize,
        salt: u64,
        pv: &mut Vec<Move>,
    ) {
        pos.play_unchecked(first);
        let mut played = 1;
        while pv.len() < max && pos.repetitions() < 2 {
            let Some(m) = self.table.probe(pos.hash() ^ salt).and_then(|e| e.best) else {
                break;
            };
            if !pos.legal_moves().contains(&m) {
                break;
            }
            pos.play_unchecked(m);
            played += 1;
            pv.push(m);
        }
        for _ in 0..played {
            pos.undo();
        }
    }
}
