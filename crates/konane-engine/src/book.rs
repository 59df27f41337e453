//! What `konane solve` has proven, built into the engine: the checkpoints of the solved
//! boards in `docs/solved/` (the expensive proofs of each run and the openings' results),
//! so that an engine that learns them plays those boards perfectly from the first move;
//! and the tables of `konane lines` for boards too large to solve, proven positions from
//! the engine's main lines on.

use konane_core::{AnyPosition, Opening};

use crate::solve::{CheckpointError, Proof, ProofTable};

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

/// A table of proven positions as text, from `konane lines`: the positions of a board too
/// large to solve that the engine's main lines meet (tens of KB, where a checkpoint of the
/// run's expensive proofs is ten times more, and on 64 squares and more, without exact
/// keys, empty). One `position;win|loss;best move or -` a line; a line starting with `#` is
/// a comment.
pub struct Table {
    /// What the table holds.
    pub name: &'static str,
    /// The board's rows and columns: an engine learns the table when it first meets that board.
    pub rows: usize,
    /// See `rows`.
    pub cols: usize,
    /// The table's text.
    pub text: &'static str,
}

/// The tables of the boards too large to solve.
pub const TABLES: &[Table] = &[
    Table {
        name: "8x8 main lines",
        rows: 8,
        cols: 8,
        text: include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/8x8-lines.txt"
        )),
    },
    Table {
        name: "7x8 main lines",
        rows: 7,
        cols: 8,
        text: include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/7x8-lines.txt"
        )),
    },
];

/// The proven positions of a table's text, each under both opening rules (a position
/// without an exact key keeps its rule in its key); every winning move is a legal one.
pub fn read_table(text: &str) -> Result<Vec<(AnyPosition, Proof)>, CheckpointError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = CheckpointError::BadTableLine(n + 1);
        let [position, result, best] = line.split(';').collect::<Vec<_>>()[..] else {
            return Err(bad);
        };
        let win = match result {
            "win" => true,
            "loss" => false,
            _ => return Err(bad),
        };
        for opening in Opening::ALL {
            let pos = AnyPosition::parse(position, opening).map_err(|_| bad)?;
            let best = match (win, best) {
                (false, "-") => None,
                (true, m) => {
                    let m = pos.size().parse_move(m).map_err(|_| bad)?;
                    if !pos.legal_moves().contains(&m) {
                        return Err(bad);
                    }
                    Some(m)
                }
                (false, _) => return Err(bad),
            };
            out.push((pos, Proof { win, best }));
        }
    }
    Ok(out)
}

/// The built-in books of the board of `rows` x `cols` as one checkpoint of their
/// `max_entries` most worked proofs at most (see [`ProofTable::thin`]), or, for a board
/// with a table only, the table's text: what a browser's engine, with its small table and
/// download, learns ([`crate::Engine::learn`] takes both). `None` when the board has neither.
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
    if books.is_empty() {
        // A board too large to solve: its table as it is (a few hundred positions, 30 KB).
        return TABLES
            .iter()
            .find(|t| (t.rows, t.cols) == (rows, cols))
            .map(|t| Ok(t.text.as_bytes().to_vec()));
    }
    Some(ProofTable::thin(&books, max_entries))
}
