//! Fuzz target for the stipulation parser: `Stipulation::parse` never panics, and what it
//! accepts is written back to a text that reads the same. The twin readers (chess and Xiangqi;
//! an accepted Xiangqi twin reads back the same from its description) and the options reader get
//! the same text.
//!
//! Run with `cargo fuzz run stipulation` (nightly; `RUSTC_BOOTSTRAP=1` works on stable).
#![no_main]

use feerie::problem::options::parse_options;
use feerie::problem::stipulation::Stipulation;
use feerie::problem::twins::parse_twin;
use feerie::problem::xiangqi::parse_xiangqi_twin;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Stipulation::parse(text) {
        Ok(s) => {
            let shown = s.to_string();
            assert_eq!(Stipulation::parse(&shown), Ok(s), "{text:?} -> {shown:?}");
            let _ = s.first_mover(false);
            let _ = s.first_mover(true);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    let _ = parse_twin(text);
    if let Ok((continued, commands)) = parse_xiangqi_twin(text) {
        let mut shown: Vec<String> = commands.iter().map(|c| c.to_string()).collect();
        if continued {
            shown.insert(0, "Continued".into());
        }
        let again = parse_xiangqi_twin(&shown.join(" "));
        assert_eq!(again, Ok((continued, commands)), "{text:?} -> {shown:?}");
    }
    let _ = parse_options(&[text.to_string()]);
});
