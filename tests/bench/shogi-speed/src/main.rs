//! Perft of 9×9 shogi by two hand-written, shogi-only move generators, for
//! `tests/bench/speed.sh` to run side by side with koma. Benchmark-only:
//! koma never links these crates.
//!
//! Usage: `shogi-speed haitaka|rsshogi DEPTH SFEN`; prints
//! `nodes N seconds S`. Both count leaves with bulk counting at the last ply,
//! as koma's `perft` does.

use std::process::ExitCode;
use std::time::Instant;

/// haitaka's own example perft (bulk counting at depth 1): board moves and
/// drops through its callbacks, a copied board per move.
fn haitaka_perft(board: &haitaka::Board, depth: u8) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_board_moves(|moves| {
            nodes += moves.into_iter().len() as u64;
            false
        });
        board.generate_drops(|moves| {
            nodes += moves.into_iter().len() as u64;
            false
        });
        return nodes;
    }
    let mut visit = |moves: haitaka::PieceMoves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += haitaka_perft(&child, depth - 1);
        }
        false
    };
    board.generate_board_moves(&mut visit);
    board.generate_drops(&mut visit);
    nodes
}

fn run(engine: &str, depth: u8, sfen: &str) -> Result<u64, String> {
    match engine {
        "haitaka" => {
            let board = haitaka::Board::from_sfen(sfen).map_err(|e| format!("{e:?}"))?;
            Ok(if depth == 0 { 1 } else { haitaka_perft(&board, depth) })
        }
        "rsshogi" => {
            let pos = rsshogi::board::position_from_sfen(sfen).map_err(|e| format!("{e:?}"))?;
            rsshogi::board::perft::perft(&pos, depth)
                .map(|r| r.nodes)
                .map_err(|e| e.to_string())
        }
        _ => Err(format!("unknown engine '{engine}' (haitaka or rsshogi)")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, engine, depth, sfen] = &args[..] else {
        eprintln!("usage: shogi-speed haitaka|rsshogi DEPTH SFEN");
        return ExitCode::from(2);
    };
    let Ok(depth) = depth.parse::<u8>() else {
        eprintln!("shogi-speed: '{depth}' is not a depth");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    match run(engine, depth, sfen) {
        Ok(nodes) => {
            println!("nodes {nodes} seconds {:.4}", start.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shogi-speed: {e}");
            ExitCode::from(2)
        }
    }
}
