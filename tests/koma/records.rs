//! Game records: every format written and read back on every embedded
//! variant it can hold; records written by others (tests/records/external)
//! replayed to the positions their library computes; Japanese notation;
//! encodings; results; the commands.

use std::path::Path;
use std::process::Command;

use koma::board::Color;
use koma::notation::Notation;
use koma::position::{AnyPosition, Move};
use koma::record::{self, Decision, Ending, Format, GameRecord, GameResult, Headers, RecordMove};
use koma::variant;

use crate::common::{Rng, game, position_at, tests_dir};

/// A random legal game of `plies` moves at most from `pos`.
fn random_moves(pos: &mut AnyPosition, rng: &mut Rng, plies: usize) -> Vec<Move> {
    let mut out = Vec::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let legal = pos.legal_moves();
        let m = legal[rng.below(legal.len())];
        pos.try_play(m).expect("a legal move");
        out.push(m);
    }
    out
}

/// A record of a random game of a variant, with headers, comments, times
/// and a result its last position allows: the side to move resigns, or the
/// game's own outcome.
fn sample(slug: &str, seed: u64, from_middle: bool) -> GameRecord {
    let g = game(slug);
    let mut rng = Rng(seed);
    let mut pos = AnyPosition::start(&g);
    if from_middle {
        random_moves(&mut pos, &mut rng, 8);
        let setup = pos.to_setup();
        pos = AnyPosition::new(&g, &setup).expect("a position reached by moves");
        if pos.outcome().is_some() {
            pos = AnyPosition::start(&g);
        }
    }
    let start = pos.to_setup();
    let moves = random_moves(&mut pos, &mut rng, 40);
    let result = match pos.outcome() {
        Some(o) => GameResult::from(&o),
        None => GameResult::win(pos.turn().opposite(), Ending::Resignation),
    };
    GameRecord {
        game: g,
        start,
        start_comment: Some("before the first move".into()),
        moves: moves
            .into_iter()
            .enumerate()
            .map(|(i, mv)| RecordMove {
                mv,
                line: 0,
                comment: (i % 7 == 3).then(|| format!("note {i}\nsecond line")),
                time: Some((i as u32 * 13) % 200),
            })
            .collect(),
        headers: Headers {
            sente: Some("Sente Player".into()),
            gote: Some("後手 太郎".into()),
            event: Some("koma cup".into()),
            site: Some("here".into()),
            date: Some("2026/12/01 10:00:00".into()),
            time_control: Some("10+5".into()),
            other: Vec::new(),
        },
        result: Some(result),
    }
}

fn mv_list(rec: &GameRecord) -> Vec<Move> {
    rec.moves.iter().map(|m| m.mv).collect()
}

/// What each format keeps besides the moves and the start.
fn keeps_headers(f: Format) -> bool {
    !matches!(f, Format::Usi)
}
fn keeps_times(f: Format) -> bool {
    !matches!(f, Format::Usi | Format::Ki2)
}
fn keeps_comments(f: Format) -> bool {
    !matches!(f, Format::Usi)
}

/// Writes `rec` in `format` and reads it back; checks what the format keeps.
/// Returns false if the format cannot hold the game.
fn round_trip(rec: &GameRecord, format: Format) -> bool {
    let slug = rec.game.slug().to_string();
    let written = match record::write(rec, format) {
        Ok(w) => w,
        Err(e) => {
            assert!(
                matches!(format, Format::Csa | Format::Jkf),
                "{slug}: {format} refused: {e}"
            );
            return false;
        }
    };
    let given = (format == Format::Usi).then_some(&rec.game);
    let back = record::read(&written, &format!("{slug}.{format}"), given)
        .unwrap_or_else(|e| panic!("{slug}: own {format} refused: {e}\n{written}"));
    assert_eq!(back.game.slug(), slug, "{format}: the variant\n{written}");
    let mut start = rec.start.clone();
    if matches!(format, Format::Csa | Format::Jkf) {
        // Neither format numbers the moves of a position it starts from.
        start.move_number = back.start.move_number;
    }
    // Hands are a set: KIF lists gote's first, a FEN whoever the writer put first.
    let sorted = |s: &koma::setup::Setup| {
        let mut s = s.clone();
        s.hands.sort_by_key(|&(c, l, _)| (c.index(), l));
        s
    };
    assert_eq!(
        sorted(&back.start),
        sorted(&start),
        "{slug} {format}: the start\n{written}"
    );
    assert_eq!(
        mv_list(&back),
        mv_list(rec),
        "{slug} {format}: the moves\n{written}"
    );
    if format != Format::Usi {
        assert_eq!(
            back.result, rec.result,
            "{slug} {format}: the result\n{written}"
        );
    }
    if keeps_headers(format) {
        assert_eq!(
            back.headers, rec.headers,
            "{slug} {format}: the headers\n{written}"
        );
    }
    if keeps_comments(format) {
        assert_eq!(
            back.start_comment, rec.start_comment,
            "{slug} {format}: start comment"
        );
        let c: Vec<_> = back.moves.iter().map(|m| m.comment.clone()).collect();
        let want: Vec<_> = rec.moves.iter().map(|m| m.comment.clone()).collect();
        assert_eq!(c, want, "{slug} {format}: comments\n{written}");
    }
    if keeps_times(format) {
        let t: Vec<_> = back.moves.iter().map(|m| m.time).collect();
        let want: Vec<_> = rec.moves.iter().map(|m| m.time).collect();
        assert_eq!(t, want, "{slug} {format}: times\n{written}");
    }
    assert_eq!(
        record::detect(&written),
        format,
        "{slug}: {format} detected\n{written}"
    );
    true
}

#[test]
fn every_format_round_trips_on_every_variant_it_can_hold() {
    let mut held = Vec::new();
    for slug in variant::catalogue() {
        for (seed, middle) in [(7, false), (11, true), (23, false)] {
            let rec = sample(slug, seed, middle);
            for format in Format::ALL {
                if round_trip(&rec, format) && seed == 7 {
                    held.push(format!("{slug}:{format}"));
                }
            }
        }
    }
    // CSA and JKF hold the 9×9 games whose pieces all have CSA codes: shogi.
    for f in ["kif", "ki2", "pgn", "koma", "usi"] {
        for slug in variant::catalogue() {
            assert!(
                held.contains(&format!("{slug}:{f}")),
                "{slug} not held by {f}"
            );
        }
    }
    assert!(held.contains(&"shogi:csa".to_string()));
    assert!(held.contains(&"shogi:jkf".to_string()));
    assert!(!held.contains(&"minishogi:csa".to_string()));
    assert!(!held.contains(&"sho-shogi:jkf".to_string()));
}

#[test]
fn results_of_every_kind_survive_every_format() {
    let base = sample("shogi", 5, false);
    let turn = base.position().turn();
    let results = [
        GameResult::win(turn.opposite(), Ending::Resignation),
        GameResult::win(turn.opposite(), Ending::Time),
        GameResult::win(turn.opposite(), Ending::IllegalMove),
        GameResult::win(turn, Ending::IllegalMove),
        GameResult::win(turn, Ending::Impasse),
        GameResult::draw(Ending::Repetition),
        GameResult::draw(Ending::Impasse),
        GameResult::undecided(Ending::Abort),
    ];
    for r in results {
        let mut rec = base.clone();
        rec.result = Some(r);
        for format in [
            Format::Kif,
            Format::Ki2,
            Format::Csa,
            Format::Jkf,
            Format::Pgn,
            Format::Koma,
        ] {
            let written = record::write(&rec, format).expect("shogi fits");
            let back = record::read(&written, "r", None).expect("own record");
            assert_eq!(back.result, Some(r), "{format}: {r}\n{written}");
        }
    }
}

/// CSA and JKF say a result with a word relative to the side to move: a
/// loss of the side to move that no word says is written as a resignation
/// (`%TORYO`); a win of the side to move that no word says is not written.
#[test]
fn csa_words_fall_back_to_a_resignation_of_the_side_to_move() {
    let base = sample("shogi", 5, false);
    let turn = base.position().turn();
    for format in [Format::Csa, Format::Jkf] {
        for (result, back) in [
            (
                GameResult::win(turn.opposite(), Ending::Impasse),
                Some(GameResult::win(turn.opposite(), Ending::Resignation)),
            ),
            (GameResult::win(turn, Ending::Resignation), None),
        ] {
            let mut rec = base.clone();
            rec.result = Some(result);
            let written = record::write(&rec, format).expect("shogi fits");
            let read = record::read(&written, "r", None).expect("own record");
            assert_eq!(read.result, back, "{format}: {result}\n{written}");
        }
    }
}

/// CSA writes the other headers whose keys it can hold (`$KEY:value`,
/// upper-case ASCII and `_`) and leaves out the rest.
#[test]
fn csa_writes_the_headers_it_can_name() {
    let mut rec = sample("shogi", 5, false);
    rec.headers.other = [
        ("OPENING", "Yagura"),
        ("END_TIME", "2024/01/01 12:00:00"),
        ("note", "lower case"),
        ("Mixed", "mixed case"),
        ("戦型", "Japanese"),
        ("", "no key"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .to_vec();
    let written = record::write(&rec, Format::Csa).expect("shogi fits");
    let dollar: Vec<&str> = written
        .lines()
        .filter(|l| l.starts_with('$') && !l.starts_with("$EVENT") && !l.starts_with("$SITE"))
        .filter(|l| !l.starts_with("$START_TIME") && !l.starts_with("$TIME_LIMIT"))
        .collect();
    assert_eq!(
        dollar,
        ["$OPENING:Yagura", "$END_TIME:2024/01/01 12:00:00"],
        "{written}"
    );
}

/// JKF's move times are hours, minutes and seconds.
#[test]
fn jkf_times_count_hours_minutes_and_seconds() {
    let text = r#"{"header": {}, "moves": [{}, {"move": {"color": 0, "from": {"x": 7, "y": 7},
        "piece": "FU", "to": {"x": 7, "y": 6}}, "time": {"now": {"h": 1, "m": 2, "s": 3}}}]}"#;
    let rec = record::read(text, "t.jkf", None).expect("a shogi record");
    assert_eq!(rec.moves[0].time, Some(3723));
}

/// JKF as json-kifu-format writes it: `promote` only where the move had
/// the choice, `same` on a move to the square of the one before, and hands
/// of the pieces that can be held.
#[test]
fn jkf_writes_promote_same_and_hands_as_the_format_has_them() {
    let rec =
        record::read("variant: shogi\nmoves: 7g7f 3c3d 8h3c 2b3c\n", "r", None).expect("shogi");
    let doc: serde_json::Value =
        serde_json::from_str(&record::write(&rec, Format::Jkf).expect("shogi fits")).expect("JSON");
    let moves: Vec<&serde_json::Value> = doc["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .skip(1)
        .map(|m| &m["move"])
        .collect();
    let keys = |m: &serde_json::Value| {
        let mut k: Vec<String> = m.as_object().expect("move").keys().cloned().collect();
        k.sort();
        k.join(" ")
    };
    assert_eq!(keys(moves[0]), "color from piece to", "7g7f");
    assert_eq!(keys(moves[2]), "color from piece promote to", "8h3c");
    assert_eq!(moves[2]["promote"], false, "8h3c");
    assert_eq!(keys(moves[3]), "capture color from piece same to", "2b3c");
    assert_eq!(moves[3]["same"], true, "2b3c");

    let rec = record::read(
        "variant: shogi\nsfen: lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w P 1\n",
        "r",
        None,
    )
    .expect("shogi");
    let doc: serde_json::Value =
        serde_json::from_str(&record::write(&rec, Format::Jkf).expect("shogi fits")).expect("JSON");
    for hand in doc["initial"]["data"]["hands"].as_array().expect("hands") {
        let mut k: Vec<&String> = hand.as_object().expect("hand").keys().collect();
        k.sort();
        assert_eq!(k, ["FU", "GI", "HI", "KA", "KE", "KI", "KY"], "{hand}");
    }
}

/// KIF writes the other headers whose keys read back as headers (no space,
/// colon or control character, no ASCII or move mark or digit first, none
/// of the words that start other lines, not a key of its own), and reads
/// them back as other headers.
#[test]
fn kif_writes_the_headers_that_read_back() {
    let mut rec = sample("shogi", 5, false);
    let kept = [("戦型", "v1"), ("備考", "v2")];
    let left_out = [
        ("", "x1"),
        ("note", "x2"),
        ("戦 型", "x3"),
        ("戦\u{3000}型", "x4"),
        ("戦\u{7}型", "x5"),
        ("戦:型", "x6"),
        ("戦：型", "x7"),
        ("▲先手", "x8"),
        ("☖後手", "x9"),
        ("１手目", "x10"),
        ("までの手順", "x11"),
        ("変化手順", "x12"),
        ("手数計", "x13"),
        ("同歩", "x14"),
        ("後手の持駒", "x15"),
        ("開始日時", "x16"),
        ("先手", "x17"),
        ("手合割", "x18"),
    ];
    rec.headers.other = kept
        .iter()
        .chain(&left_out)
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let written = record::write(&rec, Format::Kif).expect("shogi fits");
    for (k, v) in kept {
        assert!(written.contains(&format!("{k}：{v}\n")), "{k}\n{written}");
    }
    for (k, v) in left_out {
        assert!(!written.contains(v), "{k:?} written\n{written}");
    }
    let back = record::read(&written, "r.kif", None).expect("own record");
    assert_eq!(
        back.headers.other,
        kept.map(|(k, v)| (k.to_string(), v.to_string())),
        "{written}"
    );
}

/// KIF's closing summary (`まで…`) says who won and how when no closing word
/// does.
#[test]
fn kif_summaries_say_who_won_and_how() {
    let head = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    for (summary, want) in [
        (
            "まで2手で時間切れにより後手の勝ち",
            GameResult::win(Color::Gote, Ending::Time),
        ),
        (
            "まで2手で先手の切れ負け",
            GameResult::win(Color::Gote, Ending::Time),
        ),
        (
            "まで2手で後手の反則負け",
            GameResult::win(Color::Sente, Ending::IllegalMove),
        ),
        (
            "まで2手で先手の入玉勝ち",
            GameResult::win(Color::Sente, Ending::Impasse),
        ),
        (
            "まで2手で後手の勝ち",
            GameResult::win(Color::Gote, Ending::Resignation),
        ),
    ] {
        let rec = record::read(&format!("{head}{summary}\n"), "r.kif", None)
            .unwrap_or_else(|e| panic!("{summary}: {e}"));
        assert_eq!(rec.result, Some(want), "{summary}");
    }
}

/// A diagram writes each piece with its one-character kanji (全 for a
/// promoted silver, whose move name is 成銀), so that its columns line up.
#[test]
fn diagrams_write_pieces_by_their_kanji() {
    let rec = record::read(
        "variant: shogi\nsfen: lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B2+s2+R1/LN1GKGSNL b S2P 1\n",
        "r",
        None,
    )
    .expect("shogi");
    let kif = record::write(&rec, Format::Kif).expect("KIF");
    assert!(kif.contains("| ・ 角 ・ ・v全 ・ ・ 龍 ・|八"), "{kif}");
    // One of a piece is its name alone; no 手数＝ before the first move.
    assert!(kif.contains("先手の持駒：銀　歩二\n"), "{kif}");
    assert!(!kif.contains("手数＝"), "{kif}");
}

#[test]
fn kif_writes_what_lishogi_and_the_jsa_write() {
    let rec = bishop_exchange();
    let kif = record::write(&rec, Format::Kif).expect("KIF");
    for line in [
        "手合割：平手",
        "   1 ７六歩(77)",
        "   3 ２二角成(88)",
        "   4 同　銀(31)",
        "   5 ４五角打",
        "   7 ３四角(45)",
    ] {
        assert!(kif.contains(line), "{line} missing:\n{kif}");
    }
    let ki2 = record::write(&rec, Format::Ki2).expect("KI2");
    assert!(ki2.contains("▲２二角成"), "{ki2}");
    assert!(ki2.contains("△同銀"), "{ki2}");
    // No bishop on the board could go to 4e: the drop is written without 打.
    assert!(ki2.contains("▲４五角 "), "{ki2}");
}

/// Shogi's bishop exchange and a drop after it: eight moves with a
/// promotion, a recapture (同) and a drop (打).
fn bishop_exchange() -> GameRecord {
    let g = game("shogi");
    let moves = [
        "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d", "4e3d", "5a4b",
    ];
    let pos =
        AnyPosition::from_moves(&g, AnyPosition::start(&g).start_setup(), &moves).expect("legal");
    GameRecord::from_position(&pos)
}

/// KIF's closing words and lines, its times, and KI2's six moves a line.
#[test]
fn kif_lays_out_endings_times_and_lines() {
    let base = bishop_exchange();
    let turn = base.position().turn();
    for (result, word, closing) in [
        (
            GameResult::win(turn.opposite(), Ending::Resignation),
            Some("投了"),
            "まで8手で後手の勝ち",
        ),
        (
            GameResult::win(turn.opposite(), Ending::Checkmate),
            Some("詰み"),
            "まで8手で詰みにより後手の勝ち",
        ),
        (
            GameResult::win(turn.opposite(), Ending::Time),
            Some("切れ負け"),
            "まで8手で時間切れにより後手の勝ち",
        ),
        (
            GameResult::win(turn.opposite(), Ending::IllegalMove),
            Some("反則負け"),
            "まで8手で先手の反則負け",
        ),
        (
            GameResult::win(turn, Ending::IllegalMove),
            Some("反則勝ち"),
            "まで8手で後手の反則負け",
        ),
        (
            GameResult::win(turn, Ending::Impasse),
            Some("入玉勝ち"),
            "まで8手で入玉宣言により先手の勝ち",
        ),
        (
            GameResult::draw(Ending::Repetition),
            Some("千日手"),
            "まで8手で千日手",
        ),
        (
            GameResult::draw(Ending::Impasse),
            Some("持将棋"),
            "まで8手で持将棋",
        ),
        (
            GameResult::undecided(Ending::Abort),
            Some("中断"),
            "まで8手で中断",
        ),
        (
            GameResult::win(turn, Ending::Resignation),
            None,
            "まで8手で先手の勝ち",
        ),
    ] {
        let mut rec = base.clone();
        rec.result = Some(result);
        let kif = record::write(&rec, Format::Kif).expect("KIF");
        let last = kif.lines().find(|l| l.starts_with("   9 "));
        assert_eq!(
            last,
            word.map(|w| format!("   9 {w}")).as_deref(),
            "{result}\n{kif}"
        );
        assert!(kif.contains(&format!("\n{closing}\n")), "{result}\n{kif}");
    }
    let mut rec = base.clone();
    for (m, t) in rec.moves.iter_mut().zip([3, 65, 3600, 1, 0, 59, 60, 61]) {
        m.time = Some(t);
    }
    let kif = record::write(&rec, Format::Kif).expect("KIF");
    for line in [
        // The padding counts a character as two columns: one space after
        // seven characters, six after four.
        "   1 ７六歩(77) ( 0:03/00:00:03)",
        "   2 ３四歩(33) ( 1:05/00:01:05)",
        "   3 ２二角成(88) ( 60:00/01:00:03)",
        "   4 同　銀(31) ( 0:01/00:01:06)",
        "   5 ４五角打      ( 0:00/01:00:03)",
        "   6 ８四歩(83) ( 0:59/00:02:05)",
        "   7 ３四角(45) ( 1:00/01:01:03)",
        "   8 ４二玉(51) ( 1:01/00:03:06)",
    ] {
        assert!(kif.contains(&format!("{line}\n")), "{line}\n{kif}");
    }
    let ki2 = record::write(&base, Format::Ki2).expect("KI2");
    let marks: Vec<usize> = ki2
        .lines()
        .filter(|l| l.starts_with(['▲', '△']))
        .map(|l| l.matches(['▲', '△']).count())
        .collect();
    assert_eq!(marks, [6, 2], "{ki2}");
}

/// koma's records number the moves, two a line (a line ends early at a
/// time or comment), and keep other headers; PGN keeps them as tags.
#[test]
fn koma_records_write_two_moves_a_line_and_keep_other_headers() {
    let mut rec = record::read(
        "variant: shogi\nmoves: 7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d 2f2e\n",
        "r",
        None,
    )
    .expect("shogi");
    rec.moves[4].time = Some(7);
    rec.headers.other = vec![("Opening_Name".into(), "Yagura".into())];
    let text = record::write(&rec, Format::Koma).expect("koma");
    let lines: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("1. ")).collect();
    assert_eq!(
        lines,
        [
            "1. 7g7f 3c3d",
            "2. 8h2b+ 3a2b",
            "3. 2g2f",
            "time: 7",
            "8c8d",
            "4. 2f2e"
        ],
        "{text}"
    );
    for format in [Format::Koma, Format::Pgn] {
        let written = record::write(&rec, format).expect("writable");
        let back = record::read(&written, "r", None).expect("own record");
        assert_eq!(back.headers, rec.headers, "{format}\n{written}");
    }
}

/// PGN's `[Termination]` words, as the sites write them, say how the game
/// ended; a move that is only digits after its piece letter is no move.
#[test]
fn pgn_terminations_say_how_the_game_ended() {
    let game = |result: &str, termination: &str, moves: &str| {
        format!(
            "[Variant \"shogi\"]\n[Result \"{result}\"]\n[Termination \"{termination}\"]\n\n1. c3c4 {moves}{result}\n"
        )
    };
    for (result, word, want) in [
        (
            "0-1",
            "time forfeit",
            GameResult::win(Color::Gote, Ending::Time),
        ),
        ("0-1", "Timeout", GameResult::win(Color::Gote, Ending::Time)),
        (
            "0-1",
            "time-forfeit",
            GameResult::win(Color::Gote, Ending::Time),
        ),
        (
            "0-1",
            "resign",
            GameResult::win(Color::Gote, Ending::Resignation),
        ),
        (
            "1-0",
            "resigned",
            GameResult::win(Color::Sente, Ending::Resignation),
        ),
        (
            "1-0",
            "rules infraction",
            GameResult::win(Color::Sente, Ending::IllegalMove),
        ),
        (
            "0-1",
            "normal",
            GameResult::win(Color::Gote, Ending::Resignation),
        ),
        ("*", "abandoned", GameResult::undecided(Ending::Abort)),
        ("*", "aborted", GameResult::undecided(Ending::Abort)),
    ] {
        let rec = record::read(&game(result, word, ""), "r.pgn", None)
            .unwrap_or_else(|e| panic!("{word}: {e}"));
        assert_eq!(rec.result, Some(want), "{word}");
    }
    let err =
        record::read(&game("*", "normal", "G12 "), "r.pgn", None).expect_err("G12 names no square");
    assert!(err.to_string().contains("G12"), "{err}");
}

/// PGN's SAN as Fairy-Stockfish writes shogi moves: `+` to promote, `=`
/// not to, `@` for a drop, a file or a rank to tell two pieces apart.
#[test]
fn pgn_san_moves_are_read_as_fairy_stockfish_writes_them() {
    let g = game("shogi");
    let at = |sfen: &str| position_at(&g, sfen);
    let after = |moves: &[&str]| {
        AnyPosition::from_moves(&g, AnyPosition::start(&g).start_setup(), moves).expect("legal")
    };
    let opening = after(&["7g7f", "3c3d"]);
    let exchanged = after(&["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let golds = at("4k4/9/9/9/9/9/4G4/9/4GK3 b - 1");
    let last_rank = at("k8/8P/9/9/9/9/9/9/4K4 b - 1");
    for (pos, san, want) in [
        (&opening, "Bxh8+", Some("8h2b+")),
        (&opening, "Bxh8=", Some("8h2b")),
        (&opening, "Bxh8", Some("8h2b")),
        (&opening, "Ge2", None),
        (&opening, "Gde2", Some("6i5h")),
        (&opening, "Gfe2", Some("4i5h")),
        (&exchanged, "B@e5", Some("B*5e")),
        // With a check sign: read as SAN, not as Fairy-Stockfish's own form.
        (&exchanged, "B@d8+", Some("B*6b")),
        (&golds, "G1e2", Some("5i5h")),
        (&golds, "G3e2", Some("5g5h")),
        (&golds, "Ge2", None),
        // The one legal move there promotes: no sign needed.
        (&last_rank, "i9", Some("1b1a+")),
        (&last_rank, "Pi9+", Some("1b1a+")),
        (&last_rank, "i9=", None),
    ] {
        let got = record::pgn::resolve(pos, san)
            .ok()
            .map(|m| pos.format_move(m, Notation::Usi));
        assert_eq!(got.as_deref(), want, "{san} in {}", pos.sfen());
    }
}

/// PGN's movetext: numbers before sente's moves (`1...` before a first move
/// of gote's), lines of under 80 characters broken between tokens; tags
/// only for the other headers whose names PGN allows.
#[test]
fn pgn_writes_move_numbers_lines_and_tags() {
    let read = |text: &str| record::read(text, "r", None).expect("shogi");
    let movetext = |rec: &GameRecord| {
        let pgn = record::write(rec, Format::Pgn).expect("PGN");
        let lines: Vec<String> = pgn
            .lines()
            .skip_while(|l| !l.is_empty())
            .skip(1)
            .map(str::to_string)
            .collect();
        (pgn, lines)
    };
    let (pgn, lines) = movetext(&read("variant: shogi\nmoves: 7g7f 3c3d 8h2b+ 3a2b\n"));
    assert_eq!(lines, ["1. c3c4 g7g6 2. b2h8+ g9h8 *"], "{pgn}");
    let (pgn, lines) = movetext(&read(
        "variant: shogi\nsfen: lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\nmoves: 3c3d 8h2b+\n",
    ));
    assert_eq!(lines, ["1... g7g6 2. b2h8+ *"], "{pgn}");

    let mut rec = sample("shogi", 7, false);
    assert!(rec.moves.len() >= 30, "a long game");
    let (pgn, lines) = movetext(&rec);
    assert!(lines.len() > 2, "{pgn}");
    for l in &lines {
        assert!(
            l.chars().count() < 80 && !l.starts_with(' '),
            "{l:?}\n{pgn}"
        );
    }
    rec.headers.other = [
        ("Opening_Name", "v1"),
        ("ECO2", "v2"),
        ("", "x1"),
        ("Bad-Key", "x2"),
        ("戦型", "x3"),
        ("a b", "x4"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .to_vec();
    let pgn = record::write(&rec, Format::Pgn).expect("PGN");
    assert!(
        pgn.contains("[Opening_Name \"v1\"]\n[ECO2 \"v2\"]\n"),
        "{pgn}"
    );
    assert!(!pgn.contains("\"x"), "{pgn}");
}

/// Two pieces of one kind on one file that reach a square in the same
/// direction (chu shogi's horned falcons: one steps, one jumps two forward)
/// have no word between them: KI2 writes each so that it reads back as
/// itself.
#[test]
fn pieces_on_one_file_are_not_told_apart_by_right_or_left() {
    let g = game("chu-shogi");
    let pos = position_at(&g, "k11/12/12/12/12/12/12/12/7+H4/7+H4/12/11K b - 1");
    let mut written = Vec::new();
    for usi in ["5i5h", "5j5h"] {
        let mv = pos.parse_move(usi).expect(usi);
        let text = pos.format_move(mv, Notation::Japanese);
        assert!(!text.contains(['右', '左']), "{usi}: {text}");
        assert_eq!(
            pos.parse_move(&text).ok(),
            Some(mv),
            "{usi}: {text} reads back"
        );
        written.push(text);
    }
    assert_ne!(written[0], written[1]);
}

#[test]
fn relative_words_tell_two_pieces_apart() {
    let g = game("shogi");
    // Golds on 6i and 4i can both go to 5h; the one on 5i too.
    let cases = [
        ("4k4/9/9/9/9/9/9/9/3G1G1K1 b - 1", "4i5h", "▲５八金右"),
        ("4k4/9/9/9/9/9/9/9/3G1G1K1 b - 1", "6i5h", "▲５八金左"),
        ("4k4/9/9/9/9/9/9/9/3GGG1K1 b - 1", "5i5h", "▲５八金直"),
        ("4k4/9/9/9/9/9/5S3/9/3S3K1 b - 1", "4g5h", "▲５八銀引"),
        ("4k4/9/9/9/9/9/5S3/9/3S3K1 b - 1", "6i5h", "▲５八銀上"),
        ("4k4/9/9/9/9/9/9/5G3/3G3K1 b - 1", "4h5h", "▲５八金寄"),
        ("4k4/9/9/9/9/9/9/5G3/3G3K1 b - 1", "6i5h", "▲５八金上"),
        // Gote's view: its right is sente's left.
        ("1k1g1g3/9/9/9/9/9/9/9/4K4 w - 1", "6a5b", "△５二金右"),
        // Gote's forward is down the board.
        ("5s2k/9/3s5/9/9/9/9/9/4K4 w - 1", "6c5b", "△５二銀引"),
        ("5s2k/9/3s5/9/9/9/9/9/4K4 w - 1", "4a5b", "△５二銀上"),
        ("1K7/9/9/9/9/9/9/9/4k4 b R2r 1", "R*5e", "▲５五飛"),
        ("4k4/9/9/9/9/9/9/9/R3K4 b R 1", "R*9e", "▲９五飛打"),
        ("4k4/9/9/9/9/9/9/9/R3K4 b R 1", "9i9e", "▲９五飛"),
    ];
    for (sfen, usi, want) in cases {
        let pos = position_at(&g, sfen);
        let mv = pos.parse_move(usi).expect(usi);
        let written = pos.format_move(mv, Notation::Japanese);
        assert_eq!(written, want, "{sfen} {usi}");
        assert_eq!(
            pos.parse_move(&written).ok(),
            Some(mv),
            "{written} reads back"
        );
    }
}

#[test]
fn every_legal_move_of_every_variant_reads_back_from_japanese() {
    for slug in variant::catalogue() {
        let g = game(slug);
        let mut rng = Rng(3);
        let mut pos = AnyPosition::start(&g);
        for _ in 0..30 {
            if pos.outcome().is_some() {
                break;
            }
            let legal = pos.legal_moves();
            for &m in &legal {
                let j = pos.format_move(m, Notation::Japanese);
                assert_eq!(
                    pos.parse_move(&j).ok(),
                    Some(m),
                    "{slug}: {j} in {}",
                    pos.sfen()
                );
            }
            pos.try_play(legal[rng.below(legal.len())]).expect("legal");
        }
    }
}

#[test]
fn squares_beyond_nine_files_are_numbered_whole() {
    use koma::board::Topology;
    use koma::notation::japanese::{from_numbers, origin, parse_square, square_name};
    let t = Topology::rectangle(12, 12);
    let sq = t.square(0, 1).expect("on the board");
    assert_eq!(square_name(t, sq), "１２十一");
    assert_eq!(origin(t, sq), "(1211)");
    assert_eq!(
        parse_square(t, "１２十一歩").map(|(s, r)| (s, r.to_string())),
        Some((sq, "歩".into()))
    );
    // Either dimension past nine is enough for two digits each (the reader
    // could not tell `(109)` apart otherwise).
    let wide = Topology::rectangle(9, 10);
    let corner = wide.square(0, 0).expect("on the board");
    assert_eq!(origin(wide, corner), "(1009)");
    let tall = Topology::rectangle(10, 9);
    let corner = tall.square(8, 9).expect("on the board");
    assert_eq!(origin(tall, corner), "(0101)");
    // Kanji digits in a row are one number (一二, twelve, as 十二).
    assert_eq!(
        parse_square(t, "１２一二歩").map(|(s, r)| (s, r.to_string())),
        parse_square(t, "１２十二歩").map(|(s, r)| (s, r.to_string()))
    );
    assert!(parse_square(t, "１２十二").is_some());
    // "76" (two ASCII digits, file and rank) only where both are under ten.
    let shogi = Topology::rectangle(9, 9);
    assert_eq!(
        parse_square(shogi, "76歩").map(|(s, r)| (s, r.to_string())),
        Some((from_numbers(shogi, 7, 6).expect("7f"), "歩".into()))
    );
    for board in [t, wide, tall] {
        assert_eq!(
            parse_square(board, "76歩"),
            None,
            "{}×{}",
            board.cols,
            board.rows
        );
    }
}

/// The format of a record is told from its text (tests/records/detect.tsv),
/// each kind of line a format has taken alone.
#[test]
fn the_format_is_told_from_the_text() {
    let path = tests_dir().join("records/detect.tsv");
    for (line, f) in crate::common::table(&path, 2) {
        let text = f[0].replace("\\n", "\n").replace("\\ufeff", "\u{feff}");
        let want = Format::from_name(&f[1])
            .unwrap_or_else(|| panic!("detect.tsv:{line}: no format {}", f[1]));
        assert_eq!(record::detect(&text), want, "detect.tsv:{line}: {text:?}");
    }
}

/// The records of tests/records/external: each replays to the position
/// json-kifu-format computes (expected.tsv, checked again by check.sh).
#[test]
fn records_written_by_others_replay_to_their_library_s_positions() {
    let dir = tests_dir().join("records/external");
    let expected = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let mut n = 0;
    for line in expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut cols = line.split('\t');
        let (file, sfen, moves) = (
            cols.next().expect("file"),
            cols.next().expect("sfen"),
            cols.next().expect("moves"),
        );
        let bytes = std::fs::read(dir.join(file)).expect("record");
        let (text, _) = record::decode(&bytes);
        let rec = record::read(&text, file, None).unwrap_or_else(|e| panic!("{e}"));
        let pos = rec.position();
        // The move number is left out: json-kifu-format counts a closing
        // word (投了) as a move.
        let ours = pos.sfen();
        let ours = ours.rsplit_once(' ').map_or(ours.as_str(), |(a, _)| a);
        assert_eq!(ours, sfen, "{file}");
        assert_eq!(rec.moves.len().to_string(), moves, "{file}");
        n += 1;
    }
    assert!(n >= 10, "only {n} external records");
}

#[test]
fn shift_jis_and_utf8_read_alike() {
    let dir = tests_dir().join("records/external");
    let sjis = std::fs::read(dir.join("kif-time-sjis.kif")).expect("file");
    assert!(std::str::from_utf8(&sjis).is_err(), "the file is Shift_JIS");
    let (text, encoding) = record::decode(&sjis);
    assert_eq!(encoding, "Shift_JIS");
    let utf8 = std::fs::read_to_string(dir.join("kif-time.kif")).expect("file");
    assert_eq!(text, utf8);
    let (text, encoding) = record::decode(format!("\u{feff}{utf8}").as_bytes());
    assert_eq!((text.as_str(), encoding), (utf8.as_str(), "UTF-8"));
    // Written back in Shift_JIS, byte for byte what iconv made of it.
    assert_eq!(record::encode_shift_jis(&utf8).as_deref(), Ok(&sjis[..]));
    // KIF's encoding line says what the bytes are.
    let kif = "#KIF version=2.0 encoding=UTF-8\n手合割：平手\n";
    let bytes = record::encode_shift_jis(kif).expect("encodable");
    assert_eq!(
        record::decode(&bytes),
        (
            "#KIF version=2.0 encoding=Shift_JIS\n手合割：平手\n".to_string(),
            "Shift_JIS"
        )
    );
    // A character Shift_JIS lacks is named, not written as '?'.
    let err = record::encode_shift_jis("先手：♔\n").expect_err("♔ is not in Shift_JIS");
    assert!(err.starts_with("'♔' has no Shift_JIS code"), "{err}");
}

/// A format's parser says on which line the text went wrong.
#[test]
fn a_parse_error_names_its_line() {
    let err = record::parse("[Variant \"shogi\"]\n[Event x]\n", Format::Pgn)
        .expect_err("a tag without a quoted value");
    assert_eq!(
        err.to_string(),
        "line 2: a tag has no quoted value: expected [Name \"value\"]"
    );
}

/// `--to` and file extensions: each format's name, the usual other
/// extensions, in any case; anything else is no format.
#[test]
fn formats_are_named_by_name_or_extension() {
    for f in Format::ALL {
        assert_eq!(Format::from_name(f.name()), Some(f));
        assert_eq!(Format::from_name(&f.name().to_uppercase()), Some(f));
    }
    for (name, f) in [
        ("kifu", Format::Kif),
        ("KIFU", Format::Kif),
        ("ki2u", Format::Ki2),
        ("txt", Format::Koma),
        ("record", Format::Koma),
        ("json", Format::Jkf),
    ] {
        assert_eq!(Format::from_name(name), Some(f), "{name}");
    }
    for name in ["", "doc", "kif2", "sfen"] {
        assert_eq!(Format::from_name(name), None, "{name}");
    }
}

fn koma(args: &[&str]) -> (String, String, Option<i32>) {
    let o = Command::new(env!("CARGO_BIN_EXE_koma"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("koma runs");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code(),
    )
}

#[test]
fn convert_writes_each_format_and_refuses_what_cannot_be() {
    let input = "tests/records/external/kif-special.kif";
    for f in Format::ALL {
        let (out, err, code) = koma(&["convert", input, "--to", f.name()]);
        assert_eq!(code, Some(0), "{f}: {err}");
        let back = record::read(&out, "converted", Some(&game("shogi"))).expect("reads back");
        assert_eq!(back.moves.len(), 4, "{f}");
    }
    let dir = std::env::temp_dir().join(format!("koma-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let out = dir.join("game.csa");
    let (_, err, code) = koma(&["convert", input, "-o", out.to_str().expect("utf-8")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        std::fs::read_to_string(&out)
            .expect("written")
            .contains("%TORYO")
    );
    let mini = dir.join("mini.txt");
    std::fs::write(&mini, "variant: minishogi\n5d5c\n").expect("written");
    let (_, err, code) = koma(&["convert", mini.to_str().expect("utf-8"), "--to", "csa"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("Minishogi is played on 5×5, and CSA and JKF records are 9×9"),
        "{err}"
    );
    let (_, err, code) = koma(&["convert", input, "--to", "xml"]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn a_resigned_game_saved_and_loaded_keeps_its_result() {
    let dir = std::env::temp_dir().join(format!("koma-resign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let saved = dir.join("game.txt");
    let p = saved.to_str().expect("utf-8");
    let o = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["play", "--gote", "human"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .expect("stdin")
                .write_all(format!("6e6d\nresign\nsave {p}\nquit\n").as_bytes())?;
            c.wait_with_output()
        })
        .expect("koma play runs");
    assert!(o.status.success());
    let text = std::fs::read_to_string(&saved).expect("saved");
    assert!(text.contains("result: sente wins by resignation"), "{text}");
    let (out, err, code) = koma(&["validate", "--game", p]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("recorded result: sente wins by resignation"),
        "{out}"
    );
    // Loaded again, the game is over until undo withdraws the resignation.
    let o = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["play", "--load", p, "--gote", "human"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .expect("stdin")
                .write_all(b"1a1b\nundo\nquit\n")?;
            c.wait_with_output()
        })
        .expect("koma play runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("Game over: sente wins by resignation"),
        "{out}"
    );
    assert!(out.contains("The game is over"), "{out}");
    assert!(out.contains("Resignation withdrawn."), "{out}");
}

#[test]
fn koma_moves_lists_japanese_notation() {
    let (out, err, code) = koma(&[
        "moves",
        "-v",
        "shogi",
        "--moves",
        "7g7f",
        "3c3d",
        "--notation",
        "japanese",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.lines().any(|l| l == "▲２二角成"), "{out}");
    assert!(out.lines().any(|l| l == "▲２二角不成"), "{out}");
    assert!(out.lines().any(|l| l == "▲５八金右"), "{out}");
}

#[test]
fn decisions_and_endings_read_back_from_their_words() {
    for r in [
        GameResult::win(Color::Sente, Ending::Checkmate),
        GameResult::win(Color::Gote, Ending::ReachedLastRank),
        GameResult::draw(Ending::Repetition),
        GameResult::undecided(Ending::Abort),
        GameResult::undecided(Ending::Unknown),
        GameResult::undecided(Ending::Time),
    ] {
        assert_eq!(GameResult::parse(&r.to_string()), Some(r), "{r}");
    }
    assert_eq!(GameResult::parse("sente wins by luck"), None);
    assert!(matches!(
        GameResult::parse("gote wins by time").map(|r| r.decision),
        Some(Decision::Win(Color::Gote))
    ));
}

#[test]
fn no_two_variants_share_a_record_name() {
    let mut kif = Vec::new();
    let mut pgn = Vec::new();
    for slug in variant::catalogue() {
        let g = game(slug);
        koma::with_rules!(&g, r => {
            if let Some(h) = &r.kif_handicap {
                assert!(!kif.contains(h), "{slug}: 手合割 {h} is another variant's");
                kif.push(h.clone());
            }
            let p = r.pgn_variant.clone().unwrap_or_else(|| r.slug.clone());
            assert!(!pgn.contains(&p), "{slug}: [Variant] {p} is another variant's");
            pgn.push(p);
        });
    }
    assert!(kif.len() >= 3, "{kif:?}");
}

#[test]
fn the_check_script_exists_and_is_executable() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/check.sh");
    let meta = std::fs::metadata(&script).expect("tests/records/check.sh");
    use std::os::unix::fs::PermissionsExt;
    assert!(
        meta.permissions().mode() & 0o111 != 0,
        "check.sh is not executable"
    );
}

/// A CSA or JKF record that names no variant, from a library that knows
/// only shogi, is shogi's, though check shogi has the same board, pieces
/// and start (found by reading tsshogi's records).
#[test]
fn a_record_that_names_no_variant_is_taken_for_the_formats_own_game() {
    let csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n";
    let rec = koma::record::read(csa, "plain.csa", None).expect("reads");
    assert_eq!(rec.game.slug(), "shogi");
    let jkf = r#"{"header":{},"initial":{"preset":"HIRATE"},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}}]}"#;
    let rec = koma::record::read(jkf, "plain.jkf", None).expect("reads");
    assert_eq!(rec.game.slug(), "shogi");
}

/// A game started under an alias with a setup of its own (`judkins`,
/// Fairy-Stockfish's start) is written with that start in every format that
/// can hold the variant, and read back from it.
#[test]
fn a_game_under_an_alias_with_its_own_setup_keeps_its_start() {
    let game = koma::Game::load("judkins").expect("judkins");
    let mut pos = AnyPosition::start(&game);
    let mut rng = Rng(7);
    let moves = random_moves(&mut pos, &mut rng, 12);
    let start = AnyPosition::start(&game).to_setup();
    let rec = GameRecord::from_position(&pos);
    for format in Format::ALL {
        let Ok(written) = record::write(&rec, format) else {
            continue;
        };
        // A USI position line names no game: it is given.
        let given = (format == Format::Usi).then_some(&game);
        let back = record::read(&written, "alias", given)
            .unwrap_or_else(|e| panic!("{format}: {e}\n{written}"));
        assert_eq!(
            back.start_position().to_setup().ranks,
            start.ranks,
            "{format}:\n{written}"
        );
        let back_moves: Vec<_> = back.moves.iter().map(|m| m.mv).collect();
        assert_eq!(back_moves, moves, "{format}");
    }
}

/// On a board of more than 26 files SAN cannot name a file by one letter:
/// a PGN there is read in coordinates (with the new letters, `ac1ac5`), and
/// a SAN move is refused with what to write instead.
#[test]
fn pgn_on_a_board_past_z_reads_coordinates_and_refuses_san() {
    let g = game(
        &tests_dir()
            .join("moves/variants/wide-30x8.md")
            .to_string_lossy(),
    );
    let pos = AnyPosition::start(&g);
    // The start has sente's pawns on rank 2 of files a to i.
    assert!(record::pgn::resolve(&pos, "a2a3").is_ok());
    let err = record::pgn::resolve(&pos, "Ra3").expect_err("SAN refused");
    assert!(
        err.contains("SAN names a file by one letter and this board has 30 files"),
        "{err}"
    );
    // A narrower board still reads SAN.
    let shogi = game("shogi");
    let pos = AnyPosition::start(&shogi);
    assert_eq!(
        record::pgn::resolve(&pos, "Pa4"),
        pos.parse_move("a3a4").map_err(|e| e.reason())
    );
}
