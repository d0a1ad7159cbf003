//! `feerie perft`.

use crate::position::{Position, ReserveRule};
use clap::Args;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `feerie perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Rule system: chess, xiangqi or cheskers.
    #[arg(long, default_value = "chess")]
    pub rules: String,
    /// A fairy condition (repeatable): Reserve, WhiteReserve, BlackReserve.
    #[arg(long = "condition")]
    pub conditions: Vec<String>,
    /// The position (default: the start position of the rule system).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    pub divide: bool,
    /// Play every leaf move instead of counting the last ply's moves.
    #[arg(long)]
    pub full: bool,
    /// Under Réserve, leave out the moves into reserve (`↑`): drops only, to compare with
    /// crazyhouse perft numbers.
    #[arg(long)]
    pub no_put: bool,
    /// Language of the piece letters of `--divide`.
    #[arg(long, value_enum, default_value_t = super::solve::LangArg::En)]
    pub lang: super::solve::LangArg,
    /// With `--divide`, write moves into reserve and drops `Sd4^`, `Sd4v` instead of `Sd4↑`,
    /// `Sd4↓`.
    #[arg(long)]
    pub ascii: bool,
}

/// Parses a Réserve condition name (English or French).
pub fn reserve_condition(name: &str) -> Option<ReserveRule> {
    let n: String = name.to_lowercase().chars().filter(|c| c.is_alphanumeric()).collect();
    match n.as_str() {
        "reserve" | "échecsréserve" | "echecsreserve" | "réserve" => Some(ReserveRule { white: true, black: true }),
        "whitereserve" | "réserveblanche" | "reserveblanche" => Some(ReserveRule { white: true, black: false }),
        "blackreserve" | "réservenoire" | "reservenoire" => Some(ReserveRule { white: false, black: true }),
        _ => None,
    }
}

/// The chess start position, `--fen`'s default under `--rules chess`.
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Runs `feerie perft`.
pub fn run(a: &PerftArgs) -> ExitCode {
    match a.rules.to_lowercase().as_str() {
        "chess" => run_chess(a),
        "xiangqi" => run_xiangqi(a),
        "cheskers" => run_cheskers(a),
        other => {
            eprintln!("feerie perft: unknown rules '{other}' (chess, xiangqi or cheskers)");
            ExitCode::from(2)
        }
    }
}

/// `feerie perft --rules xiangqi`: moves in ICCS under `--divide`.
fn run_xiangqi(a: &PerftArgs) -> ExitCode {
    use crate::rules::xiangqi::XiangqiPosition;
    if !a.conditions.is_empty() {
        eprintln!("feerie perft: Xiangqi takes no fairy condition (--condition {})", a.conditions.join(", --condition "));
        return ExitCode::from(2);
    }
    let pos = match a.fen.as_deref() {
        None => XiangqiPosition::startpos(),
        Some(fen) => match XiangqiPosition::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("feerie perft: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let count = |p: &XiangqiPosition, d: u32| if a.full { p.perft_full(d) } else { p.perft(d) };
    let start = Instant::now();
    let nodes = if a.divide && a.depth > 0 {
        let lines: Vec<(String, u64)> = pos.legal_moves().iter().map(|&m| (pos.iccs(m), count(&pos.play(m), a.depth - 1))).collect();
        print_divide(lines)
    } else {
        count(&pos, a.depth)
    };
    print_total(nodes, start);
    ExitCode::SUCCESS
}

/// `feerie perft --rules cheskers`: from the initial position (Black to move) or `--fen`;
/// moves in Cheskers notation under `--divide`.
fn run_cheskers(a: &PerftArgs) -> ExitCode {
    use crate::rules::cheskers::CheskersPosition;
    if !a.conditions.is_empty() {
        eprintln!("feerie perft: Cheskers takes no fairy condition (--condition {})", a.conditions.join(", --condition "));
        return ExitCode::from(2);
    }
    let pos = match a.fen.as_deref() {
        None => CheskersPosition::startpos(),
        Some(fen) => match CheskersPosition::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("feerie perft: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let count = |p: &CheskersPosition, d: u32| if a.full { p.perft_full(d) } else { p.perft(d) };
    let start = Instant::now();
    let nodes = if a.divide && a.depth > 0 {
        let lang = a.lang.into();
        print_divide(pos.legal_moves().into_iter().map(|m| (pos.move_text_lang(m, lang), count(&pos.play(m), a.depth - 1))).collect())
    } else {
        count(&pos, a.depth)
    };
    print_total(nodes, start);
    ExitCode::SUCCESS
}

/// Prints the `--divide` lines, sorted, and returns their sum.
fn print_divide(mut lines: Vec<(String, u64)>) -> u64 {
    lines.sort();
    let mut text = String::new();
    let mut total = 0;
    for (m, n) in lines {
        text.push_str(&format!("{m}: {n}\n"));
        total += n;
    }
    print_out(&text);
    total
}

/// Prints the node count, the time and the speed.
fn print_total(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    print_out(&format!("nodes: {nodes}\ntime: {secs:.3} s\nspeed: {:.1} M nodes/s\n", nodes as f64 / secs.max(1e-9) / 1e6));
}

/// `feerie perft --rules chess`.
fn run_chess(a: &PerftArgs) -> ExitCode {
    let mut setup = match crate::notation::parse_fen(a.fen.as_deref().unwrap_or(CHESS_START)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("feerie perft: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rule = ReserveRule::default();
    for c in &a.conditions {
        match reserve_condition(c) {
            Some(r) => {
                rule.white |= r.white;
                rule.black |= r.black;
            }
            None => {
                eprintln!("feerie perft: unknown condition '{c}'");
                return ExitCode::from(2);
            }
        }
    }
    setup.reserve_rule = rule;
    let mut pos = match Position::from_setup(&setup) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("feerie perft: {e}");
            return ExitCode::from(2);
        }
    };
    pos.set_puts_enabled(!a.no_put);
    let count = |p: &Position, d: u32| if a.full { p.perft_full(d) } else { p.perft(d) };
    let start = Instant::now();
    let style = crate::notation::MoveStyle { lang: a.lang.into(), ascii: a.ascii };
    let nodes = if a.divide && a.depth > 0 {
        print_divide(
            pos.legal_moves().iter().map(|&m| (crate::notation::move_text(&pos, m, style), count(&pos.play(m), a.depth - 1))).collect(),
        )
    } else {
        count(&pos, a.depth)
    };
    print_total(nodes, start);
    ExitCode::SUCCESS
}

/// Writes to standard output, ignoring a closed pipe (`feerie perft … | head` must not panic).
fn print_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
