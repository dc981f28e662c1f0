//! Goldens for the DSL: each movement drawn on a 7×7 board around its origin `*`
//! (sente's view, forward = up). `x` = move and capture, `m` = move only,
//! `c` = capture only, `.` = nothing. Riders are drawn to the board's edge.

use super::*;

fn draw(text: &str) -> String {
    let steps = moves(text)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"))
        .steps;
    let mut grid = [['.'; 7]; 7];
    grid[3][3] = '*';
    for s in steps {
        let mut n = 1;
        loop {
            let (x, y) = (3 + s.dx as i32 * n, 3 - s.dy as i32 * n);
            if !(0..7).contains(&x) || !(0..7).contains(&y) || (s.max != 0 && n > s.max as i32) {
                break;
            }
            grid[y as usize][x as usize] = match s.mode {
                Mode::Both => 'x',
                Mode::MoveOnly => 'm',
                Mode::CaptureOnly => 'c',
            };
            n += 1;
        }
    }
    grid.iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect()
}

macro_rules! golden {
    ($name:ident, $text:expr, $($row:literal)*) => {
        #[test]
        fn $name() {
            let expected: String = [$($row),*].iter().map(|r| format!("{r}\n")).collect();
            assert_eq!(draw($text), expected, "movement {}", $text);
        }
    };
}

golden!(pawn, "fW", "......." "......." "...x..." "...*..." "......." "......." ".......");
golden!(gold, "WfF", "......." "......." "..xxx.." "..x*x.." "...x..." "......." ".......");
golden!(silver, "FfW", "......." "......." "..xxx.." "...*..." "..x.x.." "......." ".......");
golden!(shogi_knight, "fN", "......." "..x.x.." "......." "...*..." "......." "......." ".......");
golden!(wide_forward_knight, "fsN", "......." "......." ".x...x." "...*..." "......." "......." ".......");
golden!(forward_half_knight, "fhN", "......." "..x.x.." ".x...x." "...*..." "......." "......." ".......");
golden!(right_forward_knight, "rfN", "......." "....x.." "......." "...*..." "......." "......." ".......");
golden!(lance, "fR", "...x..." "...x..." "...x..." "...*..." "......." "......." ".......");
golden!(dragon, "RF", "...x..." "...x..." "..xxx.." "xxx*xxx" "..xxx.." "...x..." "...x...");
golden!(horse, "BW", "x.....x" ".x...x." "..xxx.." "..x*x.." "..xxx.." ".x...x." "x.....x");
golden!(limited_rook, "R2", "......." "...x..." "...x..." ".xx*xx." "...x..." "...x..." ".......");
golden!(wazir_rider, "W0", "...x..." "...x..." "...x..." "xxx*xxx" "...x..." "...x..." "...x...");
golden!(right_back_bishop, "rbB", "......." "......." "......." "...*..." "....x.." ".....x." "......x");
golden!(eagle, "KbRfBbF2", "x.....x" ".x...x." "..xxx.." "..x*x.." "..xxx.." ".x.x.x." "...x...");
golden!(modes, "mWcF", "......." "......." "..cmc.." "..m*m.." "..cmc.." "......." ".......");
golden!(euro_knight, "fNsW", "......." "..x.x.." "......." "..x*x.." "......." "......." ".......");
golden!(nightrider, "NN", "......." "..x.x.." ".x...x." "...*..." ".x...x." "..x.x.." ".......");
golden!(tripper, "G", "x.....x" "......." "......." "...*..." "......." "......." "x.....x");
golden!(threeleaper, "H", "...x..." "......." "......." "x..*..x" "......." "......." "...x...");
golden!(zebra, "Z", ".x...x." "x.....x" "......." "...*..." "......." "x.....x" ".x...x.");

fn error(text: &str) -> String {
    match moves(text) {
        Ok(s) => panic!("{text} compiled to {s:?}"),
        Err(e) => e
            .iter()
            .map(|e| format!("{}..{} {}", e.span.start, e.span.end, e.message))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn unknown_atom_is_an_error() {
    assert_eq!(
        error("fWX"),
        "2..3 'X' is not a supported atom: expected one of W F D N A H C Z G K R B Q"
    );
}

#[test]
fn unknown_modifier_is_an_error() {
    assert!(error("fWjF").starts_with("2..3 'j' is not a supported modifier"));
}

#[test]
fn empty_and_dangling_are_errors() {
    assert!(error("").contains("empty"));
    assert!(error("Wf").contains("ends after a modifier"));
    assert!(error("3W").contains("range"));
}

#[test]
fn every_error_is_collected() {
    let e = error("hWDDmcF");
    assert_eq!(e.lines().count(), 3, "{e}");
}

#[test]
fn mode_letters_in_conflict_are_an_error() {
    assert!(error("mcW").contains("leave no move"));
}

#[test]
fn a_doubled_king_or_slider_is_refused_where_readers_disagree() {
    assert_eq!(
        error("fWKK"),
        "2..4 'KK' is ambiguous: a queen (a king that rides) to Fairy-Stockfish, a king to others: write Q or K"
    );
    assert!(error("RR").starts_with("0..2 'RR' is ambiguous"));
    // Not doubled: a modifier or a range stands between.
    assert!(moves("KfK").is_ok());
    assert!(moves("R2R").is_ok());
    // Doubled leapers ride, as everyone reads them.
    assert!(moves("WW").is_ok());
}

/// A leg as `(dx, dy, mode)`.
type LegShape = (i8, i8, Mode);

fn legs(text: &str) -> Vec<(LegShape, LegShape)> {
    let m = moves(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    assert!(m.steps.is_empty(), "{text}: no one-leg steps");
    m.two_legs
        .iter()
        .map(|l| {
            (
                (l.first.dx, l.first.dy, l.first.mode),
                (l.second.dx, l.second.dy, l.second.mode),
            )
        })
        .collect()
}

#[test]
fn a_capture_then_any_king_step_is_every_pair_of_king_steps() {
    let l = legs("caK");
    assert_eq!(l.len(), 64);
    assert!(
        l.iter()
            .all(|(a, b)| a.2 == Mode::CaptureOnly && b.2 == Mode::Both)
    );
    // Back to the square it left: a capture without moving.
    assert!(l.contains(&((1, 1, Mode::CaptureOnly), (-1, -1, Mode::Both))));
}

#[test]
fn a_first_leg_goes_to_an_empty_square_unless_marked() {
    assert_eq!(
        legs("fafW"),
        vec![((0, 1, Mode::MoveOnly), (0, 1, Mode::Both))]
    );
    // The first leg's directions stand before the `a`: none, every step.
    assert_eq!(legs("afW").len(), 4);
}

#[test]
fn onward_and_back_are_read_from_the_first_leg() {
    let l = legs("cafbF");
    assert_eq!(l.len(), 8);
    for (a, b) in &l {
        assert!(
            (b.0, b.1) == (a.0, a.1) || (b.0, b.1) == (-a.0, -a.1),
            "{l:?}"
        );
    }
    assert_eq!(legs("mabK").len(), 8);
    assert_eq!(
        legs("fcamfW"),
        vec![((0, 1, Mode::CaptureOnly), (0, 1, Mode::MoveOnly))]
    );
}

#[test]
fn legs_refuse_riders_ranges_a_third_leg_and_other_directions() {
    assert!(error("caR").contains("'R' rides"), "{}", error("caR"));
    assert!(error("caK2").starts_with("3..4 a multi-leg move takes no range"));
    // Two parts, each in two legs.
    assert_eq!(moves("caKaK").map(|m| m.two_legs.len()), Ok(128));
    assert!(
        error("caaK").starts_with("2..3 at most two legs"),
        "{}",
        error("caaK")
    );
    assert!(
        error("calK").starts_with("2..3 'l' is not supported on a later leg"),
        "{}",
        error("calK")
    );
    assert!(error("camcK").contains("leave no move"));
}

/// The hops of a movement: (dx, dy, max, mode, kind), sorted.
fn hops(text: &str) -> Vec<(i8, i8, u8, Mode, HopKind)> {
    let mut v: Vec<_> = moves(text)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"))
        .hoppers
        .into_iter()
        .map(|h| (h.dx, h.dy, h.max, h.mode, h.kind))
        .collect();
    v.sort();
    v
}

fn errors(text: &str) -> Vec<(String, usize)> {
    moves(text)
        .err()
        .unwrap_or_else(|| panic!("{text} was accepted"))
        .into_iter()
        .map(|e| (e.message, e.span.start))
        .collect()
}

#[test]
fn a_cannon_rides_to_move_and_hops_to_capture() {
    let m = moves("mRcpR").expect("a cannon");
    assert_eq!(m.steps.len(), 4);
    assert!(
        m.steps
            .iter()
            .all(|s| s.mode == Mode::MoveOnly && s.max == 0)
    );
    let h = hops("mRcpR");
    assert_eq!(h.len(), 4);
    assert!(
        h.iter()
            .all(|&(dx, dy, max, mode, kind)| (dx == 0) != (dy == 0)
                && max == 0
                && mode == Mode::CaptureOnly
                && kind == HopKind::Beyond)
    );
}

#[test]
fn hop_ranges_count_from_the_origin_and_grasshoppers_land_next() {
    let h = hops("pB2");
    assert_eq!(h.len(), 4);
    assert!(h.iter().all(|&(dx, dy, max, mode, _)| dx.abs() == 1
        && dy.abs() == 1
        && max == 2
        && mode == Mode::Both));
    let g = hops("gQ");
    assert_eq!(g.len(), 8);
    assert!(
        g.iter()
            .all(|&(_, _, max, _, kind)| max == 0 && kind == HopKind::Next)
    );
    assert_eq!(hops("fpR"), vec![(0, 1, 0, Mode::Both, HopKind::Beyond)]);
    // Hops and steps stay apart.
    let m = moves("mRpRmFpB2").expect("a flying cannon");
    assert_eq!((m.steps.len(), m.hoppers.len()), (8, 8));
}

#[test]
fn malformed_hops_are_refused_at_their_letters() {
    assert_eq!(errors("pW")[0].1, 1);
    assert!(errors("pW")[0].0.contains("needs a rider"));
    assert_eq!(errors("pN")[0].1, 1);
    assert!(errors("pNN")[0].0.contains("orthogonal or diagonal lines"));
    assert_eq!(
        errors("gR2"),
        vec![(
            "a grasshopper ('g') lands just beyond its screen: it takes no range".into(),
            2
        )]
    );
    assert_eq!(errors("KpR1")[0].1, 3);
    assert!(errors("pgR")[0].0.contains("not both"));
    assert_eq!(errors("pgR")[0].1, 1);
    assert!(
        errors("pcaK")
            .iter()
            .any(|e| e.0.contains("cannot be part of a move in legs"))
    );
    assert!(
        errors("mapR")
            .iter()
            .any(|e| e.0.contains("not supported on a later leg"))
    );
}

#[test]
fn other_characters_are_named_as_unexpected() {
    assert_eq!(
        error("fW!"),
        "2..3 unexpected character '!': expected modifiers and an atom such as fW"
    );
}

#[test]
fn a_third_leg_is_marked_at_its_letter() {
    // The third leg's 'a' (2..3), not the whole of its leg ("ab", 2..4).
    assert!(
        error("caabK").starts_with("2..3 at most two legs"),
        "{}",
        error("caabK")
    );
}

#[test]
fn mode_letters_of_a_first_leg_in_conflict_are_reported_once() {
    assert_eq!(errors("mcaK").len(), 1, "{:?}", errors("mcaK"));
}

#[test]
fn a_repeated_hop_letter_is_one_hop() {
    assert_eq!(hops("ppR"), hops("pR"));
    assert_eq!(hops("ggQ"), hops("gQ"));
}

#[test]
fn an_error_displays_its_message_and_character() {
    let e = &moves("fWX").unwrap_err()[0];
    assert_eq!(
        e.to_string(),
        "'X' is not a supported atom: expected one of W F D N A H C Z G K R B Q (at character 3)"
    );
}

#[test]
fn a_later_leg_of_a_leaper_takes_the_leaper_steps() {
    // `caW`: a capture by a wazir step, then any wazir step (not a king's).
    let l = legs("caW");
    assert_eq!(l.len(), 16, "{l:?}");
    assert!(l.iter().all(|(_, b)| b.0 == 0 || b.1 == 0), "{l:?}");
}

#[test]
fn a_range_may_be_as_large_as_the_limit() {
    assert!(moves("R64").is_ok());
    assert!(
        error("R65").starts_with("1..3 range 65 is too large"),
        "{}",
        error("R65")
    );
}

#[test]
fn only_leapers_whose_path_would_skip_squares_are_refused_as_riders() {
    assert!(
        error("A2").contains("a riding A is not supported"),
        "{}",
        error("A2")
    );
    assert!(
        error("D0").contains("a riding D is not supported"),
        "{}",
        error("D0")
    );
    // An oblique rider (a zebra-rider) has no squares to skip on its line.
    assert!(moves("Z2").is_ok());
    assert!(moves("F2").is_ok());
}

#[test]
fn two_letters_on_one_axis_are_two_selectors() {
    // `fbN`: the narrow forward jumps and the narrow backward ones, as `vN`.
    assert_eq!(draw("fbN"), draw("vN"));
    assert_eq!(
        draw("fbN"),
        ".......\n..x.x..\n.......\n...*...\n.......\n..x.x..\n.......\n"
    );
}

#[test]
fn a_letter_before_a_half_is_not_paired_with_it() {
    // `frhN`: `f` alone, then `rh` (the right half), not `fr` then a lone `h`;
    // the same moves as the two parts `fN` and `rhN`.
    assert_eq!(draw("frhN"), draw("fNrhN"));
}
