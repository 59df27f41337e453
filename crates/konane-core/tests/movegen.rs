//! The fast generator against the naive one, on positions reached by random play on every
//! board size; incremental hashes against hashes from scratch.

mod naive;
mod rng;

use konane_core::{
    AnyPosition, Bits, Color, Game, Move, Opening, Phase, Position, Size, with_position,
};
use naive::Grid;
use proptest::prelude::*;
use rng::Rng;

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

/// `mobility`, `movable` and `capturable` for both colours, against the naive generator
/// run with either side to move.
fn check_helpers<B: Bits>(p: &Position<B>, grid: &Grid, size: Size) {
    for color in [Color::Black, Color::White] {
        let mut g = grid.clone();
        g.turn = color;
        let moves = g.moves();
        assert_eq!(p.mobility(color) as usize, moves.len());
        let idx = |(r, c): (usize, usize)| size.square(r, c).unwrap().index();
        let mut movable: Vec<usize> = moves.iter().map(|&(f, _)| idx(f)).collect();
        movable.sort();
        movable.dedup();
        assert_eq!(p.movable(color).squares().collect::<Vec<_>>(), movable);
        let mut g = grid.clone();
        g.turn = color.opponent();
        // Every multi-jump starts with a single jump, so the stones the opponent could
        // capture are exactly the ones its single jumps pass over.
        let mut singles: Vec<usize> = g
            .moves()
            .iter()
            .filter(|&&(f, t)| f.0.abs_diff(t.0) + f.1.abs_diff(t.1) == 2)
            .map(|&(f, t)| idx(((f.0 + t.0) / 2, (f.1 + t.1) / 2)))
            .collect();
        singles.sort();
        singles.dedup();
        assert_eq!(p.capturable(color).squares().collect::<Vec<_>>(), singles);
    }
}

/// Plays one random game, checking the generators agree at every ply; returns plies played.
fn random_game(size: Size, opening: Opening, seed: u64) -> usize {
    let mut rng = Rng(seed | 1);
    let mut game = Game::new(size, opening);
    let mut grid = Grid::start(size.rows(), size.cols(), opening);
    loop {
        let pos = *game.position();
        assert_eq!(Grid::of(&pos), grid, "boards differ at ply {}", game.ply());
        let fast = sorted(pos.legal_moves());
        let slow = grid.core_moves(size);
        assert_eq!(fast, slow, "moves differ in {pos}");
        assert_eq!(
            pos.count_moves() as usize,
            fast.len(),
            "count differs in {pos}"
        );
        with_position!(&pos, p => {
            assert_eq!(p.hash(), p.compute_hash(), "hash drifted in {pos}");
            assert_eq!(p.has_moves(), !fast.is_empty());
            if pos.phase() == Phase::Jumping {
                check_helpers(p, &grid, size);
            }
        });
        if fast.is_empty() {
            assert_eq!(
                game.outcome().map(|o| o.winner),
                Some(pos.turn().opponent())
            );
            return game.ply();
        }
        // Every move, made and unmade, restores the position exactly.
        for &m in &fast {
            let mut p = pos;
            p.play(m).unwrap();
            p.unplay(m);
            assert_eq!(p, pos);
        }
        let m = fast[rng.below(fast.len())];
        game.play(m).unwrap();
        let (f, t) = (m.from(), m.to());
        grid.play((size.row(f), size.col(f)), (size.row(t), size.col(t)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn fast_equals_naive_on_random_games(rows in 1usize..=16, cols in 1usize..=16, center in any::<bool>(), seed in any::<u64>()) {
        let opening = if center { Opening::Center } else { Opening::CenterOrCorner };
        random_game(Size::new(rows, cols).unwrap(), opening, seed);
    }
}

#[test]
fn every_size_and_opening_plays_out() {
    let mut plies = 0;
    for rows in 1..=16 {
        for cols in 1..=16 {
            for opening in Opening::ALL {
                plies += random_game(
                    Size::new(rows, cols).unwrap(),
                    opening,
                    (rows * 31 + cols) as u64,
                );
            }
        }
    }
    assert!(plies > 10_000, "only {plies} plies");
}

#[test]
fn naive_and_fast_perft_agree_on_small_boards() {
    for (size, depth) in [("4x4", 6), ("5x5", 5), ("3x7", 6), ("6x6", 5), ("8x8", 4)] {
        let size: Size = size.parse().unwrap();
        for opening in Opening::ALL {
            let grid = Grid::start(size.rows(), size.cols(), opening);
            let pos = AnyPosition::start(size, opening);
            let fast = with_position!(pos, p => konane_core::perft::perft(&mut { p }, depth));
            assert_eq!(fast, grid.perft(depth), "{size} {opening} depth {depth}");
        }
    }
}
