//! A transposition table with a fixed memory budget, shared by all threads without locks.
//!
//! Each slot holds a key and a data word, written as `key ^ data` and `data` so that a torn
//! write (two threads on one slot) is detected on reading and ignored. Only proven facts are
//! stored, and every entry carries the full 64-bit key, so the table can speed the search up
//! but never change its result.
//!
//! Slots come in buckets of four, one cache line: a key may stand in any slot of its
//! bucket. A new key takes the place of the entry of the first three that cost least to find
//! (its *worth*, kept in the data word's bits 48 to 55, which callers leave alone), so that
//! the proofs of big subtrees outlive those of small ones when the table is full; when it is
//! worth less than all three, it goes to the fourth slot, which takes whatever comes, so
//! that a flood of cheap entries cycles through one slot instead of pushing the costly ones
//! out (`reci-h#8` `intell.inp` #111 on one thread with 128 MB: 402 s with this, 483 s
//! when any new key replaced the entry worth least).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Slots per bucket: 4 × 16 bytes, one cache line.
const BUCKET: usize = 4;
/// The data word's bits that hold an entry's worth.
const WORTH: u64 = 0xFF << 48;

/// The bytes of one slot (a key word and a data word): an entry of the table.
pub const SLOT_BYTES: usize = 16;

/// The least worth of a new entry whose overflow counts towards doubling the table. The
/// cheapest entries (worth 1 or less: a help or series node with one move left, a position
/// cut before it was searched, a battle node with two moves left or fewer, whose worth is
/// one less than its moves left) still take free slots and the bucket's last one, but a flood of them no
/// longer doubles the table: finding them again costs less than the cache and TLB misses
/// of probing a table grown for them, and the kernel's zeroing of its new pages. Measured
/// on one thread, wall time and resident memory, counting every overflow → this:
/// `hpint.inp` #107 (`h=5`) 5.62 s, 537 MB → 4.62 s, 78 MB; #53 2.58 s, 273 MB → 2.33 s,
/// 77 MB; Wenda's `s#5` without solution 0.79 s, 72 MB → 0.68 s, 72 MB; the positions
/// searched 5 to 10 % more.
const GROW_WORTH: u8 = 2;

/// The slots a table starts with: 2 MB, one huge page.
const FIRST: usize = (2 << 20) / 16;

/// The shared table.
///
/// It starts small and doubles, up to its budget, each time its buckets have overflowed a
/// 64th of its slots' worth of times (with entries worth at least [`GROW_WORTH`]): a short problem then touches (and makes the kernel
/// zero) 2 MB instead of the whole budget, which was most of its time (Linss h#4: 17 ms
/// with the whole 128 MB in use from the start, 4 ms growing from 8 MB; a start of 2 MB, one
/// huge page, took a tenth off a 4 ms fairy problem against 8 MB). On a doubling, a key's bucket
/// keeps its index or gains the new top bit, and the entries of the second kind are moved
/// there. Results never depend on it.
pub struct Table {
    slots: Slots,
    /// The index mask in use (grows by doubling up to `full`).
    mask: AtomicUsize,
    /// The index mask of the whole budget.
    full: usize,
    /// Overflows (a live entry pushed out) since the last doubling.
    crowded: AtomicUsize,
}

/// The slots' memory. On Linux a private anonymous mapping advised to use huge pages: the
/// kernel hands it out zeroed, page by page as the search first touches it, so a large
/// table costs nothing up front, and 2 MB pages spare both the page faults (one per 2 MB
/// instead of one per 4 KB: a quarter of the time of a short problem went into faulting in
/// a 128 MB table) and the TLB misses of random probes. Elsewhere zeroed memory from the
/// allocator, which the system also hands out page by page, as first touched.
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

    /// Elsewhere: zeroed memory from the allocator, which takes large blocks from the
    /// system as pages zeroed on first touch, so that a large budget costs nothing up front
    /// there too.
    #[cfg(not(target_os = "linux"))]
    fn new(n: usize) -> Slots {
        let Ok(layout) = std::alloc::Layout::array::<[AtomicU64; 2]>(n) else { return Slots { vec: Vec::new() } };
        if n == 0 {
            return Slots { vec: Vec::new() };
        }
        // SAFETY: `layout` has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Slots { vec: Vec::new() };
        }
        // SAFETY: `ptr` was allocated by the global allocator with the layout of `n` slots,
        // which is what a vector of `n` slots deallocates with; zero is a valid `AtomicU64`.
        let vec = unsafe { Vec::from_raw_parts(ptr.cast::<[AtomicU64; 2]>(), n, n) };
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
        Table::with_bytes(mb.saturating_mul(1 << 20))
    }

    /// A table of at most `bytes` bytes: the largest power of two of 16-byte slots that fits
    /// (none below 16 bytes: a table that stores nothing). It never takes more, even at the
    /// start (which is 2 MB, or the whole budget when smaller).
    pub fn with_bytes(bytes: usize) -> Table {
        if bytes < SLOT_BYTES {
            return Table { slots: Slots::new(0), mask: AtomicUsize::new(0), full: 0, crowded: AtomicUsize::new(0) };
        }
        let mut n = (bytes / SLOT_BYTES).next_power_of_two();
        if n * SLOT_BYTES > bytes {
            n /= 2;
        }
        let n = n.max(1);
        let slots = Slots::new(n);
        let full = slots.as_slice().len().max(1) - 1;
        Table { slots, mask: AtomicUsize::new(full.min(FIRST - 1)), full, crowded: AtomicUsize::new(0) }
    }

    /// The bytes of the whole budget's slots (what the table may grow to).
    pub fn capacity_bytes(&self) -> usize {
        if self.enabled() { (self.full + 1) * SLOT_BYTES } else { 0 }
    }

    /// The number of slots in use now (a power of two; the whole budget once grown).
    pub fn slots_in_use(&self) -> usize {
        if self.enabled() { self.mask.load(Ordering::Relaxed) + 1 } else { 0 }
    }

    /// Counts one overflow and doubles the slots in use when there were enough of them.
    #[cold]
    fn crowded(&self, mask: usize) {
        if self.crowded.fetch_add(1, Ordering::Relaxed) >= (mask + 1) / 64 {
            self.grow(mask);
        }
    }

    /// Doubles the slots in use from `mask` (unless another thread just did).
    fn grow(&self, mask: usize) {
        if mask < self.full && self.mask.compare_exchange(mask, mask << 1 | 1, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            self.crowded.store(0, Ordering::Relaxed);
            self.spread(mask);
        }
    }

    /// After a doubling from `mask`: moves each entry whose key has the new index bit to
    /// the same slot of its new bucket (empty until now), so that probes keep finding it.
    /// Other threads go on meanwhile; an entry they write or read during the move is at
    /// worst lost, never misread, since every slot checks its key.
    fn spread(&self, mask: usize) {
        let slots = self.slots.as_slice();
        let high = mask + 1;
        for (i, s) in slots.iter().enumerate().take(high) {
            let d = s[1].load(Ordering::Relaxed);
            let key = s[0].load(Ordering::Relaxed) ^ d;
            if d != 0 && key as usize & high != 0 {
                let t = &slots[i | high];
                t[0].store(key ^ d, Ordering::Relaxed);
                t[1].store(d, Ordering::Relaxed);
                s[1].store(0, Ordering::Relaxed);
            }
        }
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
            let p: *const [AtomicU64; 2] = &slots[key as usize & self.mask.load(Ordering::Relaxed)];
            // SAFETY: a prefetch is a hint that never faults, on the address of a live slot.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bucket of `key`: the slots it may stand in.
    #[inline]
    fn bucket(&self, key: u64, mask: usize) -> &[[AtomicU64; 2]] {
        let slots = self.slots.as_slice();
        let first = key as usize & mask & !(BUCKET - 1);
        &slots[first..(first + BUCKET).min(slots.len())]
    }

    /// The data stored for `key`, if any (without the worth bits).
    #[inline]
    pub fn get(&self, key: u64) -> Option<u64> {
        if !self.enabled() {
            return None;
        }
        for s in self.bucket(key, self.mask.load(Ordering::Relaxed)) {
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
        let mask = self.mask.load(Ordering::Relaxed);
        let bucket = self.bucket(key, mask);
        // The bucket's last slot takes whatever comes when the others all hold entries worth
        // more: a flood of cheap entries then cycles through one slot instead of pushing the
        // costly ones out.
        let last = bucket.len() - 1;
        let mut victim = last;
        let mut least = u64::MAX;
        let mut overflow = true;
        for (i, s) in bucket.iter().enumerate() {
            let k = s[0].load(Ordering::Relaxed);
            let d = s[1].load(Ordering::Relaxed);
            if k ^ d == key || d == 0 {
                victim = i;
                overflow = false;
                break;
            }
            let w = (d & WORTH) >> 48;
            if i < last && w < least {
                least = w;
                victim = i;
            }
        }
        if overflow && (worth as u64) < least {
            victim = last;
        }
        let s = &bucket[victim];
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
        if overflow && worth >= GROW_WORTH && mask < self.full {
            self.crowded(mask);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_holds_to_the_byte() {
        for bytes in [0, 15, 16, 17, 1000, 1 << 20, 3 << 20, (5 << 20) + 7, 64 << 20] {
            let t = Table::with_bytes(bytes);
            assert!(t.capacity_bytes() <= bytes, "{bytes}: {}", t.capacity_bytes());
            assert!(t.slots_in_use() * SLOT_BYTES <= bytes, "{bytes}: starts with {} slots", t.slots_in_use());
            // The largest power of two of slots that fits: twice as many would not.
            assert!(bytes < SLOT_BYTES || t.capacity_bytes() * 2 > bytes, "{bytes}: {}", t.capacity_bytes());
        }
        assert!(!Table::with_bytes(15).enabled() && Table::with_bytes(16).enabled());
        // 128 MB shared by 16 jobs: 8 MB each; by 3 jobs: 32 MB each (42.7 fits 32).
        assert_eq!(Table::with_bytes((128 << 20) / 16).capacity_bytes(), 8 << 20);
        assert_eq!(Table::with_bytes((128 << 20) / 3).capacity_bytes(), 32 << 20);
        assert_eq!(Table::new(4).capacity_bytes(), 4 << 20);
    }

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
        let bucket = |i: u64| i * (t.full as u64 + 1) + 8; // same bucket, other keys
        for i in 0..4 {
            t.put(bucket(i), 1, 10 + i as u8);
        }
        // A fifth key worth more than the least of the first three slots (10) replaces it;
        // the others stay.
        t.put(bucket(4), 1, 11);
        assert_eq!(t.get(bucket(0)), None);
        assert!((1..5).all(|i| t.get(bucket(i)) == Some(1)));
        // One worth less than all three goes to the fourth slot (13 there), and the next
        // cheap one after it: the three costly entries stay.
        t.put(bucket(5), 1, 2);
        assert_eq!(t.get(bucket(3)), None);
        assert_eq!(t.get(bucket(5)), Some(1));
        t.put(bucket(6), 1, 3);
        assert_eq!(t.get(bucket(5)), None);
        assert!([1, 2, 4, 6].iter().all(|&i| t.get(bucket(i)) == Some(1)));
        // The same key replaces its own slot.
        t.put(bucket(2), 9, 1);
        assert_eq!(t.get(bucket(2)), Some(9));
        assert!([1, 4, 6].iter().all(|&i| t.get(bucket(i)) == Some(1)));
    }

    #[test]
    fn the_cheapest_entries_never_grow_the_table() {
        let t = Table::new(16);
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
        for i in 0..(1 << 20) {
            t.put(key(i), 1, GROW_WORTH - 1);
        }
        assert_eq!(t.slots_in_use(), FIRST);
        // The latest of them are there all the same.
        assert!(((1u64 << 20) - 100..1 << 20).all(|i| t.get(key(i)) == Some(1)));
        // Entries worth more grow it.
        for i in 0..(1 << 20) {
            t.put(key(i + (1 << 20)), 1, GROW_WORTH);
        }
        assert!(t.slots_in_use() > FIRST);
    }

    #[test]
    fn grows_up_to_its_budget_and_never_misreads() {
        let t = Table::new(16);
        assert_eq!(t.slots_in_use(), FIRST);
        // A scrambled stream of keys, each stored with data derived from it.
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
        let data = |k: u64| (k >> 20 | 1) & 0xFFFF_FFFF;
        let mut sizes = vec![t.slots_in_use()];
        for i in 0..(3 << 20) {
            let k = key(i);
            t.put(k, data(k), (i % 7) as u8);
            if sizes.last() != Some(&t.slots_in_use()) {
                sizes.push(t.slots_in_use());
            }
        }
        // Doubled from 2 MB to the 16 MB of the budget, and no further.
        assert_eq!(sizes, vec![FIRST, 2 * FIRST, 4 * FIRST, 8 * FIRST]);
        // Every key reads back its own data or nothing; the latest ones are all there.
        let mut found = 0;
        for i in 0..(3 << 20) {
            let k = key(i);
            match t.get(k) {
                Some(d) => {
                    assert_eq!(d, data(k));
                    found += 1;
                }
                None => assert!(i < (3 << 20) - 1000, "a recent key was lost"),
            }
        }
        assert!(found > (1 << 19), "{found} keys found");
        // A table of one megabyte, less than the first size, is whole from the start.
        assert_eq!(Table::new(1).slots_in_use(), (1 << 20) / 16);
    }

    #[test]
    fn a_doubling_keeps_every_entry() {
        let t = Table::new(8);
        let keys: Vec<u64> = (1..=5000u64).map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D)).collect();
        for &k in &keys {
            t.put(k, k >> 32 | 1, 1);
        }
        for _ in 0..2 {
            t.grow(t.slots_in_use() - 1);
        }
        assert_eq!(t.slots_in_use(), 4 * FIRST);
        assert!(keys.iter().all(|&k| t.get(k) == Some(k >> 32 | 1)));
        // At the budget a doubling does nothing.
        t.grow(t.slots_in_use() - 1);
        assert_eq!(t.slots_in_use(), 4 * FIRST);
    }
}
