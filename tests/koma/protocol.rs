//! One transcript test per USI command that GUIs rely on beyond the basics:
//! `go mate`, `go ponder` with `ponderhit` and `stop`, `gameover`,
//! `USI_Ponder`, `MultiPV`, `Threads` and `bestmove win` (the impasse rule).
//! Lines are fed to `koma usi` on stdin and the answers read back; searches
//! are bounded by depth so that the answers are reproducible.

use crate::common::{koma_with_input, tests_dir};

/// koma's answers to `input` (after `usi`), with the `id`/`option` lines of
/// the greeting left out.
fn usi(args: &[&str], input: &str) -> Vec<String> {
    let (out, err, code) = koma_with_input(args, format!("usi\n{input}").as_bytes());
    assert_eq!(code, Some(0), "{err}");
    out.lines()
        .filter(|l| !l.starts_with("id ") && !l.starts_with("option ") && *l != "usiok")
        .map(str::to_string)
        .collect()
}

fn options() -> Vec<String> {
    let (out, _, _) = koma_with_input(&["usi"], b"usi\nquit\n");
    out.lines()
        .filter(|l| l.starts_with("option "))
        .map(str::to_string)
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect()
}

/// Positions with a mate, and its length in plies as cshogi finds it
/// (`tests/protocol/mates.tsv`, from `tests/protocol/make_mates.py`): koma's
/// `go mate` answers `checkmate` with a mate of that length, every move
/// legal, the last leaving the defender without a legal move.
#[test]
fn go_mate_finds_the_mates_cshogi_finds() {
    let text = std::fs::read_to_string(tests_dir().join("protocol/mates.tsv")).expect("mates.tsv");
    let cases: Vec<(&str, usize)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (sfen, plies) = l.split_once('\t').expect("sfen<TAB>plies");
            (sfen, plies.trim().parse().expect("a number of plies"))
        })
        .collect();
    assert!(cases.len() >= 10, "{} cases", cases.len());
    let input: String = cases
        .iter()
        .map(|(sfen, _)| format!("position sfen {sfen}\ngo mate 20000\n"))
        .collect();
    let out = usi(&[], &input);
    let answers: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("checkmate "))
        .collect();
    assert_eq!(answers.len(), cases.len(), "{out:?}");
    let shogi = koma::Game::load("shogi").expect("shogi");
    for ((sfen, plies), answer) in cases.iter().zip(answers) {
        let moves: Vec<String> = answer.split_whitespace().map(str::to_string).collect();
        assert_eq!(moves.len(), *plies, "{sfen}: {answer}");
        let setup = koma::setup::Setup::parse_sfen(sfen).expect("sfen");
        let pos = koma::position::AnyPosition::from_moves(&shogi, &setup, &moves)
            .unwrap_or_else(|e| panic!("{sfen}: {answer}: {e}"));
        assert!(pos.legal_moves().is_empty(), "{sfen}: {answer} is no mate");
    }
}

/// UCI's `go mate N` (Fairy-Stockfish notation, FEN): with no other limit,
/// the search answers as soon as it has found a mate in at most N moves, its
/// first move the `bestmove`, with no default time; the same positions as
/// cshogi's mates, mates of up to three moves.
#[test]
fn uci_go_mate_answers_when_a_mate_is_found() {
    let text = std::fs::read_to_string(tests_dir().join("protocol/mates.tsv")).expect("mates.tsv");
    let shogi = koma::Game::load("shogi").expect("shogi");
    let mut input = String::from("uci\nsetoption name UCI_Variant value shogi\n");
    let mut lengths = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (sfen, plies) = line.split_once('\t').expect("sfen<TAB>plies");
        let plies: i32 = plies.trim().parse().expect("plies");
        if plies > 5 {
            continue;
        }
        let setup = koma::setup::Setup::parse_sfen(sfen).expect("sfen");
        let pos = koma::position::AnyPosition::from_moves(&shogi, &setup, &[] as &[String])
            .expect("valid");
        let moves = (plies + 1) / 2;
        input.push_str(&format!(
            "position fen {}\ngo mate {moves}\nisready\n",
            pos.fen()
        ));
        lengths.push(moves);
    }
    assert!(lengths.len() >= 8, "{} cases", lengths.len());
    let (out, err, code) = koma_with_input(&[], input.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    // `isready` is answered at once, during a search too, so `readyok` may
    // come before the search's last lines: it is left out.
    let lines: Vec<&str> = out.lines().filter(|l| *l != "readyok").collect();
    let answers: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("bestmove "))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(answers.len(), lengths.len(), "{out}");
    for (&at, &moves) in answers.iter().zip(&lengths) {
        let info = lines[at - 1];
        let found: i32 = info
            .split_once("score mate ")
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no mate score before {}: {info}", lines[at]));
        assert!(
            (1..=moves).contains(&found),
            "mate in {moves} asked: {info}"
        );
        // It stops there: no deeper iteration after the first such mate.
        let first = (0..at)
            .rev()
            .take_while(|&i| lines[i].starts_with("info "))
            .filter(|&i| lines[i].contains(" score mate "))
            .min()
            .expect("a mate line");
        assert_eq!(
            first,
            at - 1,
            "searched on after the mate: {:?}",
            &lines[first..=at]
        );
        let best = lines[at].split_whitespace().nth(1).expect("a move");
        let pv = info.split_once(" pv ").map(|(_, pv)| pv).expect("a pv");
        assert_eq!(pv.split_whitespace().next(), Some(best), "{info}");
    }
}

#[test]
fn go_mate_says_nomate_and_timeout() {
    let out = usi(
        &[],
        // No check at all from the start: proved at once.
        "position startpos\ngo mate 5000\n\
         position sfen 4k4/9/9/9/9/9/9/9/4K4 b RBG 1\ngo mate 200\n\
         position sfen 4k4/9/9/9/9/9/9/9/4K4 b RBG 1\ngo mate infinite\nstop\n\
         position startpos\ngo mate soon\n\
         position sfen nonsense\ngo mate 100\n",
    );
    assert_eq!(
        out,
        [
            "checkmate nomate",
            "checkmate timeout",
            "checkmate timeout",
            "info string error: 'go mate soon': expected a time in ms or 'infinite'",
            "checkmate timeout",
            "info string error: bad SFEN: the SFEN has no side to move: expected 'b' (sente) or 'w' (gote) (at character 9)",
            "info string error: the last position was refused; send a valid position first",
            "checkmate nomate"
        ],
        "{out:?}"
    );
}

#[test]
fn go_ponder_answers_after_ponderhit_or_stop_only() {
    // A ponder search of depth 3 finishes at once but waits; `ponderhit`
    // searches the same `go` for real; one answer.
    let out = usi(
        &[],
        "position startpos moves 7g7f 3c3d\ngo ponder depth 3\nponderhit\nisready\n",
    );
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
    let best = out
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    assert!(out[best - 1].starts_with("info depth 3 "), "{out:?}");
    // `stop` ends it with an answer; `gameover` ends it too.
    let out = usi(&[], "position startpos\ngo ponder\nstop\nisready\n");
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
    let out = usi(
        &[],
        "position startpos\ngo ponder\ngameover lose\nisready\n",
    );
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("readyok"), "{out:?}");
}

/// `bestmove M ponder R`: R is the reply of the line reported last, legal
/// after M.
#[test]
fn bestmove_offers_a_ponder_move_from_its_line() {
    let out = usi(&[], "position startpos moves 7g7f\ngo depth 4\n");
    let last_pv = out
        .iter()
        .rfind(|l| l.starts_with("info depth 4 "))
        .and_then(|l| l.split_once(" pv "))
        .map(|(_, pv)| pv.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .expect("a depth 4 line");
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    assert_eq!(best[0].replace(" ponder ", " "), last_pv, "{out:?}");
}

#[test]
fn usi_ponder_is_an_option_with_true_or_false() {
    assert!(options().contains(&"option name USI_Ponder type check default false".to_string()));
    let out = usi(
        &[],
        "setoption name USI_Ponder value true\nsetoption name USI_Ponder value maybe\nisready\n",
    );
    assert_eq!(
        out,
        [
            "info string error: USI_Ponder is true or false, not 'maybe'",
            "readyok"
        ]
    );
}

/// `MultiPV 3`: three lines a depth, numbered, with three different first
/// moves; line 1 is the move played, scores do not rise from line to line.
#[test]
fn multipv_reports_that_many_lines() {
    assert!(
        options().contains(&"option name MultiPV type spin default 1 min 1 max 64".to_string())
    );
    let out = usi(
        &[],
        "setoption name MultiPV value 3\nposition startpos\ngo depth 3\nsetoption name MultiPV value 0\n",
    );
    for depth in 1..=3 {
        let lines: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with(&format!("info depth {depth} ")))
            .collect();
        assert_eq!(lines.len(), 3, "{out:?}");
        let field = |l: &str, key: &str| -> String {
            let rest = l.split_once(&format!(" {key} ")).expect(key).1;
            rest.split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string()
        };
        let k: Vec<String> = lines.iter().map(|l| field(l, "multipv")).collect();
        assert_eq!(k, ["1", "2", "3"]);
        let first: std::collections::BTreeSet<String> =
            lines.iter().map(|l| field(l, "pv")).collect();
        assert_eq!(first.len(), 3, "{lines:?}");
        let scores: Vec<i32> = lines
            .iter()
            .map(|l| field(l, "cp").parse().unwrap_or(0))
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{lines:?}");
        if depth == 3 {
            assert_eq!(
                bestmoves(&out)[0].split(' ').next(),
                Some(field(lines[0], "pv").as_str())
            );
        }
    }
    assert!(
        out.iter()
            .any(|l| l.contains("MultiPV is a number from 1 to 64, not '0'")),
        "{out:?}"
    );
}

/// `Threads` searches with that many threads (lazy SMP): the answers are
/// the one thread's kind (a legal best move, a mate found as a mate), the
/// node counts are all threads' together, and numbers outside 1 to 64 are
/// refused with the range.
#[test]
fn threads_search_together_and_refuse_what_is_not_offered() {
    assert!(
        options().contains(&"option name Threads type spin default 1 min 1 max 64".to_string())
    );
    let out = usi(
        &[],
        "setoption name Threads value 0\nsetoption name Threads value 65\n\
         setoption name Threads value many\nisready\n",
    );
    assert_eq!(
        out,
        [
            "info string error: Threads is a number from 1 to 64, not '0'",
            "info string error: Threads is a number from 1 to 64, not '65'",
            "info string error: Threads is a number from 1 to 64, not 'many'",
            "readyok"
        ]
    );
    // Mate in one (tests/protocol/mates.tsv's first kind): gold drop.
    let input = "setoption name Threads value 3\nposition sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n\
                 go depth 6\nposition startpos\ngo nodes 30000\n";
    let out = usi(&[], input);
    let moves = bestmoves(&out);
    assert_eq!(moves.len(), 2, "{out:?}");
    assert_eq!(moves[0].split(' ').next(), Some("G*5b"), "{out:?}");
    assert!(out.iter().any(|l| l.contains(" score mate 1 ")), "{out:?}");
    let legal = koma_with_input(&["moves", "--variant", "shogi"], b"").0;
    let first = moves[1].split(' ').next().unwrap_or_default();
    assert!(
        legal.split_whitespace().any(|m| m == first),
        "{first} in {legal}"
    );
    // Nodes of all threads: the limit holds for them together.
    let nodes: Vec<u64> = out
        .iter()
        .skip_while(|l| !l.contains(" score mate 1 "))
        .filter_map(|l| l.split(" nodes ").nth(1))
        .filter_map(|r| r.split(' ').next()?.parse().ok())
        .collect();
    assert!(nodes.iter().all(|&n| n <= 30_000 + 3 * 256), "{nodes:?}");
}

/// The impasse rule of `variants/shogi.md`: king in the camp, ten other
/// pieces there, 28 points for sente, 27 for gote (rook and bishop 5).
#[test]
fn bestmove_win_under_the_impasse_rule() {
    let go = |sfen: &str| format!("position sfen {sfen}\ngo depth 1\n");
    let input = [
        // Sente: 8 pieces on rank a, rook and bishop on b (10 pieces, 18
        // points), 10 pawns in hand: 28.
        go("+L+NSG1GS+N+L/1R2K2B1/9/9/9/9/9/9/4k4 b 10P 1"),
        // 27 points are not enough for sente.
        go("+L+NSG1GS+N+L/1R2K2B1/9/9/9/9/9/9/4k4 b 9P 1"),
        // 27 are for gote.
        go("4K4/9/9/9/9/9/9/1r2k2b1/+l+nsg1gs+n+l w 9p 1"),
        go("4K4/9/9/9/9/9/9/1r2k2b1/+l+nsg1gs+n+l w 8p 1"),
        // Enough points, but the king is outside the camp.
        go("+L+NSG1GS+N+L/1R5B1/9/4K4/9/9/9/9/4k4 b 10P 1"),
        // In check: no declaration.
        go("+L+NSG1GS+N+L/1R2K2B1/9/9/9/4r4/9/9/4k4 b 10P 1"),
    ]
    .concat();
    let out = usi(&[], &input);
    let answers: Vec<&str> = bestmoves(&out);
    assert_eq!(answers.len(), 6, "{out:?}");
    let wins: Vec<bool> = answers.iter().map(|a| *a == "win").collect();
    assert_eq!(wins, [true, false, true, false, false, false], "{out:?}");
    // Only shogi's file has the rule: the same count in another game is no win.
    let out = usi(
        &["usi", "--variant", "sho-shogi"],
        &go("+L+NSG1GS+N+L/1R2K2B1/9/9/9/9/9/9/4k4 b - 1"),
    );
    assert_ne!(bestmoves(&out), ["win"], "{out:?}");
}

/// The evaluation weights' options show, as their defaults, the current
/// variant's weights: its file's `engine.eval` over the generic defaults.
#[test]
fn weight_options_show_the_variant_files_weights() {
    let path = tests_dir().join("engine/judkins-weighted.md");
    let input = format!(
        "usi\nsetoption name USI_Variant value {}\nusi\nquit\n",
        path.display()
    );
    let (out, err, code) = koma_with_input(&["usi"], input.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    let mobility: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("option name mobility "))
        .collect();
    assert_eq!(mobility.len(), 2, "{out}");
    assert!(mobility[1].contains(" default 40 "), "{mobility:?}");
}

/// A GUI's `position ... moves` reads moves as a player's are read
/// (issue 45): gote's chu lion passes through e6, which koma would write
/// through c5, and the pawn on c4 is still there for sente's next move;
/// a route the lion cannot take is refused with the reason.
#[test]
fn position_moves_read_a_pass_through_any_empty_square() {
    let sfen = "lfcsgekgscfl/a1bt1xot1b1a/mvrhdq1dhrvm/ppppppppp1pp/3i4ip2/12/12/P2n4I3/1PPPPPPPPPPP/MVRHDQ1D1RVM/A1BNTOXTHBCA/LFCSGKEGS1FL w - 18";
    let input = format!(
        "position sfen {sfen} moves 9h8g9h 10i10h\nposition sfen {sfen} moves 9h7f9h\nquit\n"
    );
    let out = usi(&["usi", "--variant", "chu-shogi"], &input);
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(
        errors,
        [
            "info string error: move 1: 9h7f9h is illegal: a lion cannot move from 9h through 7f to 9h"
        ],
        "{out:?}"
    );
}

/// Judkins' shogi's legal moves after `moves`, in Fairy-Stockfish's
/// notation (XBoard's), from `koma moves`.
fn judkins_moves_after(moves: &[&str]) -> Vec<String> {
    let mut args = vec!["moves", "--variant", "judkins-shogi", "--notation", "fairy"];
    if !moves.is_empty() {
        args.push("--moves");
        args.extend_from_slice(moves);
    }
    koma_with_input(&args, b"")
        .0
        .lines()
        .map(str::to_string)
        .collect()
}

/// koma's answers to an XBoard session (`koma xboard`, or `koma` with
/// `xboard` first), thinking lines dropped.
fn xboard(args: &[&str], input: &str) -> Vec<String> {
    let (out, err, code) = koma_with_input(args, input.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    // A thinking line: depth, score, time, nodes, then the moves.
    let thinking = |l: &str| {
        let w: Vec<&str> = l.split(' ').collect();
        w.len() >= 4 && w[..4].iter().all(|x| x.parse::<i64>().is_ok())
    };
    out.lines()
        .filter(|l| !thinking(l))
        .map(str::to_string)
        .collect()
}

#[test]
fn xboard_features_name_every_variant_and_the_protocol_koma_speaks() {
    let lines = xboard(&[], "xboard\nprotover 2\nquit\n");
    let feature = lines.first().expect("a feature line");
    for f in ["usermove=1", "setboard=1", "ping=1", "sigint=0", "done=1"] {
        assert!(feature.contains(f), "{f} in {feature}");
    }
    let variants = feature
        .split("variants=\"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .expect("variants");
    let names: Vec<&str> = variants.split(',').collect();
    for v in ["shogi", "chu", "judkins-shogi", "dai-shogi"] {
        assert!(names.contains(&v), "{v} in {variants}");
    }
}

#[test]
fn xboard_plays_moves_takes_them_back_and_answers_pings_in_order() {
    let input = "xboard\nprotover 2\nnew\nvariant judkins-shogi\nsd 2\nusermove a2a3\nping 1\nundo\nundo\nforce\nusermove a2a3\nping 2\ngo\nping 3\nquit\n";
    let lines = xboard(&["xboard"], input);
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 2, "{lines:?}");
    // After a2a3 the engine (gote) answered; in force mode it waits, and
    // `go` makes it play gote's move again.
    let legal = judkins_moves_after(&["a2a3"]);
    for m in &moves {
        assert!(legal.iter().any(|l| l == &m[5..]), "{m} legal after a2a3");
    }
    let order: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("move ") || l.starts_with("pong "))
        .map(|l| l.split(' ').next().unwrap_or_default())
        .collect();
    assert_eq!(order, ["move", "pong", "pong", "move", "pong"], "{lines:?}");
}

#[test]
fn xboard_refuses_bad_moves_positions_and_commands_with_reasons() {
    let input = "xboard\nprotover 2\nnew\nvariant judkins-shogi\nforce\nusermove a2a5\nusermove z9z9\nsetboard not a fen\nlevel 40\nvariant no-such-game\nfrobnicate\nusermove a2a3\nping 9\nquit\n";
    let lines = xboard(&["xboard"], input);
    let has = |p: &str| lines.iter().any(|l| l.starts_with(p));
    assert!(has("Illegal move ("), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Illegal move") && l.ends_with(": z9z9")),
        "{lines:?}"
    );
    assert!(has("tellusererror Illegal position"), "{lines:?}");
    assert!(has("Error (bad level"), "{lines:?}");
    assert!(has("Error (unknown variant): no-such-game"), "{lines:?}");
    assert!(has("Error (unknown command): frobnicate"), "{lines:?}");
    // The session goes on after each refusal: the legal move is taken.
    assert!(has("pong 9"), "{lines:?}");
    assert!(!has("move "), "force mode makes no move: {lines:?}");
}

#[test]
fn xboard_announces_the_result_of_the_engines_mate() {
    // Sente (white) mates with G*b2 or a drop next to gote's king.
    let fen = "k5/6/1K4/6/6/6[G] w - - 0 1";
    let input = format!(
        "xboard\nprotover 2\nnew\nvariant judkins-shogi\nforce\nsetboard {fen}\nsd 3\ngo\nquit\n"
    );
    let lines = xboard(&["xboard"], &input);
    let i = lines
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("a move");
    assert_eq!(
        lines.get(i + 1).map(String::as_str),
        Some("1-0 {sente wins by checkmate}"),
        "{lines:?}"
    );
}

#[test]
fn xboard_takes_a_lions_two_legs_as_xboard_writes_them() {
    // The game of issue 45, in chu shogi: gote's lion on d5 takes the pawn
    // on c4 without moving, written as XBoard writes two legs.
    let moves = "f3d2 g10f8 i3i2 j9j8 d2b2 f8h7 j1k2 h7g8 b2d2 g8f7 a4a5 f7g8,g8f7 g3f3 e11d11 d2b2 f7d5 b2d2 d5c4,c4d5";
    let mut input = "xboard\nprotover 2\nnew\nvariant chu\nforce\n".to_string();
    for m in moves.split(' ') {
        input.push_str(&format!("usermove {m}\n"));
    }
    input.push_str("ping 1\nquit\n");
    let lines = xboard(&["xboard"], &input);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("pong 1"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

/// A running `koma xboard`, talked to line by line.
struct Live {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Live {
    fn start() -> Live {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg("xboard")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("koma runs");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Live {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        use std::io::Write;
        let stdin = self.child.stdin.as_mut().expect("stdin");
        stdin.write_all(text.as_bytes()).expect("written");
        stdin.flush().expect("flushed");
    }

    /// The first line from now on that `want` accepts (60 s at most: the
    /// engine is not timed here, a hang is caught).
    fn wait_for(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if want(&line) {
                        return line;
                    }
                }
                Err(_) => panic!("no {what} in: {:?}", self.seen),
            }
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A thinking line's depth and principal variation.
fn thinking(line: &str) -> Option<(u32, Vec<String>)> {
    let w: Vec<&str> = line.split(' ').collect();
    if w.len() < 5 || !w[..4].iter().all(|x| x.parse::<i64>().is_ok()) {
        return None;
    }
    Some((
        w[0].parse().ok()?,
        w[4..].iter().map(|s| s.to_string()).collect(),
    ))
}

#[test]
fn xboard_analyzes_without_moving_and_follows_the_moves_it_is_sent() {
    let mut k = Live::start();
    k.send("xboard\nprotover 2\nnew\nvariant judkins-shogi\nforce\npost\nanalyze\n");
    let deep = |l: &str| thinking(l).is_some_and(|(d, _)| d >= 3);
    let first = k.wait_for("an analysis line of depth 3", deep);
    // Sente to move: its line starts with a move of sente's.
    let sente = judkins_moves_after(&[]);
    let pv = thinking(&first).expect("a line").1;
    assert!(sente.contains(&pv[0]), "{first}");
    k.send("usermove a2a3\n");
    let gote = judkins_moves_after(&["a2a3"]);
    let line = k.wait_for("an analysis line after a2a3", |l| {
        thinking(l).is_some_and(|(d, pv)| d >= 2 && gote.contains(&pv[0]))
    });
    assert!(!line.is_empty());
    k.send("exit\nping 7\n");
    k.wait_for("pong 7", |l| l == "pong 7");
    assert!(
        !k.seen.iter().any(|l| l.starts_with("move ")),
        "{:?}",
        k.seen
    );
    k.send("quit\n");
}

#[test]
fn xboard_moves_at_once_when_told_to_and_not_after_force() {
    let mut k = Live::start();
    // Thirty seconds a move: `?` makes it move now.
    k.send("xboard\nprotover 2\nnew\nvariant judkins-shogi\nst 30\nusermove a2a3\n");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let asked = std::time::Instant::now();
    k.send("?\n");
    let mv = k.wait_for("a move", |l| l.starts_with("move "));
    assert!(
        asked.elapsed() < std::time::Duration::from_secs(25),
        "{mv} after {:?}",
        asked.elapsed()
    );
    // `force` while it thinks: no move comes.
    let reply = &mv["move ".len()..];
    let legal = judkins_moves_after(&["a2a3", reply]);
    let next = legal.first().expect("a legal move for sente");
    k.send(&format!("usermove {next}\n"));
    std::thread::sleep(std::time::Duration::from_millis(300));
    k.send("force\nping 8\n");
    k.wait_for("pong 8", |l| l == "pong 8");
    let moves = k.seen.iter().filter(|l| l.starts_with("move ")).count();
    assert_eq!(moves, 1, "{:?}", k.seen);
    k.send("quit\n");
}
