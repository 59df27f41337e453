//! Board sizes, squares, colours, opening rules and the precomputed masks of one board.

use core::fmt;
use core::str::FromStr;

use crate::bitboard::Bits;

/// Largest number of rows or columns a board may have.
pub const MAX_SIDE: u8 = 16;

/// A player, and the colour of their stones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first; owns the squares where row + column is even.
    Black,
    /// Moves second.
    White,
}

impl Color {
    /// The other player.
    #[inline]
    #[must_use]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: the index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lowercase English name, as used in game records and the API.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The one-letter code of position text.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which stones Black may lift on the first move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Opening {
    /// A Black stone among the central squares or in a corner (the default).
    #[default]
    CenterOrCorner,
    /// A Black stone among the central squares only.
    Center,
}

impl Opening {
    /// Both rules, the default first.
    pub const ALL: [Opening; 2] = [Opening::CenterOrCorner, Opening::Center];

    /// The rule's name as written in records and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Opening::CenterOrCorner => "center-or-corner",
            Opening::Center => "center",
        }
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Opening {
    type Err = OpeningError;

    fn from_str(s: &str) -> Result<Self, OpeningError> {
        Opening::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| OpeningError(s.to_string()))
    }
}

/// The dimensions of a board, rows first: `6x8` has 6 rows and 8 columns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Size {
    rows: u8,
    cols: u8,
}

impl Size {
    /// The default 8x8 board.
    pub const DEFAULT: Size = Size { rows: 8, cols: 8 };

    /// A size of `rows` by `cols`, each from 1 to 16.
    pub fn new(rows: usize, cols: usize) -> Result<Size, SizeError> {
        let side = 1..=MAX_SIDE as usize;
        if !side.contains(&rows) {
            return Err(SizeError::Rows(rows));
        }
        if !side.contains(&cols) {
            return Err(SizeError::Cols(cols));
        }
        Ok(Size {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Number of rows.
    #[inline]
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[inline]
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// Number of squares.
    #[inline]
    pub fn squares(self) -> usize {
        self.rows() * self.cols()
    }

    /// The square at `row` (0 = top) and `col` (0 = left), if it is on the board.
    #[inline]
    pub fn square(self, row: usize, col: usize) -> Option<Square> {
        (row < self.rows() && col < self.cols()).then(|| Square((row * self.cols() + col) as u8))
    }

    /// The row (0 = top) of a square.
    #[inline]
    pub fn row(self, sq: Square) -> usize {
        sq.index() / self.cols()
    }

    /// The column (0 = left) of a square.
    #[inline]
    pub fn col(self, sq: Square) -> usize {
        sq.index() % self.cols()
    }

    /// The colour a square had at the start: Black where row + column is even.
    #[inline]
    pub fn start_color(self, sq: Square) -> Color {
        if (self.row(sq) + self.col(sq)).is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Every square, in index order (top row first, left to right).
    pub fn all_squares(self) -> impl Iterator<Item = Square> {
        (0..self.squares()).map(|i| Square(i as u8))
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    /// Reads `RxC` (`8x8`, `6x8`); `X` is accepted too.
    fn from_str(s: &str) -> Result<Size, SizeError> {
        let s = s.trim();
        let (r, c) = s
            .split_once(['x', 'X'])
            .ok_or_else(|| SizeError::Syntax(s.to_string()))?;
        let num = |t: &str| {
            t.parse::<usize>()
                .map_err(|_| SizeError::Syntax(s.to_string()))
        };
        Size::new(num(r)?, num(c)?)
    }
}

/// A square, as its index `row * cols + col` on a board whose size is known elsewhere.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(pub(crate) u8);

impl Square {
    /// The square with this index; the caller keeps it inside the board.
    #[inline]
    pub fn from_index(index: usize) -> Square {
        debug_assert!(index < 256);
        Square(index as u8)
    }

    /// The index `row * cols + col`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One of the four orthogonal directions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Toward row 0.
    North,
    /// Toward the last column.
    East,
    /// Toward the last row.
    South,
    /// Toward column 0.
    West,
}

impl Direction {
    /// All four, in the order the move generator visits them.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];
}

/// Everything about one board that does not change during a game: its size, its opening
/// rule, and the masks the move generator needs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Geometry<B> {
    size: Size,
    opening: Opening,
    /// Every square of the board.
    pub(crate) full: B,
    /// Squares from which an eastward jump stays on the board (column <= cols - 3).
    pub(crate) east_ok: B,
    /// Squares from which a westward jump stays on the board (column >= 2).
    pub(crate) west_ok: B,
    /// Squares Black may empty on the first move.
    pub(crate) first_removals: B,
    /// Part of every hash, so equal stones on boards of other sizes or rules hash apart.
    pub(crate) key: u64,
}

impl<B: Bits> Geometry<B> {
    /// The geometry of a board, if it fits in `B`.
    pub fn new(size: Size, opening: Opening) -> Result<Self, SizeError> {
        if size.squares() > B::CAPACITY {
            return Err(SizeError::TooWide {
                size,
                capacity: B::CAPACITY,
            });
        }
        let mask = |keep: &dyn Fn(usize, usize) -> bool| {
            size.all_squares()
                .filter(|&sq| keep(size.row(sq), size.col(sq)))
                .fold(B::ZERO, |acc, sq| acc | B::single(sq.index()))
        };
        let cols = size.cols();
        let full = mask(&|_, _| true);
        let east_ok = mask(&|_, c| c + 2 < cols);
        let west_ok = mask(&|_, c| c >= 2);
        let allowed = first_removal_squares(size, opening);
        let first_removals = mask(&|r, c| allowed.contains(&(r, c)));
        Ok(Geometry {
            size,
            opening,
            full,
            east_ok,
            west_ok,
            first_removals,
            key: crate::zobrist::board(size.rows(), size.cols(), opening as usize),
        })
    }

    /// The board's size.
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The opening rule of the game.
    #[inline]
    pub fn opening(&self) -> Opening {
        self.opening
    }

    /// The squares Black may empty on the first move.
    pub fn first_removals(&self) -> B {
        self.first_removals
    }
}

/// The squares (row, column) from which Black may lift a stone on the first move.
fn first_removal_squares(size: Size, opening: Opening) -> Vec<(usize, usize)> {
    let (rows, cols) = (size.rows(), size.cols());
    let black = |&(r, c): &(usize, usize)| (r + c) % 2 == 0;
    let middles = |n: usize| {
        if n.is_multiple_of(2) {
            vec![n / 2 - 1, n / 2]
        } else {
            vec![n / 2]
        }
    };
    let mut central: Vec<(usize, usize)> = middles(rows)
        .into_iter()
        .flat_map(|r| middles(cols).into_iter().map(move |c| (r, c)))
        .filter(black)
        .collect();
    if central.is_empty() {
        // Both sides odd and the middle square White: its Black neighbours stand in.
        let (r, c) = (rows / 2, cols / 2);
        let neighbours = [
            (r.wrapping_sub(1), c),
            (r, c + 1),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
        ];
        central = neighbours
            .into_iter()
            .filter(|&(r, c)| r < rows && c < cols)
            .filter(black)
            .collect();
    }
    if opening == Opening::CenterOrCorner {
        let corners = [(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)];
        central.extend(corners.into_iter().filter(black));
    }
    central
}

/// A board size that is malformed or outside 1..16.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SizeError {
    /// Not of the form `RxC`.
    Syntax(String),
    /// Rows outside 1..16.
    Rows(usize),
    /// Columns outside 1..16.
    Cols(usize),
    /// More squares than the chosen bitboard holds.
    TooWide {
        /// The board asked for.
        size: Size,
        /// Squares the bitboard holds.
        capacity: usize,
    },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Syntax(s) => write!(
                f,
                "'{s}' is not a board size: write rows x columns, like 8x8 or 6x8"
            ),
            SizeError::Rows(n) => write!(f, "{n} rows: a board has 1 to 16 rows"),
            SizeError::Cols(n) => write!(f, "{n} columns: a board has 1 to 16 columns"),
            SizeError::TooWide { size, capacity } => {
                write!(
                    f,
                    "a {size} board does not fit in a {capacity}-square bitboard"
                )
            }
        }
    }
}

/// An opening rule name that is neither `center-or-corner` nor `center`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OpeningError(pub String);

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not an opening rule: use center-or-corner or center",
            self.0
        )
    }
}

impl std::error::Error for SizeError {}
impl std::error::Error for OpeningError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(size: &str, opening: Opening) -> Vec<(usize, usize)> {
        let mut v = first_removal_squares(size.parse().unwrap(), opening);
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn first_removals_follow_the_rules() {
        assert_eq!(
            allowed("8x8", Opening::CenterOrCorner),
            [(0, 0), (3, 3), (4, 4), (7, 7)]
        );
        assert_eq!(allowed("8x8", Opening::Center), [(3, 3), (4, 4)]);
        // 5x5: the middle square (2,2) is Black.
        assert_eq!(allowed("5x5", Opening::Center), [(2, 2)]);
        // 3x5: the middle (1,2) is White, so its Black neighbours count as central.
        assert_eq!(
            allowed("3x5", Opening::Center),
            [(0, 2), (1, 1), (1, 3), (2, 2)]
        );
        // 1x1: the single square is Black, central and a corner.
        assert_eq!(allowed("1x1", Opening::CenterOrCorner), [(0, 0)]);
        // 1x2: middle columns 0 and 1, only column 0 is Black.
        assert_eq!(allowed("1x2", Opening::Center), [(0, 0)]);
    }

    #[test]
    fn sizes_parse_and_reject() {
        assert_eq!("6x8".parse::<Size>().unwrap().cols(), 8);
        assert_eq!("16X16".parse::<Size>().unwrap().squares(), 256);
        for bad in ["0x8", "8x17", "8", "x", "axb", "8x8x8", ""] {
            assert!(bad.parse::<Size>().is_err(), "{bad}");
        }
        assert!(Geometry::<u64>::new("8x9".parse().unwrap(), Opening::Center).is_err());
        assert!(Geometry::<u128>::new("8x16".parse().unwrap(), Opening::Center).is_ok());
    }

    #[test]
    fn openings_parse() {
        assert_eq!("center".parse::<Opening>().unwrap(), Opening::Center);
        assert_eq!(
            "Center-Or-Corner".parse::<Opening>().unwrap(),
            Opening::CenterOrCorner
        );
        assert!("corner".parse::<Opening>().is_err());
    }
}
