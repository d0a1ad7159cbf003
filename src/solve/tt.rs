//! A transposition table with a fixed memory budget, shared by all threads without locks.
//!
//! Each slot holds a key and a data word, written as `key ^ data` and `data` so that a torn
//! write (two threads on one slot) is detected on reading and ignored. Only proven facts are
//! stored, and every entry carries the full 64-bit key, so the table can speed the search up
//! but never change its result.

use std::sync::atomic::{AtomicU64, Ordering};

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

    /// The data stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u64> {
        let slots = self.slots.as_slice();
        if slots.is_empty() {
            return None;
        }
        let s = &slots[key as usize & self.mask];
        let k = s[0].load(Ordering::Relaxed);
        let d = s[1].load(Ordering::Relaxed);
        if k ^ d == key && d != 0 { Some(d) } else { None }
    }

    /// Stores `data` (non-zero) for `key`, replacing what was in its slot.
    #[inline]
    pub fn put(&self, key: u64, data: u64) {
        let slots = self.slots.as_slice();
        if slots.is_empty() || data == 0 {
            return;
        }
        let s = &slots[key as usize & self.mask];
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
