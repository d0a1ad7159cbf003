//! Fills the attack table of the chess sliders' magic bitboards once, at build time, so
//! that start-up does not (`src/rules/magics.rs` holds the magics and the filling; the table
//! is written to `$OUT_DIR/magic_attacks.rs` as a static array that `src/rules/chess.rs`
//! includes).

use std::fmt::Write as _;

include!("src/rules/magics.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/rules/magics.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let mut attacks = Vec::new();
    fill_magics(&ROOK_DIRS, &ROOK_MAGICS, &mut attacks);
    fill_magics(&BISHOP_DIRS, &BISHOP_MAGICS, &mut attacks);
    let mut out = String::with_capacity(attacks.len() * 20 + 200);
    let _ = writeln!(out, "/// The attack sets of the magic bitboards (filled by `build.rs`).");
    let _ = write!(out, "static MAGIC_ATTACKS: [u64; {}] = [", attacks.len());
    for (i, a) in attacks.iter().enumerate() {
        if i % 8 == 0 {
            out.push('\n');
        }
        let _ = write!(out, "{a:#x},");
    }
    out.push_str("\n];\n");
    let dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    std::fs::write(std::path::Path::new(&dir).join("magic_attacks.rs"), out).expect("the build directory is writable");
}
