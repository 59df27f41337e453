//! A puzzle and its one-line text format (docs/puzzles.md): the id, themes, source and the
//! parser and writer of the shipped set's lines.

use core::fmt;
use core::str::FromStr;

use konane_core::{AnyPosition, IllegalMove, Move, Opening};

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
