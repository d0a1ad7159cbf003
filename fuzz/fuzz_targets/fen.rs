//! Fuzz target for the FEN parser: `Position::from_fen` never panics, and a position it
//! accepts goes through `to_fen` and back unchanged.
//!
//! Run with `cargo fuzz run fen` (nightly; `RUSTC_BOOTSTRAP=1` works on stable).
#![no_main]

use feerie::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
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
