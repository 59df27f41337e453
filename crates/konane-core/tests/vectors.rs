//! Replays the conformance games of `shared/spec/vectors/games.txt` (copied into
//! `tests/data` so the crate's tests stand alone): every position text, every legal-move
//! set, every move and every result must match.

use konane_core::{AnyPosition, Color, Game, Opening, Record, Size};

const GAMES: &str = include_str!("data/games.txt");

struct Ply {
    pos: String,
    moves: Vec<String>,
    play: Option<String>,
}

struct VectorGame {
    title: String,
    size: Size,
    opening: Opening,
    plies: Vec<Ply>,
    winner: Color,
    length: usize,
}

fn games() -> Vec<VectorGame> {
    let mut out: Vec<VectorGame> = Vec::new();
    for line in GAMES.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "##" => {
                // "## game: 8x8 opening center-or-corner seed 0"
                let words: Vec<&str> = rest.split_whitespace().collect();
                out.push(VectorGame {
                    title: rest.to_string(),
                    size: words[1].parse().unwrap(),
                    opening: words[3].parse().unwrap(),
                    plies: vec![],
                    winner: Color::Black,
                    length: 0,
                });
            }
            "pos" => out.last_mut().unwrap().plies.push(Ply {
                pos: rest.to_string(),
                moves: vec![],
                play: None,
            }),
            "moves" => {
                let ply = out.last_mut().unwrap().plies.last_mut().unwrap();
                ply.moves = if rest == "(none)" {
                    vec![]
                } else {
                    rest.split_whitespace().map(String::from).collect()
                };
            }
            "play" => {
                out.last_mut().unwrap().plies.last_mut().unwrap().play = Some(rest.to_string())
            }
            "end" => {
                // "end   White to move has no move -> Black wins after 45 plies"
                let g = out.last_mut().unwrap();
                let words: Vec<&str> = rest.split_whitespace().collect();
                g.winner = if words.contains(&"Black") && rest.contains("Black wins") {
                    Color::Black
                } else {
                    Color::White
                };
                g.length = words[words.len() - 2].parse().unwrap();
            }
            _ => {}
        }
    }
    out
}

#[test]
fn all_conformance_games_replay_exactly() {
    let all = games();
    assert_eq!(all.len(), 13);
    let mut positions = 0;
    for vg in &all {
        let mut game = Game::new(vg.size, vg.opening);
        for (i, ply) in vg.plies.iter().enumerate() {
            let here = game.position();
            assert_eq!(here.to_string(), ply.pos, "{} ply {i}", vg.title);
            // The text parses back to the same position.
            assert_eq!(
                &AnyPosition::parse(&ply.pos, vg.opening).unwrap(),
                here,
                "{} ply {i}",
                vg.title
            );
            let mut ours: Vec<String> = here
                .legal_moves()
                .iter()
                .map(|&m| here.move_text(m))
                .collect();
            ours.sort();
            assert_eq!(ours, ply.moves, "{} ply {i}: {}", vg.title, ply.pos);
            positions += 1;
            match &ply.play {
                Some(m) => {
                    game.play_text(m).unwrap();
                }
                None => assert_eq!(i, vg.plies.len() - 1),
            }
        }
        let outcome = game.outcome().expect("the game is over");
        assert_eq!(outcome.winner, vg.winner, "{}", vg.title);
        assert_eq!(game.ply(), vg.length, "{}", vg.title);
        // And the whole game survives a trip through a record.
        let record = Record::new(game.clone(), vec![("Event".into(), vg.title.clone())]);
        let back = Record::parse(&record.to_string()).unwrap();
        assert_eq!(back.game(), &game);
        assert_eq!(back.tag("Result"), Some(vg.winner.name()));
    }
    assert_eq!(positions, 602, "plies plus final positions of the 13 games");
}
