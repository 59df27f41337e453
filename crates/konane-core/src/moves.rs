//! A move: one removal or one straight jump of one or more captures.

use crate::geometry::{Direction, Size, Square};

/// A move, as the squares it starts and ends on. A removal starts and ends on the same square.
///
/// A move does not know the board it is played on: its meaning needs the [`Size`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// Lifting the stone on `sq` off the board (the two opening moves).
    #[inline]
    pub fn removal(sq: Square) -> Move {
        Move { from: sq, to: sq }
    }

    /// A jump from `from` to `to`; the caller makes sure they lie in one line an even
    /// number of squares apart.
    #[inline]
    pub fn jump(from: Square, to: Square) -> Move {
        debug_assert!(from != to);
        Move { from, to }
    }

    /// Where the stone starts (for a removal: the square emptied).
    #[inline]
    pub fn from(self) -> Square {
        self.from
    }

    /// Where the stone lands (for a removal: the square emptied).
    #[inline]
    pub fn to(self) -> Square {
        self.to
    }

    /// True for the removals of the opening.
    #[inline]
    pub fn is_removal(self) -> bool {
        self.from == self.to
    }

    /// For a jump on a board of `size`: its direction and the number of stones it captures.
    pub fn jump_shape(self, size: Size) -> Option<(Direction, usize)> {
        let (fr, fc) = (size.row(self.from), size.col(self.from));
        let (tr, tc) = (size.row(self.to), size.col(self.to));
        let (dir, dist) = if fr == tr && fc != tc {
            if tc > fc {
                (Direction::East, tc - fc)
            } else {
                (Direction::West, fc - tc)
            }
        } else if fc == tc && fr != tr {
            if tr > fr {
                (Direction::South, tr - fr)
            } else {
                (Direction::North, fr - tr)
            }
        } else {
            return None;
        };
        (dist % 2 == 0).then_some((dir, dist / 2))
    }

    /// The squares a jump captures, nearest the start first; empty for a removal.
    pub fn captured(self, size: Size) -> impl Iterator<Item = Square> {
        let (step, count) = match self.jump_shape(size) {
            Some((dir, k)) => (step(dir, size.cols()), k),
            None => (0, 0),
        };
        let from = self.from.index() as isize;
        (0..count).map(move |i| Square::from_index((from + step * (2 * i as isize + 1)) as usize))
    }
}

/// The index offset of one step in `dir` on a board with `cols` columns.
#[inline]
pub(crate) fn step(dir: Direction, cols: usize) -> isize {
    match dir {
        Direction::North => -(cols as isize),
        Direction::East => 1,
        Direction::South => cols as isize,
        Direction::West => -1,
    }
}
