//! `koma perft`: leaf counts of the legal move tree.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::Args;
use koma::board::Bitboard;
use koma::notation::format_move;
use koma::position::{Move, Position};
use koma::{Error, with_position};

use super::{NotationArg, PositionArgs, emit};

/// The deepest perft koma accepts (deeper would run for days on any variant).
const MAX_DEPTH: u32 = 20;

/// Arguments of `koma perft`.
#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Plies to search.
    #[arg(long, short = 'd')]
    depth: u32,
    /// One line `move: count` per legal move first.
    #[arg(long)]
    divide: bool,
    /// Notation of the moves in `--divide`.
    #[arg(long, value_enum, default_value_t)]
    notation: NotationArg,
    /// Also print the time taken and nodes per second (on stderr).
    #[arg(long)]
    stats: bool,
    /// Split the root moves over this many threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

/// Counts each root move's subtree, spread over `threads` threads; shows
/// progress on a terminal.
fn divide<B: Bitboard>(pos: &Position<B>, depth: u32, threads: u32) -> Vec<(Move, u64)> {
    let roots = pos.legal_moves();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(roots.len()));
    let progress = std::io::stderr().is_terminal() && depth >= 5;
    std::thread::scope(|s| {
        for _ in 0..threads.min(roots.len().max(1) as u32) {
            s.spawn(|| {
                let mut p = pos.clone();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&mv) = roots.get(i) else { break };
                    p.play_unchecked(mv);
                    let n = p.perft(depth - 1);
                    p.undo();
                    if let Ok(mut r) = results.lock() {
                        r.push((mv, n));
                    }
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if progress {
                        eprint!("\rperft {depth}: {d}/{} root moves", roots.len());
                    }
                }
            });
        }
    });
    if progress {
        eprint!("\r{}\r", " ".repeat(40));
    }
    results.into_inner().unwrap_or_default()
}

/// Prints the perft count (last line: `total: N`).
pub fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<(), Error> {
    if args.depth > MAX_DEPTH {
        return Err(Error::Usage(format!(
            "--depth {} is too deep: at most {MAX_DEPTH}",
            args.depth
        )));
    }
    let game = args.pos.game()?;
    let mut pos = args.pos.position(&game)?;
    with_position!(&mut pos, pos => {
        let start = Instant::now();
        let total = if args.depth == 0 {
            1
        } else if args.divide || args.threads > 1 || args.depth >= 5 {
            let counts = divide(pos, args.depth, args.threads);
            if args.divide {
                let mut lines: Vec<(String, u64)> = counts.iter().map(|&(m, n)| (format_move(pos, m, args.notation.into()), n)).collect();
                lines.sort();
                for (m, n) in lines {
                    emit(out, format_args!("{m}: {n}"))?;
                }
            }
            counts.iter().map(|&(_, n)| n).sum()
        } else {
            pos.perft(args.depth)
        };
        emit(out, format_args!("total: {total}"))?;
        if args.stats {
            let secs = start.elapsed().as_secs_f64();
            eprintln!("{total} nodes in {secs:.3} s: {:.0} nodes/s", total as f64 / secs.max(1e-9));
        }
        Ok(())
    })
}
