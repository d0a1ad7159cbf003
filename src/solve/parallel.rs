//! The rayon drivers of the search: results always come back in the order of the items,
//! so that a report does not depend on the number of threads.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

thread_local! {
    /// Whether the search runs on this thread alone ([`alone`]).
    static ALONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` on the calling thread with the search's parallel parts made sequential
/// ([`threads`] answers 1, [`par_map`] maps in turn): a one-thread search needs no thread
/// pool, whose worker thread costs a short problem a tenth of its run.
pub(crate) fn alone<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the flag back as it was, also when `f` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ALONE.with(|a| a.set(self.0));
        }
    }
    let _restore = Restore(ALONE.with(|a| a.replace(true)));
    f()
}

/// The threads the search runs on: 1 under [`alone`], else those of the rayon pool.
pub(crate) fn threads() -> usize {
    if ALONE.with(|a| a.get()) { 1 } else { rayon::current_num_threads() }
}

/// Runs `f` over `items` in parallel, keeping the order of the results.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    if threads() < 2 {
        return items.iter().map(f).collect();
    }
    items.par_iter().with_max_len(1).map(f).collect()
}

/// [`par_map`] taking the items in their order: each thread takes the next item not yet
/// taken, so that what the search learns from the first items (table entries, killers)
/// serves the later ones as it would in a one-thread search. The threads left without an
/// item steal work inside the last ones.
pub(crate) fn par_map_ordered<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    let workers = threads().min(items.len());
    if workers < 2 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    (0..workers).into_par_iter().with_max_len(1).for_each(|_| {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            let r = f(item);
            if let Ok(mut slot) = slots[i].lock() {
                *slot = Some(r);
            }
        }
    });
    slots.into_iter().filter_map(|s| s.into_inner().ok().flatten()).collect()
}

/// The first `max` results of a search split into ordered items (`MaxSolutions`): which items
/// are still needed, so that the search stops once the items before them have given `max`
/// results, and the kept results are the first `max` of the one-thread search, whatever the
/// number of threads.
///
/// An item is needed while the items before it, finished, have given fewer than `max`
/// results; an item that alone gives `max` may stop there ([`FirstN::enough`]).
pub(crate) struct FirstN {
    /// The results wanted.
    pub(crate) max: usize,
    /// Each finished item's count of results (`None`: not finished).
    counts: Mutex<Vec<Option<usize>>>,
    /// The last item needed (`usize::MAX` until the first `max` results are known).
    cutoff: AtomicUsize,
}

thread_local! {
    /// The item this thread searches ([`FirstN::enter`]).
    static ITEM: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl FirstN {
    /// A limit of `max` results over `items` items.
    pub(crate) fn new(max: usize, items: usize) -> Self {
        FirstN { max, counts: Mutex::new(vec![None; items]), cutoff: AtomicUsize::new(usize::MAX) }
    }

    /// Marks item `i` as the one this thread searches from now on.
    pub(crate) fn enter(&self, i: usize) {
        ITEM.with(|c| c.set(i));
    }

    /// Whether item `i` is still needed.
    #[inline]
    pub(crate) fn needed(&self, i: usize) -> bool {
        i <= self.cutoff.load(Ordering::Relaxed)
    }

    /// Whether the item this thread searches may stop, having found `found` results: it is no
    /// longer needed, or it alone has given `max`.
    #[inline]
    pub(crate) fn enough(&self, found: usize) -> bool {
        found >= self.max || !self.needed(ITEM.with(|c| c.get()))
    }

    /// Records that item `i` finished with `count` results; once the items from the first on
    /// have given `max`, the later ones are no longer needed.
    pub(crate) fn finished(&self, i: usize, count: usize) {
        let Ok(mut counts) = self.counts.lock() else { return };
        if let Some(c) = counts.get_mut(i) {
            *c = Some(count);
        }
        let mut sum = 0;
        for (j, c) in counts.iter().enumerate() {
            let Some(c) = c else { break };
            sum += c;
            if sum >= self.max {
                self.cutoff.fetch_min(j, Ordering::Relaxed);
                break;
            }
        }
    }

    /// The first `max` results of `parts` (one list per item, in order), from the items
    /// still needed.
    pub(crate) fn take<R>(&self, parts: Vec<Vec<R>>) -> Vec<R> {
        let mut out: Vec<R> = parts.into_iter().enumerate().filter(|(i, _)| self.needed(*i)).flat_map(|(_, p)| p).collect();
        out.truncate(self.max);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_drivers_keep_the_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..200).collect();
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
            pool.install(|| {
                assert_eq!(par_map(&items, |x| x * x), want);
                assert_eq!(par_map_ordered(&items, |x| x * x), want);
                assert!(par_map_ordered(&[] as &[u64], |x| x * x).is_empty());
            });
        }
    }

    /// The first n results kept are those of the one-thread search, on any number of
    /// threads, and the items after them are skipped.
    #[test]
    fn first_n_keeps_the_first_results_in_order() {
        // Item i gives i % 3 results.
        let items: Vec<usize> = (0..60).collect();
        let all: Vec<(usize, usize)> = items.iter().flat_map(|&i| (0..i % 3).map(move |j| (i, j))).collect();
        for max in [1, 2, 5, 17, 100] {
            for threads in [1, 2, 4] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
                let limit = FirstN::new(max, items.len());
                let searched = AtomicUsize::new(0);
                let parts = pool.install(|| {
                    par_map(&items, |&i| {
                        limit.enter(i);
                        let mut out = Vec::new();
                        if limit.needed(i) {
                            searched.fetch_add(1, Ordering::Relaxed);
                            for j in 0..i % 3 {
                                if limit.enough(out.len()) {
                                    break;
                                }
                                out.push((i, j));
                            }
                        }
                        limit.finished(i, out.len());
                        out
                    })
                });
                let got = limit.take(parts);
                let want: Vec<(usize, usize)> = all.iter().copied().take(max).collect();
                assert_eq!(got, want, "max {max}, {threads} threads");
                if threads == 1 && max < all.len() {
                    // One thread: nothing after the item that completed the first max.
                    let last = want.last().map_or(0, |r| r.0);
                    assert_eq!(searched.load(Ordering::Relaxed), last + 1, "max {max}");
                }
            }
        }
    }

    #[test]
    fn ordered_driver_hands_items_out_in_their_order() {
        // With two threads, item i is started before item i + 2 is (each thread takes the
        // next item not yet taken).
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a thread pool");
        let started = Mutex::new(Vec::new());
        let items: Vec<usize> = (0..50).collect();
        pool.install(|| {
            par_map_ordered(&items, |&i| {
                if let Ok(mut s) = started.lock() {
                    s.push(i);
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            })
        });
        let started = started.into_inner().expect("not poisoned");
        for (pos, &i) in started.iter().enumerate() {
            assert!(i <= pos + 1, "item {i} started {pos}th: {started:?}");
        }
    }
}
