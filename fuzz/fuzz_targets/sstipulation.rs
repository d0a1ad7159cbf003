//! Fuzz target for the structured stipulation parser: `SStipulation::parse` never panics,
//! an error's column lies within the text (or one past its end), and what it accepts is
//! written back to a text that reads the same; translating it and asking the interpreter for
//! a stand-in never panic either.
//!
//! Run with `cargo fuzz run sstipulation` (nightly; `RUSTC_BOOTSTRAP=1` works on stable).
#![no_main]

use feerie::problem::sstip::SStipulation;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match SStipulation::parse(text) {
        Ok(s) => {
            let shown = s.to_string();
            assert_eq!(SStipulation::parse(&shown).as_ref(), Ok(&s), "{text:?} -> {shown:?}");
            let _ = s.translate();
            let _ = s.first_mover();
            let _ = feerie::solve::structured::stand_in(&s);
        }
        Err(e) => assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{text:?}: {e}"),
    }
});
