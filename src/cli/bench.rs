//! `koma bench`: how long loading a variant takes, perft speed, and the
//! engine's speed on a fixed number of nodes from the starts.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use std::sync::atomic::AtomicBool;

use koma::engine::{Engine, Limits};
use koma::position::Position;
use koma::{Error, Game, variant, with_rules};

use super::emit;

/// Arguments of `koma bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Fewer repetitions and shallower perft (a smoke run).
    #[arg(long)]
    quick: bool,
}

/// Prints load times per variant and perft speeds.
pub fn run(args: &BenchArgs, out: &mut dyn Write) -> Result<(), Error> {
    let reps = if args.quick { 5 } else { 200 };
    emit(
        out,
        format_args!(
            "# loading and compiling each embedded variant (parents included), mean of {reps}"
        ),
    )?;
    for slug in variant::catalogue() {
        let start = Instant::now();
        for _ in 0..reps {
            let v = variant::load(slug)?;
            Game::compile(&v)?;
        }
        let micros = start.elapsed().as_secs_f64() * 1e6 / reps as f64;
        emit(out, format_args!("load {slug:16} {micros:8.0} µs"))?;
    }
    emit(out, format_args!("# perft from the start, one thread"))?;
    for (slug, depth) in [
        ("judkins-shogi", if args.quick { 4 } else { 6 }),
        ("shogi", if args.quick { 3 } else { 5 }),
    ] {
        let g = Game::load(slug)?;
        let (nodes, secs) = with_rules!(&g, rules => {
            let mut pos = Position::start(rules);
            let start = Instant::now();
            let n = pos.perft(depth);
            (n, start.elapsed().as_secs_f64())
        });
        emit(
            out,
            format_args!(
                "perft {slug:16} depth {depth}: {nodes} nodes in {secs:.3} s, {:.0} nodes/s",
                nodes as f64 / secs.max(1e-9)
            ),
        )?;
    }
    let nodes = if args.quick { 100_000 } else { 2_000_000 };
    emit(
        out,
        format_args!("# search from the start, {nodes} nodes, one thread, a new engine each"),
    )?;
    for slug in ["judkins-shogi", "shogi"] {
        let g = Game::load(slug)?;
        let (info, secs) = with_rules!(&g, rules => {
            let mut pos = Position::start(rules);
            let mut engine = Engine::new(16);
            let stop = AtomicBool::new(false);
            let limits = Limits { nodes: Some(nodes), ..Limits::default() };
            let start = Instant::now();
            let (_, info) = engine.think(&mut pos, limits, &stop, |_| {});
            (info, start.elapsed().as_secs_f64())
        });
        // The search stops on its node count: it has searched `nodes`.
        let depth = info.map_or(0, |i| i.depth);
        emit(
            out,
            format_args!(
                "search {slug:15} depth {depth} completed, in {secs:.3} s, {:.0} nodes/s",
                nodes as f64 / secs.max(1e-9)
            ),
        )?;
    }
    Ok(())
}
