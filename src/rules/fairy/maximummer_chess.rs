//! Chess under the Maximummers, played on the chess board.
//!
//! A problem whose only conditions are `BlackMaximummer` and `WhiteMaximummer`, with
//! orthodox pieces, at most one king a side and no hole (the fairy position's chess twin), is chess in which a Maximummer side
//! chooses among its legal moves one of the longest. Check, mate and stalemate are chess's
//! (a side has a longest legal move exactly when it has a legal move), and every line is a
//! line of chess. [`MaximummerChess`] plays such a problem on chess's [`Position`]: its
//! copy-make, incremental key, legal-move generator and mate tests, with the choice of the
//! longest moves added where the side to move is a Maximummer. The fairy position
//! ([`FairyPosition`]) plays the same rules through its general machinery, converting its
//! board to a chess board at each node; this game skips that conversion, and the search
//! runs on chess's own moves.
//!
//! [`crate::verify`] picks it for a variant whose fairy position allows it
//! ([`MaximummerChess::of`]) and whose stipulation names no goal that follows pieces.

use super::{Condition, FairyPosition};
use crate::piece::{Color, Lang};
use crate::position::{Move, Position};
use crate::rules::{Game, Goal, chess::MoveList};

/// Chess with a Maximummer for one side or both: see the [module](self).
#[derive(Clone, Copy, Debug)]
pub struct MaximummerChess {
    /// The chess position.
    pos: Position,
    /// Whether White (index 0) and Black (index 1) play as Maximummers.
    maxi: [bool; 2],
}

impl MaximummerChess {
    /// This game for a fairy position, when its only conditions are Maximummers (one at
    /// least) and its board is a chess board (orthodox pieces of White and Black, at most
    /// one king a side, no hole, promotion to the chess pieces); `None` otherwise.
    pub fn of(fairy: &FairyPosition) -> Option<MaximummerChess> {
        let conditions = fairy.conditions();
        if conditions.is_empty() {
            return None;
        }
        let mut maxi = [false; 2];
        for c in conditions.iter() {
            match c {
                Condition::Maximummer(side) => maxi[side.index()] = true,
                _ => return None,
            }
        }
        Some(MaximummerChess { pos: fairy.chess_twin()?, maxi })
    }

    /// The chess position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Whether the side to move plays as a Maximummer.
    #[inline]
    fn chooses(&self) -> bool {
        self.maxi[self.pos.side_to_move().index()]
    }

    fn with(&self, pos: Position) -> MaximummerChess {
        MaximummerChess { pos, maxi: self.maxi }
    }
}

impl Game for MaximummerChess {
    type Move = Move;
    type Hint = ();
    type Plan = crate::rules::intelligent::Plan;

    fn to_move(&self) -> Color {
        self.pos.side_to_move()
    }
    fn moves(&self, out: &mut Vec<Move>) {
        if self.chooses() {
            let mut longest = MoveList::new();
            self.pos.longest_moves(&mut longest);
            out.clear();
            out.extend_from_slice(&longest);
        } else {
            self.pos.legal_moves_into(out);
        }
    }
    fn play(&self, m: Move) -> Self {
        self.with(self.pos.play(m))
    }
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }
    /// A side has a longest legal move exactly when it has a legal move.
    fn has_move(&self) -> bool {
        self.pos.has_legal_move()
    }
    fn key(&self) -> u64 {
        self.pos.hash()
    }
    fn key_hint(&self, m: Move) -> u64 {
        self.pos.key_hint(m)
    }
    fn child_key(&self, m: Move) -> Option<u64> {
        self.pos.child_key(m)
    }
    fn goal_reached(&self, goal: Goal) -> bool {
        Game::goal_reached(&self.pos, goal)
    }
    fn move_reaches(&self, m: Move, after: &Self, goal: Goal) -> bool {
        self.pos.move_reaches(m, &after.pos, goal)
    }
    fn self_check_moves(&self, out: &mut Vec<Move>) {
        self.pos.self_check_moves_into(out);
    }
    fn refuses_goal(goal: Goal) -> Option<String> {
        Position::refuses_goal(goal)
    }
    fn needs_check(&self, goal: Goal) -> bool {
        self.pos.needs_check(goal)
    }
    fn mark(&self) -> &'static str {
        Game::mark(&self.pos)
    }
    fn pass(&self) -> Self {
        self.with(self.pos.null_move())
    }
    /// As the fairy position writes it: chess's text, and ` ep.` after an en-passant capture.
    fn move_text(&self, m: Move, lang: Lang) -> String {
        let text = Game::move_text(&self.pos, m, lang);
        if matches!(m, Move::EnPassant { .. }) { text + " ep." } else { text }
    }
    fn gives_check(&self, m: Move) -> bool {
        self.pos.gives_check(m)
    }
    /// The opponent's king has a legal step after `m`: the opponent has a legal move, and
    /// so a longest one, and is not mated.
    fn king_escapes(&self, m: Move) -> bool {
        Game::king_escapes(&self.pos, m)
    }
    fn try_play(&self, m: Move) -> Option<Self> {
        if !self.chooses() {
            return self.pos.try_play(m).map(|p| self.with(p));
        }
        // One of the longest legal moves.
        let mut longest = MoveList::new();
        self.pos.longest_moves(&mut longest);
        longest.contains(&m).then(|| self.play(m))
    }
    fn checking_moves(&self, out: &mut Vec<Move>) {
        if !self.chooses() {
            self.pos.checking_moves_into(out);
            return;
        }
        // The choice is made among all legal moves, checking or not.
        let mut longest = MoveList::new();
        self.pos.longest_moves(&mut longest);
        out.clear();
        out.extend(longest.iter().copied().filter(|&m| self.pos.gives_check(m)));
    }
    // Help play: chess's bound, pictures and filters hold, since every line of this game is
    // a line of chess that ends in chess's mates and stalemates, and the Maximummer only
    // removes moves (no filter below keeps a move for being the only one).
    fn goal_unreachable(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> bool {
        self.pos.goal_unreachable(goal, mated, mated_moves, mating_moves)
    }
    fn plan(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> Option<Self::Plan> {
        Game::plan(&self.pos, goal, mated, mated_moves, mating_moves)
    }
    fn plan_after(&self, plan: &Self::Plan, m: Move) -> Option<Self::Plan> {
        self.pos.plan_after(plan, m)
    }
    fn retain_before_goal_in_one(&self, goal: Goal, moves: &mut Vec<Move>) {
        self.pos.retain_before_goal_in_one(goal, moves);
    }
    fn retain_mating_moves(&self, goal: Goal, moves: &mut Vec<Move>, mated_moves: u32, mating_moves: u32) {
        self.pos.retain_mating_moves(goal, moves, mated_moves, mating_moves);
    }
    fn retain_mated_moves(&self, goal: Goal, moves: &mut Vec<Move>, mated_moves: u32, mating_moves: u32) -> bool {
        self.pos.retain_mated_moves(goal, moves, mated_moves, mating_moves)
    }
    fn retain_goal_moves(&self, goal: Goal, moves: &mut Vec<Move>) {
        self.pos.retain_goal_moves(goal, moves);
    }
}
