//! Board symmetries: positions that are mirror images or rotations of each other have the
//! same value, so the solver's tables need only one of them.

use konane_core::{AnyPosition, Bits, Color, Move, Phase, Position, Size, Square};

/// The maps of square indices that carry a board of `size` onto itself: 4 for a rectangle
/// (identity, two mirrors, half turn), 8 for a square (also the quarter turns and diagonals).
pub fn symmetries(size: Size) -> Vec<Vec<usize>> {
    // Each takes (row, col, last row, last col) to the image (row, col).
    type Transform = fn(usize, usize, usize, usize) -> (usize, usize);
    const RECTANGLE: [Transform; 4] = [
        |r, c, _, _| (r, c),
        |r, c, _, lc| (r, lc - c),
        |r, c, lr, _| (lr - r, c),
        |r, c, lr, lc| (lr - r, lc - c),
    ];
    const SQUARE_ONLY: [Transform; 4] = [
        |r, c, _, _| (c, r),
        |r, c, lr, lc| (lc - c, lr - r),
        |r, c, lr, _| (c, lr - r),
        |r, c, _, lc| (lc - c, r),
    ];
    let (rows, cols) = (size.rows(), size.cols());
    let square = if rows == cols { &SQUARE_ONLY[..] } else { &[] };
    RECTANGLE
        .iter()
        .chain(square)
        .map(|f| {
            size.all_squares()
                .map(|sq| {
                    let (r, c) = f(size.row(sq), size.col(sq), rows - 1, cols - 1);
                    r * cols + c
                })
                .collect()
        })
        .collect()
}

/// The cells of `pos` seen from the side to move: `m` for its stones, `o` for the
/// opponent's, `.` for empty squares, in square order.
fn mover_cells(pos: &AnyPosition) -> Vec<char> {
    let me = pos.turn();
    pos.size()
        .all_squares()
        .map(|sq| match pos.stone_at(sq) {
            Some(c) if c == me => 'm',
            Some(_) => 'o',
            None => '.',
        })
        .collect()
}

/// The cells of `pos` carried by `map`.
fn image(cells: &[char], map: &[usize]) -> String {
    let mut out = vec!['.'; cells.len()];
    for (from, &to) in map.iter().enumerate() {
        out[to] = cells[from];
    }
    out.into_iter().collect()
}

/// A key equal for all positions that are symmetric images of each other with the same
/// side to move: the smallest image, over all symmetries, of the cells seen from the mover.
pub fn canonical_key(pos: &AnyPosition) -> String {
    let cells = mover_cells(pos);
    symmetries(pos.size())
        .iter()
        .map(|map| image(&cells, map))
        .min()
        .unwrap_or_default()
}

/// The symmetry that carries `from` onto `to` (same size, mover-relative), if any.
pub fn map_between(from: &AnyPosition, to: &AnyPosition) -> Option<Vec<usize>> {
    if from.size() != to.size() {
        return None;
    }
    let target: String = mover_cells(to).into_iter().collect();
    let cells = mover_cells(from);
    symmetries(from.size())
        .into_iter()
        .find(|map| image(&cells, map) == target)
}

/// The position `map` carries `pos` onto, for the same side to move. Where the map takes
/// each colour's squares onto the other's (a quarter turn of an even board), the colours
/// change names with the turn, so that every stone stays on its own colour as in play;
/// during the removals, where the rule names squares, such an image does not exist.
pub fn image_of<B: Bits>(pos: &Position<B>, map: &[usize]) -> Option<Position<B>> {
    let size = pos.size();
    let carry = |stones: B| {
        stones
            .squares()
            .fold(B::ZERO, |acc, i| acc | B::single(map[i]))
    };
    let (black, white) = (
        carry(pos.stones(Color::Black)),
        carry(pos.stones(Color::White)),
    );
    let flips = size.all_squares().next().is_some_and(|sq| {
        size.start_color(sq) != size.start_color(Square::from_index(map[sq.index()]))
    });
    if !flips {
        return Position::from_stones(*pos.geometry(), black, white, pos.turn()).ok();
    }
    if pos.phase() != Phase::Jumping {
        return None;
    }
    Position::from_stones(*pos.geometry(), white, black, pos.turn().opponent()).ok()
}

/// A move of the image position carried back through `map`, onto the original.
pub fn unmap_move(map: &[usize], m: Move) -> Move {
    let back = |sq: Square| {
        Square::from_index(
            map.iter()
                .position(|&t| t == sq.index())
                .unwrap_or(sq.index()),
        )
    };
    let (from, to) = (back(m.from()), back(m.to()));
    if m.is_removal() {
        Move::removal(from)
    } else {
        Move::jump(from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use konane_core::Opening;

    #[test]
    fn symmetric_positions_share_a_key() {
        // Black removed a8 or h1 (the two corners of 8x8): one is the half turn of the other.
        let a = AnyPosition::parse(
            ".wbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w",
            Opening::CenterOrCorner,
        )
        .unwrap();
        let b = AnyPosition::parse(
            "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbw. w",
            Opening::CenterOrCorner,
        )
        .unwrap();
        let c = AnyPosition::parse(
            "bwbwbwbw/wbwbwbwb/bwbwbwbw/wb.bwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w",
            Opening::CenterOrCorner,
        )
        .unwrap();
        assert_eq!(canonical_key(&a), canonical_key(&b));
        let map = map_between(&a, &b).unwrap();
        // White's reply b8 next to a8 corresponds to g1 next to h1.
        let size = a.size();
        let reply = size.parse_move("b8").unwrap();
        let there = unmap_move(&map_between(&b, &a).unwrap(), reply);
        assert!(["g1", "h2"].contains(&size.move_text(there).to_string().as_str()));
        assert!(map_between(&a, &c).is_none());
        assert_eq!(map.len(), 64);
        assert_ne!(canonical_key(&a), canonical_key(&c));
        assert_eq!(symmetries("8x8".parse().unwrap()).len(), 8);
        assert_eq!(symmetries("6x8".parse().unwrap()).len(), 4);
        for size in ["5x7", "6x6"] {
            let size: Size = size.parse().unwrap();
            let maps = symmetries(size);
            for map in &maps {
                let mut seen = map.clone();
                seen.sort();
                assert_eq!(seen, (0..size.squares()).collect::<Vec<_>>());
            }
            let mut distinct = maps.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), maps.len(), "{size}");
        }
    }
}
