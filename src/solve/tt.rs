//! A transposition table with a fixed memory budget, shared by all threads without locks.
//!
//! Each slot holds a key and a data word, written as `key ^ data` and `data` so that a torn
//! write (two threads on one slot) is detected on reading and ignored. Only proven facts are
//! stored, and every entry carries the full 64-bit key, so the table can speed the search up
//! but never change its result.
//!
//! Slots come in buckets of four, one cache line: a key may stand in any slot of its
//! bucket, and a new key takes the place of the entry that cost least to find (its *worth*,
//! kept in the data word's bits 48 to 55, which callers leave alone), so that the proofs of
//! long lines outlive those of short ones when the table is full.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots per bucket: 4 × 16 bytes, one cache line.
const BUCKET: usize = 4;
/// The data word's bits that hold an entry's worth.
const WORTH: u64 = 0xFF << 48;

/// The shared table.
pub struct Table {
    slots: Slots,
    mask: usize,
}

/// The slots' memory. On Linux a private anonymous mapping advised to use huge pages: the
/// kernel hands it out zeroed, page by page as the search first touches it, so a large
/// table costs nothing up front, and 2 MB pages spare both the page faults (one per 2 MB
/// instead of one per 4 KB: a quarter of the time of a short problem went into faulting in
/// a 128 MB table) and the TLB misses of random probes. Elsewhere a plain vector.
struct Slots {
    #[cfg(target_os = "linux")]
    map: Option<(std::ptr::NonNull<[AtomicU64; 2]>, usize)>,
    #[cfg(not(target_os = "linux"))]
    vec: Vec<[AtomicU64; 2]>,
}

// SAFETY: the mapping is owned by `Slots` alone (unmapped in `Drop`) and only ever accessed
// through atomics, so sharing and sending it between threads is sound.
#[cfg(target_os = "linux")]
unsafe impl Send for Slots {}
#[cfg(target_os = "linux")]
unsafe impl Sync for Slots {}

impl Slots {
    #[cfg(target_os = "linux")]
    fn new(n: usize) -> Slots {
        if n == 0 {
            return Slots { map: None };
        }
        let bytes = n * std::mem::size_of::<[AtomicU64; 2]>();
        // SAFETY: an anonymous private mapping with no address hint: it aliases nothing.
        let ptr = unsafe {
            libc::mmap(std::ptr::null_mut(), bytes, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0)
        };
        if ptr == libc::MAP_FAILED {
            return Slots { map: None };
        }
        // SAFETY: `ptr..ptr+bytes` is the mapping just made; the advice is only a hint.
        unsafe {
            libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE);
        }
        Slots { map: std::ptr::NonNull::new(ptr.cast()).map(|p| (p, n)) }
    }

    #[cfg(not(target_os = "linux"))]
    fn new(n: usize) -> Slots {
        let mut vec = Vec::with_capacity(n);
        vec.resize_with(n, || [AtomicU64::new(0), AtomicU64::new(0)]);
        Slots { vec }
    }

    #[inline]
    fn as_slice(&self) -> &[[AtomicU64; 2]] {
        #[cfg(target_os = "linux")]
        match self.map {
            // SAFETY: the mapping holds `n` zero-initialised slots (zero is a valid
            // AtomicU64) and lives as long as `self`.
            Some((p, n)) => unsafe { std::slice::from_raw_parts(p.as_ptr(), n) },
            None => &[],
        }
        #[cfg(not(target_os = "linux"))]
        &self.vec
    }
}

#[cfg(target_os = "linux")]
impl Drop for Slots {
    fn drop(&mut self) {
        if let Some((p, n)) = self.map.take() {
            // SAFETY: the mapping made in `new`, with its length, unmapped once.
            unsafe {
                libc::munmap(p.as_ptr().cast(), n * std::mem::size_of::<[AtomicU64; 2]>());
            }
        }
    }
}

impl Table {
    /// A table of at most `mb` megabytes (at least one slot; 0 gives a table that stores
    /// nothing).
    pub fn new(mb: usize) -> Table {
        if mb == 0 {
            return Table { slots: Slots::new(0), mask: 0 };
        }
        let bytes = mb.saturating_mul(1 << 20);
        let mut n = (bytes / 16).max(1).next_power_of_two();
        if n * 16 > bytes {
            n /= 2;
        }
        let n = n.max(1);
        let slots = Slots::new(n);
        let mask = slots.as_slice().len().max(1) - 1;
        Table { slots, mask }
    }

    /// Whether the table stores anything.
    pub fn enabled(&self) -> bool {
        !self.slots.as_slice().is_empty()
    }

    /// Asks the processor to fetch `key`'s slot into the cache (a hint: a probe soon after
    /// finds it there).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let slots = self.slots.as_slice();
        if slots.is_empty() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        {
            let p: *const [AtomicU64; 2] = &slots[key as usize & self.mask];
            // SAFETY: a prefetch is a hint that never faults, on the address of a live slot.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bucket of `key`: the slots it may stand in.
    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let slots = self.slots.as_slice();
        let first = key as usize & self.mask & !(BUCKET - 1);
        &slots[first..(first + BUCKET).min(slots.len())]
    }

    /// The data stored for `key`, if any (without the worth bits).
    #[inline]
    pub fn get(&self, key: u64) -> Option<u64> {
        if !self.enabled() {
            return None;
        }
        for s in self.bucket(key) {
            let k = s[0].load(Ordering::Relaxed);
            let d = s[1].load(Ordering::Relaxed);
            if k ^ d == key && d != 0 {
                return Some(d & !WORTH);
            }
        }
        None
    }

    /// Stores `data` (non-zero, its bits 48 to 55 clear) for `key`, with its `worth` (what
    /// finding it again would cost, in any unit that grows with the cost: the moves left):
    /// in `key`'s slot if it has one, else in place of the entry of its bucket worth least.
    #[inline]
    pub fn put(&self, key: u64, data: u64, worth: u8) {
        if !self.enabled() || data == 0 {
            return;
        }
        let data = data & !WORTH | (worth as u64) << 48;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut least = u64::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let k = s[0].load(Ordering::Relaxed);
            let d = s[1].load(Ordering::Relaxed);
            if k ^ d == key || d == 0 {
                victim = i;
                break;
            }
            let w = (d & WORTH) >> 48;
            if w < least {
                least = w;
                victim = i;
            }
        }
        let s = &bucket[victim];
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
        t.put(42, 7, 3);
        assert_eq!(t.get(42), Some(7));
        assert_eq!(t.get(43), None);
        let off = Table::new(0);
        off.put(42, 7, 3);
        assert_eq!(off.get(42), None);
    }

    #[test]
    fn a_full_bucket_keeps_what_is_worth_most() {
        let t = Table::new(1);
        let bucket = |i: u64| i * (t.mask as u64 + 1) + 8; // same bucket, other keys
        for i in 0..4 {
            t.put(bucket(i), 1, 10 + i as u8);
        }
        // A fifth key replaces the entry worth least (10), the others stay.
        t.put(bucket(4), 1, 5);
        assert_eq!(t.get(bucket(0)), None);
        assert!((1..5).all(|i| t.get(bucket(i)) == Some(1)));
        // The same key replaces its own slot.
        t.put(bucket(2), 9, 1);
        assert_eq!(t.get(bucket(2)), Some(9));
        assert!([1, 3, 4].iter().all(|&i| t.get(bucket(i)) == Some(1)));
    }
}
