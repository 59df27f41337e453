//! Move generation on bitboards, without allocating.
//!
//! For a direction `d`, let `J` be the squares `y` with an opponent stone on `y + d` and an
//! empty square on `y + 2d`. The landing squares of all single jumps are `L1 = (own & J) + 2d`,
//! of all double jumps `L2 = (L1 & J) + 2d`, and so on: every `k` is a move of its own, and
//! no landing set can hold the same (start, length) twice. Counting the moves is a sum of
//! popcounts, which is what makes bulk-counted perft fast.

use crate::bitboard::Bits;
use crate::geometry::{Color, Geometry, Square};
use crate::moves::Move;
use crate::position::{Phase, Position};

/// Index of each direction in the generator's arrays: north, east, south, west.
const NORTH: usize = 0;
const EAST: usize = 1;
const SOUTH: usize = 2;
const WEST: usize = 3;

/// Shifts a set `n` steps in direction `dir` on a board with `cols` columns.
#[inline(always)]
pub(crate) fn shift<B: Bits>(b: B, dir: usize, n: u32, cols: u32) -> B {
    match dir {
        NORTH => b.shr(n * cols),
        EAST => b.shl(n),
        SOUTH => b.shl(n * cols),
        _ => {
            debug_assert_eq!(dir, WEST);
            b.shr(n)
        }
    }
}

/// The sets `J` of the module docs for a side whose opponent has `opp`, per direction.
#[inline(always)]
pub(crate) fn jump_sources<B: Bits>(geo: &Geometry<B>, opp: B, empty: B) -> [B; 4] {
    let cols = geo.size().cols() as u32;
    [
        opp.shl(cols) & empty.shl(2 * cols),
        geo.east_ok & opp.shr(1) & empty.shr(2),
        opp.shr(cols) & empty.shr(2 * cols),
        geo.west_ok & opp.shl(1) & empty.shl(2),
    ]
}

/// The number of jumps for the side owning `own` against `opp`.
#[inline(always)]
pub(crate) fn count_jumps<B: Bits>(geo: &Geometry<B>, own: B, opp: B) -> u32 {
    let cols = geo.size().cols() as u32;
    let sources = jump_sources(geo, opp, geo.full & !(own | opp));
    let mut n = 0;
    for (dir, &src) in sources.iter().enumerate() {
        let mut landing = shift(own & src, dir, 2, cols);
        while !landing.is_empty() {
            n += landing.count();
            landing = shift(landing & src, dir, 2, cols);
        }
    }
    n
}

impl<B: Bits> Position<B> {
    /// The squares from which a stone of the side to move could jump in each direction,
    /// were it standing there (the sets `J` of the module docs).
    #[inline(always)]
    pub(crate) fn jump_sources(&self) -> [B; 4] {
        jump_sources(
            self.geometry(),
            self.stones(self.turn().opponent()),
            self.empty(),
        )
    }

    /// The stones the side to move may lift, in a removal phase.
    fn removable(&self) -> B {
        let own = self.stones(self.turn());
        match self.phase() {
            Phase::BlackRemoval => own & self.geometry().first_removals,
            Phase::WhiteRemoval => {
                let size = self.size();
                let hole = Square::from_index(self.empty().lowest());
                let (r, c) = (size.row(hole), size.col(hole));
                let around = [
                    (r.wrapping_sub(1), c),
                    (r, c + 1),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                ];
                around
                    .into_iter()
                    .filter_map(|(r, c)| size.square(r, c))
                    .fold(B::ZERO, |acc, sq| acc | B::single(sq.index()))
                    & own
            }
            Phase::Jumping => B::ZERO,
        }
    }

    /// Every legal move, as a lazy iterator that never allocates.
    ///
    /// The order is fixed (removals by square; jumps by direction N, E, S, W, then by
    /// length, then by landing square) but carries no meaning.
    pub fn moves(&self) -> MoveIter<B> {
        let cols = self.size().cols() as u32;
        if self.phase() != Phase::Jumping {
            return MoveIter {
                own: B::ZERO,
                sources: [B::ZERO; 4],
                cols,
                dir: REMOVALS,
                k: 0,
                landing: B::ZERO,
                pending: self.removable(),
            };
        }
        let own = self.stones(self.turn());
        let sources = self.jump_sources();
        let landing = shift(own & sources[NORTH], NORTH, 2, cols);
        MoveIter {
            own,
            sources,
            cols,
            dir: NORTH as u8,
            k: 1,
            landing,
            pending: landing,
        }
    }

    /// The number of legal moves, without listing them.
    #[inline]
    pub fn count_moves(&self) -> u32 {
        let empty = self.empty();
        if empty.without_lowest().is_empty() {
            return self.removable().count();
        }
        count_jumps(
            self.geometry(),
            self.stones(self.turn()),
            self.stones(self.turn().opponent()),
        )
    }

    /// The number of jumps `color` would have if it were to move (jumping phase).
    #[inline]
    pub fn mobility(&self, color: Color) -> u32 {
        count_jumps(
            self.geometry(),
            self.stones(color),
            self.stones(color.opponent()),
        )
    }

    /// The stones of `color` that could jump now, were it `color`'s turn.
    #[inline]
    pub fn movable(&self, color: Color) -> B {
        let own = self.stones(color);
        let sources = jump_sources(self.geometry(), self.stones(color.opponent()), self.empty());
        sources.iter().fold(B::ZERO, |acc, &s| acc | (own & s))
    }

    /// The stones of `color` that the opponent could capture now, were it the opponent's turn.
    #[inline]
    pub fn capturable(&self, color: Color) -> B {
        let cols = self.size().cols() as u32;
        let attackers = self.stones(color.opponent());
        let sources = jump_sources(self.geometry(), self.stones(color), self.empty());
        let mut hit = B::ZERO;
        for (dir, &src) in sources.iter().enumerate() {
            hit |= shift(attackers & src, dir, 1, cols);
        }
        hit
    }

    /// True when the side to move has a legal move; false means it has lost.
    #[inline]
    pub fn has_moves(&self) -> bool {
        if self.phase() != Phase::Jumping {
            return !self.removable().is_empty();
        }
        let own = self.stones(self.turn());
        self.jump_sources().iter().any(|&s| !(own & s).is_empty())
    }

    /// The winner, when the side to move has no move left.
    pub fn winner(&self) -> Option<Color> {
        (!self.has_moves()).then(|| self.turn().opponent())
    }
}

/// Marks a [`MoveIter`] that lists removals rather than jumps.
const REMOVALS: u8 = 4;

/// The legal moves of a position, generated lazily from bitboards.
#[derive(Clone, Debug)]
pub struct MoveIter<B> {
    own: B,
    sources: [B; 4],
    cols: u32,
    dir: u8,
    k: u8,
    landing: B,
    pending: B,
}

impl<B: Bits> Iterator for MoveIter<B> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        loop {
            if !self.pending.is_empty() {
                let to = self.pending.lowest();
                self.pending = self.pending.without_lowest();
                let to_sq = Square::from_index(to);
                if self.dir == REMOVALS {
                    return Some(Move::removal(to_sq));
                }
                let dist = 2 * self.k as usize;
                let from = match self.dir as usize {
                    NORTH => to + dist * self.cols as usize,
                    EAST => to - dist,
                    SOUTH => to - dist * self.cols as usize,
                    _ => to + dist,
                };
                return Some(Move::jump(Square::from_index(from), to_sq));
            }
            if self.dir >= REMOVALS {
                return None;
            }
            let dir = self.dir as usize;
            self.landing = shift(self.landing & self.sources[dir], dir, 2, self.cols);
            self.k += 1;
            if self.landing.is_empty() {
                self.dir += 1;
                if self.dir == REMOVALS {
                    return None;
                }
                let dir = self.dir as usize;
                self.landing = shift(self.own & self.sources[dir], dir, 2, self.cols);
                self.k = 1;
            }
            self.pending = self.landing;
        }
    }
}
