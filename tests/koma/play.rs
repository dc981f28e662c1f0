//! `koma play`, `koma usi`, `koma uci` and `koma validate --game`, driven
//! through stdin as a person or a GUI would.

use std::process::{Command, Stdio};

fn run(args: &[&str], input: &str) -> (String, String, Option<i32>) {
    run_bytes(args, input.as_bytes())
}

fn run_bytes(args: &[&str], input: &[u8]) -> (String, String, Option<i32>) {
    crate::common::koma_with_input(args, input)
}

/// The SFEN lines printed by the `sfen` command (after a prompt).
fn sfens(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| {
            l.trim_start_matches("sente> ")
                .trim_start_matches("gote> ")
                .strip_prefix("sfen ")
        })
        .map(str::to_string)
        .collect()
}

const MATE_IN_ONE: &str = "k5/2G3/1P4/6/6/5K[] w - - 0 1";

#[test]
fn a_scripted_game_ends_in_checkmate() {
    let (out, err, code) = run(&["play", "--fen", MATE_IN_ONE, "--gote", "human"], "4b5b\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Game over: sente wins by checkmate"), "{out}");
}

#[test]
fn illegal_and_unreadable_input_is_refused_and_the_game_goes_on() {
    let (out, _, code) = run(
        &["play", "--gote", "human"],
        "6e6c\nnonsense\nsfen\n6e6d\nsfen\n",
    );
    assert_eq!(code, Some(0));
    assert!(
        out.contains("6e6c is illegal: a pawn cannot move from 6e to 6c"),
        "{out}"
    );
    assert!(out.contains("'nonsense' is not a move"), "{out}");
    assert_eq!(
        sfens(&out),
        [
            "rbsgkn/5p/6/6/P5/NKGSBR b - 1",
            "rbsgkn/5p/6/P5/6/NKGSBR w - 2"
        ]
    );
}

#[test]
fn undo_takes_back_the_engine_reply_too() {
    let (out, _, _) = run(&["play", "--depth", "2"], "6e6d\nundo\nsfen\nquit\n");
    assert!(out.contains("koma (gote) plays"), "{out}");
    assert_eq!(sfens(&out), ["rbsgkn/5p/6/6/P5/NKGSBR b - 1"], "{out}");
}

#[test]
fn the_promotion_choice_is_asked() {
    let (out, _, _) = run(
        &[
            "play",
            "--fen",
            "k5/6/2S3/6/6/5K[] w - - 0 1",
            "--gote",
            "human",
        ],
        "4c4b\ny\nsfen\n",
    );
    assert!(out.contains("Promote? [y/n]"), "{out}");
    assert_eq!(sfens(&out), ["k5/2+S3/6/6/6/5K w - 2"], "{out}");
}

#[test]
fn the_engine_beats_itself_to_a_result() {
    let (out, _, code) = run(
        &[
            "play", "--sente", "engine", "--gote", "engine", "--depth", "2",
        ],
        "",
    );
    assert_eq!(code, Some(0));
    assert!(out.contains("Game over:"), "{out}");
}

#[test]
fn a_saved_game_validates() {
    let path = std::env::temp_dir().join(format!("koma-saved-{}.txt", std::process::id()));
    let p = path.to_str().expect("utf-8");
    let (out, _, _) = run(
        &["play", "--fen", MATE_IN_ONE, "--gote", "human"],
        &format!("4b5b\nsave {p}\nquit\n"),
    );
    assert!(out.contains("Saved the game"), "{out}");
    let (out, err, code) = run(&["validate", "--game", p], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("result: sente wins by checkmate"), "{out}");
    assert!(out.contains("sfen: k5/1G4/1P4/6/6/5K w - 2"), "{out}");
}

#[test]
fn an_illegal_record_names_the_move_and_the_reason() {
    let path = std::env::temp_dir().join(format!("koma-bad-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        "variant: judkins-shogi\n# a comment\n6e6d 1b1c\nP*6c\n",
    )
    .expect("written");
    let (_, err, code) = run(&["validate", "--game", path.to_str().expect("utf-8")], "");
    assert_eq!(code, Some(1));
    assert!(
        err.contains(":4: move 3, P*6c: sente has no pawn in hand"),
        "{err}"
    );
}

/// A USI conversation with the variable parts (times) blanked.
fn transcript(args: &[&str], input: &str) -> String {
    let (out, _, code) = run(args, input);
    assert_eq!(code, Some(0));
    out.lines()
        .map(|l| match l.split_once(" time ") {
            Some((a, b)) => format!("{a} time _ {}", b.split_once(' ').map_or("", |x| x.1)),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn usi_conversation() {
    insta::assert_snapshot!(transcript(
        &["usi"],
        "usi\nisready\nusinewgame\nposition startpos moves 7g7f 3c3d\ngo depth 3\n"
    ));
}

#[test]
fn uci_conversation_in_fairy_stockfish_style() {
    insta::assert_snapshot!(transcript(
        &["uci"],
        "uci\nsetoption name UCI_Variant value minishogi\nisready\nposition fen rbsgk/4p/5/P4/KGSBR[] w - - 0 1 moves a2a3\ngo depth 3\n"
    ));
}

#[test]
fn bad_protocol_input_is_reported_not_fatal() {
    let (out, _, code) = run(
        &["usi"],
        "position sfen nonsense\nposition startpos moves 9z9z\nfrobnicate\nisready\n",
    );
    assert_eq!(code, Some(0));
    assert!(out.contains("info string error: bad SFEN"), "{out}");
    assert!(
        out.contains("info string error: move 1: '9z9z' is not a move"),
        "{out}"
    );
    assert!(
        out.contains("info string unknown command 'frobnicate'"),
        "{out}"
    );
    assert!(out.ends_with("readyok\n"), "{out}");
}

#[test]
fn the_documented_transcript_is_what_koma_prints() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play");
    let input = std::fs::read_to_string(dir.join("mate-in-one.input")).expect("input");
    let expected = std::fs::read_to_string(dir.join("mate-in-one.transcript")).expect("transcript");
    let (out, _, code) = run(&["play", "--fen", MATE_IN_ONE], &input);
    assert_eq!(code, Some(0));
    assert_eq!(
        out, expected,
        "tests/play/mate-in-one.transcript is out of date"
    );
}

#[test]
fn an_endless_search_stops_on_stop_and_at_the_end_of_input() {
    let (out, _, code) = run(&["usi"], "position startpos\ngo infinite\nstop\nisready\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("bestmove "), "{out}");
    assert!(out.trim_end().ends_with("readyok"), "{out}");
    let (out, _, code) = run(&["uci"], "position startpos\ngo infinite\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("bestmove "), "{out}");
}

/// Found by the `play` fuzz target: a line that is not UTF-8 ended the game
/// with an error. It is a line that is not a move, and play goes on.
#[test]
fn a_line_that_is_not_utf8_is_refused_and_play_goes_on() {
    let (out, err, code) = run_bytes(
        &["play", "--gote", "human"],
        b"\xff\xfe\n6e6d\nsfen\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Type 'moves' for the legal moves"), "{out}");
    assert_eq!(sfens(&out), ["rbsgkn/5p/6/P5/6/NKGSBR w - 2"], "{out}");
}

/// The same for the engine protocols: such a line is an unknown command,
/// not the end of the input.
#[test]
fn usi_and_uci_read_on_after_a_line_that_is_not_utf8() {
    for (dialect, ok) in [("usi", "usiok"), ("uci", "uciok")] {
        let mut input = b"\xff isready\n".to_vec();
        input.extend_from_slice(format!("{dialect}\nquit\n").as_bytes());
        let (out, err, code) = run_bytes(&[dialect], &input);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("info string unknown command"), "{out}");
        assert!(out.contains(ok), "{out}");
    }
}

/// Every protocol command with hostile arguments gets an answer (or is
/// ignored) and the session goes on: huge and negative numbers, unknown
/// variants and options, a `position` of 10,000 moves, binary junk and a
/// megabyte-long line. Searches are bounded by nodes so the test cannot hang
/// on a search that was asked to last for ever.
#[test]
fn hostile_protocol_input_is_answered_and_the_session_goes_on() {
    let shuffle = "5f5e 2a2b 5e5f 2b2a ".repeat(2500);
    let mut lines: Vec<String> = [
        "usi",
        "go depth 18446744073709551615 nodes 2000",
        "go depth 99999999999999999999999 nodes 2000",
        "go nodes -5 depth 2",
        "go movetime -100 depth 2",
        "go btime -1 wtime -1 byoyomi -1 binc -1 winc -1 depth 2",
        "go btime 18446744073709551615 byoyomi 18446744073709551615 depth 2",
        "go depth 0",
        "go",
        "stop",
        "setoption name USI_Variant value no-such-variant",
        "setoption name USI_Variant value ../../etc/passwd",
        "setoption name USI_Variant",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999999999999999999",
        "setoption name Hash value -1",
        "setoption name",
        "setoption",
        "position",
        "position sfen",
        "position fen",
        "position startpos moves",
        "position sfen 9/9/9/9/9/9/9/9/9 b - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 99999999999999",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.push(format!("position startpos moves {shuffle}"));
    lines.push("go nodes 1000".into());
    lines.push("a".repeat(1 << 20));
    lines.push("position startpos".into());
    lines.push("go nodes 1000".into());
    let mut input = lines.join("\n").into_bytes();
    input.extend_from_slice(b"\n\x00\x01\x02\xff\xfe\x1b[2J\n\r\n\t\t\n");
    input.extend_from_slice(b"isready\nquit\n");
    let started = std::time::Instant::now();
    let (out, err, code) = run_bytes(&["usi", "--variant", "judkins-shogi"], &input);
    let took = started.elapsed();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "nothing on stderr: {err}");
    assert!(
        out.len() < 100_000,
        "no long echo of the input: {} bytes",
        out.len()
    );
    let bestmoves = out.lines().filter(|l| l.starts_with("bestmove ")).count();
    // One per `go`: the ten above.
    assert_eq!(bestmoves, 10, "{out}");
    assert!(
        out.contains(
            "info string error: move 13: 5f5e comes after the end of the game (draw by repetition)"
        ),
        "the 10,000-move position is refused where the game ended: {out}"
    );
    assert!(
        out.contains("info string error: unknown variant 'no-such-variant'"),
        "{out}"
    );
    assert!(
        out.contains("info string unknown command 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…'"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
    assert!(
        out.lines()
            .all(|l| !l.starts_with(' ') && !l.starts_with("-->") && !l.starts_with('|')),
        "a message of several lines is sent as info strings, line by line: {out}"
    );
    eprintln!("hostile session answered in {took:?}");
}

/// Started without a command, as a GUI starts an engine, koma speaks the
/// protocol its first line names; in USI the game is shogi until the GUI
/// names another.
#[test]
fn without_a_command_the_first_line_picks_the_protocol() {
    let (out, err, code) = run(
        &[],
        "\nusi\nisready\nposition startpos moves 7g7f\ngo depth 2\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("option name USI_Variant type combo default shogi "),
        "{out}"
    );
    assert!(out.contains("usiok\nreadyok\n"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    let (out, err, code) = run(&[], "uci\nisready\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("uciok\nreadyok\n"), "{out}");
}

/// Any other first line, or none, is a usage error with a message, at once.
#[test]
fn without_a_command_other_input_is_refused() {
    for input in ["hello\nusi\n", "", "\n\n", "usinewgame\n"] {
        let (out, err, code) = run(&[], input);
        assert_eq!(code, Some(2), "{input:?}: {out} {err}");
        assert!(out.is_empty(), "{input:?}: {out}");
        assert!(err.contains("no command given"), "{input:?}: {err}");
        assert!(err.contains("'usi', 'uci' or 'xboard'"), "{input:?}: {err}");
    }
}

/// On a terminal (a pseudo-terminal from util-linux's `script`), `koma`
/// without a command prints its help and does not wait for input.
#[test]
fn without_a_command_a_terminal_gets_help() {
    let koma = env!("CARGO_BIN_EXE_koma");
    let o = Command::new("script")
        .args(["-qec", koma, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's script runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("Commands:"), "{out}");
    assert!(out.contains("no command given"), "{out}");
}

/// The promotion question is asked again until the answer is yes or no.
#[test]
fn the_promotion_question_is_asked_until_yes_or_no() {
    let fen = "k5/6/2S3/6/6/5K[] w - - 0 1";
    for (answers, want) in [
        ("maybe\n\nyes\n", "k5/2+S3/6/6/6/5K w - 2"),
        ("x\nNo\n", "k5/2S3/6/6/6/5K w - 2"),
    ] {
        let (out, _, _) = run(
            &["play", "--fen", fen, "--gote", "human"],
            &format!("4c4b\n{answers}sfen\n"),
        );
        let asked = out.matches("Promote? [y/n]").count();
        let refusals = answers.lines().count() - 1;
        assert_eq!(asked, refusals + 1, "{out}");
        assert_eq!(
            out.matches("Please answer y (promote) or n (do not).")
                .count(),
            refusals,
            "{out}"
        );
        assert_eq!(sfens(&out), [want], "{out}");
    }
}

/// `help` gives examples of moves legal on the board shown: a 9×9 game's
/// are not a 6×6 game's.
#[test]
fn help_examples_are_moves_of_the_current_board() {
    for (args, sfen) in [
        (
            vec!["play", "--gote", "human"],
            "rbsgkn/5p/6/6/P5/NKGSBR b - 1",
        ),
        (
            vec![
                "play",
                "-v",
                "shogi",
                "--gote",
                "human",
                "--sfen",
                "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            ],
            "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        ),
    ] {
        let (out, _, _) = run(&args, "help\n");
        let line = out
            .lines()
            .find_map(|l| l.split_once("Type a move in USI (").map(|x| x.1))
            .unwrap_or_else(|| panic!("{out}"));
        let usi: Vec<&str> = line
            .split(')')
            .next()
            .unwrap_or_default()
            .split(", ")
            .collect();
        assert!(!usi.is_empty(), "{out}");
        let variant = args
            .iter()
            .position(|a| *a == "-v")
            .map_or("judkins-shogi", |i| args[i + 1]);
        let game = koma::Game::load(variant).expect("variant");
        let pos = crate::common::position_at(&game, sfen);
        for m in &usi {
            assert!(pos.parse_move(m).is_ok(), "{m} is no move here: {out}");
        }
    }
}

/// `undo` names the moves it took back: the engine's reply and the move.
#[test]
fn undo_says_what_it_took_back() {
    let (out, _, _) = run(&["play", "--depth", "1"], "6e6d\nundo\nundo\n");
    let reply = out
        .lines()
        .find_map(|l| l.split_once("koma (gote) plays ").map(|x| x.1))
        .and_then(|r| r.split_whitespace().next())
        .expect("the engine replied");
    assert!(
        out.contains(&format!("Took back {reply} (gote) and 6e6d (sente).")),
        "{out}"
    );
    assert!(out.contains("Nothing to undo."), "{out}");
}

/// `quit` offers to save a game with moves not saved; Enter leaves without
/// saving, a file name saves first; a game just saved or without moves is
/// left at once.
#[test]
fn quit_offers_to_save() {
    const OFFER: &str = "Save the game first?";
    let dir = std::env::temp_dir().join(format!("koma-quit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("game.txt");
    let p = path.to_str().expect("path");
    let human = ["play", "--gote", "human"];
    let (out, _, code) = run(&human, "quit\n");
    assert_eq!(code, Some(0));
    assert!(!out.contains(OFFER), "{out}");
    let (out, _, _) = run(&human, "6e6d\nquit\n\n");
    assert!(out.contains(OFFER), "{out}");
    assert!(!path.exists());
    let (out, _, _) = run(&human, &format!("6e6d\nquit\n{p}\n"));
    assert!(out.contains(&format!("Saved the game to {p}.")), "{out}");
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert!(saved.contains("6e6d"), "{saved}");
    let (out, _, _) = run(&human, &format!("6e6d\nsave {p}\nquit\n"));
    assert!(!out.contains(OFFER), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `declare` under shogi's impasse rule (`rules.declaration`): granted
/// with 28 points, refused with 27 and in a game without the rule; `undo`
/// withdraws it; the engine declares when it may.
#[test]
fn declare_wins_under_the_impasse_rule_only_when_it_holds() {
    let camp = |pawns: u32| format!("+L+NSG1GS+N+L/1R2K2B1/9/9/9/9/9/9/4k4 b {pawns}P 1");
    let args = |sfen: &str| -> Vec<String> {
        [
            "play",
            "--variant",
            "shogi",
            "--sfen",
            sfen,
            "--gote",
            "human",
        ]
        .map(str::to_string)
        .to_vec()
    };
    let run_with = |a: Vec<String>, input: &str| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run(&a, input)
    };
    let (out, err, code) = run_with(args(&camp(10)), "declare\n1i1h\nundo\nsfen\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(
            "sente declares a win under the impasse rule. Game over: sente wins by impasse."
        ),
        "{out}"
    );
    assert!(
        out.contains("The game is over (sente wins by impasse)"),
        "{out}"
    );
    assert!(
        out.contains("The result (sente wins by impasse) withdrawn."),
        "{out}"
    );
    assert_eq!(sfens(&out), [camp(10)], "{out}");
    let (out, _, _) = run_with(args(&camp(9)), "declare\n");
    assert!(out.contains("sente may not declare"), "{out}");
    assert!(!out.contains("Game over"), "{out}");
    let (out, _, _) = run(&["play", "--gote", "human"], "declare\n");
    assert!(
        out.contains("This game has no impasse rule: a win cannot be declared."),
        "{out}"
    );
    let mut engine = args(&camp(10));
    engine[5] = "--sente".into();
    engine[6] = "engine".into();
    engine.extend(["--gote".to_string(), "human".to_string()]);
    let (out, _, _) = run_with(engine, "");
    assert!(
        out.contains("sente declares a win under the impasse rule."),
        "{out}"
    );
    assert!(!out.contains("koma (sente) plays"), "{out}");
}

/// `--notation japanese` shows every move in Japanese (the engine's, the
/// last move, the list, the hint, what undo took back); moves are still
/// read in any notation.
#[test]
fn play_shows_moves_in_the_notation_asked_for() {
    let (out, err, code) = run(
        &[
            "play",
            "--variant",
            "shogi",
            "--depth",
            "1",
            "--notation",
            "japanese",
        ],
        "７六歩\nmoves\nundo\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("last move ▲７六歩"), "{out}");
    let reply = out
        .lines()
        .find_map(|l| l.strip_prefix("koma (gote) plays "))
        .expect("an engine move");
    assert!(reply.starts_with('△'), "{reply}");
    let list = out
        .lines()
        .find_map(|l| l.split_once(" legal moves: ").map(|(_, r)| r))
        .expect("the list");
    assert!(list.split(' ').all(|m| m.starts_with('▲')), "{list}");
    assert!(list.contains("▲２二角成"), "{list}");
    assert!(out.contains("Took back △"), "{out}");
    assert!(out.contains("and ▲７六歩 (sente)."), "{out}");
    let (out, _, _) = run(
        &["play", "--notation", "fairy", "--gote", "human"],
        "6e6d\n",
    );
    assert!(out.contains("last move a2a3"), "{out}");
}
