//! The rayon drivers of the search: results always come back in the order of the items,
//! so that a report does not depend on the number of threads.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `f` over `items` in parallel, keeping the order of the results.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().with_max_len(1).map(f).collect()
}

/// [`par_map`] taking the items in their order: each thread takes the next item not yet
/// taken, so that what the search learns from the first items (table entries, killers)
/// serves the later ones as it would in a one-thread search. The threads left without an
/// item steal work inside the last ones.
pub(crate) fn par_map_ordered<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    let workers = rayon::current_num_threads().min(items.len());
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
