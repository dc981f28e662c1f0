//! Tuning the evaluation's weights, three ways:
//! - to game results (Texel's method): [`self_play`] plays fast games of the
//!   engine against itself and keeps their positions with each game's
//!   result; [`fit_results`] keeps the quiet ones (where the quiescence
//!   search agrees with the static evaluation), finds the constant `K` that
//!   best turns the evaluation into an expected result through a logistic
//!   curve, and then the weights that bring those expectations nearest to
//!   the results (least squares, by coordinate descent);
//! - to another engine's scores ([`fit`]): the same descent, with that
//!   engine's scores through the same curve as the targets;
//! - to match results ([`spsa`]): simultaneous perturbation stochastic
//!   approximation on pairs of fixed-node games;
//!
//! and [`versus`], a match of two sets of weights, to check a fit before
//! it is kept.

use std::sync::atomic::AtomicBool;

use crate::board::{Bitboard, Color};
use crate::position::Position;

use super::eval::Evaluator;
use super::{Engine, Limits, Params, Score};

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The weights.
    pub params: Params,
    /// koma's scores are multiplied by this before they go through the
    /// logistic curve (Texel's `K`, as a factor on a curve of 400 units).
    pub scale: f64,
    /// Mean squared error of the starting weights (at their best scale).
    pub loss_before: f64,
    /// Mean squared error of the fitted weights.
    pub loss_after: f64,
    /// The positions the fit used.
    pub positions: usize,
}

/// Expected result from a score (400 units: about 91% against 9%).
fn expected(score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-score / 400.0))
}

fn loss<B: Bitboard>(
    engine: &mut Engine,
    samples: &mut [(Position<B>, Score)],
    params: &Params,
    scale: f64,
) -> f64 {
    engine.set_params(params.clone());
    let mut sum = 0.0;
    for (pos, target) in samples.iter_mut() {
        let q = engine.quiet_score(pos) as f64;
        let d = expected(scale * q) - expected(*target as f64);
        sum += d * d;
    }
    sum / samples.len().max(1) as f64
}

/// The scale near `around` (within `span`, by `step`) with the least loss.
fn best_scale(mut loss: impl FnMut(f64) -> f64, around: f64, span: f64, step: f64) -> (f64, f64) {
    let mut best = (around, loss(around));
    let mut s = (around - span).max(step);
    while s <= around + span + 1e-9 {
        let l = loss(s);
        if l < best.1 {
            best = (s, l);
        }
        s += step;
    }
    best
}

/// The weights [`descend`] changes: the evaluation's, not the search's.
fn tuned_names() -> impl Iterator<Item = (usize, &'static str)> {
    Params::NAMES
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, n)| !Params::SEARCH_ONLY.contains(n))
}

/// Coordinate descent from `params` (whose loss is `best`): each weight in
/// turn moves by its step up or down while that lowers the loss; a round
/// without gain halves the steps; it ends when steps of 1 gain nothing or
/// after `rounds` rounds. `after_round` may refit a scale and return the
/// loss it reaches.
fn descend(
    params: &mut Params,
    best: &mut f64,
    rounds: usize,
    mut loss: impl FnMut(&Params) -> f64,
    mut after_round: impl FnMut(&Params, usize, f64) -> f64,
) {
    let mut steps: Vec<i32> = Params::NAMES
        .iter()
        .map(|n| (params.get(n).unwrap_or(0).abs() / 4).max(1))
        .collect();
    for round in 1..=rounds {
        let mut improved = false;
        for (i, name) in tuned_names() {
            let value = params.get(name).unwrap_or(0);
            for dir in [1, -1] {
                let mut trial = params.clone();
                trial.set(name, value + dir * steps[i]);
                if trial.king_divisor <= 0 || trial.hand < 0 {
                    continue;
                }
                let l = loss(&trial);
                if l < *best {
                    *best = l;
                    *params = trial;
                    improved = true;
                    break;
                }
            }
        }
        *best = after_round(params, round, *best);
        if !improved {
            if tuned_names().all(|(i, _)| steps[i] == 1) {
                break;
            }
            steps.iter_mut().for_each(|s| *s = (*s / 2).max(1));
        }
    }
}

/// Fits the weights from `start` to the samples' target scores (for the
/// side to move) in at most `rounds` rounds of coordinate descent; `report`
/// hears of each round.
pub fn fit<B: Bitboard>(
    samples: &mut [(Position<B>, Score)],
    start: &Params,
    rounds: usize,
    mut report: impl FnMut(&str),
) -> Fit {
    let mut engine = Engine::new(1);
    let mut params = start.clone();
    let (mut scale, before) =
        best_scale(|s| loss(&mut engine, samples, &params, s), 1.0, 0.75, 0.05);
    report(&format!("start: loss {before:.6} at scale {scale:.2}"));
    let mut best = before;
    let cell = std::cell::RefCell::new((engine, samples));
    let scale_cell = std::cell::Cell::new(scale);
    descend(
        &mut params,
        &mut best,
        rounds,
        |p| {
            let (engine, samples) = &mut *cell.borrow_mut();
            loss(engine, samples, p, scale_cell.get())
        },
        |p, round, best| {
            let (engine, samples) = &mut *cell.borrow_mut();
            let (s, l) = best_scale(|s| loss(engine, samples, p, s), scale_cell.get(), 0.1, 0.02);
            scale_cell.set(s);
            let best = best.min(l);
            report(&format!(
                "round {round}: loss {best:.6} at scale {s:.2}: {}",
                p.describe()
            ));
            best
        },
    );
    scale = scale_cell.get();
    let positions = cell.borrow().1.len();
    Fit {
        params,
        scale,
        loss_before: before,
        loss_after: best,
        positions,
    }
}

/// How [`self_play`] plays its games.
#[derive(Copy, Clone, Debug)]
pub struct SelfPlay {
    /// Games to play.
    pub games: usize,
    /// Nodes the engine searches for each move (a fixed count, so that the
    /// games do not depend on the machine's load).
    pub nodes: u64,
    /// Plies played at random at the start of each game, so that games
    /// differ; their positions are not kept.
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Seed of the random plies (game `i` draws from `seed` and `i`).
    pub seed: u64,
}

/// One self-play game: the positions kept (after the random plies, side to
/// move not in check, game not over) and the result for sente (1 a win,
/// 0.5 a draw, 0 a loss).
pub struct SelfPlayGame<B: Bitboard> {
    /// The positions, in order.
    pub positions: Vec<Position<B>>,
    /// Sente's result.
    pub result: f64,
}

/// A small generator of random numbers (splitmix64): reproducible games
/// without a dependency.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One game from `start` between `engines[0]` (sente) and `engines[1]`
/// (gote) at `options.nodes` a move, after `options.random_plies` random
/// plies drawn from `rng`; the positions the engines moved in (side to move
/// not in check) when `keep`, and the winner (None for a draw).
fn play_game<B: Bitboard>(
    start: &Position<B>,
    engines: [&mut Engine; 2],
    options: &SelfPlay,
    mut rng: u64,
    keep: bool,
) -> (Vec<Position<B>>, Option<Color>) {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(options.nodes.max(1)),
        ..Limits::default()
    };
    let [first, second] = engines;
    first.clear();
    second.clear();
    let mut pos = start.clone();
    let mut positions = Vec::new();
    let mut winner = None;
    for ply in 0..options.max_plies {
        if let Some(outcome) = pos.outcome() {
            winner = outcome.winner();
            break;
        }
        if pos.may_declare() {
            winner = Some(pos.turn());
            break;
        }
        let mv = if ply < options.random_plies {
            let legal = pos.legal_moves();
            legal[(splitmix(&mut rng) % legal.len() as u64) as usize]
        } else {
            if keep && !pos.in_check() {
                positions.push(pos.clone());
            }
            let engine = match pos.turn() {
                Color::Sente => &mut *first,
                Color::Gote => &mut *second,
            };
            match engine.think(&mut pos, limits, &stop, |_| {}).0 {
                Some(m) => m,
                None => break,
            }
        };
        pos.play(mv);
    }
    (positions, winner)
}

/// One game of `engines[0]` against `engines[1]`, the first sente when
/// `first_is_sente`: whether the first won (None for a draw).
fn first_wins<B: Bitboard>(
    start: &Position<B>,
    [first, second]: [&mut Engine; 2],
    first_is_sente: bool,
    options: &SelfPlay,
    rng: u64,
) -> Option<bool> {
    let engines = if first_is_sente {
        [first, second]
    } else {
        [second, first]
    };
    let (_, winner) = play_game(start, engines, options, rng, false);
    winner.map(|c| (c == Color::Sente) == first_is_sente)
}

/// The seed of game `g`'s random plies.
fn game_seed(seed: u64, g: usize) -> u64 {
    seed ^ (g as u64).wrapping_mul(0xd6e8_feb8_6659_fd93)
}

/// Plays `options.games` games of the engine (with `params`) against itself
/// from `start`; `game_over` hears of each game with its number (from 0).
pub fn self_play<B: Bitboard>(
    start: &Position<B>,
    params: &Params,
    options: &SelfPlay,
    mut game_over: impl FnMut(usize, SelfPlayGame<B>),
) {
    let mut engine = Engine::new(16);
    engine.set_params(params.clone());
    let mut other = Engine::new(16);
    other.set_params(params.clone());
    for g in 0..options.games {
        let (positions, winner) = play_game(
            start,
            [&mut engine, &mut other],
            options,
            game_seed(options.seed, g),
            true,
        );
        let result = match winner {
            Some(Color::Sente) => 1.0,
            Some(Color::Gote) => 0.0,
            None => 0.5,
        };
        game_over(g, SelfPlayGame { positions, result });
    }
}

/// A match of two sets of weights: wins, draws and losses of the first.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Versus {
    /// Games the first set of weights won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games the first set of weights lost.
    pub losses: usize,
}

impl Versus {
    /// The first side's score, from 0 to 1.
    pub fn score(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        (self.wins as f64 + self.draws as f64 / 2.0) / games.max(1) as f64
    }

    /// The score's 95% interval, from the spread of the games' scores.
    pub fn interval(&self) -> (f64, f64) {
        let games = (self.wins + self.draws + self.losses).max(1) as f64;
        let mean = self.score();
        let var = (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / games;
        let half = 1.96 * (var / games).sqrt();
        ((mean - half).max(0.0), (mean + half).min(1.0))
    }
}

/// Plays `options.games` games (rounded up to pairs) of the engine with
/// `first` against the engine with `second`: each pair of games starts
/// with the same random plies, `first` sente in one and gote in the other,
/// so that neither side is given the better openings. `game_over` hears of
/// each game with its number and the score so far.
pub fn versus<B: Bitboard>(
    start: &Position<B>,
    first: &Params,
    second: &Params,
    options: &SelfPlay,
    mut game_over: impl FnMut(usize, &Versus),
) -> Versus {
    let mut a = Engine::new(16);
    a.set_params(first.clone());
    let mut b = Engine::new(16);
    b.set_params(second.clone());
    let mut tally = Versus::default();
    for g in 0..options.games.div_ceil(2) * 2 {
        let rng = game_seed(options.seed, g / 2);
        match first_wins(start, [&mut a, &mut b], g % 2 == 0, options, rng) {
            None => tally.draws += 1,
            Some(true) => tally.wins += 1,
            Some(false) => tally.losses += 1,
        }
        game_over(g, &tally);
    }
    tally
}

/// How [`spsa`] runs.
#[derive(Copy, Clone, Debug)]
pub struct Spsa {
    /// Iterations: each plays one pair of games.
    pub iterations: usize,
    /// The first perturbation of each weight, as a fraction of its starting
    /// size (at least 1); it shrinks as `k^-0.101`.
    pub perturbation: f64,
    /// The learning rate's first value; it shrinks as `(A + k)^-0.602`
    /// with `A` a tenth of the iterations.
    pub rate: f64,
}

/// Tunes the evaluation's weights from `params` by simultaneous
/// perturbation stochastic approximation on game results: each iteration
/// moves every weight up or down at random by its perturbation (θ+ and θ-,
/// opposite), plays θ+ against θ- in a pair of games from the same random
/// plies with the colours swapped (`games` of `options` is not read), and
/// moves each weight by the rate × its perturbation × (θ+'s wins − its
/// losses) in θ+'s direction. The search-only weights stay. `report` hears
/// of each iteration with the weights so far.
pub fn spsa<B: Bitboard>(
    start: &Position<B>,
    params: &Params,
    options: &SelfPlay,
    spsa: &Spsa,
    mut report: impl FnMut(usize, &Params),
) -> Params {
    let names: Vec<&'static str> = tuned_names().map(|(_, n)| n).collect();
    let mut theta: Vec<f64> = names
        .iter()
        .map(|n| params.get(n).unwrap_or(0) as f64)
        .collect();
    let base: Vec<f64> = theta
        .iter()
        .map(|t| (t.abs() * spsa.perturbation).max(1.0))
        .collect();
    let with = |theta: &[f64]| {
        let mut p = params.clone();
        for (n, t) in names.iter().zip(theta) {
            p.set(n, t.round() as i32);
        }
        p.king_divisor = p.king_divisor.max(1);
        p.hand = p.hand.max(0);
        p
    };
    let mut plus = Engine::new(16);
    let mut minus = Engine::new(16);
    let stability = spsa.iterations as f64 / 10.0;
    let mut rng = options.seed ^ 0x5851_f42d_4c95_7f2d;
    for k in 1..=spsa.iterations {
        let shrink = (k as f64).powf(-0.101);
        let rate = spsa.rate * (stability + 1.0).powf(0.602) / (stability + k as f64).powf(0.602);
        let delta: Vec<f64> = base
            .iter()
            .map(|c| {
                let sign = if splitmix(&mut rng) & 1 == 0 {
                    1.0
                } else {
                    -1.0
                };
                sign * c * shrink
            })
            .collect();
        let up: Vec<f64> = theta.iter().zip(&delta).map(|(t, d)| t + d).collect();
        let down: Vec<f64> = theta.iter().zip(&delta).map(|(t, d)| t - d).collect();
        plus.set_params(with(&up));
        minus.set_params(with(&down));
        let opening = game_seed(options.seed, k);
        let mut result = 0.0;
        for plus_is_sente in [true, false] {
            match first_wins(
                start,
                [&mut plus, &mut minus],
                plus_is_sente,
                options,
                opening,
            ) {
                Some(true) => result += 1.0,
                Some(false) => result -= 1.0,
                None => {}
            }
        }
        for (t, d) in theta.iter_mut().zip(&delta) {
            *t += rate * result * d;
        }
        report(k, &with(&theta));
    }
    with(&theta)
}

/// Texel's loss: the mean squared difference between each result (for the
/// side to move) and the evaluation's expected result at `scale`.
fn texel_loss<B: Bitboard>(samples: &[(Position<B>, f64)], params: &Params, scale: f64) -> f64 {
    let Some((first, _)) = samples.first() else {
        return 0.0;
    };
    let eval = Evaluator::new(first.rules(), params);
    let sum: f64 = samples
        .iter()
        .map(|(pos, result)| {
            let d = result - expected(scale * eval.evaluate(pos) as f64);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// Fits the weights from `start` to game results (Texel's method): the
/// samples are positions with the result of their game for the side to
/// move (1, 0.5 or 0). Only quiet positions are used: those whose
/// quiescence score with `start` is their static evaluation. The scale `K`
/// is fitted once with `start` and then kept. `report` hears of each round.
pub fn fit_results<B: Bitboard>(
    samples: Vec<(Position<B>, f64)>,
    start: &Params,
    rounds: usize,
    mut report: impl FnMut(&str),
) -> Fit {
    let mut engine = Engine::new(1);
    engine.set_params(start.clone());
    let total = samples.len();
    let Some(eval) = samples
        .first()
        .map(|(p, _)| Evaluator::new(p.rules(), start))
    else {
        return Fit {
            params: start.clone(),
            scale: 1.0,
            loss_before: 0.0,
            loss_after: 0.0,
            positions: 0,
        };
    };
    let quiet: Vec<(Position<B>, f64)> = samples
        .into_iter()
        .filter_map(|(mut pos, r)| {
            let q = engine.quiet_score(&mut pos);
            (q == eval.evaluate(&pos)).then_some((pos, r))
        })
        .collect();
    report(&format!("{} of {total} positions are quiet", quiet.len()));
    // K: a scan by factors of 10^0.05 from 0.001 to 10, then a finer one
    // around the best.
    let mut coarse = (1.0, f64::INFINITY);
    for i in -60..=20 {
        let s = 10f64.powf(i as f64 * 0.05);
        let l = texel_loss(&quiet, start, s);
        if l < coarse.1 {
            coarse = (s, l);
        }
    }
    let (scale, before) = best_scale(
        |s| texel_loss(&quiet, start, s),
        coarse.0,
        coarse.0 * 0.12,
        coarse.0 * 0.01,
    );
    report(&format!("start: loss {before:.6} at scale {scale:.4}"));
    let mut params = start.clone();
    let mut best = before;
    descend(
        &mut params,
        &mut best,
        rounds,
        |p| texel_loss(&quiet, p, scale),
        |p, round, best| {
            report(&format!("round {round}: loss {best:.6}: {}", p.describe()));
            best
        },
    );
    Fit {
        params,
        scale,
        loss_before: before,
        loss_after: best,
        positions: quiet.len(),
    }
}
