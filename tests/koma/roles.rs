//! Games of many roles: past the 64 and the 128 that the narrower role sets
//! hold. A game is written twice: once with shogi's kinds (a rook is a
//! rook), once with every piece on the board a kind of its own (each with
//! the same movement and promotion as the piece it stands for, named with
//! two letters). Without drops a kind is only a name, so both must have
//! the same moves, position by position, along the same random games.

use koma::Game;
use koma::position::AnyPosition;
use koma::variant;

/// Shogi's pieces as (letter, betza, promoted betza).
const KINDS: &[(char, &str, Option<&str>)] = &[
    ('K', "K", None),
    ('R', "R", Some("RF")),
    ('B', "B", Some("BW")),
    ('G', "WfF", None),
    ('S', "FfW", Some("WfF")),
    ('N', "ffN", Some("WfF")),
    ('L', "fR", Some("WfF")),
    ('P', "fW", Some("WfF")),
];

fn kind(letter: char) -> (&'static str, Option<&'static str>) {
    let &(_, betza, promoted) = KINDS
        .iter()
        .find(|k| k.0 == letter.to_ascii_uppercase())
        .unwrap_or_else(|| panic!("no kind {letter}"));
    (betza, promoted)
}

fn piece_yaml(name: &str, id: &str, betza: &str, promoted: Option<&str>, royal: bool) -> String {
    let mut s = format!("    {name}:\n      letter: {id}\n      betza: {betza}\n");
    if royal {
        s += "      royal: true\n      value: 0\n";
    }
    if let Some(p) = promoted {
        s += &format!("      promotion: {{ name: {name} promoted, betza: {p} }}\n");
    }
    s
}

fn file(slug: &str, rows: usize, cols: usize, setup: &str, pieces: &str) -> String {
    format!(
        "---\ntitle: \"{slug}\"\nslug: {slug}\nengine:\n  topology:\n    type: grid\n    rows: {rows}\n    cols: {cols}\n  players: [sente, gote]\n  setup: \"{setup}\"\n  pieces:\n{pieces}  rules:\n    drops: false\n---\n\nA test game of tests/koma/roles.rs.\n"
    )
}

/// The two files of a setup (ranks top first, each a string of one-letter
/// pieces or `.` for an empty square): shogi's kinds, and a kind a piece.
fn twins(rows: usize, ranks: &[&str]) -> (String, String, usize) {
    let cols = ranks[0].len();
    let fen = |cell: &dyn Fn(usize, usize, char) -> String| {
        ranks
            .iter()
            .enumerate()
            .map(|(r, rank)| {
                let mut out = String::new();
                let mut empty = 0;
                for (f, c) in rank.chars().enumerate() {
                    if c == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out += &cell(r, f, c);
                }
                if empty > 0 {
                    out += &empty.to_string();
                }
                out
            })
            .collect::<Vec<_>>()
            .join("/")
    };
    let shared: String = KINDS
        .iter()
        .map(|&(l, b, p)| piece_yaml(&format!("kind {l}"), &l.to_string(), b, p, l == 'K'))
        .collect();
    let plain = file(
        "shared-kinds",
        rows,
        cols,
        &fen(&|_, _, c| c.to_string()),
        &shared,
    );
    // Each piece but the kings its own kind, two letters from its square.
    let id = |r: usize, f: usize| {
        let n = r * cols + f;
        format!(
            "{}{}",
            (b'A' + (n / 26) as u8) as char,
            (b'A' + (n % 26) as u8) as char
        )
    };
    let mut own = piece_yaml("king", "K", "K", None, true);
    let mut roles = 1;
    for (r, rank) in ranks.iter().enumerate() {
        for (f, c) in rank.chars().enumerate() {
            if c == '.' || c.eq_ignore_ascii_case(&'K') {
                continue;
            }
            let (betza, promoted) = kind(c);
            own += &piece_yaml(
                &format!("piece {}", id(r, f)),
                &id(r, f),
                betza,
                promoted,
                false,
            );
            roles += 1 + usize::from(promoted.is_some());
        }
    }
    let setup = fen(&|r, f, c| match c {
        'K' | 'k' => c.to_string(),
        _ if c.is_ascii_uppercase() => format!("({})", id(r, f)),
        _ => format!("({})", id(r, f).to_ascii_lowercase()),
    });
    (plain, file("own-kinds", rows, cols, &setup, &own), roles)
}

fn compile(text: &str) -> Game {
    let v = variant::from_text(text, "roles.md", None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Game::compile(&v).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn sorted(pos: &AnyPosition) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| format!("{m:?}")).collect();
    moves.sort();
    moves
}

/// Walks random games in both and compares every position's moves, and a
/// perft of depth 2 every few plies.
fn same_games(ranks: &[&str], want_roles: usize, games: u64, plies: usize) {
    let (plain, own, roles) = twins(ranks.len(), ranks);
    assert_eq!(roles, want_roles);
    let (plain, own) = (compile(&plain), compile(&own));
    // More than 64 roles: the widest role set, whatever the board.
    assert!(
        matches!(own, Game::Huge(_)),
        "{roles} roles on the widest width"
    );
    assert!(!matches!(plain, Game::Huge(_)));
    assert_eq!(AnyPosition::start(&own).roles().len(), roles);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for game in 0..games {
        let mut a = AnyPosition::start(&plain);
        let mut b = AnyPosition::start(&own);
        for ply in 0..plies {
            let moves = sorted(&a);
            assert_eq!(moves, sorted(&b), "game {game} ply {ply}");
            if ply % 8 == 0 {
                assert_eq!(a.perft(2), b.perft(2), "game {game} ply {ply}");
            }
            let legal = a.legal_moves();
            if legal.is_empty() || a.outcome().is_some() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = legal[(seed % legal.len() as u64) as usize];
            a.try_play(mv).expect("legal in the shared game");
            b.try_play(mv).expect("legal in the own-kinds game");
            assert_eq!(a.in_check(), b.in_check(), "game {game} ply {ply}");
        }
    }
}

const SHOGI: &[&str] = &[
    "lnsgkgsnl",
    ".r.....b.",
    "ppppppppp",
    ".........",
    ".........",
    ".........",
    "PPPPPPPPP",
    ".B.....R.",
    "LNSGKGSNL",
];

#[test]
fn seventy_three_roles_play_as_shogis_eight_kinds() {
    // 9×9 fits 128 squares, but 73 roles need the widest role set.
    same_games(SHOGI, 73, 6, 80);
}

#[test]
fn a_hundred_and_forty_seven_roles_play_as_shogis_eight_kinds() {
    // Two shogi armies a side, one king each, on 9×18: 147 roles, the
    // widest role set.
    let wide: Vec<String> = SHOGI
        .iter()
        .map(|r| {
            format!(
                "{r}{}",
                r.replace(['K', 'k'], if r.contains('K') { "G" } else { "g" })
            )
        })
        .collect();
    let ranks: Vec<&str> = wide.iter().map(String::as_str).collect();
    same_games(&ranks, 147, 3, 60);
}
