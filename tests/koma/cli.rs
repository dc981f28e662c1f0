//! The `koma` binary as a user runs it: output, messages, exit codes.

use std::process::{Command, Output};

fn koma(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .output()
        .expect("the koma binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn moves_lists_the_start_position() {
    let o = koma(&["moves"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<_> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 21);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "sorted output");
    assert!(lines.contains(&"6e6d".to_string()) && lines.contains(&"2f6b+".to_string()));
}

#[test]
fn fairy_notation_in_and_out() {
    let usi = koma(&["moves", "--moves", "6e6d"]);
    let fairy = koma(&["moves", "--moves", "a2a3", "--notation", "fairy"]);
    assert!(usi.status.success() && fairy.status.success());
    assert_eq!(stdout(&usi).lines().count(), stdout(&fairy).lines().count());
    assert!(
        stdout(&fairy)
            .lines()
            .all(|l| l.as_bytes()[0].is_ascii_lowercase() || l.contains('@'))
    );
}

#[test]
fn fen_and_sfen_describe_the_same_start() {
    let fen = koma(&["moves", "--fen", "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1"]);
    let sfen = koma(&["moves", "--sfen", "rbsgkn/5p/6/6/P5/NKGSBR b - 1"]);
    assert_eq!(stdout(&fen), stdout(&koma(&["moves"])));
    assert_eq!(stdout(&fen), stdout(&sfen));
}

#[test]
fn perft_divide_sums_to_the_total() {
    let o = koma(&["perft", "--depth", "3", "--divide"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let mut lines: Vec<&str> = text.lines().collect();
    let total = lines.pop().expect("a total line");
    assert_eq!(total, "total: 9080");
    assert_eq!(lines.len(), 21);
    let sum: u64 = lines
        .iter()
        .map(|l| {
            l.rsplit(' ')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .expect("move: count")
        })
        .sum();
    assert_eq!(sum, 9080);
}

#[test]
fn variant_by_path_works_from_any_directory() {
    let dir = std::env::temp_dir();
    let o = Command::new(env!("CARGO_BIN_EXE_koma"))
        .current_dir(&dir)
        .args([
            "perft",
            "--depth",
            "2",
            "--variant",
            concat!(env!("CARGO_MANIFEST_DIR"), "/variants/judkins-shogi.md"),
        ])
        .output()
        .expect("runs");
    assert_eq!(stdout(&o).trim(), "total: 408");
    let embedded = Command::new(env!("CARGO_BIN_EXE_koma"))
        .current_dir(&dir)
        .args(["perft", "-d", "2"])
        .output()
        .expect("runs");
    assert_eq!(stdout(&embedded).trim(), "total: 408");
}

fn fails_with(args: &[&str], code: i32, message: &str) {
    let o = koma(args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
    assert!(
        stderr(&o).contains(message),
        "{args:?}: stderr was {}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"), "{args:?} panicked");
    assert!(stdout(&o).is_empty(), "{args:?}: no output on error");
}

#[test]
fn bad_input_gets_a_clear_message_and_a_nonzero_exit() {
    fails_with(
        &["moves", "--variant", "chess"],
        1,
        "unknown variant 'chess': known variants are",
    );
    fails_with(
        &["moves", "--variant", "/nonexistent/x.md"],
        1,
        "cannot read /nonexistent/x.md",
    );
    fails_with(
        &["moves", "--fen", "rbsgkn/5p/6/6/P5/NKGSBR[] x"],
        1,
        "'x' is not a side to move",
    );
    fails_with(
        &["moves", "--fen", "rbsgkn/5p/6/6/P5/NKGSB?"],
        1,
        "unexpected '?' in the board",
    );
    fails_with(
        &["moves", "--fen", "rbsgkn/5p/6/6/NKGSBR[] w"],
        1,
        "the board has 5 ranks, the variant 6",
    );
    fails_with(
        &["moves", "--fen", "rbsgkn/5p/6/6/P5/NKGSBQ[] w"],
        1,
        "'Q' on 1f is not a piece of this variant",
    );
    fails_with(
        &["moves", "--sfen", "rbsgkn/5p/6/6/P5/NKGSBR"],
        1,
        "no side to move",
    );
    fails_with(
        &["moves", "--moves", "6e6d", "6d6c"],
        1,
        "move 2: 6d6c is illegal: the piece on 6d is sente's, and it is gote's turn",
    );
    fails_with(
        &["moves", "--moves", "6e6d", "6e6d"],
        1,
        "move 2: 6e6d is illegal: there is no piece on 6e",
    );
    fails_with(
        &["moves", "--moves", "6e6c"],
        1,
        "move 1: 6e6c is illegal: a pawn cannot move from 6e to 6c",
    );
    fails_with(&["moves", "--moves", "zz"], 1, "move 1: 'zz' is not a move");
    fails_with(
        &[
            "moves",
            "--fen",
            "kr4/6/1G4/6/6/5K[P] w - - 0 1",
            "--moves",
            "P@a5",
        ],
        1,
        "dropping a pawn to give checkmate is not allowed",
    );
    fails_with(
        &[
            "moves",
            "--fen",
            "k5/6/6/2P3/6/5K[P] w - - 0 1",
            "--moves",
            "P*4b",
        ],
        1,
        "a second unpromoted pawn on file 4",
    );
    fails_with(
        &["moves", "--fen", "k5/6/6/6/6/5K[200P200p] w - - 0 1"],
        1,
        "400 pawns in the game: at most 250",
    );
    fails_with(&["perft", "--depth", "99"], 2, "too deep");
    fails_with(&["perft"], 2, "--depth");
    fails_with(&["frobnicate"], 2, "unrecognized subcommand");
}

#[test]
fn list_shows_every_embedded_variant() {
    let o = koma(&["list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for slug in koma::variant::catalogue() {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{slug} "))),
            "{slug} missing from:\n{text}"
        );
    }
    // Aligned columns, however long the names: each row's board (files×ranks)
    // starts under the header's `board`.
    let col = text.lines().next().and_then(|h| h.find("board"));
    for (slug, title, board) in [
        ("judkins-shogi", "Judkins' Shogi", "6×6"),
        ("yari-shogi", "Yari shogi", "7×9"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{slug} ")))
            .unwrap_or_default();
        assert!(line.contains(&format!(" {title} ")), "{text}");
        assert_eq!(
            line.find(&format!(" {board} ")).map(|i| i + 1),
            col,
            "{text}"
        );
    }
}

#[test]
fn fen_forms_other_tools_write_are_read() {
    // pyffish: empty hands as `[-]`, no castling and en-passant fields.
    let short = koma(&[
        "moves",
        "-v",
        "minishogi",
        "--fen",
        "rbsgk/4p/5/P4/KGSBR[-] w 0 1",
    ]);
    let long = koma(&[
        "moves",
        "-v",
        "minishogi",
        "--fen",
        "rbsgk/4p/5/P4/KGSBR[] w - - 0 1",
    ]);
    assert!(short.status.success(), "{}", stderr(&short));
    assert_eq!(stdout(&short), stdout(&long));
    fails_with(
        &["moves", "--fen", "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1 9"],
        1,
        "unexpected '9' after the FEN",
    );
}

#[test]
fn perft_threads_give_the_same_counts() {
    let one = koma(&["perft", "-v", "minishogi", "--depth", "4", "--divide"]);
    let two = koma(&[
        "perft",
        "-v",
        "minishogi",
        "--depth",
        "4",
        "--divide",
        "--threads",
        "2",
    ]);
    assert!(one.status.success() && two.status.success());
    assert_eq!(stdout(&one), stdout(&two));
    assert!(stdout(&two).ends_with("total: 35401\n"));
    fails_with(&["perft", "--depth", "2", "--threads", "0"], 2, "--threads");
}

#[test]
fn kyoto_moves_turn_pieces_both_ways() {
    let o = koma(&[
        "moves",
        "-v",
        "kyoto-shogi",
        "--moves",
        "e1e2+",
        "e5d4-",
        "e2b2-",
        "--notation",
        "fairy",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l == "b5a4-"));
    fails_with(
        &["moves", "-v", "kyoto-shogi", "--moves", "e1e2-"],
        1,
        "the sign does not match what the move does: write e1e2+",
    );
}

/// `promotion: capture` (micro shogi): a capture turns the capturing piece
/// over, up (`+`) or back (`-`); a quiet move never does.
#[test]
fn micro_captures_turn_pieces_both_ways() {
    let o = koma(&[
        "moves",
        "-v",
        "micro-shogi",
        "--fen",
        "k3/4/1p2/+L3/3K[] w - - 0 1",
        "--notation",
        "fairy",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let moves: Vec<&str> = out.lines().collect();
    // The silver (a lance's other side) captures and turns back to a lance;
    // its quiet moves keep it a silver.
    assert!(moves.contains(&"a2b3-"), "{moves:?}");
    assert!(
        moves.contains(&"a2a3") && moves.contains(&"a2b1"),
        "{moves:?}"
    );
    assert!(!moves.iter().any(|m| m.starts_with("a2a3") && m.len() > 4));
    let o = koma(&[
        "moves",
        "-v",
        "micro",
        "--moves",
        "d2d3",
        "a4a3",
        "--notation",
        "fairy",
    ]);
    assert!(stdout(&o).lines().any(|l| l == "c1a3+"), "{}", stdout(&o));
    fails_with(
        &["moves", "-v", "micro-shogi", "--moves", "d2d3+"],
        1,
        "a piece turns over only when it captures",
    );
}

/// A device or a huge file given for a variant file or a game record is
/// refused after 4 MiB, not read until the memory runs out.
#[test]
fn endless_files_are_refused() {
    for args in [
        &["validate", "/dev/zero"][..],
        &["validate", "--game", "/dev/zero", "--variant", "shogi"],
        &["moves", "--variant", "/dev/zero"],
    ] {
        let o = koma(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&o).contains("larger than 4 MiB"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// Found by the sfen fuzz target: an SFEN move number beyond what FEN could
/// write back broke the FEN round trip. Move numbers are bounded, and a
/// larger one is refused where it stands.
#[test]
fn move_numbers_are_bounded() {
    let board = "6/B2skP/B5/4p1/2SR2/K1NG2";
    for (flag, text) in [
        ("--sfen", format!("{board} b RGN 2700000004")),
        ("--fen", format!("{board}[RGN] w - - 0 1350000002")),
    ] {
        let o = koma(&["moves", flag, &text]);
        assert_eq!(o.status.code(), Some(1), "{text}");
        assert!(
            stderr(&o).contains("is too large: at most"),
            "{}",
            stderr(&o)
        );
    }
    let o = koma(&["moves", "--sfen", &format!("{board} w RGN 1000000000")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A variant file or record that is not UTF-8 is refused with the place of
/// the first bad byte.
#[test]
fn files_that_are_not_utf8_are_refused() {
    let path = std::env::temp_dir().join(format!("koma-not-utf8-{}.md", std::process::id()));
    std::fs::write(&path, b"---\ntitle: caf\xe9\n---\n").expect("temp file written");
    let o = koma(&["validate", path.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not UTF-8 text (byte 14)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_move_to_a_dead_end_is_refused_with_the_reason() {
    let file = "tests/moves/variants/dead-end.md";
    let fen = "4k/L4/5/2B2/K4[] w - - 0 1";
    for (mv, reason) in [
        (
            "a4a5",
            "a lance on 5a could never move again, and it cannot promote there",
        ),
        (
            "c2c1",
            "a backstepper on 3e could never move again, and it cannot promote there",
        ),
    ] {
        let o = koma(&["moves", "--variant", file, "--fen", fen, "--moves", mv]);
        assert_eq!(o.status.code(), Some(1), "{mv}");
        assert!(stderr(&o).contains(reason), "{mv}: {}", stderr(&o));
    }
}

#[test]
fn an_output_that_cannot_be_written_exits_with_3() {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    let o = Command::new(env!("CARGO_BIN_EXE_koma"))
        .arg("list")
        .stdout(full)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write the output"),
        "{}",
        stderr(&o)
    );
    let o = koma(&["svg", "-o", "/nonexistent-folder/board.svg"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write /nonexistent-folder/board.svg"));
}

/// The test games on 144 and 256 squares (`tests/large/`) through every
/// command a user would try first; square names beyond file 9 and rank `i`.
#[test]
fn large_boards_from_their_files() {
    let dir = env!("CARGO_MANIFEST_DIR");
    for (file, moves, perft2) in [("large-12x12.md", 52, 2706), ("large-16x16.md", 70, 4773)] {
        let path = format!("{dir}/tests/large/{file}");
        let o = koma(&["validate", &path]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let o = koma(&["moves", "--variant", &path]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), moves, "{file}");
        let o = koma(&["perft", "--variant", &path, "--depth", "2"]);
        assert_eq!(stdout(&o), format!("total: {perft2}\n"), "{file}");
        let o = koma(&["svg", "--variant", &path]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        assert!(stdout(&o).contains("<svg"), "{file}: an SVG document");
    }
    // 16×16: USI files 1–16 from sente's right, ranks a–p from the top;
    // Fairy files a–p from the left, ranks 1–16. The nightrider's capture
    // from e2 to k14 is 12o6c in USI.
    let path = format!("{dir}/tests/large/large-16x16.md");
    let usi = stdout(&koma(&["moves", "--variant", &path]));
    let fairy = stdout(&koma(&["moves", "--variant", &path, "--notation", "fairy"]));
    for m in ["12o6c", "16n16m", "1n1m", "16p16o"] {
        assert!(usi.lines().any(|l| l == m), "USI {m}");
    }
    for m in ["e2k14", "a3a4", "p3p4", "a1a2"] {
        assert!(fairy.lines().any(|l| l == m), "Fairy {m}");
    }
    let after = |m: &str| stdout(&koma(&["moves", "--variant", &path, "--moves", m]));
    assert_eq!(after("12o6c"), after("e2k14"));
    // The captured pawn is in hand, but sente has a pawn on each of the 16 files.
    let o = koma(&["moves", "--variant", &path, "--moves", "12o6c", "1a1b"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains('*'), "no pawn drop (nifu)");
    let o = koma(&[
        "moves",
        "--variant",
        &path,
        "--moves",
        "12o6c",
        "1a1b",
        "6c3i+",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn every_alias_plays_its_variant() {
    let aliases = koma::variant::alias_list();
    assert!(!aliases.is_empty(), "the catalogue declares aliases");
    assert!(
        aliases.iter().any(|a| a.setup.is_some()),
        "one alias has a setup"
    );
    for a in aliases {
        let (alias, slug) = (a.name.as_str(), a.slug);
        let by_alias = koma(&["moves", "--variant", alias]);
        // An alias with a setup of its own is the variant from that setup.
        let fen = a.setup.as_ref().map(|s| format!("{s}[] w - - 0 1"));
        let by_slug = match &fen {
            Some(f) => koma(&["moves", "--variant", slug, "--fen", f]),
            None => koma(&["moves", "--variant", slug]),
        };
        assert!(by_alias.status.success(), "{alias}: {}", stderr(&by_alias));
        assert!(!stdout(&by_slug).is_empty(), "{slug}: no moves");
        assert_eq!(stdout(&by_alias), stdout(&by_slug), "{alias} is {slug}");
    }
}

/// lishogi's name for annan shogi, `annanshogi`, is the game under every
/// command: moves, perft, play, svg, records (convert and validate), USI
/// and UCI; and the KIF koma writes for it names lishogi's 手合割.
#[test]
fn lishogis_annan_name_works_with_every_command() {
    let by_slug = koma(&["moves", "--variant", "annan-shogi"]);
    let by_name = koma(&["moves", "--variant", "annanshogi"]);
    assert!(by_name.status.success(), "{}", stderr(&by_name));
    assert_eq!(stdout(&by_name), stdout(&by_slug));
    let perft = koma(&["perft", "--variant", "annanshogi", "--depth", "2"]);
    assert_eq!(stdout(&perft).trim(), "total: 784", "{}", stderr(&perft));
    let svg = koma(&["svg", "--variant", "annanshogi"]);
    assert!(stdout(&svg).contains("<svg "), "{}", stderr(&svg));
    let (out, err, code) = crate::common::koma_with_input(
        &[
            "play",
            "--variant",
            "annanshogi",
            "--sente",
            "human",
            "--gote",
            "human",
        ],
        b"7g7f\nquit\n\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("koma plays Annan shogi"), "{out}");
    let dir = std::env::temp_dir().join(format!("koma-annan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let usi = dir.join("game.usi");
    std::fs::write(&usi, "position startpos moves 7g7f 2b3d\n").expect("writes");
    let kif = dir.join("game.kif");
    let o = koma(&[
        "convert",
        usi.to_str().unwrap_or_default(),
        "--variant",
        "annanshogi",
        "--to",
        "kif",
        "--encoding",
        "utf-8",
        "-o",
        kif.to_str().unwrap_or_default(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&kif).expect("kif written");
    assert!(text.contains("手合割：安南将棋"), "{text}");
    // Read back without --variant: the 手合割 names the game.
    let o = koma(&["validate", "--game", kif.to_str().unwrap_or_default()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Annan shogi"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
    for (protocol, option) in [("usi", "USI_Variant"), ("uci", "UCI_Variant")] {
        let input = format!(
            "{protocol}\nsetoption name {option} value annanshogi\nisready\nposition startpos\ngo depth 1\nquit\n"
        );
        let (out, err, _) = crate::common::koma_with_input(&[protocol], input.as_bytes());
        assert!(out.contains("bestmove "), "{protocol}: {out}{err}");
    }
}

/// `koma tune --results` reads `FEN<TAB>result` lines and fits to them; a
/// line it cannot read is refused with its file and line, and no weights
/// are printed.
#[test]
fn tune_fits_to_results_and_refuses_a_bad_line_with_its_place() {
    let dir = std::env::temp_dir().join(format!("koma-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("good.txt");
    let bad = dir.join("bad.txt");
    let start = "rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1";
    let up = "1bsgkn/5p/6/6/P5/NKGSBR[R] w - - 0 1";
    std::fs::write(&good, format!("# games\n{start}\t1/2-1/2\n{up}\t1-0\n")).expect("write");
    std::fs::write(&bad, format!("# games\n{start}\t1-0\n{up}\twon\n")).expect("write");
    let o = koma(&[
        "tune",
        "--results",
        good.to_str().expect("path"),
        "--rounds",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).lines().any(|l| l.starts_with("mobility = ")),
        "{}",
        stdout(&o)
    );
    let o = koma(&["tune", "--results", bad.to_str().expect("path")]);
    assert!(!o.status.success());
    let want = format!("{}:3: 'won' is not 1-0, 0-1 or 1/2-1/2", bad.display());
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `koma tune --versus` plays a weights file against the variant's weights
/// in pairs of games from the same random plies: the tally adds up to the
/// games asked, the same command gives the same games, weights that value
/// pieces in hand at nothing lose, and a bad weights file is refused with
/// its line.
#[test]
fn tune_versus_plays_a_weights_file_against_the_variants_weights() {
    let dir = std::env::temp_dir().join(format!("koma-versus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let weak = dir.join("weak.txt");
    let bad = dir.join("bad.txt");
    std::fs::write(&weak, "# pieces in hand worth nothing\nhand = 0\n").expect("write");
    std::fs::write(&bad, "mobility = 3\nhand = lots\n").expect("write");
    let args = |file: &std::path::Path| {
        let file = file.to_str().expect("path").to_string();
        [
            "tune",
            "--variant",
            "minishogi",
            "--versus",
            &file,
            "--games",
            "20",
            "--nodes",
            "500",
        ]
        .map(String::from)
    };
    let run = |file: &std::path::Path| {
        let a = args(file);
        koma(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(&weak);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out.lines().last().expect("a score line");
    let count = |word: &str| -> usize {
        let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let at = words.iter().position(|w| *w == word).expect(word);
        words[at - 1].parse().expect("a count")
    };
    let (wins, draws, losses) = (count("wins"), count("draws"), count("losses"));
    assert_eq!(wins + draws + losses, 20, "{line}");
    assert!(losses > wins, "hand = 0 should lose: {line}");
    assert_eq!(stdout(&run(&weak)), out, "the same games again");
    let o = run(&bad);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `koma tune --spsa N` plays N pairs of games between weights moved up and
/// down and prints the weights it ends with, every weight once; the same
/// command gives the same weights; a rate that is not positive is refused.
#[test]
fn tune_spsa_prints_every_weight_and_refuses_a_bad_rate() {
    let args = [
        "tune",
        "--variant",
        "minishogi",
        "--spsa",
        "6",
        "--nodes",
        "200",
        "--rate",
        "2",
    ];
    let o = koma(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let names: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(" = ").next().expect("name"))
        .collect();
    assert_eq!(names, koma::engine::Params::NAMES.to_vec(), "{out}");
    assert_eq!(stdout(&koma(&args)), out, "the same games again");
    let o = koma(&["tune", "--spsa", "2", "--rate", "0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--rate 0"), "{}", stderr(&o));
}

#[test]
fn moves_batch_reads_moves_after_a_position() {
    // Judkins' start, then the same after two moves, after a move that is
    // not legal, and from a FEN with moves: one answer a line.
    let start = stdout(&koma(&["moves"]));
    let after = stdout(&koma(&["moves", "--moves", "6e6d", "1b1c"]));
    let input = "startpos\nstartpos moves 6e6d 1b1c\nstartpos moves 6e6d 6e6d\n\
                 rbsgkn/5p/6/6/P5/NKGSBR[] w - - 0 1 moves 6e6d 1b1c\n";
    let (out, err, code) = crate::common::koma_with_input(&["moves", "--batch"], input.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let listed = |line: &str| line.split('\t').nth(2).unwrap_or("").to_string();
    assert_eq!(
        listed(lines[0]),
        start.lines().collect::<Vec<_>>().join(" ")
    );
    assert_eq!(
        listed(lines[1]),
        after.lines().collect::<Vec<_>>().join(" ")
    );
    assert!(lines[2].starts_with("error\tmove 2: 6e6d"), "{}", lines[2]);
    assert_eq!(lines[3], lines[1], "{out}");
}
