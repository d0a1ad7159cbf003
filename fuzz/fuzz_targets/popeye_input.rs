//! Fuzz target for the Popeye input reader (`.inp`): `load_popeye_str` never panics on any
//! text, every fault names a line and column inside the text, and every problem it gives can
//! be twinned.
//!
//! Run with `cargo fuzz run popeye_input` (nightly; `RUSTC_BOOTSTRAP=1` works on stable). Seed
//! it with Popeye's suite: `cp ../shared/corpus/popeye/input/*/*.inp tests/data/popeye/*.inp
//! fuzz/corpus/popeye_input/`.
#![no_main]

use feerie::problem::{Loaded, load_popeye_str};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The converter: never a panic, and what it writes loads (it proves each problem itself).
    for to in [feerie::problem::convert::Format::Yaml, feerie::problem::convert::Format::Popeye] {
        for out in feerie::problem::convert::convert_str(text, "fuzz.inp", true, to).into_iter().flatten() {
            assert!(!out.is_empty());
        }
    }
    let lines = text.split('\n').count();
    for d in load_popeye_str(text, "fuzz.inp") {
        match d {
            Loaded::Ready(p) => {
                assert!(p.line >= 1 && p.line <= lines, "problem line {} of {lines}", p.line);
                if let Ok(vs) = p.variants() {
                    assert!(!vs.is_empty());
                }
            }
            Loaded::Invalid(e) => {
                assert!(e.line >= 1 && e.line <= lines, "fault line {} of {lines}: {e}", e.line);
                assert!(!e.message.is_empty());
            }
            Loaded::Unsupported { reason, .. } => assert!(!reason.is_empty()),
        }
    }
});
