//! Records in `koma serve`: a game downloaded in every format and opened
//! again, a record opened and looked at move by move, and bad records.

use super::{Answer, post, request, small, start};
use crate::common::tests_dir;
use koma::server::Config;

fn new_game(addr: std::net::SocketAddr, variant: &str, moves: &[&str]) -> String {
    let a = post(
        addr,
        "/api/games",
        serde_json::json!({"variant": variant, "moves": moves}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()["id"].as_str().unwrap().to_string()
}

fn open(addr: std::net::SocketAddr, query: &str, bytes: &[u8]) -> Answer {
    request(addr, "POST", &format!("/api/records{query}"), bytes)
}

fn history(a: &Answer) -> Vec<String> {
    serde_json::from_value(a.json()["history"].clone()).unwrap()
}

#[test]
fn a_game_downloaded_in_each_format_opens_again_with_its_moves() {
    let addr = start(Config {
        max_body: 1 << 16,
        ..small()
    });
    let moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"];
    let id = new_game(addr, "shogi", &moves);
    for format in ["kif", "ki2", "csa", "pgn", "jkf", "koma", "usi"] {
        let a = request(
            addr,
            "GET",
            &format!("/api/games/{id}/record?format={format}"),
            b"",
        );
        assert_eq!(a.status, 200, "{format}: {}", a.body);
        assert!(
            a.head
                .contains("Content-Disposition: attachment; filename=\"shogi."),
            "{format}: {}",
            a.head
        );
        // A USI line names no game: the page gives the one it has chosen.
        let back = open(addr, "?variant=shogi", a.body.as_bytes());
        assert_eq!(back.status, 200, "{format}: {}\n{}", back.body, a.body);
        assert_eq!(history(&back), moves, "{format}:\n{}", a.body);
        let japanese = back.json()["history_japanese"].as_array().unwrap().len();
        assert_eq!(japanese, moves.len(), "{format}");
    }
    // KIF unless asked; an unknown format and a format that cannot hold
    // the game are refused with their reasons.
    let a = request(addr, "GET", &format!("/api/games/{id}/record"), b"");
    assert!(a.body.starts_with("#KIF"), "{}", a.body);
    let a = request(
        addr,
        "GET",
        &format!("/api/games/{id}/record?format=doc"),
        b"",
    );
    assert_eq!(
        (a.status, a.error().contains("'doc'")),
        (400, true),
        "{}",
        a.body
    );
    let judkins = new_game(addr, "judkins-shogi", &["1f1d"]);
    let a = request(
        addr,
        "GET",
        &format!("/api/games/{judkins}/record?format=csa"),
        b"",
    );
    assert_eq!(a.status, 422, "{}", a.body);
    assert!(
        a.error().contains("CSA") || a.error().contains("csa"),
        "{}",
        a.body
    );
    let a = request(addr, "GET", "/api/games/nope/record", b"");
    assert_eq!(a.status, 404, "{}", a.body);
}

#[test]
fn an_opened_record_keeps_its_headers_and_result_until_the_game_goes_on() {
    let addr = start(small());
    let path = tests_dir().join("validate/games/ok/minishogi-by-its-handicap-name.kif");
    let text = std::fs::read_to_string(&path).unwrap();
    // In Shift_JIS, as KIF files usually are.
    let bytes = koma::record::encode_shift_jis(&text).unwrap();
    let a = open(addr, "", &bytes);
    assert_eq!(a.status, 200, "{}", a.body);
    let state = a.json();
    assert_eq!(state["variant"]["slug"], "minishogi");
    assert_eq!(history(&a).len(), 3);
    assert_eq!(state["headers"]["sente"], "A");
    assert!(
        state["record_result"]
            .as_str()
            .unwrap()
            .contains("resignation"),
        "{}",
        a.body
    );
    let id = state["id"].as_str().unwrap().to_string();
    let kif = request(
        addr,
        "GET",
        &format!("/api/games/{id}/record?format=kif"),
        b"",
    );
    assert!(
        kif.body.contains("先手：A") && kif.body.contains("投了"),
        "{}",
        kif.body
    );
    assert!(
        kif.body.contains("*銀が出る"),
        "the comment is kept: {}",
        kif.body
    );
    // A move played on: the resignation no longer holds, the players do.
    let legal = state["moves"][0]["usi"].as_str().unwrap().to_string();
    let a = post(
        addr,
        &format!("/api/games/{id}/move"),
        serde_json::json!({"move": legal}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let kif = request(
        addr,
        "GET",
        &format!("/api/games/{id}/record?format=kif"),
        b"",
    );
    assert!(
        kif.body.contains("先手：A") && !kif.body.contains("投了"),
        "{}",
        kif.body
    );
}

#[test]
fn a_game_is_looked_at_move_by_move_without_changing_it() {
    let addr = start(small());
    let moves = ["7g7f", "3c3d", "2g2f"];
    let id = new_game(addr, "shogi", &moves);
    let at = |q: &str| request(addr, "GET", &format!("/api/games/{id}/at{q}"), b"");
    for ply in 0..=moves.len() {
        let a = at(&format!("?ply={ply}"));
        assert_eq!(a.status, 200, "{}", a.body);
        let here = new_game(addr, "shogi", &moves[..ply]);
        let want = request(addr, "GET", &format!("/api/games/{here}"), b"").json();
        assert_eq!(a.json()["sfen"], want["sfen"], "ply {ply}");
        assert_eq!(a.json()["ply"], ply);
        assert_eq!(a.json()["plies"], moves.len());
    }
    let a = request(addr, "GET", &format!("/api/games/{id}"), b"");
    assert_eq!(history(&a), moves, "looking back left the game as it was");
    for (q, status) in [
        ("?ply=4", 400),
        ("", 400),
        ("?ply=-1", 400),
        ("?ply=x", 400),
    ] {
        let a = at(q);
        assert_eq!(a.status, status, "{q}: {}", a.body);
        assert!(!a.error().is_empty(), "{q}");
    }
    let a = request(addr, "GET", "/api/games/nope/at?ply=0", b"");
    assert_eq!(a.status, 404, "{}", a.body);
}

#[test]
fn bad_records_are_refused_with_their_line() {
    let addr = start(small());
    let cases: [(&str, &[u8], u16, &str); 7] = [
        ("", b"", 400, "empty"),
        ("", b"  \n", 400, "empty"),
        ("", b"variant: shogi\n7g7f 7g7f\n", 400, "record:2:"),
        ("", b"7g7f\n", 400, "names no variant"),
        // A record never makes the server read a file.
        (
            "",
            b"variant: /etc/passwd\n7g7f\n",
            400,
            "no embedded variant",
        ),
        ("?variant=/etc/passwd", b"7g7f\n", 404, "unknown variant"),
        ("", b"\xff\xfe\x00junk", 400, "record"),
    ];
    for (query, body, status, words) in cases {
        let a = open(addr, query, body);
        assert_eq!(a.status, status, "{query} {body:?}: {}", a.body);
        assert!(a.error().contains(words), "{query} {body:?}: {}", a.body);
    }
    // A record that names no variant is read as the one the page has chosen;
    // one that names its variant keeps it.
    let a = open(addr, "?variant=shogi", b"7g7f 3c3d\n");
    assert_eq!(
        (a.status, history(&a)),
        (200, vec!["7g7f".to_string(), "3c3d".into()])
    );
    let a = open(addr, "?variant=shogi", b"variant: minishogi\n4e4d\n");
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["variant"]["slug"], "minishogi");
    // Too large a record: 413, as for any body.
    let a = open(addr, "", &vec![b'1'; 4096]);
    assert_eq!(a.status, 413, "{}", a.body);
}
