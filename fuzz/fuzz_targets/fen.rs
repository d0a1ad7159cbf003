//! Fuzz target for the FEN parsers: `Position::from_fen`, `XiangqiPosition::from_fen` and
//! `CheskersPosition::from_fen` never panic, and a position they accept goes through `to_fen` and
//! back unchanged; its moves can be played and written and read back.
//!
//! Run with `cargo fuzz run fen` (nightly; `RUSTC_BOOTSTRAP=1` works on stable).
#![no_main]

use feerie::position::Position;
use feerie::rules::cheskers::CheskersPosition;
use feerie::rules::xiangqi::XiangqiPosition;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(x) = XiangqiPosition::from_fen(text) {
        let fen = x.to_fen();
        match XiangqiPosition::from_fen(&fen) {
            Ok(y) => assert!(y.to_fen() == fen && y.hash() == x.hash(), "{text:?}: {fen}"),
            Err(e) => panic!("{text:?} was accepted as Xiangqi but its FEN {fen:?} is not: {e}"),
        }
        for m in x.legal_moves() {
            let r = x.play(m);
            assert_eq!(r.hash(), r.hash_from_scratch(), "{fen} {m:?}");
        }
    }
    if let Ok(x) = CheskersPosition::from_fen(text) {
        let fen = x.to_fen();
        match CheskersPosition::from_fen(&fen) {
            Ok(y) => assert!(y == x && y.hash() == x.hash(), "{text:?}: {fen}"),
            Err(e) => panic!("{text:?} was accepted as Cheskers but its FEN {fen:?} is not: {e}"),
        }
        let moves = x.legal_moves();
        assert_eq!(moves.len(), x.count_legal(), "{fen}");
        for m in moves {
            let r = x.play(m);
            assert_eq!(r.hash(), r.hash_from_scratch(), "{fen} {m:?}");
            assert_eq!(x.parse_move(&x.move_text(m)), Some(m), "{fen} {m:?}");
        }
    }
    let Ok(p) = Position::from_fen(text) else { return };
    let fen = p.to_fen();
    let q = match Position::from_fen(&fen) {
        Ok(q) => q,
        Err(e) => panic!("{text:?} was accepted but its FEN {fen:?} is not: {e}"),
    };
    assert_eq!(q.to_fen(), fen, "from {text:?}");
    assert!(q == p, "{text:?}: {fen} reads back as {}", q.to_fen());
    assert_eq!(q.hash(), p.hash(), "{text:?}");
    // The position is usable: its moves can be listed and played.
    for m in p.legal_moves() {
        let r = p.play(m);
        assert_eq!(r.hash(), r.compute_hash(), "{fen} {m:?}");
    }
});
