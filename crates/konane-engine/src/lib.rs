//! The Konane engine: heuristic search, exact solving and playing levels, on the rules of
//! `konane-core`.
//!
//! [`Engine`] is the front door: [`Engine::think`] for the best move within limits,
//! [`Engine::solve`] for a proof, [`Engine::choose`] for a move at a playing level. Threads
//! (Lazy SMP) sit behind the `parallel` feature; without it the engine needs no OS.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod book;
pub mod clock;
pub mod eval;
pub mod level;
pub mod protocol;
pub mod puzzle;
pub mod score;
pub mod search;
mod slots;
pub mod solve;
pub mod symmetry;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Mutex, PoisonError};

use konane_core::{AnyPosition, Bits, Move, Opening, Position, Size, with_position};

#[cfg(not(target_arch = "wasm32"))]
pub use clock::SystemClock;
pub use clock::{Clock, Frozen};
pub use eval::Weights;
pub use level::{Level, LevelConfig, LevelError, MAX_LEVEL, MIN_LEVEL, Rng, substream};
pub use search::{Limits, SearchResult};
pub use solve::{
    InProgress, Keying, Proof, ProofNumberSearch, ProofTable, RecheckError, Solver, TreeProgress,
    Unfinished, WhyHashed, recheck,
};

/// How big and how wide an engine is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EngineConfig {
    /// Size of the search's transposition table in MiB.
    pub hash_mb: usize,
    /// Size of the solver's table of proven positions in MiB.
    pub proof_mb: usize,
    /// Search threads (more than one needs the `parallel` feature).
    pub threads: usize,
    /// Evaluation weights.
    pub weights: Weights,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mb: 64,
            proof_mb: 64,
            threads: 1,
            weights: Weights::default(),
        }
    }
}

/// One line of an analysis: a first move, its score for the side to move, and the line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    /// The score after this first move, for the side to move at the root.
    pub score: i32,
    /// The expected play, starting with the first move.
    pub pv: Vec<Move>,
}

/// One completed depth of an analysis: the best lines, best first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Analysis {
    /// The depth every first move was searched to.
    pub depth: u32,
    /// The best lines, best first (as many as asked for, fewer when there are fewer moves).
    pub lines: Vec<Line>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds spent so far.
    pub elapsed_ms: u64,
}

/// Solver nodes allowed per millisecond of thinking time before the heuristic search takes
/// over. The solver visits about two million nodes a second, so a crowded board gets a
/// twentieth of the time (a proof there is rare) and a thinned-out board about half.
const SOLVER_NODES_PER_MS: [u64; 2] = [100, 1_000];

/// A Konane engine: tables that persist between moves, and the knobs.
pub struct Engine {
    config: EngineConfig,
    table: tt::Table,
    proofs: ProofTable,
    books: Mutex<Books>,
}

/// The solved boards an engine knows the proofs of, and the built-in books it will learn.
#[derive(Default)]
struct Books {
    /// Boards whose opening tables the learned checkpoints prove: there the solver gets a
    /// thinned-out board's share of the time even on a crowded board, as a proof is near.
    /// (A table of later positions only, such as 8x8's main lines, leaves the board out.)
    booked: Vec<Size>,
    /// Built-in books not learned yet. Each is learned when its board first comes, so the
    /// table holds the board in play's proofs instead of every board's crowding each other.
    pending: Vec<&'static book::Book>,
    /// Built-in tables of the boards too large to solve, learned the same way.
    pending_tables: Vec<&'static book::Table>,
}

/// `m`, played in the image that `map` led to (see [`Engine::oriented`]), on the position
/// itself.
fn back_from(map: Option<&[usize]>, m: Move) -> Move {
    map.map_or(m, |map| symmetry::unmap_move(map, m))
}

impl Engine {
    /// An engine with empty tables.
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            config,
            table: tt::Table::new(config.hash_mb),
            proofs: ProofTable::new(config.proof_mb),
            books: Mutex::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Forgets every stored search result (proofs stay: they are true in every game).
    pub fn new_game(&self) {
        self.table.clear();
    }

    /// The best move within `limits`. When `use_solver` is set and the limits leave room,
    /// the exact solver tries first, so a won endgame is played as a proven win.
    /// `report` hears of each completed iteration.
    pub fn think(
        &self,
        pos: &AnyPosition,
        limits: Limits,
        use_solver: bool,
        clock: &dyn Clock,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        with_position!(pos, p => self.think_on(p, limits, use_solver, clock, report))
    }

    fn think_on<B: Bits>(
        &self,
        pos: &Position<B>,
        limits: Limits,
        use_solver: bool,
        clock: &dyn Clock,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let stop = AtomicBool::new(false);
        let stones = (pos.stones(konane_core::Color::Black) | pos.stones(konane_core::Color::White))
            .count() as usize;
        let thinned = usize::from(stones * 3 <= pos.size().squares() || self.open_book(pos.size()));
        let solver_budget = match (limits.time_ms, limits.nodes) {
            (Some(t), _) => Some(t * SOLVER_NODES_PER_MS[thinned]),
            (None, Some(n)) => Some(n / [20, 2][thinned]),
            (None, None) => None,
        };
        let mut solver_nodes = 0;
        if let (true, Some(budget)) = (use_solver, solver_budget) {
            let (image, map) = self.oriented(pos);
            let back = |m: Move| back_from(map.as_deref(), m);
            let mut solver = Solver::new(&self.proofs, &stop, budget);
            let proof = solver.solve(&image);
            solver_nodes = solver.nodes();
            if let Ok(Proof {
                win: true,
                best: Some(best),
            }) = proof
            {
                let pv: Vec<Move> = solve::proven_line(&self.proofs, &image)
                    .into_iter()
                    .map(back)
                    .collect();
                let result = SearchResult {
                    best: Some(back(best)),
                    score: score::WIN - pv.len() as i32,
                    pv,
                    depth: 0,
                    nodes: solver_nodes,
                    elapsed_ms: clock.elapsed_ms(),
                    proof: true,
                };
                report(&result);
                return result;
            }
        }
        let nodes = AtomicU64::new(solver_nodes);
        let shared = self.shared(&stop, &nodes, clock, limits);
        search::search(pos, &shared, self.config.threads, report)
    }

    /// The image of `pos` (under the board's symmetries) that the table of proofs knows
    /// best, and the map that leads there (`None`: `pos` itself). Proofs keep the
    /// orientation they were found in, and a book solves one of several symmetric
    /// openings, so a game in another orientation finds them only through its image; the
    /// solver then stays in that image, where the deeper proofs are.
    fn oriented<B: Bits>(&self, pos: &Position<B>) -> (Position<B>, Option<Vec<usize>>) {
        let known = |p: &Position<B>| {
            if self.proofs.probe(p).is_some() {
                return usize::MAX;
            }
            let mut child = *p;
            p.moves()
                .filter(|&m| {
                    child.make(m);
                    let hit = self.proofs.probe(&child).is_some();
                    child.unmake(m);
                    hit
                })
                .count()
        };
        let mut best = (*pos, None, known(pos));
        for map in symmetry::symmetries(pos.size()).into_iter().skip(1) {
            if best.2 == usize::MAX {
                break;
            }
            if let Some(image) = symmetry::image_of(pos, &map) {
                let k = known(&image);
                if k > best.2 {
                    best = (image, Some(map), k);
                }
            }
        }
        (best.0, best.1)
    }

    /// Puts proofs into this engine's table: a checkpoint of `konane solve` (see
    /// [`ProofTable::checkpoint`]) or the text of a table of `konane lines` (see
    /// [`book::Table`]); returns how many fitted (a table's positions count once for each
    /// opening rule, as they are stored under both).
    pub fn learn(&self, proofs: &[u8]) -> Result<usize, solve::CheckpointError> {
        let (n, sizes) = if ProofTable::is_checkpoint(proofs) {
            (self.proofs.load(proofs)?, ProofTable::boards_in(proofs))
        } else {
            let text =
                std::str::from_utf8(proofs).map_err(|_| solve::CheckpointError::NotACheckpoint)?;
            self.learn_table(text)?
        };
        let mut books = self.books.lock().unwrap_or_else(PoisonError::into_inner);
        for size in sizes {
            if self.knows_opening(size) && !books.booked.contains(&size) {
                books.booked.push(size);
            }
        }
        Ok(n)
    }

    /// Stores a table's proven positions, as the most worked proofs (a game's own proofs
    /// never push them out); returns how many, and their boards.
    fn learn_table(&self, text: &str) -> Result<(usize, Vec<Size>), solve::CheckpointError> {
        let entries = book::read_table(text)?;
        let mut sizes = Vec::new();
        for (pos, proof) in &entries {
            with_position!(pos, p => self.proofs.store(p, *proof, u64::MAX));
            if !sizes.contains(&pos.size()) {
                sizes.push(pos.size());
            }
        }
        Ok((entries.len(), sizes))
    }

    /// Learns each built-in [`book`] of solved boards, and each table of the boards too
    /// large to solve, when a position of its board first comes to [`Engine::think`] or
    /// [`Engine::solve`].
    pub fn learn_solved(&mut self) {
        let books = self.books.get_mut().unwrap_or_else(PoisonError::into_inner);
        books.pending = book::SOLVED.iter().collect();
        books.pending_tables = book::TABLES.iter().collect();
    }

    /// Learns the pending books and tables of `size`'s board; true when their proofs settle
    /// the board's opening table (see [`Engine::knows_opening`]).
    fn open_book(&self, size: Size) -> bool {
        let mut books = self.books.lock().unwrap_or_else(PoisonError::into_inner);
        let (now, later) = std::mem::take(&mut books.pending)
            .into_iter()
            .partition::<Vec<_>, _>(|b| (b.rows, b.cols) == (size.rows(), size.cols()));
        books.pending = later;
        for b in now {
            // A table too small for the board's exact keys takes none of its proofs.
            if self.proofs.load(b.proofs).is_ok_and(|n| n > 0)
                && self.knows_opening(size)
                && !books.booked.contains(&size)
            {
                books.booked.push(size);
            }
        }
        let (now, later) = std::mem::take(&mut books.pending_tables)
            .into_iter()
            .partition::<Vec<_>, _>(|t| (t.rows, t.cols) == (size.rows(), size.cols()));
        books.pending_tables = later;
        for t in now {
            // The built-in tables are read by a test (book.rs); a broken one teaches nothing.
            // A table that proves the opening counts as `learn` counts it.
            if self.learn_table(t.text).is_ok_and(|(n, _)| n > 0)
                && self.knows_opening(size)
                && !books.booked.contains(&size)
            {
                books.booked.push(size);
            }
        }
        books.booked.contains(&size)
    }

    /// Whether the table proves a position of `size`'s opening table under either rule: the
    /// initial position, or one after the first removal or after White's reply. Only a run
    /// that settled the openings leaves such proofs (a table of later positions, such as
    /// 8x8's main lines, does not), and then proofs are near from the first move.
    fn knows_opening(&self, size: Size) -> bool {
        Opening::ALL
            .into_iter()
            .any(|o| with_position!(&AnyPosition::start(size, o), p => self.proves_within(p, 2)))
    }

    /// Whether the table proves `pos` or a position at most `plies` moves after it.
    fn proves_within<B: Bits>(&self, pos: &Position<B>, plies: usize) -> bool {
        self.proofs.probe(pos).is_some()
            || plies > 0
                && pos.moves().any(|m| {
                    let mut child = *pos;
                    child.make(m);
                    self.proves_within(&child, plies - 1)
                })
    }

    /// What the search threads of one search share.
    fn shared<'a>(
        &'a self,
        stop: &'a AtomicBool,
        nodes: &'a AtomicU64,
        clock: &'a dyn Clock,
        limits: Limits,
    ) -> search::Shared<'a> {
        search::Shared {
            table: &self.table,
            weights: &self.config.weights,
            stop,
            nodes,
            clock,
            limits,
        }
    }

    /// Proves who wins `pos` within `node_limit` nodes (or until `stop` rises), on one thread:
    /// depth-first, and by proof numbers once it has proven hard (as `konane solve` does),
    /// in the image of `pos` that the proofs know best (as [`Engine::think`]).
    pub fn solve(
        &self,
        pos: &AnyPosition,
        node_limit: u64,
        stop: &AtomicBool,
    ) -> (Result<Proof, Unfinished>, u64) {
        self.open_book(pos.size());
        // A game's short solves never turn, so never allocate the numbers table.
        let search = ProofNumberSearch::beside(self.config.proof_mb, 1);
        let mut solver = Solver::new(&self.proofs, stop, node_limit).with_proof_numbers(search);
        let proof = with_position!(pos, p => {
            let (image, map) = self.oriented(p);
            solver.solve(&image).map(|proof| Proof {
                best: proof.best.map(|m| back_from(map.as_deref(), m)),
                ..proof
            })
        });
        (proof, solver.nodes())
    }

    /// The table of proven positions, for callers that run solvers on their own threads.
    pub fn proofs(&self) -> &ProofTable {
        &self.proofs
    }

    /// A move at a playing level, random where the level allows, reproducible from `rng`.
    pub fn choose(
        &self,
        pos: &AnyPosition,
        level: u8,
        clock: &dyn Clock,
        rng: &mut Rng,
    ) -> Option<Move> {
        let cfg = LevelConfig::of(level);
        let moves = pos.legal_moves();
        if moves.len() <= 1 {
            return moves.first().copied();
        }
        if cfg.temperature == 0 {
            return self
                .think(pos, cfg.limits, cfg.solver, clock, &mut |_| {})
                .best;
        }
        let scored = with_position!(pos, p => self.score_moves(p, cfg.limits, clock));
        level::pick(&scored, cfg.temperature, rng)
    }

    /// The best `lines` first moves with their scores and lines, depth by depth, within
    /// `limits`: every first move gets a full-window search, so each score is exact for its
    /// depth (slower than [`Engine::think`], which only proves the best move best).
    /// `report` hears of each completed depth; the last one is returned.
    pub fn analyse(
        &self,
        pos: &AnyPosition,
        limits: Limits,
        lines: usize,
        clock: &dyn Clock,
        report: &mut dyn FnMut(&Analysis),
    ) -> Option<Analysis> {
        with_position!(pos, p => self.analyse_on(p, limits, lines, clock, report))
    }

    fn analyse_on<B: Bits>(
        &self,
        pos: &Position<B>,
        limits: Limits,
        lines: usize,
        clock: &dyn Clock,
        report: &mut dyn FnMut(&Analysis),
    ) -> Option<Analysis> {
        let stop = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let shared = self.shared(&stop, &nodes, clock, limits);
        self.table.new_search();
        let mut searcher = search::Searcher::<B>::new(&shared);
        let count = pos.moves().count();
        let max_depth = limits.depth.unwrap_or(search::MAX_PLY as u32);
        let mut last = None;
        for depth in 1..=max_depth {
            let mut round = searcher.score_root_moves(pos, depth);
            if count == 0 || round.len() < count {
                break;
            }
            round.sort_by_key(|&(_, s)| -s);
            let best: Vec<Line> = round
                .iter()
                .take(lines.max(1))
                .map(|&(m, s)| {
                    let mut after = *pos;
                    after.make(m);
                    let mut pv = vec![m];
                    pv.extend(search::principal_variation(
                        &self.table,
                        &after,
                        depth as usize - 1,
                    ));
                    Line { score: s, pv }
                })
                .collect();
            let proven_to_end = best
                .iter()
                .all(|l| score::plies_to_end(l.score).is_some_and(|p| p <= depth as i32));
            let analysis = Analysis {
                depth,
                lines: best,
                nodes: nodes.load(std::sync::atomic::Ordering::Relaxed),
                elapsed_ms: clock.elapsed_ms(),
            };
            report(&analysis);
            last = Some(analysis);
            // Every shown line seen to the end of the game: deeper cannot change them.
            if proven_to_end || limits.time_ms.is_some_and(|t| clock.elapsed_ms() * 2 > t) {
                break;
            }
        }
        last
    }

    /// Every move with a score, from the deepest complete round of searches within `limits`.
    fn score_moves<B: Bits>(
        &self,
        pos: &Position<B>,
        limits: Limits,
        clock: &dyn Clock,
    ) -> Vec<(Move, i32)> {
        let stop = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let shared = self.shared(&stop, &nodes, clock, limits);
        let mut searcher = search::Searcher::<B>::new(&shared);
        let mut scored: Vec<(Move, i32)> = pos.moves().map(|m| (m, 0)).collect();
        let max_depth = limits.depth.unwrap_or(search::MAX_PLY as u32);
        for depth in 1..=max_depth {
            let round = searcher.score_root_moves(pos, depth);
            if round.len() < scored.len() {
                break;
            }
            scored = round;
            // As in the main search: no round is started that cannot end in time.
            if limits.time_ms.is_some_and(|t| clock.elapsed_ms() * 2 > t) {
                break;
            }
        }
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint proving `pos` (its result need not be true: nothing here plays it).
    fn checkpoint_of(pos: &AnyPosition) -> Vec<u8> {
        let table = ProofTable::new(16);
        let proof = Proof {
            win: true,
            best: pos.legal_moves().first().copied(),
        };
        with_position!(pos, p => table.store(p, proof, u64::MAX));
        table.checkpoint(16)
    }

    fn booked(engine: &Engine) -> Vec<Size> {
        engine
            .books
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .booked
            .clone()
    }

    #[test]
    fn only_proofs_of_the_opening_table_make_a_board_solved() {
        let size: Size = "6x6".parse().unwrap();
        let mut pos = AnyPosition::start(size, Opening::Center);
        let mut at_ply = Vec::new();
        while let Some(&m) = pos.legal_moves().first() {
            pos.play(m).unwrap();
            at_ply.push(pos);
        }
        assert!(at_ply.len() > 4, "a game of a few plies at least");
        let engine = Engine::new(EngineConfig::default());
        // After Black's removal, White's reply and one jump: later positions alone.
        engine.learn(&checkpoint_of(&at_ply[2])).unwrap();
        engine.learn(&checkpoint_of(&at_ply[4])).unwrap();
        assert_eq!(booked(&engine), []);
        // The position after White's reply is a row of the opening table.
        engine.learn(&checkpoint_of(&at_ply[1])).unwrap();
        assert_eq!(booked(&engine), [size]);
        let other = Engine::new(EngineConfig::default());
        other
            .learn(&checkpoint_of(&AnyPosition::start(
                size,
                Opening::CenterOrCorner,
            )))
            .unwrap();
        assert_eq!(
            booked(&other),
            [size],
            "the initial position under the other rule"
        );
    }
}
