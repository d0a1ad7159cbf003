//! One document of a problem file, read into a [`Loaded`]: every field interpreted by hand from
//! a `serde_yaml::Value`, for tolerance, and every fault located in the text.

use super::board::{self, CHESS, XIANGQI};
use super::error::{Fault, ProblemError};
use super::meta::{Meta, read_meta};
use super::options::{Parsed, parse_options};
use super::solution::{SolutionHint, StatedSolution};
use super::stipulation::{Stipulation, StipulationError};
use super::twins::{Twin, parse_twin};
use super::yaml::{Locator, RawDoc, field, first_text_line, kind_of, scalar, shorten, texts, untag};
use super::{Diagram, Loaded, Problem, Rules};
use crate::geometry::Square;
use crate::piece::{Color, Kind};
use crate::position::{Position, PositionError, Setup, sq_name};
use crate::rules::Goal;
use serde_yaml::{Mapping, Value};

/// Where a document's faults are reported.
struct Ctx<'a> {
    file: &'a str,
    doc: &'a RawDoc,
    loc: Locator<'a>,
    first_line: String,
}

impl Ctx<'_> {
    fn error(&self, f: Fault) -> ProblemError {
        let path: Vec<&str> = f.path.iter().map(String::as_str).collect();
        let place = match &f.needle {
            Some(n) => self.loc.find(&path, n),
            None if path.is_empty() => self.loc.start(),
            None => self.loc.at(&path),
        };
        let (line, column) = self.loc.file_pos(place);
        ProblemError {
            file: self.file.to_string(),
            document: self.doc.number,
            first_line: self.first_line.clone(),
            line,
            column,
            message: f.message,
        }
    }
}

/// Removes serde_yaml's own "at line L column C" from its messages (we give our own numbers).
fn clean_yaml_message(m: &str) -> String {
    let mut s = m.to_string();
    while let Some(i) = s.find(" at line ") {
        let rest = &s[i + 9..];
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == ' ' || "column".contains(c))).map(|e| i + 9 + e).unwrap_or(s.len());
        s.replace_range(i..end, "");
    }
    s
}

/// serde_yaml places a duplicate key at the start of its mapping: find its second occurrence.
fn duplicate_key_place(loc: &Locator, message: &str) -> Option<(usize, usize)> {
    let rest = message.strip_prefix("duplicate entry with key \"")?;
    let key = &rest[..rest.find('"')?];
    loc.second_key(key).map(|p| loc.file_pos(p))
}

/// A summary of the pieces (for the first line of problems without authors).
fn pieces_summary(map: &Mapping) -> Option<String> {
    if let Some(Value::Mapping(a)) = field(map, "algebraic") {
        let w = field(a, "white").or_else(|| field(a, "red")).map(|v| texts(v, true).join(" ")).unwrap_or_default();
        let b = field(a, "black").map(|v| texts(v, true).join(" ")).unwrap_or_default();
        return Some(format!("{w} / {b}"));
    }
    field(map, "fen").and_then(scalar)
}

fn first_line(meta: &Meta, stip: &str, map: &Mapping, fallback: &str) -> String {
    let stip = if stip.trim().is_empty() { "?" } else { stip.trim() };
    let s = if !meta.authors.is_empty() {
        format!("{} — {stip}", super::meta::join_authors(&meta.authors))
    } else if !meta.title.is_empty() {
        format!("{} — {stip}", meta.title)
    } else if let Some(p) = pieces_summary(map) {
        format!("{stip}: {p}")
    } else if stip != "?" {
        stip.to_string()
    } else {
        fallback.to_string()
    };
    shorten(&s.replace(['\n', '\r'], " "), 70)
}

/// Reads one document.
pub(crate) fn load_document(doc: &RawDoc, file: &str) -> Loaded {
    let loc = Locator::new(&doc.text, doc.offset);
    let mut ctx = Ctx { file, doc, loc, first_line: first_text_line(&doc.text) };
    // The document's last line ends with a line break in the file (before the next `---`), so
    // that a block scalar at its end (`solution: |`) keeps its final line break wherever the
    // document stands in the file.
    let value: Value = match serde_yaml::from_str(&format!("{}\n", doc.text)) {
        Ok(v) => v,
        Err(e) => {
            let message = clean_yaml_message(&e.to_string());
            let (line, column) = match duplicate_key_place(&ctx.loc, &message) {
                Some(p) => p,
                None => match e.location() {
                    Some(l) => ctx.loc.file_pos(ctx.loc.place_of_index(l.index())),
                    None => ctx.loc.file_pos(ctx.loc.start()),
                },
            };
            return Loaded::Invalid(ProblemError {
                file: file.to_string(),
                document: doc.number,
                first_line: ctx.first_line.clone(),
                line,
                column,
                message: format!("YAML syntax error: {message}"),
            });
        }
    };
    let Value::Mapping(map) = untag(&value) else {
        return Loaded::Invalid(ctx.error(Fault::at(
            &[],
            format!("a problem must be a mapping of fields (stipulation, algebraic, …), found {}", kind_of(&value)),
        )));
    };
    let meta = read_meta(map);
    let stip_text = field(map, "stipulation").or_else(|| field(map, "sstipulation")).and_then(scalar).unwrap_or_default();
    ctx.first_line = first_line(&meta, &stip_text, map, &ctx.first_line);
    let mut unsupported: Vec<String> = Vec::new();
    let mut sketch = Sketch::default();
    match interpret(&ctx, map, &meta, &stip_text, &mut unsupported, &mut sketch) {
        Err(f) => Loaded::Invalid(ctx.error(f)),
        Ok(None) => Loaded::Unsupported {
            file: file.to_string(),
            document: doc.number,
            line: doc.offset + 1,
            first_line: ctx.first_line.clone(),
            reason: unsupported.join("; "),
            meta,
            stipulation_text: stip_text,
            options: sketch.options,
            diagram: sketch.diagram.map(Box::new),
        },
        Ok(Some(p)) => match p.variants() {
            Err(e) => Loaded::Invalid(e),
            Ok(vs) => {
                let mut p = p;
                if let Some(text) = field(map, "solution").map(|v| match untag(v) {
                    Value::Sequence(_) => texts(v, false).join("\n"),
                    v => scalar(v).unwrap_or_default(),
                }) {
                    let hint = SolutionHint {
                        stipulation: Some(p.stipulation),
                        twin_stipulations: vs.iter().map(|v| (v.label.clone(), v.stipulation)).collect(),
                        set_play: p.options.set_play,
                        post_key_play: p.options.post_key_play,
                    };
                    p.stated = Some(StatedSolution::parse(&text, &hint));
                }
                Loaded::Ready(Box::new(p))
            }
        },
    }
}

/// What is kept of a document that is not supported yet, for reports.
#[derive(Default)]
struct Sketch {
    options: Vec<String>,
    diagram: Option<Diagram>,
}

/// The problem, or `None` when it is valid but uses something not supported yet (the reasons
/// are in `unsupported`, the options and the diagram, as far as they were read, in `sketch`).
fn interpret(
    ctx: &Ctx,
    map: &Mapping,
    meta: &Meta,
    stip_text: &str,
    unsupported: &mut Vec<String>,
    sketch: &mut Sketch,
) -> Result<Option<Problem>, Fault> {
    // Rules.
    let rules = match field(map, "rules") {
        None | Some(Value::Null) => Rules::Chess,
        Some(v) => match scalar(v).map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            Some("chess" | "orthodox") => Rules::Chess,
            Some("xiangqi" | "chinese chess") => Rules::Xiangqi,
            Some("cheskers") => Rules::Cheskers,
            Some(other) => return Err(Fault::at(&["rules"], format!("unknown rules '{other}' (expected chess, xiangqi or cheskers)"))),
            None => {
                return Err(Fault::at(&["rules"], format!("'rules' must be a word (chess, xiangqi or cheskers), found {}", kind_of(v))));
            }
        },
    };
    // Stipulation, or a structured one (Popeye's `SStipulation`): an ordinary stipulation
    // when it is a synonym of one, else played by `solve::structured`.
    let mut structured = None;
    let mut post_key_from_structured = false;
    let sstip = match field(map, "sstipulation") {
        None | Some(Value::Null) => None,
        Some(v) => Some(scalar(v).ok_or_else(|| {
            Fault::at(&["sstipulation"], format!("the structured stipulation must be a text such as 'white 3a[#]d', found {}", kind_of(v)))
        })?),
    };
    let stipulation = match (field(map, "stipulation"), sstip) {
        (Some(_), Some(_)) => {
            return Err(Fault::at(&["sstipulation"], "both 'stipulation' and 'sstipulation' are given: keep one"));
        }
        (None, Some(text)) => {
            let s = super::sstip::SStipulation::parse(&text).map_err(|e| Fault::at(&["sstipulation"], e.to_string()))?;
            if let Some(t) = s.translate() {
                post_key_from_structured = t.post_key_play;
                structured = Some(std::sync::Arc::new(s));
                Some(t.stipulation)
            } else {
                match crate::solve::structured::stand_in(&s) {
                    Ok(st) => {
                        structured = Some(std::sync::Arc::new(s));
                        Some(st)
                    }
                    Err(reason) => {
                        unsupported.push(reason);
                        None
                    }
                }
            }
        }
        (None, None) => return Err(Fault::at(&[], "the field 'stipulation' is missing (e.g. stipulation: '#2')")),
        (Some(Value::Null), None) => {
            return Err(Fault::at(
                &["stipulation"],
                "the stipulation is empty: quote it, e.g. stipulation: '#3' (an unquoted # starts a YAML comment)",
            ));
        }
        (Some(v), None) if scalar(v).is_none() => {
            return Err(Fault::at(&["stipulation"], format!("the stipulation must be a text such as '#2', found {}", kind_of(v))));
        }
        (Some(_), None) => match Stipulation::parse(stip_text) {
            Ok(s) => Some(s),
            Err(StipulationError::Unsupported(r)) => {
                unsupported.push(format!("not supported yet: {r}"));
                None
            }
            Err(e) => return Err(Fault::at(&["stipulation"], e.to_string())),
        },
    };
    // Options and conditions.
    let mut items: Vec<String> = Vec::new();
    let mut opt_key = "options";
    for key in ["options", "conditions", "condition"] {
        if let Some(v) = field(map, key) {
            if let Value::Mapping(_) = v {
                return Err(Fault::at(&[key], format!("'{key}' must be a list such as [SetPlay, Variations], found a mapping")));
            }
            if items.is_empty() {
                opt_key = key;
            }
            items.extend(texts(v, false));
        }
    }
    let parsed: Parsed = parse_options(&items).map_err(|f| Fault::on(&[opt_key], &f.word, f.message))?;
    sketch.options = items.clone();
    unsupported.extend(parsed.unsupported.iter().cloned());
    // `StopOnShortSolutions` in direct play is refused when the problem is solved, as Popeye
    // refuses it ([`super::Variant::refusal`]).
    let mut options = parsed.options.clone();
    options.post_key_play |= post_key_from_structured;
    options.structured = structured;
    // Null moves are played in help play (series play has no use for them).
    if options.null_moves && stipulation.is_some_and(|s| s.is_battle()) {
        unsupported.push("Popeye option 'NullMoves' in direct, self and reflex play is not supported yet".into());
    }
    // Intended number of solutions.
    let intended_solutions = match field(map, "intended-solutions") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let s = scalar(v).unwrap_or_default();
            let t = s.trim();
            let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return Err(Fault::at(
                    &["intended-solutions"],
                    format!("intended-solutions '{t}' is not a number (e.g. 2, or Popeye's 2.1.1.1)"),
                ));
            }
            Some(
                t[..digits]
                    .parse::<u32>()
                    .map_err(|_| Fault::at(&["intended-solutions"], format!("intended-solutions '{t}' is too large")))?,
            )
        }
    };
    let side = stipulation.map(|s| super::first_mover(&s, &options)).unwrap_or(Color::White);
    let proof = stipulation.filter(|s| s.goal.is_proof());
    // Twins (read for every rule system, applied for chess).
    let twins = read_twins(ctx, map, rules, unsupported)?;
    let has_alg = field(map, "algebraic").is_some();
    let fen = field(map, "fen");
    if has_alg && fen.is_some() {
        return Err(Fault::at(&["fen"], "both 'algebraic' and 'fen' are given: keep one"));
    }
    if !has_alg && fen.is_none() {
        return Err(Fault::at(&[], "the position is missing: give 'algebraic' (lists of white and black pieces) or 'fen'"));
    }
    let fen_text = match fen {
        Some(v) => Some(scalar(v).ok_or_else(|| Fault::at(&["fen"], format!("'fen' must be a text, found {}", kind_of(v))))?),
        None => None,
    };
    match rules {
        Rules::Xiangqi | Rules::Cheskers => {
            if field(map, "reserve").is_some() {
                return Err(Fault::at(&["reserve"], "reserves exist only in chess (Échecs Réserve)"));
            }
            if rules == Rules::Xiangqi {
                let pieces = match &fen_text {
                    Some(f) => board::xiangqi_fen(f).map_err(|m| Fault::at(&["fen"], m))?.0,
                    None => {
                        let raw = board::read_algebraic(field(map, "algebraic").unwrap_or(&Value::Null), XIANGQI, false, unsupported)?;
                        board::xiangqi_pieces(&raw)?
                    }
                };
                let position = board::check_xiangqi(&pieces, side)?;
                sketch.diagram = Some(Diagram::of_xiangqi(&pieces));
                if let Some(s) = stipulation
                    && matches!(s.goal, Goal::Stalemate | Goal::DoubleStalemate)
                {
                    return Err(Fault::at(
                        &["stipulation"],
                        format!(
                            "'{s}': in Xiangqi a side left without a legal move has lost, so there is no stalemate goal; write '#' for it"
                        ),
                    ));
                }
                if let Some(s) = stipulation
                    && let Some(why) = <crate::rules::xiangqi::XiangqiPosition as crate::rules::Game>::refuses_goal(s.goal)
                {
                    return Err(Fault::at(&["stipulation"], format!("'{s}': {why} (Xiangqi knows #, + and nothing else)")));
                }
                if options.reserve.any() {
                    return Err(Fault::at(&[opt_key], "Échecs Réserve is a chess condition: it does not apply to Xiangqi"));
                }
                if parsed.en_passant.is_some() || parsed.no_castling != 0 || options.castling_exclusive != 0 {
                    return Err(Fault::at(&[opt_key], "Xiangqi has neither en passant nor castling"));
                }
                if !unsupported.is_empty() {
                    return Ok(None);
                }
                let Some(stipulation) = stipulation else {
                    return Err(Fault::at(&["stipulation"], "the stipulation could not be read"));
                };
                let parts = Parts { stipulation, options, intended_solutions, twins, castling_allowed: 0, proof_start: None };
                return Ok(Some(problem(ctx, meta, super::GamePosition::Xiangqi(position), parts)));
            } else {
                let pieces = match &fen_text {
                    Some(f) => board::cheskers_fen(f).map_err(|m| Fault::at(&["fen"], m))?.0,
                    None => {
                        let raw = board::read_algebraic(field(map, "algebraic").unwrap_or(&Value::Null), CHESS, false, unsupported)?;
                        board::cheskers_pieces(&raw)?
                    }
                };
                let position = board::check_cheskers(&pieces, side)?;
                sketch.diagram = Some(Diagram::of_cheskers(&pieces));
                if let Some(s) = stipulation
                    && s.goal != Goal::Mate
                {
                    return Err(Fault::at(
                        &["stipulation"],
                        format!(
                            "'{s}': the only goal in Cheskers is '#', White wins (all Black kings captured, or Black to move has no move)"
                        ),
                    ));
                }
                if options.reserve.any() {
                    return Err(Fault::at(&[opt_key], "Échecs Réserve is a chess condition: it does not apply to Cheskers"));
                }
                if parsed.en_passant.is_some() || parsed.no_castling != 0 || options.castling_exclusive != 0 {
                    return Err(Fault::at(&[opt_key], "Cheskers has neither en passant nor castling"));
                }
                if !unsupported.is_empty() {
                    return Ok(None);
                }
                let Some(stipulation) = stipulation else {
                    return Err(Fault::at(&["stipulation"], "the stipulation could not be read"));
                };
                let parts = Parts { stipulation, options, intended_solutions, twins, castling_allowed: 0, proof_start: None };
                return Ok(Some(problem(ctx, meta, super::GamePosition::Cheskers(position), parts)));
            }
        }
        Rules::Chess => {}
    }
    // Chess: the setup. Unsupported options, conditions, piece attributes and neutral pieces
    // may change what a legal diagram is.
    let before_pieces = unsupported.len();
    let pos_key = if fen_text.is_some() { "fen" } else { "algebraic" };
    let mut setup;
    let castling_allowed;
    // Neutral pieces (the fairy rules play them), apart from the sides' pieces.
    let mut neutrals: Vec<(Square, Kind)> = Vec::new();
    match &fen_text {
        Some(f) => {
            setup = crate::notation::parse_fen(f).map_err(|e| Fault::at(&["fen"], position_message(&e)))?;
            setup.castling &= !parsed.no_castling;
            castling_allowed = setup.castling;
        }
        None => {
            let mut raw = board::read_algebraic(field(map, "algebraic").unwrap_or(&Value::Null), CHESS, true, unsupported)?;
            // Popeye's pieces that feerie cannot play yet: the problem is unsupported, named.
            raw.retain(|p| match (crate::piece::Kind::from_code(&p.code), super::popeye::piece_name(&p.code)) {
                (None, Some(name)) => {
                    unsupported.push(format!("piece '{}' ({name}, {}) is not supported yet", p.code, p.text));
                    false
                }
                _ => true,
            });
            let pieces = match board::chess_pieces(&raw) {
                Ok(mut p) => {
                    let neutral_at = |s: Square| raw.iter().any(|r| r.neutral && Square(r.rank * 8 + r.file) == s);
                    neutrals = p.iter().filter(|(s, _)| neutral_at(*s)).map(|&(s, pc)| (s, pc.kind)).collect();
                    p.retain(|(s, _)| !neutral_at(*s));
                    p
                }
                // A stipulation not supported yet may read the diagram otherwise (Popeye's
                // `a=>b` lists a second position on the same board).
                Err(_) if stipulation.is_none() => return Ok(None),
                Err(e) => return Err(e),
            };
            castling_allowed = 0xF & !parsed.no_castling;
            setup = Setup { castling: board::default_castling(&pieces) & castling_allowed, pieces, fullmove: 1, ..Setup::default() };
        }
    }
    setup.castling_exclusive = options.castling_exclusive;
    if let Some(r) = field(map, "reserve") {
        let res = board::read_reserve(r)?;
        for c in Color::BOTH {
            setup.reserves[c.index()].extend(res[c.index()].iter().copied());
        }
    }
    let rule = options.reserve;
    for c in Color::BOTH {
        if !setup.reserves[c.index()].is_empty() && !rule.allows(c) {
            let key = if field(map, "reserve").is_some() { "reserve" } else { pos_key };
            return Err(Fault::at(
                &[key],
                if rule.any() {
                    format!(
                        "{} has pieces in reserve, but the condition {} lets only {} use a reserve",
                        cap(c.name()),
                        super::options::reserve_name(rule).unwrap_or("?"),
                        c.opponent().name()
                    )
                } else {
                    format!("{} has pieces in reserve, but no Réserve condition is set: add 'Reserve' to the options", cap(c.name()))
                },
            ));
        }
    }
    setup.reserve_rule = rule;
    setup.side = Some(side);
    sketch.diagram = Some({
        let mut d = Diagram::of_setup(&setup);
        d.neutral = neutrals
            .iter()
            .map(|&(s, k)| super::diagram::DiagramPiece {
                color: Color::White,
                figure: super::diagram::Figure::Chess(k),
                file: s.0 % 8,
                rank: s.0 / 8,
            })
            .collect();
        d
    });
    let mut ep_from_option = false;
    if let Some(ep) = parsed.en_passant {
        let mover = if ep.from.0 < ep.to.0 { Color::White } else { Color::Black };
        let word = sq_name(ep.to).to_string();
        let has_pawn = setup.pieces.iter().any(|(s, p)| *s == ep.to && p.color == mover && p.kind == Kind::Pawn);
        if !has_pawn {
            return Err(Fault::on(
                &[opt_key],
                &word,
                format!("option 'EnPassant': there is no {} pawn on {}", mover.name(), sq_name(ep.to)),
            ));
        }
        if mover == side {
            let st = stipulation.map(|s| s.to_string()).unwrap_or_default();
            return Err(Fault::on(
                &[opt_key],
                &word,
                format!("option 'EnPassant': {} has just moved, but {} also makes the first move in {st}", cap(mover.name()), mover.name()),
            ));
        }
        setup.ep = Some(ep.crossed);
        ep_from_option = true;
    }
    // A stipulation not supported yet (a proof game `dia8.5`, Popeye's `~`) leaves the side to
    // move unknown, and a proof game's diagram is a target, not a position to move from.
    let condition_unsupported = !parsed.unsupported.is_empty() || unsupported.len() > before_pieces || stipulation.is_none();
    // Fairy conditions and the pieces the chess position does not play: the fairy rules.
    // A side without a king (Popeye's `NoWk`, `NoBk`: that side is never in check) and neutral
    // pieces are played by the fairy rules too; a side with its king stays on the chess position.
    let kingless = Color::BOTH.iter().any(|&c| {
        !setup.pieces.iter().any(|(_, p)| p.color == c && p.kind == Kind::King) && !neutrals.iter().any(|&(_, k)| k == Kind::King)
    });
    let fairy = !options.conditions.is_empty()
        || options.holes != 0
        || setup.pieces.iter().any(|(_, p)| !p.kind.in_chess())
        || !neutrals.is_empty()
        || (kingless && (options.no_wk || options.no_bk))
        // The goals that follow pieces from the diagram (`<>`, `ct`, `k`, …): only the fairy
        // rules keep where each piece started.
        || stipulation.is_some_and(|s| s.goal.tracks_pieces());
    if !fairy {
        for t in &twins {
            for c in &t.commands {
                if let super::TwinCommand::Condition { conditions, text, .. } = c
                    && !conditions.is_empty()
                {
                    unsupported.push(format!(
                        "twin {}: 'Condition {text}' brings a fairy condition into an orthodox problem: not supported yet",
                        t.label
                    ));
                }
                if let super::TwinCommand::Stipulation { stipulation: s } | super::TwinCommand::SStipulation { stipulation: s, .. } = c
                    && s.goal.tracks_pieces()
                {
                    unsupported.push(format!(
                        "twin {}: 'Stipulation {s}' brings a goal that follows pieces into a problem without one: not supported yet",
                        t.label
                    ));
                }
            }
        }
        if !unsupported.is_empty() {
            return Ok(None);
        }
    }
    if fairy {
        if options.castling_exclusive != 0 {
            unsupported.push("option 'CastlingMutuallyExclusive' with the fairy rules is not supported yet".into());
        }
        if condition_unsupported || !unsupported.is_empty() {
            return Ok(None);
        }
        if let Some(s) = proof {
            unsupported
                .push(format!("proof games ('{s}') with fairy conditions, fairy pieces or a side without a king are not supported yet"));
            return Ok(None);
        }
        if options.reserve.any() {
            unsupported.push(format!(
                "Réserve combined with {} is not supported yet",
                if options.conditions.is_empty() {
                    "the fairy pieces of the fairy rules".to_string()
                } else {
                    options.conditions.names().join(", ")
                }
            ));
            return Ok(None);
        }
        let fs = crate::rules::fairy::FairySetup {
            pieces: setup
                .pieces
                .iter()
                .map(|&(s, p)| (s, crate::rules::fairy::FPiece::new(crate::rules::fairy::Owner::of(p.color), p.kind)))
                .chain(neutrals.iter().map(|&(s, k)| (s, crate::rules::fairy::FPiece::new(crate::rules::fairy::Owner::Neutral, k))))
                .collect(),
            holes: options.holes,
            side: setup.side,
            // From a diagram, the rights the squares allow (the rules keep those whose pieces
            // stand there, or may be reborn there); from FEN, what it says.
            castling: if fen_text.is_some() { setup.castling } else { castling_allowed },
            ep: setup.ep,
            conditions: options.conditions,
            extra_promotions: setup.extra_promotions.clone(),
            track_pieces: stipulation.is_some_and(|s| s.goal.tracks_pieces()),
        };
        let position = crate::rules::fairy::FairyPosition::from_setup(&fs).map_err(|e| match &e {
            crate::rules::fairy::FairyError::OppositeCheck(c) => {
                let st = stipulation.map(|s| format!(" in {s}")).unwrap_or_default();
                Fault::at(&[pos_key], format!("the side not to move ({c}) is in check: {} makes the first move{st}", side.name()))
            }
            crate::rules::fairy::FairyError::Combination(m) => Fault::at(&[opt_key], m.clone()),
            _ => Fault::at(&[pos_key], e.to_string()),
        })?;
        let Some(stipulation) = stipulation else {
            return Err(Fault::at(&["stipulation"], "the stipulation could not be read"));
        };
        let parts = Parts { stipulation, options, intended_solutions, twins, castling_allowed, proof_start: None };
        return Ok(Some(problem(ctx, meta, super::GamePosition::Fairy(Box::new(position)), parts)));
    }
    // A proof game's diagram is the position to reach, with the side to move it has there.
    if let Some(s) = proof {
        setup.side = Some(s.proof_target_side(options.white_to_play));
    }
    let position = match Position::from_setup(&setup) {
        Ok(p) => Ok(p),
        // A diagram whose side that has just moved stands in check is no proof game's end:
        // it loads with the other side to move, and no play reaches it.
        Err(PositionError::OppositeCheck(_)) if proof.is_some() => {
            setup.side = setup.side.map(Color::opponent);
            Position::from_setup(&setup)
        }
        // A fairy condition or option (NoWk, Circe, …) may make the diagram legal.
        Err(_) if condition_unsupported => return Ok(None),
        Err(e) => Err(e),
    };
    let position = position.map_err(|e| {
        let msg = position_message(&e);
        match &e {
            PositionError::PawnOnBackRank(_, s) if pos_key == "algebraic" => Fault::on(&["algebraic"], &format!("P{s}"), msg),
            PositionError::Occupied(s) if pos_key == "algebraic" => Fault::on(&["algebraic"], s, msg),
            PositionError::BadEnPassant(_) if ep_from_option => Fault::on(&[opt_key], "EnPassant", msg),
            PositionError::OppositeCheck(c) => {
                let st = stipulation.map(|s| format!(" in {s}")).unwrap_or_default();
                Fault::at(&[pos_key], format!("the side not to move ({c}) is in check: {} makes the first move{st}", side.name()))
            }
            _ => Fault::at(&[pos_key], msg),
        }
    })?;
    if !unsupported.is_empty() {
        return Ok(None);
    }
    let Some(stipulation) = stipulation else {
        return Err(Fault::at(&["stipulation"], "the stipulation could not be read"));
    };
    let proof_start = match (stipulation.goal, field(map, "start")) {
        (Goal::AToB, Some(v)) => Some(Box::new(read_start(v, side, castling_allowed)?)),
        (Goal::AToB, None) => {
            return Err(Fault::at(
                &["stipulation"],
                format!("'{stipulation}' needs the position it starts from: give 'start' (white and black piece lists, or a FEN)"),
            ));
        }
        (_, Some(_)) => {
            return Err(Fault::at(&["start"], format!("'start' is the start position of an a=>b proof game, not of '{stipulation}'")));
        }
        (_, None) => None,
    };
    let parts = Parts { stipulation, options, intended_solutions, twins, castling_allowed, proof_start };
    Ok(Some(problem(ctx, meta, super::GamePosition::Chess(position), parts)))
}

/// The start position of an `a=>b` proof game: a FEN (its board field at least) or white
/// and black piece lists as in `algebraic`; `side` moves first, castling as the pieces and
/// `castling_allowed` allow.
fn read_start(v: &Value, side: Color, castling_allowed: u8) -> Result<Position, Fault> {
    let mut setup = match scalar(v) {
        Some(f) => {
            let f = f.trim();
            // A board field alone is a FEN too.
            let full = if f.contains(' ') { f.to_string() } else { format!("{f} w - - 0 1") };
            let mut s = crate::notation::parse_fen(&full).map_err(|e| Fault::at(&["start"], position_message(&e)))?;
            if !f.contains(' ') {
                s.castling = board::default_castling(&s.pieces);
            }
            s
        }
        None => {
            let mut ignored = Vec::new();
            let raw = board::read_algebraic(v, CHESS, true, &mut ignored)?;
            if let Some(why) = ignored.first() {
                return Err(Fault::at(&["start"], why.clone()));
            }
            let pieces = board::chess_pieces(&raw).map_err(|f| Fault::at(&["start"], f.message))?;
            Setup { castling: board::default_castling(&pieces), pieces, fullmove: 1, ..Setup::default() }
        }
    };
    setup.castling &= castling_allowed;
    setup.side = Some(side);
    Position::from_setup(&setup).map_err(|e| Fault::at(&["start"], format!("the start position: {}", position_message(&e))))
}

/// What a problem is made of besides its position and where it comes from.
struct Parts {
    stipulation: Stipulation,
    options: super::Options,
    intended_solutions: Option<u32>,
    twins: Vec<Twin>,
    castling_allowed: u8,
    proof_start: Option<Box<Position>>,
}

/// The problem of this document, in its game.
fn problem(ctx: &Ctx, meta: &Meta, position: super::GamePosition, parts: Parts) -> Problem {
    Problem {
        file: ctx.file.to_string(),
        document: ctx.doc.number,
        line: ctx.doc.offset + 1,
        first_line: ctx.first_line.clone(),
        rules: position.rules(),
        position,
        stipulation: parts.stipulation,
        options: parts.options,
        intended_solutions: parts.intended_solutions,
        twins: parts.twins,
        stated: None,
        meta: meta.clone(),
        castling_allowed: parts.castling_allowed,
        proof_start: parts.proof_start,
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A position error in plain words.
pub(crate) fn position_message(e: &PositionError) -> String {
    match e {
        PositionError::NoKing(c) => format!("{} has no king", cap(c)),
        PositionError::ExtraKing(c) => format!("{} has more than one king", cap(c)),
        PositionError::PawnOnBackRank(c, s) => format!("{c} pawn on {s}, its first or last rank"),
        e => e.to_string(),
    }
}

/// The twins of a YAML `twins:` field as (label, text): a mapping gives its labels, a list
/// is labelled `b`, `c`, … in order, a single text is twin `b`.
pub(crate) fn twin_entries(v: &Value) -> Vec<(String, String)> {
    let mut entries: Vec<(String, String)> = Vec::new();
    match untag(v) {
        Value::Null => {}
        Value::Mapping(m) => {
            for (k, t) in m {
                let label = scalar(k).unwrap_or_default().trim().trim_end_matches(')').to_string();
                let text = match untag(t) {
                    Value::Sequence(_) => texts(t, false).join(" "),
                    t => scalar(t).unwrap_or_default(),
                };
                entries.push((label, text));
            }
        }
        Value::Sequence(s) => {
            for (i, t) in s.iter().enumerate() {
                let label = ((b'b' + (i as u8).min(24)) as char).to_string();
                entries.push((label, scalar(t).unwrap_or_default()));
            }
        }
        t => entries.extend(scalar(t).map(|s| ("b".to_string(), s))),
    }
    entries
}

fn read_twins(ctx: &Ctx, map: &Mapping, rules: Rules, unsupported: &mut Vec<String>) -> Result<Vec<Twin>, Fault> {
    let Some(v) = field(map, "twins") else { return Ok(Vec::new()) };
    let entries = twin_entries(v);
    let mut out: Vec<Twin> = Vec::new();
    for (i, (label, text)) in entries.into_iter().enumerate() {
        let place = ctx.loc.key(&["twins", &label]).unwrap_or_else(|| ctx.loc.find(&["twins"], &text));
        let (line, column) = ctx.loc.file_pos(place);
        if label.is_empty() || !label.chars().all(|c| c.is_alphanumeric()) {
            return Err(Fault::on(&["twins"], &text, format!("twin label '{label}' must be a letter such as b or c")));
        }
        if out.iter().any(|t| t.label == label) || (label == "a" && i > 0) {
            return Err(Fault::on(&["twins"], &label, format!("twin label '{label}' is used twice (a is the diagram)")));
        }
        let twin_fault = |f: super::twins::TwinFault| Fault::on(&["twins"], &f.word, format!("twin {label}: {}", f.message));
        let twin = if rules == Rules::Xiangqi {
            let (continued, xiangqi) = super::xiangqi::parse_xiangqi_twin(&text).map_err(twin_fault)?;
            Twin { label: label.clone(), continued, commands: Vec::new(), xiangqi, text, line, column }
        } else {
            let parsed = parse_twin(&text).map_err(twin_fault)?;
            unsupported.extend(parsed.unsupported.iter().map(|r| format!("twin {label}: {r}")));
            Twin { label: label.clone(), continued: parsed.continued, commands: parsed.commands, xiangqi: Vec::new(), text, line, column }
        };
        if twin.continued && label == "a" {
            return Err(Fault::on(&["twins"], "Continued", "twin a: 'Continued' needs a twin before it"));
        }
        out.push(twin);
    }
    Ok(out)
}
