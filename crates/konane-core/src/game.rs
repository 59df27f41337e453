//! Positions of any size behind one type, and a game: a start position and its moves.

use core::fmt;

use crate::bitboard::U256;
use crate::geometry::{Color, Geometry, Opening, Size, Square};
use crate::illegal::IllegalMove;
use crate::moves::Move;
use crate::notation::NotationError;
use crate::position::{Phase, Position, PositionError};
use crate::position_text::Layout;

/// A position on a board of any size, on the narrowest bitboard that holds it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnyPosition {
    /// Up to 64 squares.
    Small(Position<u64>),
    /// Up to 128 squares.
    Medium(Position<u128>),
    /// Up to 256 squares.
    Large(Position<U256>),
}

/// Runs the same expression on whichever position is inside.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Small($p) => $body,
            $crate::AnyPosition::Medium($p) => $body,
            $crate::AnyPosition::Large($p) => $body,
        }
    };
}

impl AnyPosition {
    /// The start position of a board.
    pub fn start(size: Size, opening: Opening) -> AnyPosition {
        let n = size.squares();
        let made = if n <= 64 {
            Geometry::new(size, opening).map(|g| AnyPosition::Small(Position::start(g)))
        } else if n <= 128 {
            Geometry::new(size, opening).map(|g| AnyPosition::Medium(Position::start(g)))
        } else {
            Geometry::new(size, opening).map(|g| AnyPosition::Large(Position::start(g)))
        };
        made.expect("every Size fits in 256 squares")
    }

    /// Reads position text; the opening rule is the game's, not the text's.
    pub fn parse(text: &str, opening: Opening) -> Result<AnyPosition, PositionError> {
        let layout = Layout::parse(text)?;
        let n = layout.size.squares();
        let made = if n <= 64 {
            Position::from_layout(&layout, opening).map(AnyPosition::Small)
        } else if n <= 128 {
            Position::from_layout(&layout, opening).map(AnyPosition::Medium)
        } else {
            Position::from_layout(&layout, opening).map(AnyPosition::Large)
        };
        Ok(made.expect("every Size fits in 256 squares"))
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        with_position!(self, p => p.size())
    }

    /// The opening rule in force.
    pub fn opening(&self) -> Opening {
        with_position!(self, p => p.opening())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        with_position!(self, p => p.turn())
    }

    /// The stage of the game.
    pub fn phase(&self) -> Phase {
        with_position!(self, p => p.phase())
    }

    /// The Zobrist hash.
    pub fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }

    /// The colour of the stone on `sq`, if any.
    pub fn stone_at(&self, sq: Square) -> Option<Color> {
        with_position!(self, p => p.stone_at(sq))
    }

    /// Every legal move, in the generator's order.
    pub fn legal_moves(&self) -> Vec<Move> {
        with_position!(self, p => p.moves().collect())
    }

    /// Every legal move in notation, sorted as plain strings (the order of the spec's
    /// conformance games), for people and protocols.
    pub fn legal_move_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .legal_moves()
            .into_iter()
            .map(|m| self.move_text(m))
            .collect();
        texts.sort();
        texts
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> u32 {
        with_position!(self, p => p.count_moves())
    }

    /// The winner, when the side to move has no move left.
    pub fn winner(&self) -> Option<Color> {
        with_position!(self, p => p.winner())
    }

    /// Checks a move, and says why it is not legal.
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        with_position!(self, p => p.check(m))
    }

    /// Plays a move after checking it; an illegal move changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        with_position!(self, p => {
            p.check(m)?;
            p.make(m);
            Ok(())
        })
    }

    /// Reads a move in notation and plays it; bad text or an illegal move changes nothing.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        let m = self.size().parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back `m`, which must be the last move played.
    pub fn unplay(&mut self, m: Move) {
        with_position!(self, p => p.unmake(m))
    }

    /// The move in notation (`d5`, `f4-f6`).
    pub fn move_text(&self, m: Move) -> String {
        self.size().move_text(m).to_string()
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_position!(self, p => p.text().fmt(f))
    }
}

/// Why a game ended by the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Who won.
    pub winner: Color,
}

impl Outcome {
    /// The loser, who had no move.
    pub fn loser(self) -> Color {
        self.winner.opponent()
    }

    /// How a record's `Termination` tag says it: "white has no move".
    pub fn termination(self) -> String {
        format!("{} has no move", self.loser())
    }
}

/// A game: where it started, every move since, and where it stands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    start: AnyPosition,
    position: AnyPosition,
    moves: Vec<Move>,
}

impl Game {
    /// A new game from the start position.
    pub fn new(size: Size, opening: Opening) -> Game {
        Game::from_position(AnyPosition::start(size, opening))
    }

    /// A new game from any position.
    pub fn from_position(start: AnyPosition) -> Game {
        Game {
            start,
            position: start,
            moves: Vec::new(),
        }
    }

    /// Where the game started.
    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    /// Where the game stands now.
    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.start.size()
    }

    /// The result by the rules, once the side to move has no move.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.winner().map(|winner| Outcome { winner })
    }

    /// Plays a checked move; an illegal move changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.position.play(m)?;
        self.moves.push(m);
        Ok(())
    }

    /// Reads a move in notation and plays it; bad text or an illegal move changes nothing.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        let m = self.position.play_text(text)?;
        self.moves.push(m);
        Ok(m)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.position.unplay(m);
        Some(m)
    }

    /// The moves in notation.
    pub fn move_texts(&self) -> Vec<String> {
        let size = self.size();
        self.moves
            .iter()
            .map(|&m| size.move_text(m).to_string())
            .collect()
    }
}

/// A move that cannot be played: unreadable, or illegal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The text is not a move on this board.
    Notation(NotationError),
    /// The move breaks the rules here.
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Notation(e) => e.fmt(f),
            PlayError::Illegal(e) => e.fmt(f),
        }
    }
}

impl From<NotationError> for PlayError {
    fn from(e: NotationError) -> Self {
        PlayError::Notation(e)
    }
}

impl From<IllegalMove> for PlayError {
    fn from(e: IllegalMove) -> Self {
        PlayError::Illegal(e)
    }
}

impl std::error::Error for PlayError {}
