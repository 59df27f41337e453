//! A position: the stones on a board and the side to move, with its Zobrist hash.

use core::fmt;

use crate::bitboard::Bits;
use crate::geometry::{Color, Geometry, Opening, Size, Square};
use crate::illegal::{IllegalMove, IllegalReason};
use crate::moves::Move;
use crate::zobrist;

/// The stage of the game, read off the number of empty squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// The board is full: Black lifts a stone from the centre (or a corner).
    BlackRemoval,
    /// One square is empty: White lifts a stone next to it.
    WhiteRemoval,
    /// Two or more squares are empty: every move is a jump.
    Jumping,
}

/// A Konane position on a board whose squares fit in `B`.
///
/// Small and `Copy`: the geometry travels with the stones, so a position is complete
/// on its own. [`Position::make`] and [`Position::unmake`] change it in place.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position<B> {
    geo: Geometry<B>,
    stones: [B; 2],
    turn: Color,
    hash: u64,
}

impl<B: Bits> Position<B> {
    /// The start position: every square filled, Black to move.
    pub fn start(geo: Geometry<B>) -> Self {
        let size = geo.size();
        let mut stones = [B::ZERO; 2];
        for sq in size.all_squares() {
            stones[size.start_color(sq).index()] |= B::single(sq.index());
        }
        Self::assemble(geo, stones, Color::Black)
    }

    /// A position from its stones; fails where RULES.md says position text must fail.
    ///
    /// `black` and `white` must be disjoint and on the board.
    pub fn from_stones(
        geo: Geometry<B>,
        black: B,
        white: B,
        turn: Color,
    ) -> Result<Self, PositionError> {
        assert!(
            (black & white).is_empty() && ((black | white) & !geo.full).is_empty(),
            "stones overlap or lie off the board"
        );
        let empties = geo.size().squares() - (black | white).count() as usize;
        match (empties, turn) {
            (0, Color::White) => Err(PositionError::FullBoardWhiteToMove),
            (1, Color::Black) => Err(PositionError::OneEmptyBlackToMove),
            _ => Ok(Self::assemble(geo, [black, white], turn)),
        }
    }

    pub(crate) fn assemble(geo: Geometry<B>, stones: [B; 2], turn: Color) -> Self {
        let mut p = Position {
            geo,
            stones,
            turn,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The board's size, opening rule and masks.
    #[inline]
    pub fn geometry(&self) -> &Geometry<B> {
        &self.geo
    }

    /// The board's size.
    #[inline]
    pub fn size(&self) -> Size {
        self.geo.size()
    }

    /// The opening rule in force.
    #[inline]
    pub fn opening(&self) -> Opening {
        self.geo.opening()
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash, kept up to date by `make` and `unmake`.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The stones of one colour.
    #[inline]
    pub fn stones(&self, color: Color) -> B {
        self.stones[color.index()]
    }

    /// The empty squares.
    #[inline]
    pub fn empty(&self) -> B {
        self.geo.full & !(self.stones[0] | self.stones[1])
    }

    /// The colour of the stone on `sq`, if any.
    pub fn stone_at(&self, sq: Square) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.stones[c.index()].has(sq.index()))
    }

    /// The stage of the game.
    #[inline]
    pub fn phase(&self) -> Phase {
        let empty = self.empty();
        if empty.is_empty() {
            Phase::BlackRemoval
        } else if empty.without_lowest().is_empty() {
            Phase::WhiteRemoval
        } else {
            Phase::Jumping
        }
    }

    /// The hash computed from scratch, to check the incremental one.
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.geo.key;
        if self.turn == Color::White {
            h ^= zobrist::WHITE_TO_MOVE;
        }
        for (c, stones) in self.stones.iter().enumerate() {
            for sq in stones.squares() {
                h ^= zobrist::stone(c, sq);
            }
        }
        h
    }

    /// Plays a move known to be legal. Debug builds check that it is.
    #[inline]
    pub fn make(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m:?}");
        self.toggle(m, self.turn.index());
    }

    /// Takes back `m`, which must be the last move made.
    #[inline]
    pub fn unmake(&mut self, m: Move) {
        self.toggle(m, self.turn.opponent().index());
        debug_assert!(
            self.is_legal(m),
            "unmake of a move that was not made: {m:?}"
        );
    }

    /// Making and unmaking are the same toggles, so no undo record is needed: the
    /// mover's stone leaves `from` and lands on `to` (a removal only lifts it), and the
    /// captured stones, always the opponent's, vanish or come back.
    #[inline]
    fn toggle(&mut self, m: Move, mover: usize) {
        let (from, to) = (m.from().index(), m.to().index());
        if m.is_removal() {
            self.stones[mover] ^= B::single(from);
            self.hash ^= zobrist::stone(mover, from);
        } else {
            self.stones[mover] ^= B::single(from) | B::single(to);
            self.hash ^= zobrist::stone(mover, from) ^ zobrist::stone(mover, to);
            // A horizontal jump moves less than a row; no division on this hot path.
            let cols = self.geo.size().cols();
            let (lo, hi) = (from.min(to), from.max(to));
            let step = if hi - lo < cols { 1 } else { cols };
            let opp = 1 - mover;
            let mut sq = lo + step;
            while sq < hi {
                self.stones[opp] ^= B::single(sq);
                self.hash ^= zobrist::stone(opp, sq);
                sq += 2 * step;
            }
        }
        self.turn = self.turn.opponent();
        self.hash ^= zobrist::WHITE_TO_MOVE;
    }

    /// True when `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check(m).is_ok()
    }

    /// Checks a move, and says why it is not legal.
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        let size = self.size();
        let me = self.turn;
        let illegal = |reason: IllegalReason| IllegalMove {
            text: size.move_text(m).to_string(),
            size,
            mover: me,
            opening: self.opening(),
            reason,
        };
        let not_own = |square: Square| {
            illegal(IllegalReason::NotYourStone {
                square,
                found: self.stone_at(square),
            })
        };
        let own = self.stones[me.index()];
        match self.phase() {
            Phase::BlackRemoval => {
                if !m.is_removal() {
                    return Err(illegal(IllegalReason::FirstMoveIsRemoval));
                }
                if !own.has(m.from().index()) {
                    return Err(not_own(m.from()));
                }
                if !self.geo.first_removals.has(m.from().index()) {
                    let allowed = (self.geo.first_removals & own)
                        .squares()
                        .map(Square::from_index)
                        .collect();
                    return Err(illegal(IllegalReason::FirstRemovalSquare { allowed }));
                }
                Ok(())
            }
            Phase::WhiteRemoval => {
                let hole = Square::from_index(self.empty().lowest());
                if !m.is_removal() {
                    return Err(illegal(IllegalReason::SecondMoveIsRemoval { hole }));
                }
                if !own.has(m.from().index()) {
                    return Err(not_own(m.from()));
                }
                let (r, c) = (size.row(m.from()), size.col(m.from()));
                let (hr, hc) = (size.row(hole), size.col(hole));
                if r.abs_diff(hr) + c.abs_diff(hc) != 1 {
                    return Err(illegal(IllegalReason::NotNextToHole { hole }));
                }
                Ok(())
            }
            Phase::Jumping => {
                if m.is_removal() {
                    return Err(illegal(IllegalReason::RemovalsOver));
                }
                if !own.has(m.from().index()) {
                    return Err(not_own(m.from()));
                }
                let opp = self.stones[me.opponent().index()];
                let empty = self.empty();
                let from = m.from().index() as isize;
                let mut step = 0;
                for cap in m.captured(size) {
                    let c = cap.index() as isize;
                    if step == 0 {
                        step = c - from;
                    }
                    if !opp.has(cap.index()) {
                        return Err(illegal(IllegalReason::NoStoneToJump { square: cap }));
                    }
                    let land = Square::from_index((c + step) as usize);
                    if !empty.has(land.index()) {
                        return Err(illegal(IllegalReason::LandingNotEmpty { square: land }));
                    }
                }
                Ok(())
            }
        }
    }
}

/// Position text that breaks RULES.md.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Nothing but white space.
    Empty,
    /// The board and the side to move are not separated by a space, or more follows.
    Fields(usize),
    /// The side to move is neither `b` nor `w`.
    Side(String),
    /// More than 16 rows.
    TooManyRows(usize),
    /// A row with no squares.
    EmptyRow(usize),
    /// A row longer than 16 squares.
    RowTooLong {
        /// 1-based, from the top.
        row: usize,
        /// Squares in that row.
        len: usize,
    },
    /// Rows of unequal length.
    RowLength {
        /// 1-based, from the top.
        row: usize,
        /// Squares in that row.
        len: usize,
        /// Squares in the first row.
        expected: usize,
    },
    /// A character other than `b`, `w` or `.`.
    Char {
        /// 1-based, from the top.
        row: usize,
        /// 1-based, from the left.
        col: usize,
        /// The character found.
        found: char,
    },
    /// A full board with White to move.
    FullBoardWhiteToMove,
    /// Exactly one empty square with Black to move.
    OneEmptyBlackToMove,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => f.write_str("the position text is empty"),
            PositionError::Fields(n) => write!(
                f,
                "expected the board, a space and the side to move (b or w), found {n} field(s)"
            ),
            PositionError::Side(s) => {
                write!(f, "the side to move is '{s}': it must be b or w")
            }
            PositionError::TooManyRows(n) => {
                write!(f, "the board has {n} rows: at most 16 are allowed")
            }
            PositionError::EmptyRow(r) => write!(f, "row {r} is empty"),
            PositionError::RowTooLong { row, len } => {
                write!(f, "row {row} has {len} squares: at most 16 are allowed")
            }
            PositionError::RowLength { row, len, expected } => {
                write!(f, "row {row} has {len} squares, expected {expected}")
            }
            PositionError::Char { row, col, found } => write!(
                f,
                "row {row}, square {col}: '{}' is not b, w or .",
                found.escape_debug()
            ),
            PositionError::FullBoardWhiteToMove => f.write_str(
                "the board is full, so Black is to move (Black removes the first stone)",
            ),
            PositionError::OneEmptyBlackToMove => f.write_str(
                "exactly one square is empty, so White is to move (White removes the second stone)",
            ),
        }
    }
}

impl std::error::Error for PositionError {}
