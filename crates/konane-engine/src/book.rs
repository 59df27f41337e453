//! What `konane solve` has proven, built into the engine: the checkpoints of the solved
//! boards in `docs/solved/` (the expensive proofs of each run and the openings' results),
//! so that an engine that learns them plays those boards perfectly from the first move.

use crate::solve::{CheckpointError, ProofTable};

/// One solved board's checkpoint.
pub struct Book {
    /// The board and opening rule the run solved.
    pub name: &'static str,
    /// The board's rows and columns: an engine learns the book when it first meets that board.
    pub rows: usize,
    /// See `rows`.
    pub cols: usize,
    /// The checkpoint, as [`crate::ProofTable::load`] reads it.
    pub proofs: &'static [u8],
}

/// The checkpoints of the solved boards.
pub const SOLVED: &[Book] = &[
    Book {
        name: "6x7 center-or-corner",
        rows: 6,
        cols: 7,
        proofs: include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/6x7.proofs"
        )),
    },
    Book {
        name: "6x8 (both rules)",
        rows: 6,
        cols: 8,
        proofs: include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/6x8.proofs"
        )),
    },
    Book {
        name: "7x7 center",
        rows: 7,
        cols: 7,
        proofs: include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/7x7-center.proofs"
        )),
    },
    Book {
        name: "7x7 center-or-corner",
        rows: 7,
        cols: 7,
        proofs: include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/7x7-center-or-corner.proofs"
        )),
    },
];

/// The built-in books of the board of `rows` x `cols` as one checkpoint of their
/// `max_entries` most worked proofs at most (see [`ProofTable::thin`]): what a browser's
/// engine, with its small table and download, learns. `None` when no book has that board.
pub fn of_board(
    rows: usize,
    cols: usize,
    max_entries: usize,
) -> Option<Result<Vec<u8>, CheckpointError>> {
    let books: Vec<&[u8]> = SOLVED
        .iter()
        .filter(|b| (b.rows, b.cols) == (rows, cols))
        .map(|b| b.proofs)
        .collect();
    (!books.is_empty()).then(|| ProofTable::thin(&books, max_entries))
}
