//! One pair of games: the same opening twice, colours swapped.

use std::time::Instant;

use anyhow::{Result, anyhow};
use konane_core::{Color, Game, Record};
use konane_engine::substream;

use super::config::MatchConfig;
use super::player::Player;
use crate::stats::PairResult;

/// The streams of the first and the second player's random choices under a match seed.
const PLAYER_STREAMS: [u64; 2] = [1, 2];

/// One finished game.
pub struct Played {
    /// Whether the first player won.
    pub a_won: bool,
    /// The game, with its tags.
    pub record: Record,
    /// Thinking time per move, in milliseconds, of `a` and of `b`.
    pub think_ms: [Vec<f64>; 2],
}

/// Both games of a pair: the first player has Black in the first.
pub struct PairPlayed {
    /// The pair's number in the match, from 0.
    pub index: usize,
    /// The two games.
    pub games: [Played; 2],
}

impl PairPlayed {
    /// What the pair gave the first player.
    pub fn result(&self) -> PairResult {
        PairResult::from_wins(self.games.iter().filter(|g| g.a_won).count())
    }
}

/// Plays pair `pair`; `players[0]` is the first player, `players[1]` the second.
pub fn play_pair(
    cfg: &MatchConfig,
    pair: usize,
    players: &mut [Box<dyn Player>; 2],
) -> Result<PairPlayed> {
    let opening = cfg
        .openings
        .for_pair(cfg.size, cfg.opening, cfg.seed, pair)?;
    let first = play_game(cfg, 2 * pair, opening.clone(), players)?;
    let second = play_game(cfg, 2 * pair + 1, opening, players)?;
    Ok(PairPlayed {
        index: pair,
        games: [first, second],
    })
}

/// Plays game `index` on from `game`; the first player has Black in even games. Each game
/// reseeds both players from the match seed, so it replays the same whichever worker plays it.
fn play_game(
    cfg: &MatchConfig,
    index: usize,
    mut game: Game,
    players: &mut [Box<dyn Player>; 2],
) -> Result<Played> {
    let a_black = index.is_multiple_of(2);
    for (p, stream) in players.iter_mut().zip(PLAYER_STREAMS) {
        p.new_game(
            cfg.size,
            cfg.opening,
            substream(substream(cfg.seed, stream), index as u64),
        )?;
    }
    let seat = |c: Color| usize::from((c == Color::Black) != a_black);
    let mut termination = None;
    let mut think_ms = [Vec::new(), Vec::new()];
    while game.outcome().is_none() {
        let mover = game.position().turn();
        let started = Instant::now();
        let choice = players[seat(mover)].choose(&game);
        think_ms[seat(mover)].push(started.elapsed().as_secs_f64() * 1000.0);
        let played = choice.and_then(|m| game.play(m).map_err(|e| anyhow!("{e}")));
        if let Err(e) = played {
            termination = Some((mover.opponent(), format!("{mover} forfeits: {e}")));
            break;
        }
    }
    let (winner, reason) = termination
        .or_else(|| game.outcome().map(|o| (o.winner, o.termination())))
        .ok_or_else(|| anyhow!("game {} stopped without a result", index + 1))?;
    let (black, white) = if a_black {
        (&cfg.a_name, &cfg.b_name)
    } else {
        (&cfg.b_name, &cfg.a_name)
    };
    let tags = vec![
        (
            "Event".to_string(),
            format!("konane match, {} vs {}", cfg.a_name, cfg.b_name),
        ),
        ("Round".to_string(), (index + 1).to_string()),
        ("Black".to_string(), black.clone()),
        ("White".to_string(), white.clone()),
        ("Result".to_string(), winner.name().to_string()),
        ("Termination".to_string(), reason),
    ];
    Ok(Played {
        a_won: seat(winner) == 0,
        record: Record::new(game, tags),
        think_ms,
    })
}
