//! What the search keeps in memory: the bytes of a position of each game (copied per move,
//! never stored in the table) and of a table entry, as the README gives them, and the table's
//! budget as `--hash` and `--jobs` share it out.

use feerie::position::Position;
use feerie::rules::cheskers::CheskersPosition;
use feerie::rules::fairy::FairyPosition;
use feerie::rules::xiangqi::XiangqiPosition;
use feerie::solve::SolveOptions;
use feerie::solve::tt::{SLOT_BYTES, Table};
use std::mem::size_of;

/// The sizes the README states are upper bounds: a position may shrink, never grow unnoticed.
#[test]
fn position_and_entry_sizes() {
    let sizes = [
        ("chess Position", size_of::<Position>(), 192),
        ("FairyPosition", size_of::<FairyPosition>(), 320),
        ("XiangqiPosition", size_of::<XiangqiPosition>(), 256),
        ("CheskersPosition", size_of::<CheskersPosition>(), 64),
    ];
    for (name, bytes, most) in sizes {
        println!("{name}: {bytes} bytes");
        assert!(bytes <= most, "{name} is {bytes} bytes, more than the {most} the README gives");
    }
    assert_eq!(SLOT_BYTES, 16, "a table entry is a key word and a data word");
}

/// A search's table takes at most its share of `--hash`, computed from the options (the
/// capacity, not a measurement): 1 MB shared by 3 jobs gives each a table of 256 KB (the
/// largest power of two of entries that fits in 349,525 bytes), and `--hash 0` none.
#[test]
fn small_hash_budgets_are_honoured() {
    let share = |hash_mb, hash_share| SolveOptions { hash_mb, hash_share, ..SolveOptions::default() }.table_bytes();
    assert_eq!(share(1, 3), 349_525);
    assert_eq!(Table::with_bytes(share(1, 3)).capacity_bytes(), 256 << 10);
    assert_eq!(Table::with_bytes(share(1, 1)).capacity_bytes(), 1 << 20);
    assert_eq!(Table::with_bytes(share(0, 1)).capacity_bytes(), 0);
    assert!(!Table::with_bytes(share(0, 1)).enabled());
    // Below the table's 2 MB start, the whole budget is in use from the start and no more.
    let t = Table::with_bytes(share(1, 1));
    assert_eq!(t.slots_in_use() * SLOT_BYTES, 1 << 20);
    // A budget of a few entries still holds.
    assert_eq!(Table::with_bytes(40).capacity_bytes(), 32);
}
