//! Fitting the evaluation's weights to scored positions (another engine's
//! scores, say): the weights that make koma's quiescence scores, through a
//! logistic curve, nearest to the targets', by coordinate descent.

use crate::board::Bitboard;
use crate::position::Position;

use super::{Engine, Params, Score};

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The weights.
    pub params: Params,
    /// koma's scores are multiplied by this before they are compared with
    /// the targets (whose units may differ).
    pub scale: f64,
    /// Mean squared error of the starting weights (at their best scale).
    pub loss_before: f64,
    /// Mean squared error of the fitted weights.
    pub loss_after: f64,
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
    engine.params = params.clone();
    let mut sum = 0.0;
    for (pos, target) in samples.iter_mut() {
        let q = engine.quiet_score(pos) as f64;
        let d = expected(scale * q) - expected(*target as f64);
        sum += d * d;
    }
    sum / samples.len().max(1) as f64
}

/// The scale near `around` (within `span`, by `step`) with the least loss.
fn best_scale<B: Bitboard>(
    engine: &mut Engine,
    samples: &mut [(Position<B>, Score)],
    params: &Params,
    around: f64,
    span: f64,
    step: f64,
) -> (f64, f64) {
    let mut best = (around, loss(engine, samples, params, around));
    let mut s = (around - span).max(step);
    while s <= around + span + 1e-9 {
        let l = loss(engine, samples, params, s);
        if l < best.1 {
            best = (s, l);
        }
        s += step;
    }
    best
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
    let (mut scale, before) = best_scale(&mut engine, samples, &params, 1.0, 0.75, 0.05);
    report(&format!("start: loss {before:.6} at scale {scale:.2}"));
    let mut best = before;
    let mut steps: Vec<i32> = Params::NAMES
        .iter()
        .map(|n| (params.get(n).unwrap_or(0).abs() / 4).max(1))
        .collect();
    for round in 1..=rounds {
        let mut improved = false;
        for (i, name) in Params::NAMES.iter().enumerate() {
            if Params::SEARCH_ONLY.contains(name) {
                continue;
            }
            let value = params.get(name).unwrap_or(0);
            for dir in [1, -1] {
                let mut trial = params.clone();
                trial.set(name, value + dir * steps[i]);
                if trial.king_divisor <= 0 {
                    continue;
                }
                let l = loss(&mut engine, samples, &trial, scale);
                if l < best {
                    best = l;
                    params = trial;
                    improved = true;
                    break;
                }
            }
        }
        let (s, l) = best_scale(&mut engine, samples, &params, scale, 0.1, 0.02);
        scale = s;
        best = best.min(l);
        let text: Vec<String> = Params::NAMES
            .iter()
            .map(|n| format!("{n}={}", params.get(n).unwrap_or(0)))
            .collect();
        report(&format!(
            "round {round}: loss {best:.6} at scale {scale:.2}: {}",
            text.join(" ")
        ));
        if !improved {
            if steps.iter().all(|&s| s == 1) {
                break;
            }
            steps.iter_mut().for_each(|s| *s = (*s / 2).max(1));
        }
    }
    Fit {
        params,
        scale,
        loss_before: before,
        loss_after: best,
    }
}
