//! What `konane solve` has proven, built into the engine: the checkpoints of the solved
//! boards in `docs/solved/` (the expensive proofs of each run and the openings' results),
//! so that an engine that learns them plays those boards perfectly from the first move.

/// The checkpoints of the solved boards, each named by its board and opening rule.
pub const SOLVED: &[(&str, &[u8])] = &[
    (
        "6x7 center-or-corner",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/6x7.proofs"
        )),
    ),
    (
        "7x7 center",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/7x7-center.proofs"
        )),
    ),
    (
        "7x7 center-or-corner",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/solved/7x7-center-or-corner.proofs"
        )),
    ),
];
