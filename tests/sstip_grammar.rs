//! The structured stipulation reader (`feerie::problem::sstip`) on random input: it never
//! panics, an error names a column within the text, and what it accepts reads back the same
//! from its text; random well-formed stipulations built from the grammar's parts are accepted.

use feerie::problem::sstip::SStipulation;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Texts built from the grammar's own pieces, well-formed or not.
fn pieces() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("["),
        Just("]"),
        Just("{"),
        Just("}"),
        Just("("),
        Just(")"),
        Just("!"),
        Just("&"),
        Just("|"),
        Just(">"),
        Just("/"),
        Just("-"),
        Just(":"),
        Just("?+?"),
        Just("a"),
        Just("d"),
        Just("h"),
        Just("s"),
        Just("#"),
        Just("="),
        Just("=="),
        Just("+"),
        Just("x"),
        Just("00"),
        Just("zd5"),
        Just("##"),
        Just("1"),
        Just("2"),
        Just("15"),
        Just(" "),
    ];
    (prop_oneof![Just("white "), Just("black "), Just("weiss "), Just("")], proptest::collection::vec(piece, 0..24))
        .prop_map(|(side, v)| format!("{side}{}", v.concat()))
}

/// Well-formed expressions, nested up to a few levels.
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![Just("#"), Just("="), Just("+"), Just("x"), Just("!#"), Just("#="), Just("zh1")].prop_map(str::to_string);
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (1u32..9, inner.clone()).prop_map(|(n, e)| format!("{n}hh[{e}]")),
            (1u32..9, inner.clone()).prop_map(|(n, e)| format!("{n}a[{e}]d")),
            (1u32..9, inner.clone()).prop_map(|(n, e)| format!("{n}d[{e}]a")),
            (1u32..9, inner.clone(), inner.clone()).prop_map(|(n, e, c)| format!("/{n}s[{e}]{{!{c}}}")),
            (1u32..5, inner.clone()).prop_map(|(n, e)| format!(">- {n}:{}h[{e}]h", n + 2)),
        ]
    })
}

proptest! {
    #![proptest_config(Config { cases: 2000, ..Config::default() })]

    #[test]
    fn never_panics_and_reads_back(text in pieces()) {
        match SStipulation::parse(&text) {
            Ok(s) => prop_assert_eq!(SStipulation::parse(&s.to_string()), Ok(s.clone())),
            Err(e) => prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1, "{}: {}", text, e),
        }
    }

    #[test]
    fn any_text_is_safe(text in "\\PC{0,40}") {
        if let Err(e) = SStipulation::parse(&text) {
            prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1);
        }
    }

    #[test]
    fn well_formed_ones_are_accepted(e in expr()) {
        let text = format!("black {e}");
        let s = SStipulation::parse(&text);
        prop_assert!(s.is_ok(), "{}: {:?}", text, s);
        if let Ok(s) = s {
            prop_assert_eq!(SStipulation::parse(&s.to_string()), Ok(s.clone()));
        }
    }
}
