//! Perft speed of feerie's move generator, side by side with cozy-chess on the same
//! positions and depths.
//!
//! Two kinds of perft for each position:
//! - `bulk`: the moves of the last ply are counted, not played (feerie [`Position::perft`];
//!   cozy-chess: the length of each generated move set);
//! - `full`: every leaf move is played (feerie [`Position::perft_full`]; cozy-chess:
//!   `play_unchecked` on a copy of the board for every leaf move).
//!
//! Before anything is timed, both libraries count the nodes and the counts are checked
//! against each other and against the published numbers, so a wrong count never produces a
//! speed figure. The throughput is reported in nodes (criterion's `elem/s` is nodes/s).
//!
//! Run with `cargo bench --bench perft` (one group per position and kind, two functions per
//! group: `feerie` and `cozy-chess`).
//!
//! The Cheskers initial position has the groups `perft/cheskers-start/bulk` (depths 7 and 8) and
//! `perft/cheskers-start/full` (depth 7).
//! The Xiangqi start position has its own groups (`perft/xiangqi-start/bulk` at depths 4 and 5,
//! `perft/xiangqi-start/full` at depth 4), feerie alone, its counts checked against the
//! published ones before timing.

use cozy_chess::Board;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use feerie::position::Position;
use feerie::rules::cheskers::CheskersPosition;
use feerie::rules::xiangqi::XiangqiPosition;
use std::hint::black_box;
use std::time::Duration;

/// A benchmarked position: its name, FEN, depth and the published node count there.
struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

/// Depths chosen so that one iteration takes tens to hundreds of milliseconds.
const CASES: [Case; 2] = [
    Case { name: "start", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", depth: 5, nodes: 4_865_609 },
    Case { name: "kiwipete", fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", depth: 4, nodes: 4_085_603 },
];

/// cozy-chess perft with bulk counting at the last ply.
fn cozy_bulk(board: &Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_bulk(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// cozy-chess perft playing every leaf move (the leaf board goes through `black_box`, as in
/// [`Position::perft_full`], so the last move cannot be optimised away).
fn cozy_full(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += if depth == 1 {
                black_box(&child);
                1
            } else {
                cozy_full(&child, depth - 1)
            };
        }
        false
    });
    nodes
}

fn perft(c: &mut Criterion) {
    for case in &CASES {
        let pos = Position::from_fen(case.fen).expect("feerie reads the FEN");
        let board = Board::from_fen(case.fen, false).expect("cozy-chess reads the FEN");
        type Run<'a> = (&'static str, Box<dyn Fn() -> u64 + 'a>, Box<dyn Fn() -> u64 + 'a>);
        let kinds: [Run; 2] = [
            ("bulk", Box::new(|| pos.perft(case.depth)), Box::new(|| cozy_bulk(&board, case.depth))),
            ("full", Box::new(|| pos.perft_full(case.depth)), Box::new(|| cozy_full(&board, case.depth))),
        ];
        for (kind, feerie_run, cozy_run) in &kinds {
            // A wrong count must not produce a speed number.
            let (ours, theirs) = (feerie_run(), cozy_run());
            assert_eq!(ours, theirs, "{} {kind} depth {}: feerie {ours}, cozy-chess {theirs}", case.name, case.depth);
            assert_eq!(ours, case.nodes, "{} {kind} depth {}: published count", case.name, case.depth);
            let mut group = c.benchmark_group(format!("perft/{}/{kind}", case.name));
            group.throughput(Throughput::Elements(case.nodes));
            group.sample_size(10);
            group.warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(4));
            group.bench_function(BenchmarkId::new("feerie", case.depth), |b| b.iter(|| black_box(feerie_run())));
            group.bench_function(BenchmarkId::new("cozy-chess", case.depth), |b| b.iter(|| black_box(cozy_run())));
            group.finish();
        }
    }
}

/// Xiangqi start position: (depth, published count).
const XIANGQI_COUNTS: [(u32, u64); 2] = [(4, 3_290_240), (5, 133_312_995)];

fn perft_xiangqi(c: &mut Criterion) {
    let pos = XiangqiPosition::startpos();
    for (kind, depths) in [("bulk", &XIANGQI_COUNTS[..]), ("full", &XIANGQI_COUNTS[..1])] {
        let mut group = c.benchmark_group(format!("perft/xiangqi-start/{kind}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(4));
        for &(depth, nodes) in depths {
            let run = || if kind == "full" { pos.perft_full(depth) } else { pos.perft(depth) };
            // A wrong count must not produce a speed number.
            assert_eq!(run(), nodes, "xiangqi start {kind} depth {depth}: published count");
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(BenchmarkId::new("feerie", depth), |b| b.iter(|| black_box(run())));
        }
        group.finish();
    }
}

/// Cheskers initial position (Black to move): (depth, count). The counts are feerie's, checked
/// against the plainly written reference generator of `tests/cheskers_reference/` (depths 1–5
/// in CI, 6–7 under `--ignored`); no published table exists.
const CHESKERS_COUNTS: [(u32, u64); 2] = [(7, 1_474_381), (8, 10_351_172)];

fn perft_cheskers(c: &mut Criterion) {
    let pos = CheskersPosition::startpos();
    for (kind, depths) in [("bulk", &CHESKERS_COUNTS[..]), ("full", &CHESKERS_COUNTS[..1])] {
        let mut group = c.benchmark_group(format!("perft/cheskers-start/{kind}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(4));
        for &(depth, nodes) in depths {
            let run = || if kind == "full" { pos.perft_full(depth) } else { pos.perft(depth) };
            assert_eq!(run(), nodes, "cheskers start {kind} depth {depth}");
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(BenchmarkId::new("feerie", depth), |b| b.iter(|| black_box(run())));
        }
        group.finish();
    }
}

criterion_group!(benches, perft, perft_xiangqi, perft_cheskers);
criterion_main!(benches);
