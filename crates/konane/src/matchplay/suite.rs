//! Where each pair of games starts: random plies from the start, or a fixed suite of
//! openings read from a file (docs/openings/).
//!
//! A suite file holds one opening a line, as the moves from the start position in notation
//! (`d5 e5 c5-e5 f5-d5`); `#` starts a comment that runs to the end of the line.

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use konane_core::{Game, Opening, Size};
use konane_engine::{Rng, substream};

/// The stream of random openings under a match seed (players use streams 1 and 2).
pub const OPENINGS_STREAM: u64 = 0;

/// Where the pairs of a match start.
#[derive(Clone, Debug)]
pub enum Openings {
    /// This many random legal moves from the start, drawn afresh for every pair.
    Random {
        /// Plies played at random.
        plies: usize,
    },
    /// A fixed suite: pair `k` plays opening `k` modulo the suite's length.
    Suite {
        /// The file it came from, for the report.
        name: String,
        /// Each opening as a game from the start.
        games: Vec<Game>,
    },
}

impl Openings {
    /// The suite in `file`, or random openings of `random_plies`.
    pub fn from_flags(
        file: Option<&Path>,
        random_plies: usize,
        size: Size,
        rule: Opening,
    ) -> Result<Openings> {
        match file {
            Some(path) => Openings::load(path, size, rule),
            None => Ok(Openings::Random {
                plies: random_plies,
            }),
        }
    }

    /// Reads a suite file for `size` and the opening rule `rule`.
    pub fn load(path: &Path, size: Size, rule: Opening) -> Result<Openings> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let games =
            parse_suite(&text, size, rule).with_context(|| format!("{}", path.display()))?;
        Ok(Openings::Suite {
            name: path.display().to_string(),
            games,
        })
    }

    /// The opening of pair `pair` in a match seeded with `seed`.
    pub fn for_pair(&self, size: Size, rule: Opening, seed: u64, pair: usize) -> Result<Game> {
        match self {
            Openings::Random { plies } => {
                let mut rng = Rng::new(substream(substream(seed, OPENINGS_STREAM), pair as u64));
                Ok(random_opening(size, rule, *plies, &mut rng))
            }
            Openings::Suite { games, .. } => games
                .get(pair % games.len().max(1))
                .cloned()
                .ok_or_else(|| anyhow!("the opening suite is empty")),
        }
    }

    /// A few words for the report.
    pub fn describe(&self) -> String {
        match self {
            Openings::Random { plies } => format!("{plies} random opening plies"),
            Openings::Suite { name, games } => format!("{} openings from {name}", games.len()),
        }
    }
}

/// `plies` uniformly random legal moves from the start (fewer if the game ends first).
pub fn random_opening(size: Size, rule: Opening, plies: usize, rng: &mut Rng) -> Game {
    let mut game = Game::new(size, rule);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        let Some(&m) = moves.get(rng.below(moves.len().max(1))) else {
            break;
        };
        if game.play(m).is_err() {
            break;
        }
    }
    game
}

/// Every opening of a suite's text, checked move by move.
pub fn parse_suite(text: &str, size: Size, rule: Opening) -> Result<Vec<Game>> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let moves = line.split('#').next().unwrap_or_default();
        if moves.trim().is_empty() {
            continue;
        }
        let mut game = Game::new(size, rule);
        for m in moves.split_whitespace() {
            game.play_text(m)
                .map_err(|e| anyhow!("line {}: '{m}' on {size} ({rule}): {e}", n + 1))?;
        }
        if game.outcome().is_some() {
            bail!("line {}: the game is already over", n + 1);
        }
        games.push(game);
    }
    if games.is_empty() {
        bail!("no openings in the suite");
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_parse_and_refuse_bad_lines() {
        let size = Size::new(8, 8).unwrap();
        let rule = Opening::CenterOrCorner;
        let games = parse_suite(
            "# a comment\n\nd5 e5  # two removals\na8 b8 a6-a8\n",
            size,
            rule,
        )
        .unwrap();
        assert_eq!(games.iter().map(Game::ply).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(games[1].move_texts(), ["a8", "b8", "a6-a8"]);
        for (bad, says) in [
            ("", "no openings"),
            ("# only\n", "no openings"),
            ("d5\nd5 d5\n", "line 2: 'd5'"),
            ("d5 e5 zz\n", "line 1: 'zz'"),
            ("c3\n", "line 1: 'c3'"),
        ] {
            let e = parse_suite(bad, size, rule).unwrap_err().to_string();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
        let tiny = Size::new(1, 2).unwrap();
        let e = parse_suite("a1 b1\n", tiny, rule).unwrap_err().to_string();
        assert!(e.contains("already over"), "{e}");
    }

    #[test]
    fn random_openings_differ_by_pair_and_seed() {
        let size = Size::new(8, 8).unwrap();
        let rule = Opening::CenterOrCorner;
        let random = Openings::Random { plies: 6 };
        let line = |seed, pair| {
            random
                .for_pair(size, rule, seed, pair)
                .unwrap()
                .move_texts()
        };
        assert_eq!(line(2, 0), line(2, 0));
        assert_ne!(line(2, 0), line(3, 0));
        assert_ne!(line(2, 0), line(2, 1));
        assert_eq!(line(2, 0).len(), 6);
    }
}
