//! Time use: from a clock (`go btime wtime binc winc byoyomi movestogo`) or
//! a fixed time per move to the search's two limits, a time after which no
//! new iteration starts and a time at which the search stops.

use std::time::Duration;

/// Time kept back from every clock for the answer to reach the other side
/// (process start-up, pipes, the GUI).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// The clock of the side to move, as the protocol's `go` gives it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `movetime`: exactly this long for the move.
    pub movetime: Option<Duration>,
    /// Main time left on the side's clock.
    pub remaining: Option<Duration>,
    /// Added to the clock after each move.
    pub increment: Duration,
    /// Time per move once the main time is spent (byoyomi).
    pub byoyomi: Duration,
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// What the search may spend on one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration after this much (None: until `maximum`).
    pub optimum: Option<Duration>,
    /// Stop the search at this much.
    pub maximum: Duration,
}

impl Clock {
    /// The budget of one move, or None if the clock gives no time (the
    /// search then has no time limit).
    ///
    /// A fixed `movetime` is used to its end, less a small margin for the
    /// answer (1/25 of it, at least 1 ms and at most the overhead). On a
    /// clock the aim is the main time over the moves to go (30 if unknown)
    /// plus three quarters of the increment plus the whole byoyomi (which is
    /// lost if not used), and the search never runs past a quarter of the
    /// main time plus the byoyomi, nor past the time left less
    /// [`MOVE_OVERHEAD`].
    pub fn budget(&self) -> Option<Budget> {
        if let Some(t) = self.movetime {
            let margin = (t / 25).clamp(Duration::from_millis(1), MOVE_OVERHEAD);
            return Some(Budget {
                optimum: None,
                maximum: t.saturating_sub(margin).max(Duration::from_millis(1)),
            });
        }
        if self.remaining.is_none() && self.byoyomi.is_zero() {
            return None;
        }
        let left = self.remaining.unwrap_or_default();
        let to_go = self.moves_to_go.unwrap_or(30).clamp(1, 100);
        let total = left + self.byoyomi;
        // Never more than what is on the clock, less the overhead (or half
        // of what is left when even that is less than the overhead).
        let safe = if total > MOVE_OVERHEAD * 2 {
            total - MOVE_OVERHEAD
        } else {
            total / 2
        };
        let base = left / to_go + self.increment * 3 / 4;
        let optimum = (base + self.byoyomi).min(safe);
        let maximum = (base * 4).min(left / 4) + self.byoyomi;
        let maximum = maximum.max(optimum).min(safe);
        let floor = Duration::from_millis(1);
        Some(Budget {
            optimum: Some(optimum.max(floor)),
            maximum: maximum.max(floor),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_movetime_is_used_to_its_end_less_a_margin() {
        let b = Clock {
            movetime: Some(ms(50)),
            ..Clock::default()
        }
        .budget()
        .expect("a budget");
        assert_eq!(b.optimum, None);
        assert_eq!(b.maximum, ms(48));
        let b = Clock {
            movetime: Some(ms(10_000)),
            ..Clock::default()
        }
        .budget()
        .expect("a budget");
        assert_eq!(b.maximum, ms(10_000) - MOVE_OVERHEAD);
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(Clock::default().budget(), None);
    }

    #[test]
    fn the_search_never_runs_past_the_clock() {
        for left in [0, 1, 5, 20, 31, 60, 100, 1_000, 10_000, 600_000] {
            for inc in [0, 100, 2_000] {
                for byo in [0, 10, 100, 1_000, 10_000] {
                    for to_go in [None, Some(1), Some(40)] {
                        let c = Clock {
                            remaining: Some(ms(left)),
                            increment: ms(inc),
                            byoyomi: ms(byo),
                            moves_to_go: to_go,
                            ..Clock::default()
                        };
                        let b = c.budget().expect("a budget");
                        let total = ms(left + byo);
                        let opt = b.optimum.expect("an optimum on a clock");
                        assert!(opt <= b.maximum, "{c:?}: {b:?}");
                        if total > MOVE_OVERHEAD * 2 {
                            assert!(b.maximum <= total - MOVE_OVERHEAD, "{c:?}: {b:?}");
                        } else {
                            assert!(b.maximum <= total.max(ms(1)), "{c:?}: {b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn byoyomi_is_spent_and_main_time_is_shared_out() {
        let b = Clock {
            remaining: Some(ms(0)),
            byoyomi: ms(1_000),
            ..Clock::default()
        }
        .budget()
        .expect("a budget");
        assert_eq!(b.optimum, Some(ms(1_000) - MOVE_OVERHEAD));
        assert_eq!(b.maximum, ms(1_000) - MOVE_OVERHEAD);
        let b = Clock {
            remaining: Some(ms(60_000)),
            ..Clock::default()
        }
        .budget()
        .expect("a budget");
        assert_eq!(b.optimum, Some(ms(2_000)));
        assert_eq!(b.maximum, ms(8_000));
    }
}
