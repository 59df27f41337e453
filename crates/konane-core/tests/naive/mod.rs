//! A deliberately naive second implementation of RULES.md, for the fast generator to
//! agree with: a grid of cells, every square, every direction, every jump length.
//! It shares nothing with the core but the types used to name squares and moves.

use konane_core::{AnyPosition, Color, Move, Opening, Size};

/// A board as plain cells, row 0 at the top.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Option<Color>>,
    pub turn: Color,
    pub opening: Opening,
}

impl Grid {
    pub fn start(rows: usize, cols: usize, opening: Opening) -> Grid {
        let mut cells = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                cells.push(Some(if (r + c) % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }));
            }
        }
        Grid {
            rows,
            cols,
            cells,
            turn: Color::Black,
            opening,
        }
    }

    /// Copies a position cell by cell, through the public API only.
    pub fn of(p: &AnyPosition) -> Grid {
        let size = p.size();
        let cells = size.all_squares().map(|sq| p.stone_at(sq)).collect();
        Grid {
            rows: size.rows(),
            cols: size.cols(),
            cells,
            turn: p.turn(),
            opening: p.opening(),
        }
    }

    fn at(&self, r: isize, c: isize) -> Option<Option<Color>> {
        if r < 0 || c < 0 || r >= self.rows as isize || c >= self.cols as isize {
            None
        } else {
            Some(self.cells[r as usize * self.cols + c as usize])
        }
    }

    fn allowed_first(&self, r: usize, c: usize) -> bool {
        let black = |r: usize, c: usize| (r + c).is_multiple_of(2);
        let mid = |n: usize| {
            if n.is_multiple_of(2) {
                vec![n / 2 - 1, n / 2]
            } else {
                vec![n / 2]
            }
        };
        let mut central = vec![];
        for &mr in &mid(self.rows) {
            for &mc in &mid(self.cols) {
                if black(mr, mc) {
                    central.push((mr, mc));
                }
            }
        }
        if central.is_empty() {
            let (mr, mc) = (self.rows as isize / 2, self.cols as isize / 2);
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (rr, cc) = (mr + dr, mc + dc);
                if self.at(rr, cc).is_some() && black(rr as usize, cc as usize) {
                    central.push((rr as usize, cc as usize));
                }
            }
        }
        if central.contains(&(r, c)) {
            return true;
        }
        let corner = (r == 0 || r == self.rows - 1) && (c == 0 || c == self.cols - 1);
        self.opening == Opening::CenterOrCorner && corner && black(r, c)
    }

    /// Every legal move as (from, to) in (row, col).
    pub fn moves(&self) -> Vec<((usize, usize), (usize, usize))> {
        let empties = self.cells.iter().filter(|c| c.is_none()).count();
        let me = self.turn;
        let opp = me.opponent();
        let mut out = vec![];
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.cells[r * self.cols + c] != Some(me) {
                    continue;
                }
                if empties == 0 {
                    if self.allowed_first(r, c) {
                        out.push(((r, c), (r, c)));
                    }
                } else if empties == 1 {
                    let adjacent_empty = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                        .iter()
                        .any(|&(dr, dc)| self.at(r as isize + dr, c as isize + dc) == Some(None));
                    if adjacent_empty {
                        out.push(((r, c), (r, c)));
                    }
                } else {
                    for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
                        for k in 1..=16isize {
                            let ok = (0..k).all(|i| {
                                let over = self.at(
                                    r as isize + dr * (2 * i + 1),
                                    c as isize + dc * (2 * i + 1),
                                );
                                let land = self.at(
                                    r as isize + dr * (2 * i + 2),
                                    c as isize + dc * (2 * i + 2),
                                );
                                over == Some(Some(opp)) && land == Some(None)
                            });
                            if ok {
                                let to = (
                                    (r as isize + 2 * k * dr) as usize,
                                    (c as isize + 2 * k * dc) as usize,
                                );
                                out.push(((r, c), to));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    pub fn play(&mut self, from: (usize, usize), to: (usize, usize)) {
        let idx = |(r, c): (usize, usize)| r * self.cols + c;
        let stone = self.cells[idx(from)];
        self.cells[idx(from)] = None;
        if from != to {
            let (dr, dc) = (
                (to.0 as isize - from.0 as isize).signum(),
                (to.1 as isize - from.1 as isize).signum(),
            );
            let (mut r, mut c) = (from.0 as isize + dr, from.1 as isize + dc);
            while (r as usize, c as usize) != to {
                self.cells[r as usize * self.cols + c as usize] = None;
                r += dr;
                c += dc;
            }
            self.cells[idx(to)] = stone;
        }
        self.turn = self.turn.opponent();
    }

    /// The moves as the core's `Move`, sorted.
    pub fn core_moves(&self, size: Size) -> Vec<Move> {
        let sq = |(r, c): (usize, usize)| size.square(r, c).unwrap();
        let mut v: Vec<Move> = self
            .moves()
            .into_iter()
            .map(|(f, t)| {
                if f == t {
                    Move::removal(sq(f))
                } else {
                    Move::jump(sq(f), sq(t))
                }
            })
            .collect();
        v.sort();
        v
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|(f, t)| {
                let mut g = self.clone();
                g.play(f, t);
                g.perft(depth - 1)
            })
            .sum()
    }
}
