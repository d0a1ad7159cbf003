//! Patrol chess (Popeye's `Patrouille`): a piece captures, and so gives check, only when a
//! friendly piece observes it. A neutral piece is the friend of the side that moves.

use super::Hooks;
use crate::geometry::{Square, Squares};
use crate::piece::{Color, Kind};
use crate::rules::fairy::{FPiece, FairyPosition};

/// Patrol chess.
pub(crate) struct Patrol;

/// Whether a piece that `mover` may move observes the square `s` (holding `p`).
///
/// Where every piece observes from its own square by its own walk (no condition lends walks
/// or moves the square captures start from, as Annan and Mars Circe do), a friend whose walk
/// cannot reach `s` from where it stands on any board is passed over before it is asked.
pub(crate) fn guarded(pos: &FairyPosition, s: Square, mover: Color) -> bool {
    let target = 1u64 << s.0;
    let own_walks = pos.observes_from_own_square();
    Squares(pos.movable(mover) & !target).any(|f| {
        pos.piece_at(f).is_some_and(|q| {
            (!own_walks || q.kind == Kind::Orphan || crate::rules::fairy::capture_span(q.kind, f) & target != 0)
                && pos.observes_for(f, q, s, mover)
        })
    })
}

impl Hooks for Patrol {
    fn may_capture(&self, pos: &FairyPosition, from: Square, _p: FPiece, mover: Color) -> bool {
        guarded(pos, from, mover)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fairy::conditions::{Condition, Conditions, Rebirth};
    use crate::rules::fairy::{FairySetup, Owner};

    /// Whether a piece that `mover` may move observes `s`, every friend asked.
    fn guarded_plainly(pos: &FairyPosition, s: Square, mover: Color) -> bool {
        Squares(pos.movable(mover) & !(1u64 << s.0)).any(|f| pos.piece_at(f).is_some_and(|q| pos.observes_for(f, q, s, mover)))
    }

    /// The friends passed over by their spans are never those that observe: on random boards
    /// with every kind of piece, neutral ones and holes, under Patrol alone and with a
    /// condition that lends walks, moves the square captures start from, or restricts
    /// observation.
    #[test]
    fn passing_over_by_span_keeps_every_guard() {
        let others = [
            None,
            Some(Condition::Annan),
            Some(Condition::Rebirth(Rebirth::Mars)),
            Some(Condition::Grid),
            Some(Condition::Madrasi { rex: true }),
        ];
        let mut rnd = crate::rules::test_random(0x9a7e_0123);
        let mut guards = 0;
        for case in 0..6_000 {
            let mut conds = Conditions::none();
            conds.push(Condition::Patrol).unwrap();
            if let Some(c) = others[case % others.len()] {
                let _ = conds.push(c);
            }
            let Ok(mut p) = FairyPosition::from_setup(&FairySetup { side: Some(Color::White), conditions: conds, ..FairySetup::default() })
            else {
                continue;
            };
            for _ in 0..4 + rnd(20) {
                let s = Square(rnd(64) as u8);
                let owners = if rnd(4) == 0 { 3 } else { 2 };
                let owner = [Owner::White, Owner::Black, Owner::Neutral][rnd(owners) as usize];
                let kind = Kind::ALL[rnd(Kind::ALL.len() as u64) as usize];
                if kind == Kind::King {
                    continue;
                }
                p.take(s);
                p.put(s, FPiece::new(owner, kind));
            }
            if rnd(6) == 0 {
                p.holes = (0..3).fold(0u64, |h, _| h | 1u64 << rnd(64)) & !p.occupied();
            }
            for s in 0..64u8 {
                for mover in [Color::White, Color::Black] {
                    let fast = guarded(&p, Square(s), mover);
                    assert_eq!(fast, guarded_plainly(&p, Square(s), mover), "{} on {s} for {mover:?}", p.to_fen());
                    guards += fast as u32;
                }
            }
        }
        assert!(guards > 10_000, "{guards} squares guarded");
    }
}
