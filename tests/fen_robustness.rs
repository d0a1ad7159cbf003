//! The FEN parser never panics, whatever it is fed, and what it accepts it writes back in a
//! form that reads back the same (the CI side of `fuzz/fuzz_targets/fen.rs`).

use feerie::position::Position;
use proptest::prelude::*;
use proptest::test_runner::Config;

const SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
    "4k3/8/2(G)5/8/8/8/(ca)7/4K3 w - - 0 1",
    "4k3/8/8/8/3(n)4/5(S)2/8/4K3[(N)(am)] b - - 7 30",
    "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1",
];

/// What the parser accepts must survive `to_fen` and come back the same.
fn check(text: &str) {
    if let Ok(p) = Position::from_fen(text) {
        let fen = p.to_fen();
        let q = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{text:?} was accepted, its FEN {fen:?} is not: {e}"));
        assert_eq!(q.to_fen(), fen, "from {text:?}");
        assert!(q == p, "{text:?}: {fen} reads back as {}", q.to_fen());
        assert_eq!(q.hash(), p.hash(), "{text:?}");
    }
}

/// A FEN with one random edit: a character replaced, inserted or removed, or a slice repeated.
fn mutated() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "KQRBNSPkqrbnsp12345678/()[]- wb0123456789acegimnostvz".chars().collect();
    (0..SEEDS.len(), prop::collection::vec((0usize..4, any::<prop::sample::Index>(), prop::sample::select(alphabet), 0usize..12), 1..4))
        .prop_map(|(seed, edits)| {
            let mut s: Vec<char> = SEEDS[seed].chars().collect();
            for (op, at, c, n) in edits {
                let i = at.index(s.len() + 1);
                match op {
                    0 if i < s.len() => s[i] = c,
                    1 => s.insert(i, c),
                    2 if i < s.len() => {
                        s.remove(i);
                    }
                    _ => {
                        let j = (i + n).min(s.len());
                        let piece: Vec<char> = s[i.min(j)..j].to_vec();
                        for (k, ch) in piece.into_iter().enumerate() {
                            s.insert(j + k, ch);
                        }
                    }
                }
            }
            s.into_iter().collect()
        })
}

proptest! {
    #![proptest_config(Config { cases: 3000, failure_persistence: None, ..Config::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,80}") {
        check(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[KQRBNSPkqrbnsp1-9/()\\[\\]a-z]{0,70}( [wb-]( [KQkq-]{1,4}( [a-h1-8-]{1,2}( [0-9]{1,6}( [0-9]{1,6})?)?)?)?)?") {
        check(&text);
    }

    #[test]
    fn mutated_fens_never_panic(text in mutated()) {
        check(&text);
    }
}

#[test]
fn seeds_round_trip() {
    for s in SEEDS {
        assert!(Position::from_fen(s).is_ok(), "{s}");
        check(s);
    }
}

#[test]
fn long_digit_runs_are_errors_not_panics() {
    for bad in [
        "99999999999999999999/8/8/8/8/8/8/4K2k w - - 0 1",
        "4294967295k/8/8/8/8/8/8/4K3 w - - 0 1",
        "4294967296/8/8/8/8/8/8/4K2k w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999",
        "4k3/8/8/8/8/8/8/4K3 w - a99999999999999999999 0 1",
    ] {
        assert!(Position::from_fen(bad).is_err(), "{bad}");
    }
}
