//! The FEN parsers (chess and Xiangqi) never panic, whatever they are fed, and what they accept
//! they write back in a form that reads back the same (the CI side of `fuzz/fuzz_targets/fen.rs`).

use feerie::position::Position;
use feerie::rules::xiangqi::XiangqiPosition;
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

/// Xiangqi FENs to mutate.
const XIANGQI_SEEDS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/3P2P2/b2N2R2/7r1/2b6/9/9/3n5/4p3r/2R2K3 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/R3K4 b",
];

/// What the Xiangqi parser accepts must survive `to_fen`, come back the same, and be playable.
fn check_xiangqi(text: &str) {
    if let Ok(p) = XiangqiPosition::from_fen(text) {
        let fen = p.to_fen();
        let q = XiangqiPosition::from_fen(&fen).unwrap_or_else(|e| panic!("{text:?} was accepted, its FEN {fen:?} is not: {e}"));
        assert_eq!(q.to_fen(), fen, "from {text:?}");
        assert_eq!(q.hash(), p.hash(), "{text:?}");
        for m in p.legal_moves() {
            let r = p.play(m);
            assert_eq!(r.hash(), r.hash_from_scratch(), "{fen} {m:?}");
        }
    }
}

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

    #[test]
    fn xiangqi_text_never_panics(text in "\\PC{0,100}") {
        check_xiangqi(&text);
    }

    #[test]
    fn xiangqi_fen_like_text_never_panics(text in "[KABNRCPEHkabnrcpeh1-9/]{0,95}( [wrb-]( [-0-9]{1,3}( [0-9]{1,4}( [0-9]{1,4})?)?)?)?") {
        check_xiangqi(&text);
    }

    #[test]
    fn mutated_xiangqi_fens_never_panic(seed in 0..XIANGQI_SEEDS.len(), edits in prop::collection::vec((0usize..3, any::<prop::sample::Index>(), prop::sample::select("KABNRCPkabnrcp123456789/ wb-0".chars().collect::<Vec<char>>())), 1..4)) {
        let mut s: Vec<char> = XIANGQI_SEEDS[seed].chars().collect();
        for (op, at, c) in edits {
            let i = at.index(s.len() + 1);
            match op {
                0 if i < s.len() => s[i] = c,
                1 => s.insert(i, c),
                _ if i < s.len() => {
                    s.remove(i);
                }
                _ => {}
            }
        }
        check_xiangqi(&s.into_iter().collect::<String>());
    }
}

#[test]
fn xiangqi_seeds_round_trip() {
    for s in XIANGQI_SEEDS {
        assert!(XiangqiPosition::from_fen(s).is_ok(), "{s}");
        check_xiangqi(s);
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
