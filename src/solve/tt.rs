//! A transposition table with a fixed memory budget, shared by all threads without locks.
//!
//! Each slot holds a key and a data word, written as `key ^ data` and `data` so that a torn
//! write (two threads on one slot) is detected on reading and ignored. Only proven facts are
//! stored, and every entry carries the full 64-bit key, so the table can speed the search up
//! but never change its result.

use std::sync::atomic::{AtomicU64, Ordering};

/// The shared table.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl Table {
    /// A table of at most `mb` megabytes (at least one slot; 0 gives a table that stores
    /// nothing).
    pub fn new(mb: usize) -> Table {
        if mb == 0 {
            return Table { slots: Vec::new(), mask: 0 };
        }
        let bytes = mb.saturating_mul(1 << 20);
        let mut n = (bytes / 16).max(1).next_power_of_two();
        if n * 16 > bytes {
            n /= 2;
        }
        let n = n.max(1);
        let mut slots = Vec::with_capacity(n);
        slots.resize_with(n, || [AtomicU64::new(0), AtomicU64::new(0)]);
        Table { slots, mask: n - 1 }
    }

    /// Whether the table stores anything.
    pub fn enabled(&self) -> bool {
        !self.slots.is_empty()
    }

    /// The data stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let s = &self.slots[key as usize & self.mask];
        let k = s[0].load(Ordering::Relaxed);
        let d = s[1].load(Ordering::Relaxed);
        if k ^ d == key && d != 0 { Some(d) } else { None }
    }

    /// Stores `data` (non-zero) for `key`, replacing what was in its slot.
    #[inline]
    pub fn put(&self, key: u64, data: u64) {
        if self.slots.is_empty() || data == 0 {
            return;
        }
        let s = &self.slots[key as usize & self.mask];
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_reads_back() {
        let t = Table::new(1);
        assert!(t.enabled());
        t.put(42, 7);
        assert_eq!(t.get(42), Some(7));
        assert_eq!(t.get(43), None);
        let off = Table::new(0);
        off.put(42, 7);
        assert_eq!(off.get(42), None);
    }
}
