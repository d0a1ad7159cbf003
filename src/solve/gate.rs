//! Where asking a game's lower bound pays: [`Gate`] keeps per-depth counts of how often the
//! bound cut, and turns asking off where it does not pay. It knows nothing of any game.

/// Half-moves left up to which a [`Gate`] keeps counts (and lets the bound be asked).
pub const GATE_PLIES: usize = 16;

/// Decides where asking [`Game::goal_unreachable`](crate::rules::Game::goal_unreachable) pays: per number of half-moves left, the bound
/// stays on while it cuts often enough to save more than it costs, and while off it is still
/// asked now and then, so that a part of the tree where it pays turns it back on. Only the
/// speed depends on it: the bound is sound whether asked or not.
#[derive(Clone, Debug)]
pub struct Gate {
    asked: [u32; GATE_PLIES],
    cut: [u32; GATE_PLIES],
    on: [bool; GATE_PLIES],
    skipped: [u32; GATE_PLIES],
}

impl Default for Gate {
    fn default() -> Self {
        Gate { asked: [0; GATE_PLIES], cut: [0; GATE_PLIES], on: [true; GATE_PLIES], skipped: [0; GATE_PLIES] }
    }
}

impl Gate {
    /// Calls judged at a time.
    const WINDOW: u32 = 256;
    /// While off, the bound is asked once in this many times.
    const SAMPLE: u32 = 16;

    /// Whether to ask the bound at a node with `k` half-moves left.
    #[inline]
    pub fn ask(&mut self, k: u32) -> bool {
        let k = k as usize;
        if k >= GATE_PLIES {
            return false;
        }
        if self.on[k] {
            return true;
        }
        self.skipped[k] += 1;
        if self.skipped[k] >= Self::SAMPLE {
            self.skipped[k] = 0;
            return true;
        }
        false
    }

    /// Whether the bound is on at `k` half-moves left (asked at every node there).
    pub fn is_on(&self, k: u32) -> bool {
        (k as usize) < GATE_PLIES && self.on[k as usize]
    }

    /// Records the answer of a bound asked at `k` half-moves left.
    #[inline]
    pub fn record(&mut self, k: u32, cut: bool) {
        self.record_many(k, 1, cut as u32);
    }

    /// Records `asked` answers at `k` half-moves left, `cut` of which cut.
    pub fn record_many(&mut self, k: u32, asked: u32, cut: u32) {
        let k = k as usize;
        if k >= GATE_PLIES {
            return;
        }
        self.asked[k] += asked;
        self.cut[k] += cut;
        if self.asked[k] >= Self::WINDOW {
            // A cut next to the mate saves one move generation (on when at least one call in
            // four cuts); higher up, a whole subtree (one in 32).
            let rate = if k <= 1 { 4 } else { 32 };
            self.on[k] = self.cut[k] * rate >= self.asked[k];
            self.asked[k] = 0;
            self.cut[k] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_turns_off_and_back_on() {
        let mut g = Gate::default();
        // Never cutting: off after a window, then asked one time in SAMPLE.
        for _ in 0..Gate::WINDOW {
            assert!(g.ask(3));
            g.record(3, false);
        }
        let asked = (0..Gate::SAMPLE * 4).filter(|_| g.ask(3)).count();
        assert_eq!(asked, 4);
        // Other depths keep their own counts.
        assert!(g.ask(2));
        // Cutting again while sampled: back on after a window of samples.
        let mut n = 0;
        while n < Gate::WINDOW {
            if g.ask(3) {
                g.record(3, true);
                n += 1;
            }
        }
        assert!(g.ask(3) && g.ask(3));
        // Beyond the counted depths: never asked.
        assert!(!g.ask(GATE_PLIES as u32));
    }
}
