//! The exact solver: who wins with perfect play, and with which move.
//!
//! A depth-first AND/OR search on win/loss only (no scores, so every cut is as early as can
//! be), with a compact lock-free table of proven positions shared by all threads, moves
//! ordered by how few replies they leave (ties broken by how often a move has won), and an
//! enhanced transposition cutoff at every node (a move into a position the table already
//! knows as lost for the opponent wins at once, one into a position known as won for the
//! opponent is never searched). Threads that solve one position together start at
//! different root moves, leave for last the moves another thread is in ([`InProgress`]),
//! and share their proofs through the table. A solver may turn to proof numbers once a
//! position proves hard ([`Solver::with_proof_numbers`], `solve/proof_numbers.rs`).
//!
//! One module a job: the table and its keys, checkpoints, the search, the marks threads
//! share, the progress display's reading, re-checks, and the run of a whole opening table
//! on threads (`parallel`); their public items are re-exported here.

mod checkpoint;
mod numbers;
mod progress;
mod proof_numbers;
mod schedule;
mod search;
mod sharing;
mod table;
#[cfg(feature = "parallel")]
mod table_run;
mod verify;

pub use checkpoint::CheckpointError;
pub use numbers::ProofNumberSearch;
pub use progress::TreeProgress;
pub use schedule::{Job, Schedule};
pub use search::{Solver, Unfinished};
pub use sharing::InProgress;
pub use table::{BoardKey, Keying, Proof, ProofTable, WhyHashed};
#[cfg(feature = "parallel")]
pub use table_run::{RunProgress, RunReport, ThreadPanicked, solve_jobs};
pub use verify::{RecheckError, proven_line, recheck};
