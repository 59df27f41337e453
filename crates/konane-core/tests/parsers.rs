//! No input makes a parser panic; everything written reads back unchanged; a move that is
//! refused changes nothing.

mod rng;

use konane_core::{AnyPosition, Game, Opening, Record, Size};
use proptest::prelude::*;
use rng::Rng;

/// A game of random moves on a random board, stopped after at most `plies` moves.
fn random_game(rows: usize, cols: usize, opening: Opening, seed: u64, plies: usize) -> Game {
    let mut rng = Rng(seed | 1);
    let mut game = Game::new(Size::new(rows, cols).unwrap(), opening);
    while game.ply() < plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    game
}

fn opening(center: bool) -> Opening {
    if center {
        Opening::Center
    } else {
        Opening::CenterOrCorner
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn no_parser_panics_on_any_string(s in "\\PC{0,200}") {
        let _ = s.parse::<Size>();
        let _ = s.parse::<Opening>();
        for size in [Size::DEFAULT, Size::new(1, 1).unwrap(), Size::new(16, 16).unwrap()] {
            let _ = size.parse_square(&s);
            let _ = size.parse_move(&s);
        }
        let _ = AnyPosition::parse(&s, Opening::Center);
        let _ = Record::parse(&s);
    }

    #[test]
    fn no_parser_panics_on_near_misses(
        board in "[bwBW./xq1 ]{0,300}",
        record in "(\\[[A-Za-z]{1,8} \"[^\"\\n]{0,20}\"\\]\n){0,4}\n?([0-9]{1,3}\\.{1,3} )?([a-q][0-9]{1,2}([-x][a-q][0-9]{1,2})? ?){0,6}",
    ) {
        let _ = AnyPosition::parse(&board, Opening::CenterOrCorner);
        let _ = Record::parse(&record);
    }

    #[test]
    fn refused_moves_change_nothing(rows in 1usize..=16, cols in 1usize..=16, c in any::<bool>(), seed in any::<u64>(), plies in 0usize..40, text in "[a-q]{0,1}[0-9]{0,2}([-x][a-q][0-9]{0,2})?|\\PC{0,12}") {
        let mut game = random_game(rows, cols, opening(c), seed, plies);
        let before = game.clone();
        if game.play_text(&text).is_err() {
            prop_assert_eq!(game, before);
        } else {
            prop_assert_eq!(game.ply(), before.ply() + 1);
        }
    }

    #[test]
    fn positions_and_records_round_trip(rows in 1usize..=16, cols in 1usize..=16, c in any::<bool>(), seed in any::<u64>(), plies in 0usize..300, from_middle in any::<bool>()) {
        let opening = opening(c);
        let mut game = random_game(rows, cols, opening, seed, plies);
        let text = game.position().to_string();
        prop_assert_eq!(&AnyPosition::parse(&text, opening).unwrap(), game.position());
        if from_middle {
            // A record that starts from a later position, possibly with White to move.
            let start = *game.position();
            game = Game::from_position(start);
            for _ in 0..3 {
                match game.position().legal_moves().first() {
                    Some(&m) => game.play(m).unwrap(),
                    None => break,
                }
            }
        }
        let record = Record::new(game.clone(), vec![("Event".into(), format!("test \"{seed}\" \\ x"))]);
        let written = record.to_string();
        let back = Record::parse(&written).unwrap();
        prop_assert_eq!(back.game(), &game);
        prop_assert_eq!(&back, &record);
        prop_assert_eq!(back.to_string(), written);
    }
}
