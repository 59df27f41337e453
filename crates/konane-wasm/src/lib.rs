//! The rules and the engine for the browser: `konane-core` and `konane-engine` built for
//! `wasm32-unknown-unknown`, answering JSON requests (`web/engine-worker.js` runs it in a
//! Web Worker, so the page never freezes while it thinks).
//!
//! Why plain exports and not `wasm-bindgen`: the page needs one call (a request in, an
//! answer out) and one callback (an iteration report), both as JSON text. Four exported
//! functions and two imports carry that through linear memory with thirty lines of
//! hand-written JavaScript, and the build needs nothing but `cargo` and the target
//! (`rustup target add wasm32-unknown-unknown`): no `wasm-bindgen-cli` pinned to the exact
//! crate version, no generated glue to keep in step, no `cargo install` in CI.
//!
//! [`handle`] is the whole interface and runs natively too, so tests compare the browser's
//! answers with the native engine's on the same requests. The exports themselves are in
//! `wasm.rs` (wasm32 only).

#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(target_arch = "wasm32")]
mod wasm;

use std::sync::atomic::AtomicBool;

use konane_core::{AnyPosition, Color, Move, Opening, Phase};
use konane_engine::search::MAX_PLY;
use konane_engine::{Clock, Engine, EngineConfig, Limits, Proof, Rng, SearchResult, score};
use serde::{Deserialize, Serialize};

/// The engine in the browser: one thread, and 32 MiB a table, which keeps a worker's memory
/// near 70 MiB.
pub fn config() -> EngineConfig {
    EngineConfig {
        hash_mb: 32,
        proof_mb: 32,
        ..EngineConfig::default()
    }
}

/// One request from the page (`"op"` names it).
#[derive(Deserialize, Debug)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// A position's legal moves, optionally after one move (as `POST /api/position`).
    Position {
        /// Position text.
        position: String,
        /// `center-or-corner` (the default) or `center`.
        opening: Option<String>,
        /// A move to play first.
        #[serde(rename = "move")]
        play: Option<String>,
    },
    /// The best move within limits, reporting each completed iteration.
    Think {
        /// Position text.
        position: String,
        /// The opening rule.
        opening: Option<String>,
        /// Milliseconds of thinking.
        time_ms: Option<u64>,
        /// Deepest iteration.
        depth: Option<u32>,
        /// Nodes.
        nodes: Option<u64>,
        /// Whether the exact solver tries first (default yes).
        solver: Option<bool>,
    },
    /// The best few lines with exact scores, reporting each completed depth.
    Analyse {
        /// Position text.
        position: String,
        /// The opening rule.
        opening: Option<String>,
        /// Milliseconds of thinking.
        time_ms: Option<u64>,
        /// Deepest iteration.
        depth: Option<u32>,
        /// How many lines (1 to 8).
        lines: usize,
    },
    /// A game record read: its start, its moves, and the position after each move.
    Record {
        /// The record's text (docs/notation.md).
        text: String,
    },
    /// Who wins with perfect play, within a node budget.
    Solve {
        /// Position text.
        position: String,
        /// The opening rule.
        opening: Option<String>,
        /// Solver nodes before giving up.
        nodes: u64,
    },
    /// A move at a playing level, reproducible from the seed (as the server's engine).
    Choose {
        /// Position text.
        position: String,
        /// The opening rule.
        opening: Option<String>,
        /// Level 1 to 8.
        level: u8,
        /// The random seed (below 2^53, so JavaScript numbers carry it exactly).
        seed: u64,
    },
    /// Forgets the search's table (proofs stay).
    NewGame,
}

/// Why a request was refused: a machine code the page words in each language.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request is not JSON of a known shape.
    BadRequest,
    /// The position text cannot be read.
    BadPosition,
    /// The opening rule is unknown.
    BadOpening,
    /// The move is not notation for this board.
    BadMove,
    /// The move breaks the rules here.
    IllegalMove,
    /// A search was asked for without any limit: it would never end.
    NoLimit,
    /// The game record cannot be read.
    BadRecord,
}

/// A refused request.
#[derive(Serialize, Debug)]
pub struct Refusal {
    /// What kind of refusal.
    pub code: ErrorCode,
    /// The details, in English, for developers.
    pub message: String,
}

impl Refusal {
    fn new(code: ErrorCode, message: impl ToString) -> Refusal {
        Refusal {
            code,
            message: message.to_string(),
        }
    }
}

/// A position and its legal moves, shaped as the server's `POST /api/position` answer.
#[derive(Serialize, Debug)]
pub struct PositionView {
    /// Position text.
    pub position: String,
    /// `RxC`.
    pub size: String,
    /// The opening rule.
    pub opening: String,
    /// The side to move.
    pub turn: &'static str,
    /// `black-removal`, `white-removal` or `jumping`.
    pub phase: &'static str,
    /// The legal moves in notation, sorted.
    pub legal_moves: Vec<String>,
    /// The winner, when the side to move has no move.
    pub winner: Option<&'static str>,
    /// The move played, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
}

/// One iteration of a search, or its final answer.
#[derive(Serialize, Debug)]
pub struct Thought {
    /// The best move in notation.
    pub best: Option<String>,
    /// The score for the side to move in centi-moves (proven results beyond ±29000).
    pub score: i32,
    /// The score as the analysis board shows it: `+1.25`, `win 9` or `loss 3` (moves of
    /// the winner).
    pub eval: String,
    /// `win` or `loss` when the result is proven.
    pub proven: Option<&'static str>,
    /// The expected line, in notation.
    pub pv: Vec<String>,
    /// The completed depth (0 for a solver's proof).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
}

/// One line of an analysis.
#[derive(Serialize, Debug)]
pub struct LineView {
    /// The first move.
    #[serde(rename = "move")]
    pub first: String,
    /// Its score for the side to move, in centi-moves.
    pub score: i32,
    /// As [`Thought::eval`].
    pub eval: String,
    /// `win` or `loss` when proven.
    pub proven: Option<&'static str>,
    /// The line, starting with the first move.
    pub pv: Vec<String>,
}

/// One completed depth of an analysis.
#[derive(Serialize, Debug)]
pub struct AnalysisView {
    /// The depth.
    pub depth: u32,
    /// The best lines, best first; empty when the side to move has no move.
    pub lines: Vec<LineView>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
}

/// A game record, replayed.
#[derive(Serialize, Debug)]
pub struct RecordView {
    /// The start position's text.
    pub start: String,
    /// The opening rule.
    pub opening: String,
    /// The moves in notation.
    pub moves: Vec<String>,
    /// The position after each move (as many as the moves).
    pub positions: Vec<String>,
    /// The record's tags, in order.
    pub tags: Vec<(String, String)>,
}

/// What the solver found.
#[derive(Serialize, Debug)]
pub struct Solution {
    /// `win` or `loss` for the side to move, or `unknown` when the budget ran out.
    pub result: &'static str,
    /// For a win, a winning move.
    pub best: Option<String>,
    /// Nodes visited.
    pub nodes: u64,
}

/// The move a level chose.
#[derive(Serialize, Debug)]
pub struct Choice {
    /// The move in notation; `None` when the side to move has none.
    #[serde(rename = "move")]
    pub chosen: Option<String>,
}

/// A successful answer: one of the shapes above.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum Answer {
    /// For `position`.
    Position(PositionView),
    /// For `think`.
    Thought(Thought),
    /// For `analyse`.
    Analysis(AnalysisView),
    /// For `record`.
    Record(RecordView),
    /// For `solve`.
    Solution(Solution),
    /// For `choose`.
    Choice(Choice),
    /// For `new_game`.
    Done {},
}

/// An answer as it travels: `{"ok": …}` or `{"error": {"code", "message"}}`.
#[derive(Serialize, Debug)]
#[serde(rename_all = "snake_case")]
enum Envelope {
    Ok(Answer),
    Error(Refusal),
}

/// Answers one JSON request on `engine`; `report` hears each search iteration as JSON.
/// Never panics on any input: bad requests get an `error` answer.
pub fn handle(
    engine: &Engine,
    request: &str,
    clock: &dyn Clock,
    report: &mut dyn FnMut(&str),
) -> String {
    let envelope = match serde_json::from_str::<Request>(request) {
        Ok(req) => match answer(engine, req, clock, report) {
            Ok(a) => Envelope::Ok(a),
            Err(r) => Envelope::Error(r),
        },
        Err(e) => Envelope::Error(Refusal::new(ErrorCode::BadRequest, e)),
    };
    serde_json::to_string(&envelope).unwrap_or_else(|e| {
        format!(r#"{{"error":{{"code":"bad_request","message":"unwritable answer: {e}"}}}}"#)
    })
}

/// Answers a parsed request: one function a kind of request.
pub fn answer(
    engine: &Engine,
    request: Request,
    clock: &dyn Clock,
    report: &mut dyn FnMut(&str),
) -> Result<Answer, Refusal> {
    match request {
        Request::Position {
            position,
            opening,
            play,
        } => show_position(&position, opening.as_deref(), play.as_deref()),
        Request::Think {
            position,
            opening,
            time_ms,
            depth,
            nodes,
            solver,
        } => {
            let pos = parse(&position, opening.as_deref())?;
            let limits = limits(time_ms, depth, nodes)?;
            Ok(think(engine, &pos, limits, solver, clock, report))
        }
        Request::Analyse {
            position,
            opening,
            time_ms,
            depth,
            lines,
        } => {
            let pos = parse(&position, opening.as_deref())?;
            let limits = limits(time_ms, depth, None)?;
            Ok(analyse(engine, &pos, limits, lines, clock, report))
        }
        Request::Record { text } => read_record(&text),
        Request::Solve {
            position,
            opening,
            nodes,
        } => {
            let pos = parse(&position, opening.as_deref())?;
            Ok(solve(engine, &pos, nodes))
        }
        Request::Choose {
            position,
            opening,
            level,
            seed,
        } => {
            let pos = parse(&position, opening.as_deref())?;
            let chosen = engine.choose(&pos, level, clock, &mut Rng::new(seed));
            Ok(Answer::Choice(Choice {
                chosen: chosen.map(|m| pos.move_text(m)),
            }))
        }
        Request::NewGame => {
            engine.new_game();
            Ok(Answer::Done {})
        }
    }
}

/// `position`: the position, after `play` when given.
fn show_position(
    position: &str,
    opening: Option<&str>,
    play: Option<&str>,
) -> Result<Answer, Refusal> {
    let mut pos = parse(position, opening)?;
    let played = match play {
        Some(text) => Some(play_text(&mut pos, text)?),
        None => None,
    };
    let mut view = position_view(&pos);
    view.played = played;
    Ok(Answer::Position(view))
}

/// `think`: the engine's search within `limits`, each iteration reported.
fn think(
    engine: &Engine,
    pos: &AnyPosition,
    limits: Limits,
    solver: Option<bool>,
    clock: &dyn Clock,
    report: &mut dyn FnMut(&str),
) -> Answer {
    let mut each = |r: &SearchResult| {
        if let Ok(text) = serde_json::to_string(&thought(pos, r)) {
            report(&text);
        }
    };
    let result = engine.think(pos, limits, solver.unwrap_or(true), clock, &mut each);
    Answer::Thought(thought(pos, &result))
}

/// `analyse`: the best `lines` lines (1 to 8) within `limits`, each iteration reported.
fn analyse(
    engine: &Engine,
    pos: &AnyPosition,
    limits: Limits,
    lines: usize,
    clock: &dyn Clock,
    report: &mut dyn FnMut(&str),
) -> Answer {
    let mut each = |a: &konane_engine::Analysis| {
        if let Ok(text) = serde_json::to_string(&analysis_view(pos, a)) {
            report(&text);
        }
    };
    let last = engine.analyse(pos, limits, lines.clamp(1, 8), clock, &mut each);
    Answer::Analysis(match last {
        Some(a) => analysis_view(pos, &a),
        None => AnalysisView {
            depth: 0,
            lines: Vec::new(),
            nodes: 0,
            elapsed_ms: clock.elapsed_ms(),
        },
    })
}

/// `record`: a game record read, with the position after each move.
fn read_record(text: &str) -> Result<Answer, Refusal> {
    let record =
        konane_core::Record::parse(text).map_err(|e| Refusal::new(ErrorCode::BadRecord, e))?;
    let game = record.game();
    let mut pos = *game.start();
    let mut positions = Vec::with_capacity(game.moves().len());
    for &m in game.moves() {
        pos.play(m)
            .map_err(|e| Refusal::new(ErrorCode::BadRecord, e))?;
        positions.push(pos.to_string());
    }
    Ok(Answer::Record(RecordView {
        start: game.start().to_string(),
        opening: game.start().opening().to_string(),
        moves: game.move_texts(),
        positions,
        tags: record.tags().to_vec(),
    }))
}

/// `solve`: the solver's verdict within `nodes`, with the winning move of a win.
fn solve(engine: &Engine, pos: &AnyPosition, nodes: u64) -> Answer {
    let stop = AtomicBool::new(false);
    let (proof, visited) = engine.solve(pos, nodes, &stop);
    let (result, best) = match proof {
        Ok(Proof { win: true, best }) => ("win", best),
        Ok(Proof { win: false, .. }) => ("loss", None),
        Err(_) => ("unknown", None),
    };
    Answer::Solution(Solution {
        result,
        best: best.map(|m| pos.move_text(m)),
        nodes: visited,
    })
}

/// Search limits from a request; at least one must be given, or the search never ends.
fn limits(time_ms: Option<u64>, depth: Option<u32>, nodes: Option<u64>) -> Result<Limits, Refusal> {
    if time_ms.is_none() && depth.is_none() && nodes.is_none() {
        return Err(Refusal::new(
            ErrorCode::NoLimit,
            "give time_ms, depth or nodes",
        ));
    }
    Ok(Limits {
        depth: depth.map(|d| d.clamp(1, MAX_PLY as u32)),
        nodes,
        time_ms,
    })
}

fn parse(text: &str, opening: Option<&str>) -> Result<AnyPosition, Refusal> {
    let opening: Opening = match opening {
        Some(o) => o
            .parse()
            .map_err(|e| Refusal::new(ErrorCode::BadOpening, e))?,
        None => Opening::default(),
    };
    AnyPosition::parse(text, opening).map_err(|e| Refusal::new(ErrorCode::BadPosition, e))
}

fn play_text(pos: &mut AnyPosition, text: &str) -> Result<String, Refusal> {
    match pos.play_text(text) {
        Ok(m) => Ok(pos.move_text(m)),
        Err(konane_core::PlayError::Notation(e)) => Err(Refusal::new(ErrorCode::BadMove, e)),
        Err(konane_core::PlayError::Illegal(e)) => Err(Refusal::new(ErrorCode::IllegalMove, e)),
    }
}

/// The phase as the API spells it.
fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::BlackRemoval => "black-removal",
        Phase::WhiteRemoval => "white-removal",
        Phase::Jumping => "jumping",
    }
}

/// A position with its legal moves.
pub fn position_view(pos: &AnyPosition) -> PositionView {
    PositionView {
        position: pos.to_string(),
        size: pos.size().to_string(),
        opening: pos.opening().to_string(),
        turn: pos.turn().name(),
        phase: phase_name(pos.phase()),
        legal_moves: pos.legal_move_texts(),
        winner: pos.winner().map(Color::name),
        played: None,
    }
}

/// A search result as the page reads it.
pub fn thought(pos: &AnyPosition, r: &SearchResult) -> Thought {
    Thought {
        best: r.best.map(|m| pos.move_text(m)),
        score: r.score,
        eval: eval_text(r.score),
        proven: proven(r.score),
        pv: line_texts(pos, &r.pv),
        depth: r.depth,
        nodes: r.nodes,
        elapsed_ms: r.elapsed_ms,
    }
}

/// `win` or `loss` for a proven score.
fn proven(score: i32) -> Option<&'static str> {
    score::plies_to_end(score).map(|_| if score > 0 { "win" } else { "loss" })
}

/// An analysis as the page reads it.
pub fn analysis_view(pos: &AnyPosition, a: &konane_engine::Analysis) -> AnalysisView {
    AnalysisView {
        depth: a.depth,
        lines: a
            .lines
            .iter()
            .map(|l| LineView {
                first: l.pv.first().map(|&m| pos.move_text(m)).unwrap_or_default(),
                score: l.score,
                eval: eval_text(l.score),
                proven: proven(l.score),
                pv: line_texts(pos, &l.pv),
            })
            .collect(),
        nodes: a.nodes,
        elapsed_ms: a.elapsed_ms,
    }
}

/// `+1.25`, or `win 9` / `loss 3` counted in the winner's moves (as "win in 9 moves").
pub fn eval_text(score: i32) -> String {
    match score::plies_to_end(score) {
        Some(plies) => {
            let word = if score > 0 { "win" } else { "loss" };
            format!("{word} {}", (plies + 1) / 2)
        }
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}

/// A line of moves in notation (each move's text depends only on the board's size).
fn line_texts(pos: &AnyPosition, line: &[Move]) -> Vec<String> {
    line.iter().map(|&m| pos.move_text(m)).collect()
}
