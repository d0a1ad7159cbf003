//! Fairy conditions as hooks on the steps of a move's life (see the [module
//! documentation](super) for the steps). Each condition lives in its own file and implements
//! [`Hooks`] for the steps it changes; [`Condition`] lists them and dispatches.

mod andernach;
mod annan;
mod checkless;
mod circe;
mod grid;
mod haaner;
mod isardam;
mod koeko;
mod madrasi;
mod maximummer;
mod monochrome;
mod patrol;
mod takemake;

pub use circe::{Rebirth, rebirth_square};
pub(crate) use maximummer::length2;

use super::{FMove, FMoveList, FPiece, FairyPosition};
use crate::geometry::Square;
use crate::piece::{Color, Kind};
use arrayvec::ArrayVec;

/// The moves one generated move becomes under the conditions ([`Hooks::expand`]).
pub(crate) type ExpandList = ArrayVec<FMove, 128>;

/// Replaces, in place, each move of `moves` by those `f` pushes for it (`f` is given the
/// move and the list, and must push only while the list is not full): the list is never
/// copied whole, as collecting the moves into a second list would.
pub(crate) fn expand_each(moves: &mut ExpandList, mut f: impl FnMut(FMove, &mut ExpandList)) {
    // One move (the generator's case): emptied first, nothing to shift after.
    if let [m] = moves[..] {
        moves.clear();
        f(m, moves);
        return;
    }
    let n = moves.len();
    for i in 0..n {
        let m = moves[i];
        f(m, moves);
    }
    moves.drain(..n);
}

/// The hooks a condition may set on the steps of a move's life. Every default leaves the
/// step as orthodox chess has it.
pub trait Hooks {
    /// Step 1: the walk the piece `p` on `s` uses when `mover` moves it, `None` to keep its
    /// own.
    fn walk(&self, pos: &FairyPosition, s: Square, p: FPiece, mover: Color) -> Option<Kind> {
        let _ = (pos, s, p, mover);
        None
    }
    /// Step 2: whether the piece `p` on `s` is paralysed (no move, capture or check).
    fn paralysed(&self, pos: &FairyPosition, s: Square, p: FPiece) -> bool {
        let _ = (pos, s, p);
        false
    }
    /// Step 3: whether the piece `p` on `from` may capture at all.
    fn may_capture(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color) -> bool {
        let _ = (pos, from, p, mover);
        true
    }
    /// Step 3: where the piece on `from` captures from: `None` leaves it where it stands,
    /// `Some(None)` means it cannot capture, `Some(Some(s))` that it captures as if on `s`.
    fn capture_origin(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color) -> Option<Option<Square>> {
        let _ = (pos, from, p, mover);
        None
    }
    /// Whether this condition leaves every piece capturing by its own walk from its own
    /// square, and only so: it sets none of [`Hooks::walk`], [`Hooks::capture_origin`] and
    /// [`Hooks::extra_moves`] in a way that moves a capture elsewhere. The test of an
    /// attacked square then passes over the pieces whose walk cannot reach it before any
    /// condition is asked. A condition that sets one of those hooks must answer `false`.
    fn plain_captures(&self) -> bool {
        true
    }
    /// Step 3: moves the condition adds for the piece on `from` (Make&Take's captures);
    /// a condition that sets it answers `true` to [`Condition::adds_moves`];
    /// with `only_victim`, only captures of that square.
    fn extra_moves(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color, only_victim: Option<Square>, out: &mut FMoveList) {
        let _ = (pos, from, p, mover, only_victim, out);
    }
    /// Step 3: replaces the moves in `moves` (one generated move, or what earlier conditions
    /// made of it) by their completed forms (Take&Make: a capture by each of its makes, none
    /// when it has none).
    fn expand(&self, pos: &FairyPosition, p: FPiece, mover: Color, moves: &mut ExpandList) {
        let _ = (pos, p, mover, moves);
    }
    /// Step 4: whether the move `m` of piece `p` is allowed.
    fn allows(&self, pos: &FairyPosition, p: FPiece, mover: Color, m: &FMove) -> bool {
        let _ = (pos, p, mover, m);
        true
    }
    /// Whether a piece on `from` observes `to` as far as this condition's geometry goes
    /// (Madrasi's paralysis and Patrol's support): a condition that forbids moves by their
    /// squares alone (Grid, Monochrome, Bichrome) forbids the observation along them too, as
    /// a capture there would be forbidden.
    fn observation_allows(&self, from: Square, to: Square) -> bool {
        let _ = (from, to);
        true
    }
    /// Step 6: whether the capture `m` of a royal piece counts as check (Circe with kings
    /// reborn: not when the king would be reborn).
    fn royal_capture_counts(&self, pos: &FairyPosition, m: &FMove) -> bool {
        let _ = (pos, m);
        true
    }
    /// Step 5: the effects of `m`, played in `before`, on `after` (where the piece has
    /// moved and its victim gone; the side to move is still the mover's).
    fn after(&self, before: &FairyPosition, m: &FMove, after: &mut FairyPosition) {
        let _ = (before, m, after);
    }
    /// Step 6: whether the position after `m` is allowed.
    fn legal_after(&self, before: &FairyPosition, m: &FMove, after: &FairyPosition) -> bool {
        let _ = (before, m, after);
        true
    }
    /// Step 7: removes from the legal moves those the side to move may not choose.
    fn choose(&self, pos: &FairyPosition, moves: &mut FMoveList) {
        let _ = (pos, moves);
    }
    /// Notation: appends what the condition did in `m` (`[+bSe8]`, `=w`, …) as Popeye
    /// writes it, `before` the move and `after` it.
    fn note(&self, before: &FairyPosition, m: &FMove, after: &FairyPosition, out: &mut String) {
        let _ = (before, m, after, out);
    }
}

/// A condition in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    /// A Circe-family rebirth rule.
    Rebirth(Rebirth),
    /// Madrasi (with `RexInclusive`, kings paralyse and are paralysed too).
    Madrasi {
        /// Kings included.
        rex: bool,
    },
    /// Maximummer for one side: it must play its longest move.
    Maximummer(Color),
    /// Grid chess: every move crosses a line of the 2×2 grid.
    Grid,
    /// Monochrome chess: every move stays on squares of one colour.
    Monochrome,
    /// Bichrome chess: every move changes the colour of the square.
    Bichrome,
    /// Andernach chess: a capturing piece (not a king) changes colour.
    Andernach,
    /// Anti-Andernach chess: a piece that moves without capturing (not a king) changes colour.
    AntiAndernach,
    /// Isardam: no move may leave two enemy pieces of one kind observing each other.
    Isardam {
        /// Kings included.
        rex: bool,
    },
    /// Patrol chess: a piece captures and checks only when a friendly piece observes it.
    Patrol,
    /// KoeKo: every move ends next to some piece.
    KoeKo,
    /// Checkless chess: a move that gives check must mate.
    Checkless,
    /// Take&Make chess: a capture is followed by a move as the piece taken.
    TakeMake,
    /// Make&Take chess: a capture is preceded by a move as the piece to be taken.
    MakeTake,
    /// Annan chess: a piece with a friendly piece right behind it moves as that piece.
    Annan,
    /// Haaner chess: every square left becomes a hole.
    Haaner,
}

impl Condition {
    /// Popeye's name, with its parameters.
    pub fn name(&self) -> String {
        match self {
            Condition::Rebirth(r) => r.name(),
            Condition::Madrasi { rex } => if *rex { "Madrasi RexInclusive" } else { "Madrasi" }.into(),
            Condition::Maximummer(Color::White) => "WhiteMaximummer".into(),
            Condition::Maximummer(Color::Black) => "BlackMaximummer".into(),
            Condition::Grid => "GridChess".into(),
            Condition::Monochrome => "MonochromChess".into(),
            Condition::Bichrome => "BichromChess".into(),
            Condition::Andernach => "AndernachChess".into(),
            Condition::AntiAndernach => "AntiAndernachChess".into(),
            Condition::Isardam { rex } => if *rex { "Isardam RexInclusive" } else { "Isardam" }.into(),
            Condition::Patrol => "Patrouille".into(),
            Condition::KoeKo => "KoeKo".into(),
            Condition::Checkless => "ChecklessChess".into(),
            Condition::TakeMake => "Take&MakeChess".into(),
            Condition::MakeTake => "Make&TakeChess".into(),
            Condition::Annan => "AnnanChess".into(),
            Condition::Haaner => "HaanerChess".into(),
        }
    }

    /// Whether the choice step ([`Hooks::choose`]) of this condition keeps a move whenever
    /// there is a legal one (so that "has a move" can stop at the first legal move). A new
    /// condition says no until it is known.
    pub(crate) fn never_empties_choice(&self) -> bool {
        // A condition without a choice step keeps every move; Maximummer keeps the longest.
        !self.chooses() || matches!(self, Condition::Maximummer(_))
    }

    /// Whether this condition may have a choice step ([`Hooks::choose`]): `false` only for
    /// those known to have none (a new condition says yes until it is known).
    pub(crate) fn chooses(&self) -> bool {
        !matches!(
            self,
            Condition::Rebirth(_)
                | Condition::Madrasi { .. }
                | Condition::Grid
                | Condition::Monochrome
                | Condition::Bichrome
                | Condition::Andernach
                | Condition::AntiAndernach
                | Condition::Isardam { .. }
                | Condition::Patrol
                | Condition::KoeKo
                | Condition::Checkless
                | Condition::TakeMake
                | Condition::MakeTake
                | Condition::Annan
                | Condition::Haaner
        )
    }

    /// Whether this condition may change or forbid a generated move ([`Hooks::expand`],
    /// [`Hooks::allows`]): `false` only for those known to set neither hook (a new
    /// condition says yes until it is known), whose moves then skip that step.
    pub(crate) fn shapes_moves(&self) -> bool {
        !matches!(
            self,
            // Circe's and Mars Circe's rebirths happen after the move (Mars Circe's captures
            // start from the rebirth square, which the generator asks of `capture_origin`).
            Condition::Rebirth(Rebirth::Circe { .. } | Rebirth::Mars)
                | Condition::Madrasi { .. }
                | Condition::Maximummer(_)
                | Condition::Andernach
                | Condition::AntiAndernach
                | Condition::Isardam { .. }
                | Condition::Patrol
                | Condition::Checkless
                | Condition::MakeTake
                | Condition::Annan
                | Condition::Haaner
        )
    }

    /// Whether this condition may change or forbid a generated move without capture or
    /// castling ([`Hooks::expand`], [`Hooks::allows`]): `false` only for those known to
    /// shape captures alone (the Take&Make family expands captures, AntiCirce forbids
    /// captures whose rebirth square is taken); the others, as [`Condition::shapes_moves`]
    /// says.
    pub(crate) fn shapes_quiet_moves(&self) -> bool {
        self.shapes_moves()
            && !matches!(
                self,
                Condition::TakeMake | Condition::Rebirth(Rebirth::CirceTakeMake | Rebirth::AntiTakeMake | Rebirth::Anti { .. })
            )
    }

    /// Whether this condition leaves the check test as plain chess has it: a royal piece is
    /// attacked exactly when an enemy piece could capture it by its walk from its own
    /// square, is not paralysed, and the conditions allow the capture. It sets no
    /// [`Hooks::walk`], [`Hooks::paralysed`] or [`Hooks::allows`] (or it says so:
    /// [`Condition::lends_walks`], [`Condition::paralyses`], [`Condition::filters_moves`]),
    /// and none of [`Hooks::may_capture`],
    /// [`Hooks::capture_origin`] and [`Hooks::extra_moves`], and neither [`Hooks::expand`],
    /// [`Hooks::allows`] nor [`Hooks::royal_capture_counts`] drops a capture of a king.
    /// `false` only for those known to keep it plain (a new condition says no until it is
    /// known); the check test then skips the move generator
    /// ([`FairyPosition::royal_attacked`]).
    pub(crate) fn plain_checks(&self) -> bool {
        matches!(
            self,
            // Circe Take&Make and Take&Make keep a king's capture without a make; Parrain
            // only adds promotions of the piece it will give back.
            Condition::Rebirth(Rebirth::Circe { rex: false } | Rebirth::Parrain | Rebirth::CirceTakeMake)
                | Condition::Maximummer(_)
                | Condition::Andernach
                | Condition::AntiAndernach
                | Condition::Checkless
                | Condition::TakeMake
                | Condition::Haaner
                | Condition::Annan
                | Condition::Madrasi { .. }
                | Condition::Rebirth(Rebirth::Anti { .. })
                | Condition::Grid
                | Condition::Monochrome
                | Condition::Bichrome
                | Condition::KoeKo
        )
    }

    /// Whether this condition leaves a quiet move plain for the mover's own safety: a move
    /// without capture or castling of a piece that is not royal changes nothing on the
    /// board but its two squares (no rebirth, colour change or piece brought back after it),
    /// the check test is plain ([`Condition::plain_checks`]) and depends on which squares
    /// are empty only through the lines of the pieces' walks (no paralysis, no test of a
    /// square next to the king or of a rebirth square), and the condition sets no
    /// [`Hooks::legal_after`]. Such a move is then legal whenever it opens no line from an
    /// enemy piece to an own royal one ([`super::FairyPosition::quiet_safe`]). A capture
    /// puts no piece of the capturer's side elsewhere (what it puts of the other side's, a
    /// reborn victim, only stands in lines), so that it gives check only as a quiet move
    /// would or through its victim's square ([`super::FairyPosition::may_check_quietly`]).
    /// `false` only for those known to (a new condition says no until it is known).
    pub(crate) fn plain_quiet_moves(&self) -> bool {
        matches!(
            self,
            // Not Parrain Circe (its piece comes back after any move), AntiAndernach (a
            // quiet move changes the mover's colour), Haaner (the square left becomes a
            // hole, which cuts lines: a king's step along a line away from a rook is legal
            // there), Madrasi (a piece leaving may free an enemy piece), AntiCirce (a rebirth
            // square left may allow a capture of the king), KoeKo (a square next to the king
            // filled may allow one), Checkless and Isardam (tests after the move).
            Condition::Rebirth(Rebirth::Circe { rex: false } | Rebirth::CirceTakeMake)
                | Condition::Maximummer(_)
                | Condition::Andernach
                | Condition::TakeMake
                | Condition::Annan
                | Condition::Grid
                | Condition::Monochrome
                | Condition::Bichrome
        )
    }

    /// Whether this condition keeps quiet moves plain ([`Condition::plain_quiet_moves`]) but
    /// for a [`Hooks::legal_after`] that forbids only moves giving check (Checkless chess:
    /// those that do not mate): a quiet move judged legal without being made is then legal
    /// when it gives no check ([`super::FairyPosition::quiet_safe`]).
    pub(crate) fn forbids_checks_only(&self) -> bool {
        matches!(self, Condition::Checkless)
    }

    /// Whether this condition forbids some moves by [`Hooks::allows`] (and changes no move
    /// by [`Hooks::expand`]): the plain check test asks it of each capture of a royal piece.
    pub(crate) fn filters_moves(&self) -> bool {
        matches!(
            self,
            Condition::Rebirth(Rebirth::Anti { .. }) | Condition::Grid | Condition::Monochrome | Condition::Bichrome | Condition::KoeKo
        )
    }

    /// Whether this condition sets [`Hooks::paralysed`] (Madrasi).
    pub(crate) fn paralyses(&self) -> bool {
        matches!(self, Condition::Madrasi { .. })
    }

    /// Whether this condition sets [`Hooks::extra_moves`]: it adds moves of its own
    /// (Make&Take's captures).
    pub(crate) fn adds_moves(&self) -> bool {
        matches!(self, Condition::MakeTake)
    }

    /// Whether this condition sets [`Hooks::may_capture`]: a piece may capture only where
    /// it allows (Patrol).
    pub(crate) fn limits_captures(&self) -> bool {
        matches!(self, Condition::Patrol)
    }

    /// Whether this condition sets [`Hooks::expand`]: one generated move may become several
    /// (the Take&Make family, Parrain Circe's promotions). The others only filter moves
    /// ([`Hooks::allows`]), which [`FairyPosition::finish`] then asks without a list.
    pub(crate) fn expands_moves(&self) -> bool {
        matches!(self, Condition::TakeMake | Condition::Rebirth(Rebirth::CirceTakeMake | Rebirth::AntiTakeMake | Rebirth::Parrain))
    }

    /// Whether this condition sets [`Hooks::walk`]: a piece moves, captures and checks by
    /// another walk than its own (Annan).
    pub(crate) fn lends_walks(&self) -> bool {
        matches!(self, Condition::Annan)
    }

    /// Whether the condition's note tells what became of the moving piece on its arrival
    /// (Andernach's colour change), which Popeye writes before the other effects of the move.
    pub(crate) fn changes_mover(&self) -> bool {
        matches!(self, Condition::Andernach | Condition::AntiAndernach)
    }

    fn hooks(&self) -> &dyn Hooks {
        match self {
            Condition::Rebirth(r) => r,
            Condition::Madrasi { rex } => {
                if *rex {
                    &madrasi::Madrasi { rex: true }
                } else {
                    &madrasi::Madrasi { rex: false }
                }
            }
            Condition::Maximummer(Color::White) => &maximummer::Maximummer(Color::White),
            Condition::Maximummer(Color::Black) => &maximummer::Maximummer(Color::Black),
            Condition::Grid => &grid::Grid,
            Condition::Monochrome => &monochrome::Chrome { same: true },
            Condition::Bichrome => &monochrome::Chrome { same: false },
            Condition::Andernach => &andernach::Andernach { on_capture: true },
            Condition::AntiAndernach => &andernach::Andernach { on_capture: false },
            Condition::Isardam { rex } => {
                if *rex {
                    &isardam::Isardam { rex: true }
                } else {
                    &isardam::Isardam { rex: false }
                }
            }
            Condition::Patrol => &patrol::Patrol,
            Condition::KoeKo => &koeko::KoeKo,
            Condition::Checkless => &checkless::Checkless,
            Condition::TakeMake => &takemake::TakeMake,
            Condition::MakeTake => &takemake::MakeTake,
            Condition::Annan => &annan::Annan,
            Condition::Haaner => &haaner::Haaner,
        }
    }
}

impl Hooks for Condition {
    fn walk(&self, pos: &FairyPosition, s: Square, p: FPiece, mover: Color) -> Option<Kind> {
        self.hooks().walk(pos, s, p, mover)
    }
    fn paralysed(&self, pos: &FairyPosition, s: Square, p: FPiece) -> bool {
        self.hooks().paralysed(pos, s, p)
    }
    fn may_capture(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color) -> bool {
        self.hooks().may_capture(pos, from, p, mover)
    }
    fn capture_origin(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color) -> Option<Option<Square>> {
        self.hooks().capture_origin(pos, from, p, mover)
    }
    fn extra_moves(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color, only_victim: Option<Square>, out: &mut FMoveList) {
        self.hooks().extra_moves(pos, from, p, mover, only_victim, out)
    }
    fn plain_captures(&self) -> bool {
        self.hooks().plain_captures()
    }
    fn expand(&self, pos: &FairyPosition, p: FPiece, mover: Color, moves: &mut ExpandList) {
        self.hooks().expand(pos, p, mover, moves)
    }
    fn allows(&self, pos: &FairyPosition, p: FPiece, mover: Color, m: &FMove) -> bool {
        self.hooks().allows(pos, p, mover, m)
    }
    fn observation_allows(&self, from: Square, to: Square) -> bool {
        self.hooks().observation_allows(from, to)
    }
    fn royal_capture_counts(&self, pos: &FairyPosition, m: &FMove) -> bool {
        self.hooks().royal_capture_counts(pos, m)
    }
    fn after(&self, before: &FairyPosition, m: &FMove, after: &mut FairyPosition) {
        self.hooks().after(before, m, after)
    }
    fn legal_after(&self, before: &FairyPosition, m: &FMove, after: &FairyPosition) -> bool {
        self.hooks().legal_after(before, m, after)
    }
    fn choose(&self, pos: &FairyPosition, moves: &mut FMoveList) {
        self.hooks().choose(pos, moves)
    }
    fn note(&self, before: &FairyPosition, m: &FMove, after: &FairyPosition, out: &mut String) {
        self.hooks().note(before, m, after, out)
    }
}

/// Most conditions one problem combines.
pub const MAX_CONDITIONS: usize = 8;

/// The properties of a condition that [`Conditions`] keeps as bits, so that the hot paths
/// ask "does any condition…" or "does every condition…" with one test instead of a walk
/// through the list ([`Conditions::any`], [`Conditions::all`]).
pub(crate) mod prop {
    /// [`super::Condition::never_empties_choice`].
    pub const NEVER_EMPTIES_CHOICE: u16 = 1;
    /// [`super::Condition::chooses`].
    pub const CHOOSES: u16 = 1 << 1;
    /// [`super::Condition::shapes_moves`].
    pub const SHAPES_MOVES: u16 = 1 << 2;
    /// [`super::Condition::shapes_quiet_moves`].
    pub const SHAPES_QUIET_MOVES: u16 = 1 << 3;
    /// [`super::Condition::plain_checks`].
    pub const PLAIN_CHECKS: u16 = 1 << 4;
    /// [`super::Condition::plain_quiet_moves`].
    pub const PLAIN_QUIET_MOVES: u16 = 1 << 5;
    /// [`super::Condition::forbids_checks_only`].
    pub const FORBIDS_CHECKS_ONLY: u16 = 1 << 6;
    /// [`super::Condition::filters_moves`].
    pub const FILTERS_MOVES: u16 = 1 << 7;
    /// [`super::Condition::paralyses`].
    pub const PARALYSES: u16 = 1 << 8;
    /// [`super::Condition::lends_walks`].
    pub const LENDS_WALKS: u16 = 1 << 9;
    /// The condition's [`super::Hooks::plain_captures`].
    pub const PLAIN_CAPTURES: u16 = 1 << 10;
    /// [`super::Condition::adds_moves`].
    pub const ADDS_MOVES: u16 = 1 << 11;
    /// [`super::Condition::expands_moves`].
    pub const EXPANDS_MOVES: u16 = 1 << 12;
    /// [`super::Condition::limits_captures`].
    pub const LIMITS_CAPTURES: u16 = 1 << 13;
}

impl Condition {
    /// The [`prop`] bits this condition has.
    fn props(&self) -> u16 {
        use prop::*;
        let bits = [
            (self.never_empties_choice(), NEVER_EMPTIES_CHOICE),
            (self.chooses(), CHOOSES),
            (self.shapes_moves(), SHAPES_MOVES),
            (self.shapes_quiet_moves(), SHAPES_QUIET_MOVES),
            (self.plain_checks(), PLAIN_CHECKS),
            (self.plain_quiet_moves(), PLAIN_QUIET_MOVES),
            (self.forbids_checks_only(), FORBIDS_CHECKS_ONLY),
            (self.filters_moves(), FILTERS_MOVES),
            (self.paralyses(), PARALYSES),
            (self.lends_walks(), LENDS_WALKS),
            (self.plain_captures(), PLAIN_CAPTURES),
            (self.adds_moves(), ADDS_MOVES),
            (self.expands_moves(), EXPANDS_MOVES),
            (self.limits_captures(), LIMITS_CAPTURES),
        ];
        bits.iter().filter(|(has, _)| *has).fold(0, |acc, (_, bit)| acc | bit)
    }
}

/// The conditions of a problem, in the order they are applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conditions {
    list: [Option<Condition>; MAX_CONDITIONS],
    /// The [`prop`] bits some condition has (kept by [`Self::push`]).
    some: u16,
    /// The [`prop`] bits some condition lacks (kept by [`Self::push`]; none without
    /// conditions, where "every condition has it" holds).
    lacking: u16,
}

impl Conditions {
    /// No condition.
    pub fn none() -> Conditions {
        Conditions::default()
    }
    /// Adds a condition; `Err` with a message when there is no room or it repeats one.
    pub fn push(&mut self, c: Condition) -> Result<(), String> {
        if self.iter().any(|x| *x == c) {
            return Err(format!("condition {} is given twice", c.name()));
        }
        match self.list.iter_mut().find(|x| x.is_none()) {
            Some(slot) => {
                *slot = Some(c);
                let props = c.props();
                self.some |= props;
                self.lacking |= !props;
                Ok(())
            }
            None => Err(format!("more than {MAX_CONDITIONS} conditions")),
        }
    }
    /// The conditions, in order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &Condition> {
        self.list.iter().map_while(|c| c.as_ref())
    }
    /// Whether some condition has one of the properties `props` ([`prop`] bits).
    #[inline]
    pub(crate) fn any(&self, props: u16) -> bool {
        self.some & props != 0
    }
    /// Whether every condition has all the properties `props` ([`prop`] bits); true
    /// without conditions.
    #[inline]
    pub(crate) fn all(&self, props: u16) -> bool {
        self.lacking & props == 0
    }
    /// Whether no condition is in force.
    pub fn is_empty(&self) -> bool {
        self.list[0].is_none()
    }
    /// The rebirth rule, if any.
    pub fn rebirth(&self) -> Option<Rebirth> {
        self.iter().find_map(|c| match c {
            Condition::Rebirth(r) => Some(*r),
            _ => None,
        })
    }
    /// The names, as Popeye writes them.
    pub fn names(&self) -> Vec<String> {
        self.iter().map(|c| c.name()).collect()
    }
    /// `Err` with a message when these conditions cannot be combined.
    pub fn check_combination(&self) -> Result<(), String> {
        let rebirths: Vec<String> = self.iter().filter(|c| matches!(c, Condition::Rebirth(_))).map(|c| c.name()).collect();
        if rebirths.len() > 1 {
            return Err(format!("the rebirth conditions {} cannot be combined", rebirths.join(" and ")));
        }
        if self.iter().any(|c| *c == Condition::Monochrome) && self.iter().any(|c| *c == Condition::Bichrome) {
            return Err("MonochromChess and BichromChess together leave no move".into());
        }
        if self.iter().any(|c| *c == Condition::Andernach) && self.iter().any(|c| *c == Condition::AntiAndernach) {
            return Err("AndernachChess and AntiAndernachChess cannot be combined: use ChameleonChess-like conditions instead".into());
        }
        let has = |c: Condition| self.iter().any(|x| *x == c);
        if has(Condition::TakeMake) && has(Condition::MakeTake) {
            return Err("Take&MakeChess and Make&TakeChess together are not supported yet".into());
        }
        if (has(Condition::TakeMake) || has(Condition::MakeTake)) && self.rebirth() == Some(Rebirth::Mars) {
            return Err("MarsCirce with Take&MakeChess or Make&TakeChess is not supported yet".into());
        }
        if let Some(r) = self.rebirth().filter(|r| r.by_move())
            && (has(Condition::TakeMake) || has(Condition::MakeTake))
        {
            return Err(format!("{} with Take&MakeChess or Make&TakeChess is not supported yet", r.name()));
        }
        if self.iter().filter(|c| matches!(c, Condition::Isardam { .. } | Condition::Madrasi { .. })).count() > 1 {
            return Err("Isardam and Madrasi together are not supported yet".into());
        }
        Ok(())
    }
}
