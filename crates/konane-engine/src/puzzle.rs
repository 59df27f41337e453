//! Puzzles proven by the exact solver: positions where exactly one move wins, the forced
//! line that follows it, the opponent's winning answer to every other move, themes that are
//! computed from the position, and the one-line text format of the shipped set
//! (docs/puzzles.md).
//!
//! Everything here is pure: the miner in the `konane` binary feeds it positions, the server
//! reads the set, and the tests re-prove it, all through [`find`], [`verify`] and
//! [`Puzzle`]'s parser and writer.

use core::fmt;
use core::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64};

use konane_core::{AnyPosition, Bits, IllegalMove, Move, Opening, Phase, Position, with_position};

use crate::Weights;
use crate::clock::Frozen;
use crate::search::{Limits, Searcher, Shared};
use crate::solve::{ProofTable, Solver, Unfinished};
use crate::tt::Table;

/// Most moves the solver (the player) makes in one puzzle's line.
pub const MAX_STEPS: usize = 4;

/// Plies of the shallow search that rates how tempting the wrong moves look.
pub const SHALLOW_DEPTH: u32 = 2;

/// A computed property of a puzzle, offered to players as something to practise.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Theme {
    /// The winning move is a shorter stop of a multi-jump the same stone could make.
    StopEarly,
    /// Some move captures more stones than the winning move, and loses.
    NoGreed,
    /// Another move leaves the opponent fewer replies, and loses: the win is in the timing.
    Tempo,
    /// At most a third of the squares still hold stones.
    Endgame,
    /// At most an eighth of the squares are empty.
    Opening,
}

impl Theme {
    /// Every theme, in the order the text format writes them.
    pub const ALL: [Theme; 5] = [
        Theme::StopEarly,
        Theme::NoGreed,
        Theme::Tempo,
        Theme::Endgame,
        Theme::Opening,
    ];

    /// The machine name (`stop-early`), used in files, the API and the page's strings.
    pub fn name(self) -> &'static str {
        match self {
            Theme::StopEarly => "stop-early",
            Theme::NoGreed => "no-greed",
            Theme::Tempo => "tempo",
            Theme::Endgame => "endgame",
            Theme::Opening => "opening",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<Theme, FormatError> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == text)
            .ok_or_else(|| FormatError::Theme(text.to_string()))
    }
}

/// Where a puzzle was found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// A self-play game between two levels; `game` is its seed's offset.
    SelfPlay {
        /// Black's level.
        black: u8,
        /// White's level.
        white: u8,
        /// The game's number in the run.
        game: u64,
        /// Moves played before the puzzle's position.
        ply: u32,
    },
    /// A stored game record; `game` counts the records of the file from 0.
    Record {
        /// The record's number in its file.
        game: u64,
        /// Moves played before the puzzle's position.
        ply: u32,
    },
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Source::SelfPlay {
                black,
                white,
                game,
                ply,
            } => write!(f, "self-play {black}/{white} game {game} ply {ply}"),
            Source::Record { game, ply } => write!(f, "record {game} ply {ply}"),
        }
    }
}

impl FromStr for Source {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<Source, FormatError> {
        let bad = || FormatError::Source(text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        match words[..] {
            ["self-play", levels, "game", game, "ply", ply] => {
                let (black, white) = levels.split_once('/').ok_or_else(bad)?;
                Ok(Source::SelfPlay {
                    black: black.parse().map_err(|_| bad())?,
                    white: white.parse().map_err(|_| bad())?,
                    game: game.parse().map_err(|_| bad())?,
                    ply: ply.parse().map_err(|_| bad())?,
                })
            }
            ["record", game, "ply", ply] => Ok(Source::Record {
                game: game.parse().map_err(|_| bad())?,
                ply: ply.parse().map_err(|_| bad())?,
            }),
            _ => Err(bad()),
        }
    }
}

/// A puzzle's name: the board size and 40 bits of a hash of the position up to symmetry,
/// so a position and its mirror images get the same id and are mined only once.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PuzzleId(String);

impl PuzzleId {
    /// The id of the puzzle at `pos`.
    pub fn of(pos: &AnyPosition) -> PuzzleId {
        let key = crate::symmetry::canonical_key(pos);
        // FNV-1a: stable across builds and platforms, unlike std's hasher.
        let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        PuzzleId(format!("{}-{:010x}", pos.size(), hash >> 24))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PuzzleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for PuzzleId {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<PuzzleId, FormatError> {
        let bad = || FormatError::Id(text.to_string());
        let (size, hash) = text.split_once('-').ok_or_else(bad)?;
        size.parse::<konane_core::Size>().map_err(|_| bad())?;
        if hash.len() != 10 || !hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(bad());
        }
        Ok(PuzzleId(text.to_string()))
    }
}

/// A proven puzzle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Puzzle {
    /// Its name.
    pub id: PuzzleId,
    /// The position; the side to move is the player.
    pub position: AnyPosition,
    /// The player's only winning move, the opponent's toughest reply, the next only winning
    /// move, and so on; it starts and ends with a player's move.
    pub line: Vec<Move>,
    /// For each of the player's steps, every other legal move with the opponent's winning
    /// answer to it.
    pub refutations: Vec<Vec<(Move, Move)>>,
    /// What the puzzle is about, sorted.
    pub themes: Vec<Theme>,
    /// How many other moves a shallow search rates at least as highly as the solution.
    pub decoys: u32,
    /// Where it was found.
    pub source: Source,
}

impl Puzzle {
    /// The number of moves the player makes.
    pub fn steps(&self) -> usize {
        self.line.len().div_ceil(2)
    }

    /// The position before the player's `step`-th move (from 0), with the line played so far.
    pub fn position_at(&self, step: usize) -> Result<AnyPosition, IllegalMove> {
        let mut p = self.position;
        for &m in self.line.iter().take(2 * step) {
            p.play(m)?;
        }
        Ok(p)
    }

    /// The rating a new puzzle starts from: harder with every decoy and every extra step.
    pub fn initial_rating(&self) -> f64 {
        let decoys = f64::from(self.decoys.min(8));
        1000.0 + 150.0 * decoys + 100.0 * (self.steps() as f64 - 1.0)
    }

    /// Reads one line of the text format.
    pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
        let fields: Vec<&str> = text.split(';').collect();
        let [
            id,
            opening,
            position,
            line,
            refutations,
            themes,
            decoys,
            source,
        ] = fields[..]
        else {
            return Err(FormatError::Fields(fields.len()));
        };
        let id: PuzzleId = id.parse()?;
        let opening: Opening = opening
            .parse()
            .map_err(|_| FormatError::Opening(opening.to_string()))?;
        let position = AnyPosition::parse(position, opening)
            .map_err(|e| FormatError::Position(e.to_string()))?;
        let size = position.size();
        let parse_move = |t: &str| {
            size.parse_move(t)
                .map_err(|_| FormatError::Move(t.to_string()))
        };
        let line = line
            .split_whitespace()
            .map(parse_move)
            .collect::<Result<Vec<_>, _>>()?;
        let refutations = refutations
            .split('/')
            .map(|step| {
                step.split_whitespace()
                    .map(|pair| {
                        let (wrong, answer) = pair
                            .split_once('>')
                            .ok_or_else(|| FormatError::Move(pair.to_string()))?;
                        Ok((parse_move(wrong)?, parse_move(answer)?))
                    })
                    .collect::<Result<Vec<_>, FormatError>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let themes = match themes {
            "-" => Vec::new(),
            t => t
                .split(',')
                .map(str::parse)
                .collect::<Result<Vec<Theme>, _>>()?,
        };
        let decoys = decoys
            .parse()
            .map_err(|_| FormatError::Decoys(decoys.to_string()))?;
        let puzzle = Puzzle {
            id,
            position,
            line,
            refutations,
            themes,
            decoys,
            source: source.parse()?,
        };
        if puzzle.line.len().is_multiple_of(2) || puzzle.refutations.len() != puzzle.steps() {
            return Err(FormatError::Shape);
        }
        Ok(puzzle)
    }

    /// Reads a whole file: one puzzle a line, `#` comments and blank lines skipped.
    pub fn parse_set(text: &str) -> Result<Vec<Puzzle>, SetError> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|(n, l)| Puzzle::parse(l).map_err(|error| SetError { line: n + 1, error }))
            .collect()
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.position.size();
        let words = |moves: &mut dyn Iterator<Item = String>| moves.collect::<Vec<_>>().join(" ");
        let line = words(&mut self.line.iter().map(|&m| size.move_text(m).to_string()));
        let refutations: Vec<String> = self
            .refutations
            .iter()
            .map(|step| {
                words(
                    &mut step
                        .iter()
                        .map(|&(w, a)| format!("{}>{}", size.move_text(w), size.move_text(a))),
                )
            })
            .collect();
        let themes = if self.themes.is_empty() {
            "-".to_string()
        } else {
            let names: Vec<&str> = self.themes.iter().map(|t| t.name()).collect();
            names.join(",")
        };
        write!(
            f,
            "{};{};{};{line};{};{themes};{};{}",
            self.id,
            self.position.opening(),
            self.position,
            refutations.join("/"),
            self.decoys,
            self.source
        )
    }
}

/// A line of the text format that does not read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FormatError {
    /// Not eight `;`-separated fields.
    Fields(usize),
    /// A malformed id.
    Id(String),
    /// An unknown opening rule.
    Opening(String),
    /// Bad position text.
    Position(String),
    /// A move that does not read.
    Move(String),
    /// An unknown theme.
    Theme(String),
    /// A decoy count that is not a number.
    Decoys(String),
    /// A source that does not read.
    Source(String),
    /// A line of even length, or refutations not one group per step.
    Shape,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Fields(n) => write!(f, "{n} fields: a puzzle has 8, separated by ';'"),
            FormatError::Id(t) => write!(f, "'{t}' is not a puzzle id like 8x8-0123456789"),
            FormatError::Opening(t) => write!(f, "'{t}' is not an opening rule"),
            FormatError::Position(e) => write!(f, "bad position: {e}"),
            FormatError::Move(t) => write!(f, "'{t}' is not a move"),
            FormatError::Theme(t) => write!(f, "'{t}' is not a theme"),
            FormatError::Decoys(t) => write!(f, "'{t}' is not a number of decoys"),
            FormatError::Source(t) => write!(f, "'{t}' is not a source"),
            FormatError::Shape => write!(
                f,
                "the line must have an odd number of moves and one refutation group per step"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// A bad line in a puzzle file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SetError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub error: FormatError,
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for SetError {}

/// What [`find`] proved about a position that is a puzzle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Found {
    /// The forced line, as in [`Puzzle::line`].
    pub line: Vec<Move>,
    /// The refutations, as in [`Puzzle::refutations`].
    pub refutations: Vec<Vec<(Move, Move)>>,
    /// The computed themes.
    pub themes: Vec<Theme>,
    /// The decoy count.
    pub decoys: u32,
}

impl Found {
    /// The puzzle at `position`.
    pub fn into_puzzle(self, position: AnyPosition, source: Source) -> Puzzle {
        Puzzle {
            id: PuzzleId::of(&position),
            position,
            line: self.line,
            refutations: self.refutations,
            themes: self.themes,
            decoys: self.decoys,
            source,
        }
    }
}

/// One player's turn, proven: the winning moves and, for every losing one, the answer.
#[derive(Default)]
struct Turn {
    winners: Vec<Move>,
    refutations: Vec<(Move, Move)>,
}

/// Proves every move of `pos`, stopping once `max_winners` winning moves are found.
fn prove_turn<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
    max_winners: usize,
) -> Result<Turn, Unfinished> {
    let mut turn = Turn::default();
    let moves: Vec<Move> = pos.moves().collect();
    for m in moves {
        let mut child = *pos;
        child.make(m);
        let proof = solver.solve(&child)?;
        if proof.win {
            let answer = match proof.best {
                Some(a) => a,
                None => winning_move(solver, &child)?,
            };
            turn.refutations.push((m, answer));
        } else {
            turn.winners.push(m);
            if turn.winners.len() >= max_winners {
                break;
            }
        }
    }
    Ok(turn)
}

/// A winning move of a won position whose proof the table no longer holds.
fn winning_move<B: Bits>(solver: &mut Solver<'_>, pos: &Position<B>) -> Result<Move, Unfinished> {
    let moves: Vec<Move> = pos.moves().collect();
    for m in moves {
        let mut child = *pos;
        child.make(m);
        if !solver.solve(&child)?.win {
            return Ok(m);
        }
    }
    // Only reached when a proof was wrong, which the solver never gives.
    Err(Unfinished)
}

/// Whether `pos` is a puzzle: the side to move has exactly one winning move, and either at
/// least three legal moves or a tempting wrong one (one that captures more). Proofs use at
/// most `node_budget` solver nodes in all; `Err` when that was not enough.
pub fn find(
    pos: &AnyPosition,
    table: &ProofTable,
    node_budget: u64,
) -> Result<Option<Found>, Unfinished> {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(table, &stop, node_budget);
    with_position!(pos, p => find_on(&mut solver, p))
}

fn find_on<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
) -> Result<Option<Found>, Unfinished> {
    if pos.phase() != Phase::Jumping {
        return Ok(None);
    }
    let moves: Vec<Move> = pos.moves().collect();
    let size = pos.size();
    let most = moves.iter().map(|m| captures(*m, size)).max().unwrap_or(0);
    let least = moves.iter().map(|m| captures(*m, size)).min().unwrap_or(0);
    if moves.len() < 2 || (moves.len() == 2 && most == least) {
        return Ok(None);
    }
    if !solver.solve(pos)?.win {
        return Ok(None);
    }
    let first = prove_turn(solver, pos, 2)?;
    let [solution] = first.winners[..] else {
        return Ok(None);
    };
    if moves.len() == 2 && captures(solution, size) == most {
        return Ok(None);
    }
    let mut line = vec![solution];
    let mut refutations = vec![first.refutations];
    let mut p = *pos;
    p.make(solution);
    while line.len() < 2 * MAX_STEPS - 1 {
        let replies: Vec<Move> = p.moves().collect();
        // The toughest defence: the reply that leaves the fewest winning answers, then the
        // most moves to choose among; only a reply with one winning answer goes on.
        let mut best: Option<(Move, Turn, u32)> = None;
        for r in replies {
            let mut q = p;
            q.make(r);
            let turn = prove_turn(solver, &q, 2)?;
            let choices = q.count_moves();
            let better = best.as_ref().is_none_or(|(_, b, c)| {
                (turn.winners.len(), u32::MAX - choices) < (b.winners.len(), u32::MAX - c)
            });
            if better {
                best = Some((r, turn, choices));
            }
        }
        let Some((reply, turn, _)) = best else { break };
        let [next] = turn.winners[..] else { break };
        line.extend([reply, next]);
        refutations.push(turn.refutations);
        p.make(reply);
        p.make(next);
    }
    Ok(Some(Found {
        themes: themes_of(pos, solution),
        decoys: decoys_of(pos, solution),
        line,
        refutations,
    }))
}

/// Stones a move captures (0 for a removal).
fn captures(m: Move, size: konane_core::Size) -> usize {
    m.jump_shape(size).map_or(0, |(_, k)| k)
}

/// The themes that are true of `pos` with `solution` as its only winning move.
fn themes_of<B: Bits>(pos: &Position<B>, solution: Move) -> Vec<Theme> {
    let size = pos.size();
    let moves: Vec<Move> = pos.moves().collect();
    let shape = solution.jump_shape(size);
    let replies = |m: Move| {
        let mut q = *pos;
        q.make(m);
        q.count_moves()
    };
    let mut themes = Vec::new();
    let longer_same_stone = moves.iter().any(|&m| {
        m.from() == solution.from()
            && match (m.jump_shape(size), shape) {
                (Some((d, k)), Some((ds, ks))) => d == ds && k > ks,
                _ => false,
            }
    });
    if longer_same_stone {
        themes.push(Theme::StopEarly);
    }
    if moves
        .iter()
        .any(|&m| captures(m, size) > captures(solution, size))
    {
        themes.push(Theme::NoGreed);
    }
    let least_replies = moves.iter().map(|&m| replies(m)).min().unwrap_or(0);
    if replies(solution) > least_replies {
        themes.push(Theme::Tempo);
    }
    let squares = size.squares();
    let stones = (pos.stones(konane_core::Color::Black) | pos.stones(konane_core::Color::White))
        .count() as usize;
    if stones * 3 <= squares {
        themes.push(Theme::Endgame);
    }
    if (squares - stones) * 8 <= squares {
        themes.push(Theme::Opening);
    }
    themes
}

/// How many other moves a [`SHALLOW_DEPTH`]-ply search scores at least as high as `solution`.
fn decoys_of<B: Bits>(pos: &Position<B>, solution: Move) -> u32 {
    let table = Table::new(1);
    let stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let weights = Weights::default();
    let shared = Shared {
        table: &table,
        weights: &weights,
        stop: &stop,
        nodes: &nodes,
        clock: &Frozen,
        limits: Limits::default(),
    };
    let scored = Searcher::<B>::new(&shared).score_root_moves(pos, SHALLOW_DEPTH);
    let target = scored
        .iter()
        .find(|(m, _)| *m == solution)
        .map_or(i32::MIN, |&(_, s)| s);
    scored
        .iter()
        .filter(|&&(m, s)| m != solution && s >= target)
        .count() as u32
}

/// Why a stored puzzle is not what it claims.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VerifyError {
    /// The id is not the position's.
    Id,
    /// The position is not in the jumping phase.
    Phase,
    /// Neither three legal moves nor a tempting wrong one.
    TooFewMoves,
    /// A move of the line is not legal where it is played.
    Illegal {
        /// Its index in the line.
        index: usize,
    },
    /// At `step`, the player has not exactly the one winning move the line gives.
    NotUnique {
        /// The player's step, from 0.
        step: usize,
        /// How many moves win there.
        winners: usize,
    },
    /// A step's refutations do not list every other legal move once, each with a legal
    /// answer that wins.
    Refutation {
        /// The player's step, from 0.
        step: usize,
    },
    /// The themes are not the computed ones.
    Themes {
        /// What the position shows.
        computed: Vec<Theme>,
    },
    /// The decoy count is not the computed one.
    Decoys {
        /// What the shallow search gives.
        computed: u32,
    },
    /// The solver ran out of nodes.
    Unfinished,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Id => write!(f, "the id is not the position's"),
            VerifyError::Phase => write!(f, "the position is not in the jumping phase"),
            VerifyError::TooFewMoves => {
                write!(f, "fewer than three moves and no tempting wrong one")
            }
            VerifyError::Illegal { index } => {
                write!(f, "move {} of the line is illegal", index + 1)
            }
            VerifyError::NotUnique { step, winners } => {
                write!(f, "step {}: {winners} moves win, not one", step + 1)
            }
            VerifyError::Refutation { step } => {
                write!(f, "step {}: the refutations are wrong or missing", step + 1)
            }
            VerifyError::Themes { computed } => {
                let names: Vec<&str> = computed.iter().map(|t| t.name()).collect();
                write!(f, "the themes should be [{}]", names.join(","))
            }
            VerifyError::Decoys { computed } => write!(f, "the decoys should be {computed}"),
            VerifyError::Unfinished => write!(f, "not proven within the node budget"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Proves again everything `puzzle` claims: the id, exactly one winning move at every step
/// of a legal line, every refutation legal and winning, the themes and the decoys.
pub fn verify(puzzle: &Puzzle, table: &ProofTable, node_budget: u64) -> Result<(), VerifyError> {
    if PuzzleId::of(&puzzle.position) != puzzle.id {
        return Err(VerifyError::Id);
    }
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(table, &stop, node_budget);
    with_position!(&puzzle.position, p => verify_on(&mut solver, p, puzzle))
}

fn verify_on<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
    puzzle: &Puzzle,
) -> Result<(), VerifyError> {
    if pos.phase() != Phase::Jumping {
        return Err(VerifyError::Phase);
    }
    let size = pos.size();
    let moves: Vec<Move> = pos.moves().collect();
    let solution = puzzle.line[0];
    let tempting = moves
        .iter()
        .any(|&m| captures(m, size) > captures(solution, size));
    if moves.len() < 3 && !tempting {
        return Err(VerifyError::TooFewMoves);
    }
    let unfinished = |_| VerifyError::Unfinished;
    let mut p = *pos;
    for (index, &m) in puzzle.line.iter().enumerate() {
        if !p.is_legal(m) {
            return Err(VerifyError::Illegal { index });
        }
        if index % 2 == 0 {
            let step = index / 2;
            let turn = prove_turn(solver, &p, usize::MAX).map_err(unfinished)?;
            if turn.winners != [m] {
                return Err(VerifyError::NotUnique {
                    step,
                    winners: turn.winners.len(),
                });
            }
            check_refutations(solver, &p, m, &puzzle.refutations[step])
                .map_err(|e| e.unwrap_or(VerifyError::Refutation { step }))?;
        }
        p.make(m);
    }
    let computed = themes_of(pos, solution);
    if computed != puzzle.themes {
        return Err(VerifyError::Themes { computed });
    }
    let computed = decoys_of(pos, solution);
    if computed != puzzle.decoys {
        return Err(VerifyError::Decoys { computed });
    }
    Ok(())
}

/// Checks that `given` pairs every legal move but `solution` once with an answer that is
/// legal and leaves the player lost; `Err(None)` when it does not, `Err(Some)` when the
/// solver ran out.
fn check_refutations<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
    solution: Move,
    given: &[(Move, Move)],
) -> Result<(), Option<VerifyError>> {
    let mut wrong: Vec<Move> = pos.moves().filter(|&m| m != solution).collect();
    let mut listed: Vec<Move> = given.iter().map(|&(w, _)| w).collect();
    wrong.sort_by_key(|m| (m.from().index(), m.to().index()));
    listed.sort_by_key(|m| (m.from().index(), m.to().index()));
    if wrong != listed {
        return Err(None);
    }
    for &(w, answer) in given {
        let mut q = *pos;
        q.make(w);
        if !q.is_legal(answer) {
            return Err(None);
        }
        q.make(answer);
        if solver
            .solve(&q)
            .map_err(|_| Some(VerifyError::Unfinished))?
            .win
        {
            return Err(None);
        }
    }
    Ok(())
}
