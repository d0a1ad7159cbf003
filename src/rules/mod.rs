//! Rule systems. Each implements [`Game`], the only view of a game the search has.

pub mod bound;
pub mod cheskers;
pub mod chess;
pub mod fairy;
pub mod intelligent;
pub mod stalemate;
pub mod xiangqi;

#[cfg(test)]
mod goal_tests;

use crate::piece::{Color, Lang};
use std::fmt::Debug;
use std::hash::Hash;

/// What a stipulation aims at. Most goals are tested on the position after a move, for the
/// side to move there (the side that would have to answer); the others are judged from the
/// last move itself (a capture, castling, a piece arriving on a square): see
/// [`Goal::by_move`] and [`Game::goal_reached_by`]. What each goal means is the game's to
/// say: in chess `#` is checkmate, in Xiangqi it is "no legal move", in check or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Goal {
    /// `#`: the side to move has lost by having no good answer: mated in chess, without a
    /// legal move in Xiangqi.
    Mate,
    /// `=`: the side to move is stalemated (games where that is not a loss).
    Stalemate,
    /// `==`: both sides would be stalemated.
    DoubleStalemate,
    /// `+`: the side to move is in check.
    Check,
    /// `#=`: the side to move is mated or stalemated.
    MateOrStalemate,
    /// `!=` (auto-stalemate): the side that made the last move would be stalemated if it
    /// were to move again (not in check, without a legal move).
    AutoStalemate,
    /// `~`: any move reaches it (Popeye's `~1` lists every legal move).
    AnyMove,
    /// `x`: the last move captures.
    Capture,
    /// `%` (win a piece): the last move captures and the captured piece stays off the board
    /// (no Circe rebirth brings it back): the board holds fewer pieces than before.
    WinPiece,
    /// `ep`: the last move is an en-passant capture.
    EnPassant,
    /// `00`: the last move is castling.
    Castling,
    /// `zxy` (target square): after the last move a piece of the side that made it stands on
    /// the square, where none of its pieces stood before (it arrived there).
    Target(crate::geometry::Square),
    /// `dia` (proof game): the play leads from the game array to the diagram (pieces on
    /// their squares; castling and en-passant rights are not compared, as Popeye does). The
    /// proof-game solver ([`crate::solve::proof`]) plays it; no game reaches it by itself.
    Proof,
    /// `a=>b`: as [`Goal::Proof`], from a given start position instead of the game array.
    AToB,
    /// `##` (double mate): after the last move both sides are mated, the side that made it
    /// too (in check, without a legal move if it were to move); the move may leave its own
    /// king in check, but only a side that has a legal move may play it (Popeye: no `##`
    /// from a stalemated diagram).
    DoubleMate,
    /// `##!` (counter-mate): a side that is mated plays a move (necessarily leaving its own
    /// king in check) after which both sides are mated.
    CounterMate,
    /// `!#` (auto-mate): after the last move, the side that made it is mated (in check,
    /// without a legal move if it were to move); the move may leave its own king in check.
    AutoMate,
    /// `c81` (Chess81): the moving piece arrives on the other side's first rank (White's on
    /// the 8th, Black's on the 1st), by a plain move, a capture or a promotion.
    Chess81,
    /// `<>` (exchange): the moving piece ends the move (after its own rebirth, in AntiCirce)
    /// on the diagram square of another piece of its colour, and that piece stands on the
    /// moving piece's diagram square: the two have swapped places.
    Exchange,
    /// `<>r` (exchange by rebirth): as [`Goal::Exchange`], for the piece reborn during the
    /// move (Circe, Parrain Circe) instead of the moving piece.
    ExchangeByRebirth,
    /// `ct` (circuit): the moving piece ends the move (after its own rebirth, in AntiCirce)
    /// on the square it stood on in the diagram.
    Circuit,
    /// `ctr` (circuit by rebirth): a piece reborn during the move (Circe, Parrain Circe) is
    /// reborn on the square it stood on in the diagram.
    CircuitByRebirth,
    /// `kxy` (kiss): after the move, the piece that stood on the square in the diagram (and
    /// still stands somewhere) has exactly one neighbour, and that neighbour is the moving
    /// piece (another piece than the kissed one).
    Kiss(crate::geometry::Square),
}

impl Goal {
    /// Whether the goal is judged from the last move (and the positions before and after
    /// it), not from the position after it alone: then the search calls
    /// [`Game::goal_reached_by`] with the move, and no game's pruning for mate or stalemate
    /// applies.
    pub fn by_move(self) -> bool {
        !matches!(self, Goal::Mate | Goal::Stalemate | Goal::DoubleStalemate | Goal::Check)
    }

    /// Whether the goal is a position to reach (proof games: `dia`, `a=>b`).
    pub fn is_proof(self) -> bool {
        matches!(self, Goal::Proof | Goal::AToB)
    }

    /// Whether help play ends where the goal is reached, so that a line that reaches it
    /// before its last move is a short solution and goes no further: the goals of the move,
    /// and check (Popeye's `h+2` has no line that checks on the way).
    pub fn ends_help_play(self) -> bool {
        self.by_move() || self == Goal::Check
    }

    /// A number that tells goals apart, for transposition-table salts (the target square
    /// included).
    pub fn code(self) -> u64 {
        match self {
            Goal::Mate => 0,
            Goal::Stalemate => 1,
            Goal::DoubleStalemate => 2,
            Goal::Check => 3,
            Goal::MateOrStalemate => 4,
            Goal::AutoStalemate => 5,
            Goal::AnyMove => 6,
            Goal::Capture => 7,
            Goal::WinPiece => 8,
            Goal::EnPassant => 9,
            Goal::Castling => 10,
            Goal::DoubleMate => 11,
            Goal::CounterMate => 12,
            Goal::AutoMate => 13,
            Goal::Chess81 => 14,
            Goal::Proof => 15,
            Goal::Target(s) => 16 + s.0 as u64,
            Goal::AToB => 80,
            Goal::Exchange => 81,
            Goal::ExchangeByRebirth => 82,
            Goal::Circuit => 83,
            Goal::CircuitByRebirth => 84,
            Goal::Kiss(s) => 100 + s.0 as u64,
        }
    }

    /// The mark Popeye writes after the move that reaches the goal, after the move's own
    /// check mark (`1.Ba3*b2 x`, `Kh1-g2 + z`, `a2-a4 !=`, `Kg8*f8 %`), or instead of it
    /// (`Qb1-b6 #=`): empty for the goals whose reaching move says it already (`#`, `=`,
    /// `==`, `+`) or that Popeye leaves unmarked (`~`, `ep`, `00`, and the goals that follow
    /// a piece: `<>`, `<>r`, `ct`, `ctr`, `k`).
    pub fn end_mark(self) -> &'static str {
        match self {
            Goal::Mate | Goal::Stalemate | Goal::DoubleStalemate | Goal::Check | Goal::AnyMove | Goal::EnPassant | Goal::Castling => "",
            g if g.tracks_pieces() => "",
            g => g.symbol(),
        }
    }

    /// The goal's symbol as a stipulation writes it: `#`, `=`, `==`, `+`, `#=`, `!=`, `~`, `x`,
    /// `%`, `ep`, `00`, `##`, `##!`, `!#`, `c81`, `dia`, `a=>b`, `<>`, `<>r`, `ct`, `ctr`, and
    /// `z` for a target square, `k` for a kiss (without the square).
    pub fn symbol(self) -> &'static str {
        match self {
            Goal::Mate => "#",
            Goal::Stalemate => "=",
            Goal::DoubleStalemate => "==",
            Goal::Check => "+",
            Goal::MateOrStalemate => "#=",
            Goal::AutoStalemate => "!=",
            Goal::AnyMove => "~",
            Goal::Capture => "x",
            Goal::WinPiece => "%",
            Goal::EnPassant => "ep",
            Goal::Castling => "00",
            Goal::Proof => "dia",
            Goal::AToB => "a=>b",
            Goal::DoubleMate => "##",
            Goal::CounterMate => "##!",
            Goal::AutoMate => "!#",
            Goal::Chess81 => "c81",
            Goal::Target(_) => "z",
            Goal::Exchange => "<>",
            Goal::ExchangeByRebirth => "<>r",
            Goal::Circuit => "ct",
            Goal::CircuitByRebirth => "ctr",
            Goal::Kiss(_) => "k",
        }
    }

    /// Whether the goal follows pieces from the diagram move by move (where each started,
    /// where it is now): `<>`, `<>r`, `ct`, `ctr`, `k`. Only the fairy rules keep that record
    /// ([`crate::rules::fairy::FairySetup::track_pieces`]), so a problem with such a goal is
    /// played by them.
    pub fn tracks_pieces(self) -> bool {
        matches!(self, Goal::Exchange | Goal::ExchangeByRebirth | Goal::Circuit | Goal::CircuitByRebirth | Goal::Kiss(_))
    }

    /// Whether the goal's mark takes the place of the move's check mark (`Qb1-b6 #=`,
    /// `Kf3*g2 ##`) instead of following it (`Kh1-g2 + z`).
    pub fn mark_replaces_check(self) -> bool {
        matches!(self, Goal::MateOrStalemate | Goal::DoubleMate | Goal::CounterMate)
    }

    /// Whether the move that reaches the goal may leave the mover's own king in check (`##`,
    /// `##!`, `!#`, as Popeye plays them): the search then adds the game's
    /// [`Game::self_check_moves`] that reach the goal to the legal moves where the goal may
    /// be reached.
    pub fn allows_self_check(self) -> bool {
        matches!(self, Goal::DoubleMate | Goal::CounterMate | Goal::AutoMate)
    }
}

impl std::fmt::Display for Goal {
    /// The goal as a stipulation writes it: `#`, `=`, `==`, `+`, `#=`, `!=`, `~`, `x`, `%`,
    /// `ep`, `00`, `##`, `##!`, `!#`, `<>`, `<>r`, `ct`, `ctr`, `z` with the square (`zd5`) or
    /// `k` with the square (`kc5`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Goal::Target(s) => write!(f, "z{}", crate::position::sq_name(*s)),
            Goal::Kiss(s) => write!(f, "k{}", crate::position::sq_name(*s)),
            g => f.write_str(g.symbol()),
        }
    }
}

/// Whether the side to move in `p` is mated where `p` may follow a move that left the other
/// side's king in check (`##`, `##!`, `!#`): in check, and no move that answers it, the
/// capture of a neutral king (its own too) not being one ([`Game::captures_own_royal`]).
fn mated_after_self_check<G: Game>(p: &G) -> bool {
    if !p.in_check() {
        return false;
    }
    let mut v = Vec::new();
    p.moves(&mut v);
    v.iter().all(|&m| p.captures_own_royal(m))
}

/// Whether the side that made the last move (not to move in `after`) is mated: in check and
/// without a legal move if it were to move.
fn mover_mated<G: Game>(after: &G) -> bool {
    mated_after_self_check(&after.pass())
}

/// How moves are written. Each game has its own native notation (Popeye's long algebraic for
/// chess, ICCS coordinates for Xiangqi); a game that knows no other ignores the choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Notation {
    /// The game's own notation.
    #[default]
    Native,
    /// WXF notation for Xiangqi (`C2.5`, `H2+3`).
    Wxf,
}

/// A rule system as the search sees it: moves, copy-make play, goals and a hash key.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// A move of this game.
    type Move: Copy + Eq + Ord + Hash + Debug + Send + Sync + 'static;
    /// What [`Game::candidate_moves`] works out of its moves' legality, for
    /// [`Game::play_candidate`] in the same position.
    type Hint: Copy + Default + Send + Sync + 'static;
    /// What a help search carries from a position to the next about the goal positions
    /// still within reach ([`Game::plan`]).
    type Plan: Clone + Send + Sync + Debug + 'static;

    /// The side to move.
    fn to_move(&self) -> Color;
    /// Appends the legal moves to `out` (cleared first).
    fn moves(&self, out: &mut Vec<Self::Move>);
    /// The position after a legal move.
    fn play(&self, m: Self::Move) -> Self;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Whether the side to move has a legal move.
    fn has_move(&self) -> bool;
    /// The Zobrist key (equal positions have equal keys).
    fn key(&self) -> u64;
    /// A cheap guess at `self.play(m).key()`, for prefetching a table slot before the move
    /// is played: best exact for the common moves, but only a hint (a wrong guess costs a
    /// cache miss, never a wrong result). The default guesses this position's own key, which
    /// costs nothing and helps nothing; games with incremental keys do better.
    fn key_hint(&self, m: Self::Move) -> u64 {
        let _ = m;
        self.key()
    }
    /// The exact key of `self.play(m)` when it can be had without playing `m` (cheaply,
    /// from this position's key), `None` otherwise: a table probe can then skip a child
    /// proven before. The default knows none.
    fn child_key(&self, m: Self::Move) -> Option<u64> {
        let _ = m;
        None
    }
    /// Whether the legal move `m` reaches `goal`: `self.play(m).goal_reached_by(self, m,
    /// goal)`, the position after it only asked, never kept (a game may then skip its key).
    #[inline]
    fn move_reaches_goal(&self, m: Self::Move, goal: Goal) -> bool {
        self.play(m).goal_reached_by(self, m, goal)
    }
    /// Whether `goal` is reached for the side to move: the game says what each goal means
    /// (chess: `#` checkmate, `=` stalemate; Xiangqi: `#` no legal move, in check or not).
    /// A goal the game does not know, and the goals of the move ([`Goal::by_move`], judged by
    /// [`Game::goal_reached_by`]), are never reached here.
    fn goal_reached(&self, goal: Goal) -> bool;
    /// Whether the move `m`, played in `before`, reaches `goal`; `self` is the position
    /// after it. The goals of the position alone ([`Goal::by_move`] false) are
    /// [`Game::goal_reached`], with no more cost than a match on the goal; `#=` and `!=` are
    /// told from the mate, stalemate and check tests (on this position, or on it with the
    /// other side to move); `~` is always reached; the goals of the move itself are the
    /// game's [`Game::move_reaches`].
    #[inline]
    fn goal_reached_by(&self, before: &Self, m: Self::Move, goal: Goal) -> bool {
        match goal {
            Goal::Mate | Goal::Stalemate | Goal::DoubleStalemate | Goal::Check => self.goal_reached(goal),
            Goal::MateOrStalemate => self.goal_reached(Goal::Mate) || self.goal_reached(Goal::Stalemate),
            Goal::AutoStalemate => {
                let mover = self.pass();
                !mover.in_check() && !mover.has_move()
            }
            Goal::AnyMove => true,
            Goal::DoubleMate => before.has_move() && mated_after_self_check(self) && mover_mated(self),
            Goal::CounterMate => before.goal_reached(Goal::Mate) && mated_after_self_check(self) && mover_mated(self),
            Goal::AutoMate => mover_mated(self),
            Goal::Capture
            | Goal::WinPiece
            | Goal::EnPassant
            | Goal::Castling
            | Goal::Target(_)
            | Goal::Chess81
            | Goal::Exchange
            | Goal::ExchangeByRebirth
            | Goal::Circuit
            | Goal::CircuitByRebirth
            | Goal::Kiss(_) => before.move_reaches(m, self, goal),
            // Proof games compare with a target position the game does not know.
            Goal::Proof | Goal::AToB => false,
        }
    }
    /// Appends to `out` (cleared first) the moves that would be legal but for leaving the
    /// mover's own king (royal piece) in check: the moves that may reach the goals of
    /// [`Goal::allows_self_check`]. The default knows none.
    fn self_check_moves(&self, out: &mut Vec<Self::Move>) {
        out.clear();
    }
    /// Whether the move `m` captures a royal piece of the mover's own (a neutral king): possible
    /// only where the side not to move has left that king in check (after a move of
    /// [`Game::self_check_moves`]), and then no move, as Popeye judges `##` (the capture of
    /// the other side's own king is a move: an escape from mate). The default says no.
    fn captures_own_royal(&self, m: Self::Move) -> bool {
        let _ = m;
        false
    }
    /// Whether the move `m` (legal here, `after` the position it leads to) reaches one of the
    /// goals of the move itself: `x` (it captures), `%` (it captures and the board is left
    /// with fewer pieces), `ep`, `00`, `zxy` (a piece of the mover arrives on the square), and
    /// the goals that follow pieces ([`Goal::tracks_pieces`]). The default knows none of them: a game that has no captures, castling or en passant
    /// never reaches them.
    fn move_reaches(&self, m: Self::Move, after: &Self, goal: Goal) -> bool {
        let _ = (m, after, goal);
        false
    }
    /// Why this game cannot solve `goal`, in plain words (`None` when it can): a goal its
    /// rules give no meaning to (Xiangqi has no en passant). The default accepts the goals
    /// of the position alone and refuses those of the move.
    fn refuses_goal(goal: Goal) -> Option<String> {
        goal.by_move().then(|| format!("goal '{goal}' is not supported in this game"))
    }
    /// Whether every move that reaches `goal` gives check, so that a search may look at the
    /// checking moves only (chess: mate and check; Xiangqi: check only, since a quiet move
    /// can leave the opponent without a move). The default says so for the check goal alone,
    /// which is true in every game.
    fn needs_check(&self, goal: Goal) -> bool {
        goal == Goal::Check
    }
    /// The mark written after a move that led to this position: `#` when the side to move
    /// has reached [`Goal::Mate`], `==` or `=` for the stalemates, `+` for check, or nothing.
    fn mark(&self) -> &'static str {
        if self.goal_reached(Goal::Mate) {
            "#"
        } else if self.goal_reached(Goal::DoubleStalemate) {
            "=="
        } else if self.goal_reached(Goal::Stalemate) {
            "="
        } else if self.in_check() {
            "+"
        } else {
            ""
        }
    }
    /// A move in the given notation, without marks; the default (and [`Notation::Native`])
    /// is [`Game::move_text`].
    fn move_text_in(&self, m: Self::Move, lang: Lang, notation: Notation) -> String {
        let _ = notation;
        self.move_text(m, lang)
    }
    /// The legal move that `text` names (in the game's native notation, without marks, as
    /// [`Game::move_text`] writes it in English; games may read more), `None` when none does.
    fn parse_move(&self, text: &str) -> Option<Self::Move> {
        let mut v = Vec::new();
        self.moves(&mut v);
        v.into_iter().find(|&m| self.move_text(m, Lang::En) == text)
    }
    /// The same position with the other side to move (for double stalemate and set play).
    fn pass(&self) -> Self;
    /// The flight squares of the king of the side to move: how many of its legal moves are
    /// king moves (castling left out), for Popeye's option `MaxFlightsquares`; `None` where
    /// the game does not say (the option then never applies).
    fn flights(&self) -> Option<u32> {
        None
    }
    /// A move in Popeye's long algebraic notation, without check marks.
    fn move_text(&self, m: Self::Move, lang: Lang) -> String;
    /// Whether a move gives check (the opponent in check after it).
    fn gives_check(&self, m: Self::Move) -> bool {
        self.play(m).in_check()
    }
    /// Whether the opponent's king surely has a square to step to after the legal move `m`
    /// (so that `m` cannot mate), told without playing it; `false` when not known (the
    /// default). Mate-in-one tests ask it of each check before playing it: most checks are
    /// answered by a step of the king.
    fn king_escapes(&self, m: Self::Move) -> bool {
        let _ = m;
        false
    }
    /// The position after `m` when `m` is a legal move here (a killer move found elsewhere),
    /// `None` otherwise.
    fn try_play(&self, m: Self::Move) -> Option<Self> {
        let mut v = Vec::new();
        self.moves(&mut v);
        v.contains(&m).then(|| self.play(m))
    }
    /// Whether [`Game::candidate_moves`] may list more than the legal moves here, to be
    /// tested as they are played: only then do the searches ask for them instead of
    /// [`Game::moves`]. The default: never.
    fn lazy_legality(&self) -> bool {
        false
    }
    /// Appends to `out` (cleared first) the moves to be tried one at a time with
    /// [`Game::play_candidate`], by a search that may stop before it has tried them all:
    /// every legal move, in the order of [`Game::moves`], and maybe moves found illegal only
    /// when played. Returns a hint for [`Game::play_candidate`] in this position (what the
    /// game worked out of its moves' legality while listing them). The default lists the
    /// legal moves.
    fn candidate_moves(&self, out: &mut Vec<Self::Move>) -> Self::Hint {
        self.moves(out);
        Self::Hint::default()
    }
    /// The position after `m`, one of [`Game::candidate_moves`] (whose answer is `hint`),
    /// or `None` when `m` is not legal.
    fn play_candidate(&self, m: Self::Move, hint: Self::Hint) -> Option<Self> {
        let _ = hint;
        Some(self.play(m))
    }
    /// Appends the legal moves that give check to `out` (cleared first), in the order of
    /// [`Game::moves`].
    fn checking_moves(&self, out: &mut Vec<Self::Move>) {
        self.moves(out);
        out.retain(|&m| self.gives_check(m));
    }
    /// Whether the side to move has a legal move and `pred` holds for every one (given the
    /// move and the position after it); it stops at the first move that fails. A game may
    /// make its moves one at a time, so as to stop before it has made them all; the default
    /// lists them first.
    fn every_move(&self, pred: &mut dyn FnMut(Self::Move, &Self) -> bool) -> bool {
        let mut v = Vec::new();
        self.moves(&mut v);
        !v.is_empty() && v.iter().all(|&m| pred(m, &self.play(m)))
    }
    /// [`Game::every_move`] for a goal that needs check ([`Game::needs_check`]): whether the
    /// side to move has a legal move, every one gives check, and `pred` holds for every one.
    /// A game may rule out a move that gives no check without making it.
    fn every_move_checks(&self, pred: &mut dyn FnMut(Self::Move, &Self) -> bool) -> bool {
        self.every_move(&mut |m, q| q.in_check() && pred(m, q))
    }
    /// A lower-bound test for help play: `true` only when no sequence of moves in which
    /// `mated` makes `mated_moves` moves and its opponent `mating_moves` (the last one
    /// included) can end with `mated` reaching `goal` (mated, or stalemated). `false` means
    /// "maybe"; the default never rules anything out.
    fn goal_unreachable(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> bool {
        let _ = (goal, mated, mated_moves, mating_moves);
        false
    }
    /// The goal positions (pictures) `mated` can reach `goal` in, with `mated_moves` of its
    /// moves and `mating_moves` of its opponent's (the last one included), for a help
    /// search to follow move by move ([`Game::plan_after`]); `None` when the game knows
    /// none (the search then goes without). The default knows none.
    fn plan(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> Option<Self::Plan> {
        let _ = (goal, mated, mated_moves, mating_moves);
        None
    }
    /// The plan after the legal move `m`, judged before `m` is played: `None` when no goal
    /// position of the plan can be reached in time any more, so that no line through `m`
    /// reaches the goal. It must never answer `None` where one can; the default keeps the
    /// plan as it is.
    fn plan_after(&self, plan: &Self::Plan, m: Self::Move) -> Option<Self::Plan> {
        let _ = m;
        Some(plan.clone())
    }
    /// Self play's last move: at a position whose side to move makes its last move before
    /// its opponent must reach `goal` with whatever it plays, removes from `moves` (this
    /// position's moves or candidate moves) some of those after which the opponent surely
    /// has a legal move that does not reach `goal`. It must never remove a move after which
    /// every legal move of the opponent reaches the goal; the default removes nothing.
    fn retain_forcing_goal(&self, goal: Goal, moves: &mut Vec<Self::Move>) {
        let _ = (goal, moves);
    }
    /// At a position whose side to move makes its last move before its opponent mates (or
    /// stalemates: `goal`) it in one: removes from `moves` (this position's moves) those
    /// after which that cannot follow. It must never remove a move after which the goal can
    /// be reached in one; the default removes nothing.
    fn retain_before_goal_in_one(&self, goal: Goal, moves: &mut Vec<Self::Move>) {
        let _ = (goal, moves);
    }
    /// At a position whose side to move is to mate (or stalemate: `goal`) its opponent:
    /// removes from `moves` (this position's moves) those after which the goal cannot follow
    /// in time, the opponent then having `mated_moves` moves left and the side to move
    /// `mating_moves` (the last move included). It must never remove a move after which the
    /// goal can be reached in time; the default removes nothing.
    fn retain_mating_moves(&self, goal: Goal, moves: &mut Vec<Self::Move>, mated_moves: u32, mating_moves: u32) {
        let _ = (goal, moves, mated_moves, mating_moves);
    }
    /// At a position whose side to move is to be mated (or stalemated: `goal`): removes
    /// from `moves` (this position's moves) those after which the goal cannot follow in
    /// time, the side to move then having `mated_moves` moves left and its opponent
    /// `mating_moves` (the last one included). It must never remove a move after which the
    /// goal can be reached in time. Returns whether the moves were judged (the bound
    /// applies), so that the positions after them need not be asked
    /// [`Game::goal_unreachable`] again (a move it cannot judge it keeps); the default
    /// judges nothing.
    fn retain_mated_moves(&self, goal: Goal, moves: &mut Vec<Self::Move>, mated_moves: u32, mating_moves: u32) -> bool {
        let _ = (goal, moves, mated_moves, mating_moves);
        false
    }
    /// At a position whose side to move is to reach `goal` against its opponent with this
    /// very move: removes from `moves` (this position's moves) those that certainly do not
    /// reach it. It must never remove a move that reaches it; the default removes nothing.
    fn retain_goal_moves(&self, goal: Goal, moves: &mut Vec<Self::Move>) {
        let _ = (goal, moves);
    }
}

impl Game for crate::position::Position {
    type Move = crate::position::Move;
    type Hint = ();
    type Plan = intelligent::Plan;

    fn to_move(&self) -> Color {
        self.side_to_move()
    }
    fn moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves_into(out);
    }
    fn play(&self, m: Self::Move) -> Self {
        crate::position::Position::play(self, m)
    }
    fn in_check(&self) -> bool {
        crate::position::Position::in_check(self)
    }
    fn flights(&self) -> Option<u32> {
        let king = self.king(self.side_to_move())?;
        let mut v = Vec::new();
        self.legal_moves_into(&mut v);
        Some(v.iter().filter(|m| matches!(m, crate::position::Move::Normal { from, .. } if *from == king)).count() as u32)
    }
    fn goal_reached(&self, goal: Goal) -> bool {
        match goal {
            Goal::Mate => self.in_check() && !self.has_move(),
            Goal::Stalemate => !self.in_check() && !self.has_move(),
            Goal::Check => self.in_check(),
            Goal::DoubleStalemate => !self.in_check() && !self.has_move() && !self.pass().has_move(),
            // The goals of the move: `Game::goal_reached_by`.
            _ => false,
        }
    }
    fn move_reaches(&self, m: Self::Move, after: &Self, goal: Goal) -> bool {
        use crate::position::Move;
        let capture = match m {
            Move::Normal { to, .. } => self.piece_at(to).is_some(),
            Move::EnPassant { .. } => true,
            _ => false,
        };
        match goal {
            Goal::Capture => capture,
            Goal::WinPiece => capture && after.occupied().count_ones() < self.occupied().count_ones(),
            Goal::EnPassant => matches!(m, Move::EnPassant { .. }),
            Goal::Castling => matches!(m, Move::Castle { .. }),
            // A piece of the mover stands there after the move, and stood not before.
            Goal::Target(s) => after.piece_at(s).is_some_and(|p| p.color == self.side_to_move()) && self.piece_at(s) != after.piece_at(s),
            Goal::Chess81 => m.to().is_some_and(|s| s.0 / 8 == if self.side_to_move() == Color::White { 7 } else { 0 }),
            _ => false,
        }
    }
    fn self_check_moves(&self, out: &mut Vec<Self::Move>) {
        self.self_check_moves_into(out);
    }

    fn refuses_goal(goal: Goal) -> Option<String> {
        // The chess position keeps no record of where its pieces started: the fairy rules
        // play these goals.
        goal.tracks_pieces().then(|| format!("goal '{goal}' follows pieces from the diagram: the fairy rules play it"))
    }
    fn needs_check(&self, goal: Goal) -> bool {
        matches!(goal, Goal::Mate | Goal::Check)
    }
    fn mark(&self) -> &'static str {
        match (self.in_check(), self.has_move()) {
            (true, false) => "#",
            (false, false) if !self.pass().has_move() => "==",
            (false, false) => "=",
            (true, true) => "+",
            (false, true) => "",
        }
    }
    fn has_move(&self) -> bool {
        self.has_legal_move()
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn key_hint(&self, m: Self::Move) -> u64 {
        crate::position::Position::key_hint(self, m)
    }
    fn child_key(&self, m: Self::Move) -> Option<u64> {
        crate::position::Position::child_key(self, m)
    }
    fn pass(&self) -> Self {
        self.null_move()
    }
    fn gives_check(&self, m: Self::Move) -> bool {
        crate::position::Position::gives_check(self, m)
    }
    fn king_escapes(&self, m: Self::Move) -> bool {
        self.king_escapes_after(m) == Some(true)
    }
    fn try_play(&self, m: Self::Move) -> Option<Self> {
        crate::position::Position::try_play(self, m)
    }
    fn checking_moves(&self, out: &mut Vec<Self::Move>) {
        self.checking_moves_into(out);
    }
    fn move_text(&self, m: Self::Move, lang: Lang) -> String {
        crate::notation::move_text(self, m, crate::notation::MoveStyle { lang, ascii: false })
    }
    fn goal_unreachable(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> bool {
        bound::goal_unreachable(self, goal, mated, mated_moves, mating_moves)
    }
    fn plan(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> Option<Self::Plan> {
        // Mate and stalemate pictures; the searches decide where they pay.
        intelligent::plan(self, goal, mated, mated_moves, mating_moves)
    }
    fn plan_after(&self, plan: &Self::Plan, m: Self::Move) -> Option<Self::Plan> {
        plan.after(self, m)
    }
    fn retain_before_goal_in_one(&self, goal: Goal, moves: &mut Vec<Self::Move>) {
        if goal == Goal::Stalemate {
            stalemate::retain_before_stalemate(self, moves);
        }
        if let Some(f) = bound::last_move_filter(self, goal) {
            moves.retain(|&m| match m {
                crate::position::Move::Normal { from, to, .. } | crate::position::Move::EnPassant { from, to } => {
                    f.allows(from.index(), to.index())
                }
                _ => true,
            });
        }
    }
    fn retain_forcing_goal(&self, goal: Goal, moves: &mut Vec<Self::Move>) {
        if goal == Goal::Mate {
            self.retain_forcing_mate(moves);
        }
    }
    fn retain_mating_moves(&self, goal: Goal, moves: &mut Vec<Self::Move>, mated_moves: u32, mating_moves: u32) {
        if let Some(mut f) = bound::mating_move_filter(self, goal, mated_moves, mating_moves) {
            moves.retain(|&m| f.allows(m));
        }
    }
    fn retain_mated_moves(&self, goal: Goal, moves: &mut Vec<Self::Move>, mated_moves: u32, mating_moves: u32) -> bool {
        match bound::mated_move_filter(self, goal, mated_moves, mating_moves) {
            Some(mut f) => {
                moves.retain(|&m| f.allows(m));
                true
            }
            None => false,
        }
    }
    fn retain_goal_moves(&self, goal: Goal, moves: &mut Vec<Self::Move>) {
        if goal == Goal::Stalemate
            && let Some(f) = stalemate::stalemate_filter(self)
        {
            moves.retain(|&m| f.allows(m));
        }
    }
}

/// A small deterministic random source for the unit tests: `next(n)` is below `n` (a linear
/// congruential generator seeded with `seed`).
#[cfg(test)]
pub(crate) fn test_random(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % n
    }
}
