//! Popeye options and fairy conditions, read from a problem's `options` (and `conditions`)
//! list.
//!
//! Options that change the search or the report become [`Options`] fields; `EnPassant` and
//! `NoCastling` change the diagram and are returned apart ([`Parsed`]). A Popeye keyword that
//! feerie does not handle yet makes the problem unsupported (with the keyword as reason); a
//! word that is no keyword at all is an error naming it.

use crate::geometry::Square;
use crate::piece::Color;
use crate::position::{ReserveRule, castle, parse_sq};
use crate::rules::fairy::conditions::{Condition, Conditions, Rebirth};
use serde::Serialize;
use std::sync::LazyLock;

/// Options of a problem: what is searched and what is shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Options {
    /// `SetPlay`: show the play of the side not to move in the diagram.
    pub set_play: bool,
    /// `Try`: show tries (first moves refuted by at most `defence` defences).
    pub try_play: bool,
    /// `Defence N`: most refutations a try may have (1 by default); giving it asks for
    /// tries, as `Try` does.
    pub defence: u32,
    /// `Threat N`: only keys whose threat is at most N moves.
    pub threat: Option<u32>,
    /// `NoThreat`: do not compute threats.
    pub no_threat: bool,
    /// `Variations`: show the variations after the key.
    pub variations: bool,
    /// `Duplex`: solve again with the colours swapped.
    pub duplex: bool,
    /// `HalfDuplex`: solve only with the colours swapped.
    pub half_duplex: bool,
    /// `WhiteToPlay`: White begins in help play.
    pub white_to_play: bool,
    /// `MaxSolutions N`: stop after N solutions.
    pub max_solutions: Option<u32>,
    /// `Intelligent`: a hint only (accepted).
    pub intelligent: bool,
    /// `StopOnShortSolutions`: in help and series play, stop after the short solutions when
    /// there are any ([`crate::solve::SolveOptions::stop_on_short`]).
    pub stop_on_short: bool,
    /// `PostKeyPlay`: the diagram is the position after the key; show the play from there.
    pub post_key_play: bool,
    /// The structured stipulation (`sstipulation:`, Popeye's `SStipulation`) the stipulation
    /// comes from: its synonym ([`crate::problem::sstip::SStipulation::translate`]), or, when
    /// it has none, a stand-in ([`crate::solve::structured::stand_in`]) and the structured
    /// stipulation is played by [`crate::solve::structured`].
    #[serde(skip)]
    pub structured: Option<std::sync::Arc<crate::problem::sstip::SStipulation>>,
    /// `NoWk`: White has no king (and is never in check): the fairy rules play the problem.
    pub no_wk: bool,
    /// `NoBk`: Black has no king.
    pub no_bk: bool,
    /// `NullMoves`: in help play a side may pass (a null move).
    pub null_moves: bool,
    /// `Quodlibet`: in self and reflex play the attacker may also reach the goal itself
    /// ([`crate::solve::SolveOptions::quodlibet`]).
    pub quodlibet: bool,
    /// `CastlingMutuallyExclusive a1h8 …`: pairs of a white and a black castling of which at
    /// most one is possible ([`castle::exclusive_pair`] bits); playing one takes the other.
    pub castling_exclusive: u8,
    /// `MatesIn1`: show the self-play defences that reach the goal at once
    /// ([`crate::solve::SolveOptions::mates_in_1`]).
    pub mates_in_1: bool,
    /// `TrivialTriesAvoid`: no try that gives check.
    pub trivial_tries_avoid: bool,
    /// `NonTrivial m n`: (m, n) ([`crate::solve::SolveOptions::non_trivial`]).
    pub non_trivial: Option<(u32, u32)>,
    /// `MaxFlightsquares n` ([`crate::solve::SolveOptions::max_flights`]).
    pub max_flights: Option<u32>,
    /// `GoalIsEnd`: play ends where the wrong side reaches a goal of the move (`c81`, `x`, …):
    /// [`crate::solve::SolveOptions::goal_is_end`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub goal_is_end: bool,
    /// Réserve condition (`Reserve`, `WhiteReserve`, `BlackReserve` and the French names).
    #[serde(skip)]
    pub reserve: ReserveRule,
    /// Fairy conditions other than Réserve, in the order given (played by the fairy rule
    /// system, [`crate::rules::fairy`]).
    #[serde(skip)]
    pub conditions: Conditions,
    /// `Hole a1 b2 …`: squares off the board (nothing enters or crosses them).
    #[serde(skip)]
    pub holes: u64,
    /// Options accepted and ignored because they only change Popeye's output (`NoBoard`,
    /// `MoveNumbers`, `MaxTime N`, …), as written.
    pub ignored: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            set_play: false,
            try_play: false,
            defence: 1,
            threat: None,
            no_threat: false,
            variations: false,
            duplex: false,
            half_duplex: false,
            white_to_play: false,
            max_solutions: None,
            intelligent: false,
            stop_on_short: false,
            post_key_play: false,
            structured: None,
            no_wk: false,
            no_bk: false,
            null_moves: false,
            quodlibet: false,
            castling_exclusive: 0,
            mates_in_1: false,
            trivial_tries_avoid: false,
            non_trivial: None,
            max_flights: None,
            goal_is_end: false,
            reserve: ReserveRule::default(),
            conditions: Conditions::none(),
            holes: 0,
            ignored: Vec::new(),
        }
    }
}

impl Options {
    /// The options as Popeye keywords, in a fixed order (for diagrams and reports).
    pub fn keywords(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        let mut flag = |b: bool, s: &str| {
            if b {
                v.push(s.to_string());
            }
        };
        flag(self.set_play, "SetPlay");
        flag(self.try_play, "Try");
        flag(self.variations, "Variations");
        flag(self.no_threat, "NoThreat");
        flag(self.duplex, "Duplex");
        flag(self.half_duplex, "HalfDuplex");
        flag(self.white_to_play, "WhiteToPlay");
        flag(self.intelligent, "Intelligent");
        flag(self.stop_on_short, "StopOnShortSolutions");
        flag(self.post_key_play, "PostKeyPlay");
        flag(self.no_wk, "NoWk");
        flag(self.no_bk, "NoBk");
        flag(self.null_moves, "NullMoves");
        flag(self.quodlibet, "Quodlibet");
        flag(self.mates_in_1, "MatesIn1");
        flag(self.trivial_tries_avoid, "TrivialTriesAvoid");
        flag(self.goal_is_end, "GoalIsEnd");
        if self.defence != 1 {
            v.push(format!("Defence {}", self.defence));
        }
        if let Some(t) = self.threat {
            v.push(format!("Threat {t}"));
        }
        for (w, ws) in [(castle::WQ, "a1"), (castle::WK, "h1")] {
            for (b, bs) in [(castle::BQ, "a8"), (castle::BK, "h8")] {
                if self.castling_exclusive & castle::exclusive_pair(w, b) != 0 {
                    v.push(format!("CastlingMutuallyExclusive {ws}{bs}"));
                }
            }
        }
        if let Some(f) = self.max_flights {
            v.push(format!("MaxFlightsquares {f}"));
        }
        if let Some((m, n)) = self.non_trivial {
            v.push(format!("NonTrivial {m} {n}"));
        }
        if let Some(m) = self.max_solutions {
            v.push(format!("MaxSolutions {m}"));
        }
        if let Some(c) = reserve_name(self.reserve) {
            v.push(c.to_string());
        }
        v.extend(self.conditions.names());
        if self.holes != 0 {
            let squares: Vec<&str> = crate::geometry::Squares(self.holes).map(crate::position::sq_name).collect();
            v.push(format!("Hole {}", squares.join(" ")));
        }
        v
    }
}

/// The English name of a Réserve condition, `None` when none is in force.
pub fn reserve_name(r: ReserveRule) -> Option<&'static str> {
    match (r.white, r.black) {
        (true, true) => Some("Reserve"),
        (true, false) => Some("WhiteReserve"),
        (false, true) => Some("BlackReserve"),
        (false, false) => None,
    }
}

/// The pawn move just played, from Popeye's `EnPassant` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnPassantSpec {
    /// Departure square.
    pub from: Square,
    /// Crossed square (the en-passant target).
    pub crossed: Square,
    /// Arrival square.
    pub to: Square,
}

/// What an `options` list says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The options proper.
    pub options: Options,
    /// `EnPassant`: the pawn move just played.
    pub en_passant: Option<EnPassantSpec>,
    /// Castling rights removed by `NoCastling`, as [`castle`] bits.
    pub no_castling: u8,
    /// Whether a Réserve condition was named (so that a `Condition` twin can tell).
    pub has_condition: bool,
    /// Popeye keywords that feerie does not support yet, each with its reason.
    pub unsupported: Vec<String>,
}

/// A fault in an options list: the message and the word to point at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionFault {
    /// What is wrong.
    pub message: String,
    /// The offending word, as written (to find its line and column).
    pub word: String,
}

/// Popeye options that feerie does not support yet (they change what is solved).
pub(crate) const UNSUPPORTED_OPTIONS: &[&str] = &[
    "KeepMatingPiece",
    "StartMoveNumber",
    "UpToMoveNumber",
    "Search",
    "MultiSolutions",
    "NoSymmetry",
    "LastCapture",
    "ZeroPosition",
    "SolveKey",
];

/// Popeye options that only change Popeye's output: accepted and ignored.
pub(crate) const OUTPUT_OPTIONS: &[&str] = &["NoBoard", "MoveNumbers", "Beep", "MaxTime", "NoShortVariations", "SuppressGrid", "WriteGrid"];

/// Popeye's fairy conditions (English names and a few common aliases): a problem that uses one
/// is not supported yet.
pub(crate) const CONDITIONS: &[&str] = &[
    "Circe",
    "MirrorCirce",
    "Madrasi",
    "Volage",
    "Hypervolage",
    "BichromChess",
    "MonochromChess",
    "GridChess",
    "KoeKo",
    "BlackEdgeMover",
    "WhiteEdgeMover",
    "Leofamily",
    "ChineseChess",
    "Patrouille",
    "PWC",
    "NoCapture",
    "ImmunChess",
    "MirrorImmunChess",
    "ContactGridChess",
    "Imitator",
    "CavalierMajeur",
    "HaanerChess",
    "ChameleonCirce",
    "CouscousCirce",
    "EquipollentsCirce",
    "FileCirce",
    "BlackMaximummer",
    "BlackMinimummer",
    "WhiteMaximummer",
    "WhiteMinimummer",
    "MagicSquares",
    "Sentinelles",
    "Tibet",
    "DoubleTibet",
    "DiagramCirce",
    "Hole",
    "BlackMustCapture",
    "WhiteMustCapture",
    "ReflectiveKings",
    "TransmutedKings",
    "BlackFollowMyLeader",
    "WhiteFollowMyLeader",
    "DuellistChess",
    "ParrainCirce",
    "NoIProm",
    "SymmetryCirce",
    "VogtlaenderChess",
    "EinsteinChess",
    "Bicolores",
    "NewKoeko",
    "CirceClone",
    "AntiCirce",
    "MirrorFileCirce",
    "AntipodeanCirce",
    "MirrorCirceClone",
    "MirrorAntiCirce",
    "DiagramAntiCirce",
    "FileAntiCirce",
    "SymmetryAntiCirce",
    "MirrorFileAntiCirce",
    "AntipodeanAntiCirce",
    "EquipollentsAntiCirce",
    "FileImmunChess",
    "DiagramImmunChess",
    "MirrorFileImmunChess",
    "SymmetryImmunChess",
    "AntipodeanImmunChess",
    "EquipollentsImmunChess",
    "ReversalEinsteinChess",
    "SuperCirce",
    "RelegationChess",
    "NorskSjakk",
    "TraitorChess",
    "AndernachChess",
    "WhiteForcedSquare",
    "WhiteConsequentForcedSquare",
    "BlackForcedSquare",
    "BlackConsequentForcedSquare",
    "ChameleonChess",
    "FunctionaryChess",
    "GlasgowChess",
    "AntiAndernachChess",
    "FrischAufCirce",
    "VerticalMirrorCirce",
    "Isardam",
    "ChecklessChess",
    "DiametralCirce",
    "PromOnly",
    "RankCirce",
    "ExclusiveChess",
    "MarsCirce",
    "MarsMirrorCirce",
    "PhantomChess",
    "WhiteReflectiveKing",
    "BlackReflectiveKing",
    "WhiteTransmutedKing",
    "BlackTransmutedKing",
    "AntiEinsteinChess",
    "MirrorCouscousCirce",
    "BlackRoyalSquare",
    "WhiteRoyalSquare",
    "BrunnerChess",
    "PlusChess",
    "CirceAssassin",
    "PatienceChess",
    "RepublicanChess",
    "ExtinctionChess",
    "CentralChess",
    "ActuatedRevolvingBoard",
    "MessignyChess",
    "Woozles",
    "BiWoozles",
    "Heffalumps",
    "BiHeffalumps",
    "WhitePromSquares",
    "BlackPromSquares",
    "NoWhitePromotion",
    "NoBlackPromotion",
    "EiffelChess",
    "BlackUltraSchachZwang",
    "WhiteUltraSchachZwang",
    "ActuatedRevolvingCentre",
    "ShieldedKings",
    "LineChameleonChess",
    "NoWhiteCapture",
    "NoBlackCapture",
    "AprilChess",
    "AlphabeticChess",
    "CirceTurncoats",
    "CirceDoubleAgents",
    "AMU",
    "SingleBox",
    "MAFF",
    "OWU",
    "WhiteOscillatingKings",
    "BlackOscillatingKings",
    "AntiKings",
    "AntiMarsCirce",
    "AntiMarsMirrorCirce",
    "AntiMarsAntipodeanCirce",
    "WhiteSuperTransmutingKing",
    "BlackSuperTransmutingKing",
    "AntiSuperCirce",
    "UltraPatrol",
    "SwappingKings",
    "RoyalDynasty",
    "SAT",
    "StrictSAT",
    "Take&MakeChess",
    "BlackSynchronMover",
    "WhiteSynchronMover",
    "BlackAntiSynchronMover",
    "WhiteAntiSynchronMover",
    "Masand",
    "BGL",
    "BlackChecks",
    "AnnanChess",
    "NormalPawn",
    "Lortap",
    "VaultingKings",
    "WhiteVaultingKing",
    "BlackVaultingKing",
    "ProteanChess",
    "GenevaChess",
    "ChameleonPursuit",
    "AntiKoeko",
    "CastlingChess",
    "LosingChess",
    "Disparate",
    "GhostChess",
    "HauntedChess",
    "ProvocationChess",
    "CageCirce",
    "Dummy",
    "Football",
    "ContraParrain",
    "KobulKings",
    "ExchangeCastling",
    "WhiteAlphabeticChess",
    "BlackAlphabeticChess",
    "CirceTake&Make",
    "SuperGuards",
    "Wormholes",
    "MarineChess",
    "UltramarineChess",
    "BackHome",
    "FaceToFace",
    "BackToBack",
    "CheekToCheek",
    "ChameleonSequence",
    "AntiCloneCirce",
    "Maximummer",
    "UltraSchachZwang",
    "Make&TakeChess",
    "MasandGeneralised",
    "NannaChess",
    "SnekChess",
    "SnekCircleChess",
    "ArgentinianChess",
    "LostPieces",
    "PartialParalysis",
    "LeseMajeste",
    "Rokagogo",
    "Breton",
    "PointReflection",
    "Bolero",
    "BoleroInverse",
    "Influencer",
    "RoleExchange",
    "BlackMaxDister",
    "BlackMinDister",
    "WhiteMaxDister",
    "WhiteMinDister",
    "SeriesCapture",
    "Pepo",
    "CASTchess",
    "CASTInverse",
    "MultiCaptures",
    "FuddledMen",
    "Bicaptures",
    "TransmissionMenace",
    "PowerTransfer",
    "Anda",
    "AndaInverse",
    "AllInChess",
    "HalfInChess",
    "MainlyInChess",
    "FrankfurtChess",
    "AntiGuards",
    "Leffie",
    "AliceChess",
    "DangerCirce",
    "PAD",
    // Common aliases.
    "Andernach",
    "AntiAndernach",
    "Monochrome",
    "Bichrome",
    "Grid",
    "Haaner",
    "Haan",
    "Patrol",
    "Einstein",
    "Kamikaze",
    "Mars",
    "Take&Make",
    "Messigny",
    "Annan",
    "Republican",
    "Extinction",
    "Ultraschachzwang",
    "Immun",
];

fn norm(word: &str) -> String {
    word.chars()
        .filter(|c| c.is_alphanumeric() || *c == '&')
        .flat_map(|c| c.to_lowercase())
        .map(|c| match c {
            'é' | 'è' | 'ê' => 'e',
            'à' | 'â' => 'a',
            'ü' => 'u',
            'ö' => 'o',
            'ä' => 'a',
            c => c,
        })
        .collect()
}

/// The keyword lists, normalized once: unsupported options, output options, conditions.
static NORMALIZED: LazyLock<[Vec<(String, &'static str)>; 3]> = LazyLock::new(|| {
    let n = |l: &'static [&'static str]| l.iter().map(|k| (norm(k), *k)).collect::<Vec<_>>();
    [n(UNSUPPORTED_OPTIONS), n(OUTPUT_OPTIONS), n(CONDITIONS)]
});

/// Which keyword list to search.
#[derive(Clone, Copy)]
enum List {
    Unsupported = 0,
    Output = 1,
    Conditions = 2,
}

fn find_in(list: List, word: &str) -> Option<&'static str> {
    let n = norm(word);
    if n.is_empty() {
        return None;
    }
    let which = list as usize;
    NORMALIZED[which].iter().find(|(k, _)| *k == n).map(|(_, k)| *k)
}

/// The Réserve rule a condition word (or two words) names, and how many words it took.
pub fn reserve_condition(words: &[&str]) -> Option<(ReserveRule, usize)> {
    let both = ReserveRule { white: true, black: true };
    let white = ReserveRule { white: true, black: false };
    let black = ReserveRule { white: false, black: true };
    let w0 = norm(words.first()?);
    let w1 = words.get(1).map(|w| norm(w)).unwrap_or_default();
    match (w0.as_str(), w1.as_str()) {
        ("echecs", "reserve") => Some((both, 2)),
        ("reserve", "blanche") => Some((white, 2)),
        ("reserve", "noire") => Some((black, 2)),
        ("white" | "blanc", "reserve") => Some((white, 2)),
        ("black" | "noir", "reserve") => Some((black, 2)),
        ("reserve" | "echecsreserve" | "reservechess", _) => Some((both, 1)),
        ("whitereserve" | "reserveblanche", _) => Some((white, 1)),
        ("blackreserve" | "reservenoire", _) => Some((black, 1)),
        _ => None,
    }
}

/// The fairy condition (other than Réserve) that the words start with, with its parameters,
/// and how many words it took: Popeye's English names, the French and German ones where
/// they differ.
pub fn fairy_condition(words: &[&str]) -> Option<(Condition, usize)> {
    let w0 = norm(words.first()?);
    let named = |e: &(&str, &str, &str)| [e.0, e.1, e.2].iter().any(|n| norm(n) == w0);
    // Other names Popeye's suite uses for conditions feerie plays.
    const ALIASES: &[(&str, &str)] = &[
        ("annan", "AnnanChess"),
        ("take&make", "Take&MakeChess"),
        ("make&take", "Make&TakeChess"),
        ("haaner", "HaanerChess"),
        ("patrol", "Patrouille"),
        ("patrolchess", "Patrouille"),
        ("checkless", "ChecklessChess"),
        ("marscirce", "MarsCirce"),
        ("mars", "MarsCirce"),
        ("andernach", "AndernachChess"),
        ("antiandernach", "AntiAndernachChess"),
        ("monochrome", "MonochromChess"),
        ("monochrom", "MonochromChess"),
        ("bichrome", "BichromChess"),
        ("bichrom", "BichromChess"),
        ("grid", "GridChess"),
    ];
    let en = super::condition_names::CONDITION_NAMES
        .iter()
        .find(|e| named(e))
        .map(|e| e.0)
        .or_else(|| ALIASES.iter().find(|(a, _)| *a == w0).map(|(_, en)| *en))?;
    // The Circe family's options that follow (English names), as far as they go.
    let opts: Vec<&str> = words[1..].iter().map_while(|w| super::condition_names::rebirth_option(w)).collect();
    let has = |o: &str| opts.contains(&o);
    let only = |allowed: &[&str]| opts.iter().all(|o| allowed.contains(o));
    let found =
        match en {
            "Circe" if has("Parrain") || (has("LastMove") && has("Equipollents")) => {
                only(&["Parrain", "LastMove", "Equipollents", "RexExclusive", "Relaxed"]).then_some(Condition::Rebirth(Rebirth::Parrain))
            }
            "Circe" => only(&["RexInclusive", "RexExclusive", "Relaxed"])
                .then_some(Condition::Rebirth(Rebirth::Circe { rex: has("RexInclusive") })),
            "AntiCirce" => only(&["RexInclusive", "Strict", "Calvet", "Cheylan"])
                .then_some(Condition::Rebirth(Rebirth::Anti { cheylan: has("Cheylan") })),
            "MarsCirce" => only(&["RexInclusive"]).then_some(Condition::Rebirth(Rebirth::Mars)),
            "ParrainCirce" => only(&["RexExclusive", "Relaxed"]).then_some(Condition::Rebirth(Rebirth::Parrain)),
            "CirceTake&Make" => only(&[]).then_some(Condition::Rebirth(Rebirth::CirceTakeMake)),
            "Madrasi" => only(&["RexInclusive", "RexExclusive"]).then_some(Condition::Madrasi { rex: has("RexInclusive") }),
            "BlackMaximummer" => only(&[]).then_some(Condition::Maximummer(Color::Black)),
            "WhiteMaximummer" => only(&[]).then_some(Condition::Maximummer(Color::White)),
            "GridChess" => only(&[]).then_some(Condition::Grid),
            "MonochromChess" => only(&[]).then_some(Condition::Monochrome),
            "BichromChess" => only(&[]).then_some(Condition::Bichrome),
            "AndernachChess" => only(&[]).then_some(Condition::Andernach),
            "AntiAndernachChess" => only(&[]).then_some(Condition::AntiAndernach),
            "Isardam" => only(&["RexInclusive", "RexExclusive"]).then_some(Condition::Isardam { rex: has("RexInclusive") }),
            "Patrouille" => only(&[]).then_some(Condition::Patrol),
            "KoeKo" => only(&[]).then_some(Condition::KoeKo),
            "ChecklessChess" => only(&[]).then_some(Condition::Checkless),
            "Take&MakeChess" => only(&[]).then_some(Condition::TakeMake),
            "Make&TakeChess" => only(&[]).then_some(Condition::MakeTake),
            "AnnanChess" => only(&[]).then_some(Condition::Annan),
            "HaanerChess" => only(&[]).then_some(Condition::Haaner),
            _ => None,
        }?;
    let mut used = 1 + opts.len();
    // `Take&Make` right after a Circe-family condition is its option, as Popeye reads it
    // (`Circe Take&Make`, `AntiCirce Take&Make`: the piece is reborn by a move from the
    // capture square), not the condition Take&MakeChess beside it. feerie plays it after
    // plain Circe and AntiCirce (Calvet, its default).
    let rebirth = matches!(found, Condition::Rebirth(_));
    let found = match (found, words.get(used)) {
        (Condition::Rebirth(r), Some(w)) if norm(w).starts_with("take") => {
            used += 1;
            match (r, opts.as_slice()) {
                (Rebirth::Circe { rex: false }, []) => Condition::Rebirth(Rebirth::CirceTakeMake),
                (Rebirth::Anti { cheylan: false }, [] | ["Calvet"]) => Condition::Rebirth(Rebirth::AntiTakeMake),
                _ => return None,
            }
        }
        (f, _) => f,
    };
    match words.get(used) {
        Some(w) if rebirth && norm(w).starts_with("take") => None,
        Some(w) if !is_keyword(w) => None,
        _ => Some((found, used)),
    }
}

/// The name of a fairy condition feerie plays with options it does not play (`Circe
/// Parachute`, `AntiCirce Relaxed`), for the message that it is not supported yet.
fn fairy_condition_with_options(words: &[&str]) -> Option<String> {
    let w0 = norm(words.first()?);
    let e = super::condition_names::CONDITION_NAMES.iter().find(|e| [e.0, e.1, e.2].iter().any(|n| norm(n) == w0))?;
    let mut name = e.0.to_string();
    for w in &words[1..] {
        match super::condition_names::rebirth_option(w) {
            Some(o) => {
                name.push(' ');
                name.push_str(o);
            }
            // The Circe family's `Take&Make` option (see `fairy_condition`).
            None if name.contains("Circe") && norm(w).starts_with("take") => {
                name.push_str(" Take&Make");
                break;
            }
            None => break,
        }
    }
    Some(name)
}

/// Whether a word starts an option or a condition that feerie knows (supported or not).
pub fn is_keyword(word: &str) -> bool {
    let n = norm(word);
    SUPPORTED_NAMES.contains(&n.as_str())
        || find_in(List::Unsupported, word).is_some()
        || find_in(List::Output, word).is_some()
        || find_in(List::Conditions, word).is_some()
        || reserve_condition(&[word]).is_some()
        || fairy_condition(&[word]).is_some()
        || n == "echecs"
}

const SUPPORTED_NAMES: &[&str] = &[
    "hole",
    "holes",
    "trou",
    "loch",
    "setplay",
    "try",
    "defence",
    "defense",
    "threat",
    "nothreat",
    "variations",
    "variation",
    "duplex",
    "halfduplex",
    "whitetoplay",
    "maxsolutions",
    "enpassant",
    "nocastling",
    "intelligent",
    "stoponshortsolutions",
    "postkeyplay",
    "quodlibet",
    "castlingmutuallyexclusive",
    "matesin1",
    "trivialtriesavoid",
    "nontrivial",
    "maxflightsquares",
];

/// Squares written together (`g7g6g5`) or apart (`g7 g6 g5`); `None` if the word holds
/// anything else.
fn squares_in(word: &str) -> Option<Vec<Square>> {
    let b = word.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(2) {
        return None;
    }
    let mut v = Vec::new();
    for pair in b.chunks(2) {
        let s = std::str::from_utf8(pair).ok()?;
        v.push(parse_sq(s)?);
    }
    Some(v)
}

fn looks_like_squares(word: &str) -> bool {
    let b = word.as_bytes();
    !b.is_empty() && b.len().is_multiple_of(2) && b.chunks(2).all(|p| p[0].is_ascii_alphabetic() && p[1].is_ascii_digit())
}

fn number_after(words: &[&str], i: usize, name: &str) -> Result<u32, OptionFault> {
    match words.get(i + 1) {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) && !w.is_empty() => w
            .parse::<u32>()
            .map_err(|_| OptionFault { message: format!("option '{name}': the number {w} is too large"), word: w.to_string() }),
        Some(w) => Err(OptionFault { message: format!("option '{name}' needs a number, found '{w}'"), word: w.to_string() }),
        None => Err(OptionFault { message: format!("option '{name}' needs a number"), word: words[i].to_string() }),
    }
}

/// Reads a list of options and conditions (each item may hold several words).
pub fn parse_options(items: &[String]) -> Result<Parsed, OptionFault> {
    let mut p = Parsed::default();
    let mut reserve: Option<ReserveRule> = None;
    // All items form one stream of words: `[Defence 2]` and `[Defence, 2]` are alike.
    let words: Vec<&str> =
        items.iter().flat_map(|item| item.split(|c: char| c.is_whitespace() || c == ',' || c == ';')).filter(|w| !w.is_empty()).collect();
    {
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let n = norm(w);
            let o = &mut p.options;
            match n.as_str() {
                "setplay" => o.set_play = true,
                "try" => o.try_play = true,
                "defence" | "defense" => {
                    // Popeye computes tries whenever the number of defences is given
                    // (`Defence 1`: "all real tries are calculated").
                    o.try_play = true;
                    o.defence = number_after(&words, i, w)?;
                    i += 1;
                }
                "threat" => {
                    o.threat = Some(number_after(&words, i, w)?);
                    i += 1;
                }
                "nothreat" => o.no_threat = true,
                "variations" | "variation" => o.variations = true,
                "duplex" => o.duplex = true,
                "halfduplex" => o.half_duplex = true,
                "whitetoplay" => o.white_to_play = true,
                "maxsolutions" => {
                    o.max_solutions = Some(number_after(&words, i, w)?);
                    i += 1;
                }
                "intelligent" => {
                    o.intelligent = true;
                    if words.get(i + 1).is_some_and(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit())) {
                        i += 1;
                    }
                }
                "postkeyplay" => o.post_key_play = true,
                "stoponshortsolutions" => o.stop_on_short = true,
                "nullmoves" | "nullmove" => o.null_moves = true,
                "quodlibet" => o.quodlibet = true,
                "matesin1" => o.mates_in_1 = true,
                "trivialtriesavoid" => o.trivial_tries_avoid = true,
                "maxflightsquares" => {
                    // Popeye ignores a number below 1 (`MaxFlightsquares -1`).
                    match words.get(i + 1) {
                        Some(x) if x.starts_with('-') && x[1..].bytes().all(|b| b.is_ascii_digit()) => {}
                        _ => o.max_flights = Some(number_after(&words, i, w)?).filter(|&f| f > 0),
                    }
                    i += 1;
                }
                "nontrivial" => {
                    let m = number_after(&words, i, w)?;
                    let n = number_after(&words, i + 1, w)?;
                    o.non_trivial = Some((m, n));
                    i += 2;
                }
                "castlingmutuallyexclusive" => {
                    let sqs = square_arguments(&words, &mut i, "option 'CastlingMutuallyExclusive'")?;
                    let right = |s: Square| match crate::position::sq_name(s) {
                        "a1" => castle::WQ,
                        "h1" => castle::WK,
                        "a8" => castle::BQ,
                        "h8" => castle::BK,
                        _ => 0,
                    };
                    // One pair or more (`a1h8`, `a1h8 h1a8`), each a white and a black rook's corner.
                    let pairs: Vec<u8> = sqs
                        .chunks(2)
                        .map(|c| match c {
                            [a, b] => castle::exclusive_pair(right(*a), right(*b)) | castle::exclusive_pair(right(*b), right(*a)),
                            _ => 0,
                        })
                        .collect();
                    if pairs.is_empty() || pairs.contains(&0) {
                        return Err(OptionFault {
                            message: "option 'CastlingMutuallyExclusive' needs the squares of a white and a black rook in their \
                                      corners, e.g. 'CastlingMutuallyExclusive a1h8'"
                                .into(),
                            word: words[i].to_string(),
                        });
                    }
                    o.castling_exclusive |= pairs.iter().fold(0, |a, b| a | b);
                }
                "goalisend" => o.goal_is_end = true,
                "hole" | "holes" | "trou" | "loch" => {
                    let sqs = square_arguments(&words, &mut i, "condition 'Hole'")?;
                    for s in &sqs {
                        o.holes |= 1u64 << s.0;
                    }
                    if sqs.is_empty() {
                        p.unsupported.push("condition 'Hole' without its squares is not supported".into());
                    }
                }
                "nowk" => o.no_wk = true,
                "nobk" => o.no_bk = true,
                "enpassant" => {
                    let mut sqs = Vec::new();
                    let mut last = w;
                    while let Some(next) = words.get(i + 1) {
                        if !looks_like_squares(next) {
                            break;
                        }
                        match squares_in(next) {
                            Some(v) => sqs.extend(v),
                            None => {
                                return Err(OptionFault {
                                    message: format!("option 'EnPassant': '{next}' holds a square off the board"),
                                    word: next.to_string(),
                                });
                            }
                        }
                        last = next;
                        i += 1;
                    }
                    p.en_passant = Some(en_passant_spec(&sqs, last)?);
                }
                "nocastling" => {
                    let sqs = square_arguments(&words, &mut i, "option 'NoCastling'")?;
                    for &s in &sqs {
                        p.no_castling |= match crate::position::sq_name(s) {
                            "a1" => castle::WQ,
                            "h1" => castle::WK,
                            "e1" => castle::WK | castle::WQ,
                            "a8" => castle::BQ,
                            "h8" => castle::BK,
                            "e8" => castle::BK | castle::BQ,
                            _ => 0,
                        };
                    }
                    if sqs.is_empty() {
                        return Err(OptionFault {
                            message:
                                "option 'NoCastling' needs the squares of the kings or rooks that may not castle, e.g. 'NoCastling a1 h8'"
                                    .into(),
                            word: w.to_string(),
                        });
                    }
                }
                _ => {
                    if let Some((rule, used)) = reserve_condition(&words[i..]) {
                        if let Some(prev) = reserve
                            && prev != rule
                        {
                            return Err(OptionFault {
                                message: format!(
                                    "two different Réserve conditions ({} and {})",
                                    reserve_name(prev).unwrap_or("?"),
                                    reserve_name(rule).unwrap_or("?")
                                ),
                                word: w.to_string(),
                            });
                        }
                        reserve = Some(rule);
                        p.has_condition = true;
                        i += used;
                        continue;
                    }
                    if let Some((c, used)) = fairy_condition(&words[i..]) {
                        p.options.conditions.push(c).map_err(|message| OptionFault { message, word: w.to_string() })?;
                        p.has_condition = true;
                        i += used;
                        continue;
                    }
                    if let Some(k) = find_in(List::Output, w) {
                        p.options.ignored.push(k.to_string());
                        if words.get(i + 1).is_some_and(|x| x.bytes().all(|b| b.is_ascii_digit() || b == b':')) {
                            i += 1;
                        }
                    } else if let Some(k) = find_in(List::Unsupported, w) {
                        p.unsupported.push(format!("Popeye option '{k}' is not supported yet"));
                        i = skip_arguments(&words, i);
                        continue;
                    } else if let Some(k) =
                        fairy_condition_with_options(&words[i..]).or_else(|| find_in(List::Conditions, w).map(String::from))
                    {
                        p.unsupported.push(format!("condition '{k}' is not supported yet"));
                        p.has_condition = true;
                        i = skip_arguments(&words, i);
                        continue;
                    } else {
                        return Err(OptionFault { message: format!("unknown option or condition '{w}'"), word: w.to_string() });
                    }
                }
            }
            i += 1;
        }
    }
    p.options.reserve = reserve.unwrap_or_default();
    Ok(p)
}

/// The squares written in the words after `words[*i]` (`a1 h8`, `a1h8`), as far as they are
/// squares; `*i` is left on the last one read. A word of squares with one off the board is a
/// fault of `what`.
fn square_arguments(words: &[&str], i: &mut usize, what: &str) -> Result<Vec<Square>, OptionFault> {
    let mut out = Vec::new();
    while let Some(next) = words.get(*i + 1) {
        if !looks_like_squares(next) {
            break;
        }
        let Some(v) = squares_in(next) else {
            return Err(OptionFault { message: format!("{what}: '{next}' holds a square off the board"), word: next.to_string() });
        };
        out.extend(v);
        *i += 1;
    }
    Ok(out)
}

/// Skips the words after an unsupported keyword up to the next keyword; returns the index of
/// that keyword (or the end).
fn skip_arguments(words: &[&str], i: usize) -> usize {
    let mut j = i + 1;
    while j < words.len() && !is_keyword(words[j]) {
        j += 1;
    }
    j
}

fn en_passant_spec(sqs: &[Square], word: &str) -> Result<EnPassantSpec, OptionFault> {
    let fault = |m: String| OptionFault { message: m, word: word.to_string() };
    let (from, to) = match sqs {
        [a, b] | [a, _, b] => (*a, *b),
        [] => return Err(fault("option 'EnPassant' needs the squares of the pawn move just played, e.g. 'EnPassant g7g6g5'".into())),
        _ => {
            return Err(fault(format!(
                "option 'EnPassant' takes the departure, crossed and arrival squares of a pawn's double step, found {} squares",
                sqs.len()
            )));
        }
    };
    let name = crate::position::sq_name;
    let (fr, tr, ff, tf) = (from.0 / 8, to.0 / 8, from.0 % 8, to.0 % 8);
    let ok = ff == tf && ((fr == 1 && tr == 3) || (fr == 6 && tr == 4));
    let crossed = Square((from.0 + to.0) / 2);
    if !ok || (sqs.len() == 3 && sqs[1] != crossed) {
        return Err(fault(format!("option 'EnPassant': {}-{} is not a pawn's double step (e.g. g7g6g5 or e2e3e4)", name(from), name(to))));
    }
    Ok(EnPassantSpec { from, crossed, to })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: &[&str]) -> Result<Parsed, OptionFault> {
        parse_options(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn options_and_conditions() {
        let p = parse(&["SetPlay", "Defence 2", "Réserve blanche"]).unwrap();
        assert!(p.options.set_play);
        assert_eq!(p.options.defence, 2);
        assert_eq!(p.options.reserve, ReserveRule { white: true, black: false });
        let p = parse(&["EnPassant g7 g6 g5"]).unwrap();
        assert_eq!(p.en_passant.map(|e| crate::position::sq_name(e.crossed)), Some("g6"));
        let p = parse(&["NoWk", "NullMoves", "Variations", "NoBk", "KeepMatingPiece"]).unwrap();
        assert_eq!(p.unsupported.len(), 1);
        assert!(p.options.variations && p.options.no_wk && p.options.no_bk && p.options.null_moves);
        assert_eq!(p.options.keywords(), ["Variations", "NoWk", "NoBk", "NullMoves"]);
        let p = parse(&["NoWk", "Circe Couscous", "Variations"]).unwrap();
        assert_eq!(p.unsupported.len(), 1);
        assert!(p.unsupported[0].contains("'Circe Couscous'"), "{:?}", p.unsupported);
        assert!(p.options.variations);
        let p = parse(&["StopOnShortSolutions", "Intelligent"]).unwrap();
        assert!(p.options.stop_on_short && p.unsupported.is_empty());
        assert_eq!(p.options.keywords(), ["Intelligent", "StopOnShortSolutions"]);
        let p = parse(&["Circe Parrain"]).unwrap();
        assert_eq!(p.options.conditions.names(), ["ParrainCirce"]);
        let p =
            parse(&["Quodlibet MatesIn1 TrivialTriesAvoid", "NonTrivial 2 1", "MaxFlightsquares 3", "CastlingMutuallyExclusive a1h8 h1a8"])
                .unwrap();
        assert!(p.unsupported.is_empty(), "{:?}", p.unsupported);
        let o = &p.options;
        assert!(o.quodlibet && o.mates_in_1 && o.trivial_tries_avoid);
        assert_eq!((o.non_trivial, o.max_flights), (Some((2, 1)), Some(3)));
        assert_eq!(o.castling_exclusive, castle::exclusive_pair(castle::WQ, castle::BK) | castle::exclusive_pair(castle::WK, castle::BQ));
        assert_eq!(
            o.keywords(),
            [
                "Quodlibet",
                "MatesIn1",
                "TrivialTriesAvoid",
                "CastlingMutuallyExclusive a1h8",
                "CastlingMutuallyExclusive h1a8",
                "MaxFlightsquares 3",
                "NonTrivial 2 1"
            ]
            .map(String::from)
        );
        // Popeye ignores `MaxFlightsquares -1`.
        assert_eq!(parse(&["MaxFlightsquares -1"]).unwrap().options.max_flights, None);
        assert!(parse(&["NonTrivial 1"]).is_err());
        assert!(parse(&["CastlingMutuallyExclusive a1h1"]).is_err());
        assert!(parse(&["Foo"]).unwrap_err().message.contains("'Foo'"));
        assert!(parse(&["Defence"]).is_err());
    }
}
