//! Standings of a Swiss or a round robin: points, then Buchholz, then Sonneborn-Berger.
//!
//! A win scores 1 and so does a bye; a loss 0 (Kōnane has no draws). Buchholz is the sum of
//! the points of every opponent met (twice if met twice); a bye adds nothing to it, as no
//! opponent was met (FIDE's "virtual opponent" is left out: it would need the number of
//! rounds, and the site's tournaments are short). Sonneborn-Berger is the sum of the points
//! of the opponents beaten. Unfinished games, and games or byes naming a player outside
//! `0..n`, count for nothing.

use crate::round::{Bye, Played};

/// A Swiss / round-robin line: points (win 1, bye 1), Buchholz (sum of opponents' points;
/// a bye adds nothing — document), Sonneborn-Berger (sum of points of opponents beaten).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's index.
    pub player: usize,
    /// 1-based place; never shared, a full tie goes to the lower index.
    pub rank: usize,
    /// Wins plus byes.
    pub points: u32,
    /// Finished games.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Sum of the points of every opponent met.
    pub buchholz: u32,
    /// Sum of the points of the opponents beaten.
    pub sonneborn_berger: u32,
}

/// Standings of `n` players from games (unfinished ones ignored) and byes: by points, then
/// Buchholz, then Sonneborn-Berger, then index.
pub fn standings(n: usize, played: &[Played], byes: &[Bye]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = (0..n)
        .map(|player| Standing {
            player,
            rank: 0,
            points: 0,
            games: 0,
            wins: 0,
            buchholz: 0,
            sonneborn_berger: 0,
        })
        .collect();
    let finished: Vec<(usize, usize)> = played
        .iter()
        .filter(|g| g.black < n && g.white < n && g.black != g.white)
        .filter_map(|g| {
            let winner = g.winner_index()?;
            Some((winner, g.opponent_of(winner)?))
        })
        .collect();
    for &(winner, loser) in &finished {
        lines[winner].points += 1;
        lines[winner].wins += 1;
        lines[winner].games += 1;
        lines[loser].games += 1;
    }
    for bye in byes.iter().filter(|b| b.player < n) {
        lines[bye.player].points += 1;
    }
    for &(winner, loser) in &finished {
        let (winner_points, loser_points) = (lines[winner].points, lines[loser].points);
        lines[winner].buchholz += loser_points;
        lines[winner].sonneborn_berger += loser_points;
        lines[loser].buchholz += winner_points;
    }
    lines.sort_by(|a, b| {
        (b.points, b.buchholz, b.sonneborn_berger, a.player).cmp(&(
            a.points,
            a.buchholz,
            a.sonneborn_berger,
            b.player,
        ))
    });
    for (place, line) in lines.iter_mut().enumerate() {
        line.rank = place + 1;
    }
    lines
}
