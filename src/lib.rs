//! feerie: a chess-problem solver.
//!
//! Data flows one way: a problem file is read by [`problem`] into a `Problem`, solved by
//! [`solve`], judged by [`verify`] into a [`record`] and written by [`report`]. The rules live in [`rules`],
//! over [`position`], [`piece`] and [`geometry`].
#![deny(missing_docs)]
#![allow(clippy::needless_range_loop)]

pub mod cli;
pub mod geometry;
pub mod notation;
pub mod piece;
pub mod popeye_output;
pub mod position;
pub mod problem;
pub mod record;
pub mod report;
pub mod rules;
pub mod solve;
pub mod verify;
