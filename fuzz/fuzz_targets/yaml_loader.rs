//! Fuzz target for the problem-file loader: `load_str` never panics on any text, every error
//! names a document and a line inside the text, and every loaded problem can be twinned and
//! shown.
//!
//! Run with `cargo fuzz run yaml_loader` (nightly; `RUSTC_BOOTSTRAP=1` works on stable). Seed
//! it with the problem files: `cp tests/data/corpus/*.yaml tests/data/broken/*.yaml
//! fuzz/corpus/yaml_loader/`.
#![no_main]

use feerie::problem::{GamePosition, Loaded, SolutionHint, StatedSolution, load_str};
use feerie::rules::Notation;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The converter: never a panic, and what it writes loads (it proves each problem itself).
    for to in [feerie::problem::convert::Format::Yaml, feerie::problem::convert::Format::Popeye] {
        for out in feerie::problem::convert::convert_str(text, "fuzz.yaml", false, to).into_iter().flatten() {
            assert!(!out.is_empty());
        }
    }
    let lines = text.split('\n').count();
    for d in load_str(text, "fuzz.yaml") {
        match d {
            Loaded::Ready(p) => {
                assert!(p.line >= 1 && p.line <= lines);
                if let Ok(vs) = p.variants() {
                    assert!(!vs.is_empty());
                    // Xiangqi: the stated moves are read against each twin's position.
                    for v in &vs {
                        if let (GamePosition::Xiangqi(pos), Some(st)) = (&v.position, &p.stated) {
                            for t in &st.twins {
                                let _ = feerie::verify::restate(pos, t, Notation::Wxf, false);
                                let _ = feerie::verify::restate(pos, t, Notation::Native, true);
                            }
                        }
                    }
                }
                let _ = feerie::cli::show::show_problem(&p);
            }
            Loaded::Unsupported { reason, line, .. } => {
                assert!(!reason.is_empty());
                assert!(line >= 1 && line <= lines);
            }
            Loaded::Invalid(e) => {
                assert!(e.line >= 1 && e.line <= lines, "{e}");
                assert!(e.column >= 1, "{e}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
    // The solution reader alone, on the whole text.
    let _ = StatedSolution::parse(text, &SolutionHint::default());
});
