//! What an arena load measured: each player's record, the figures gathered from them,
//! and how they are printed.

use std::time::Instant;

use serde::Serialize;

use super::flags::Args;
use super::games::Baseline;
use super::measure::{Spread, ms};

/// The pairing latency the issue asks for at most (ms).
const PAIRED_WITHIN_MS: f64 = 2000.0;

/// Everything one run measured: the arena, and the same load without it when asked.
#[derive(Serialize, Debug)]
pub(super) struct Report {
    /// The arena's figures.
    pub arena: Figures,
    /// The same load without the arena, when asked.
    pub baseline: Option<Baseline>,
    /// The arena's move round-trip p99 over the baseline's.
    pub p99_ratio: Option<f64>,
}

/// What the arena load measured.
#[derive(Serialize, Debug)]
pub(super) struct Figures {
    /// Players in the arena.
    pub players: usize,
    /// How long it ran, from the start (s).
    pub seconds: f64,
    /// Games that ended while it ran.
    pub games: usize,
    /// Moves played.
    pub moves: usize,
    /// Moves per second.
    pub moves_per_second: f64,
    /// The first wave: from the start to each player's first game (ms).
    pub start_pairing_ms: Spread,
    /// Pairings after a game: a free player's next game arriving.
    pub pairings: usize,
    /// From the end of a player's game to its next game (ms).
    pub pairing_ms: Spread,
    /// Share of all pairings (the first wave's included) within 2 s, counting the players
    /// still waiting at the end for longer than that as late ones.
    pub paired_within_2s: f64,
    /// Players free and not yet paired when it stopped.
    pub waiting_at_end: usize,
    /// The longest of their waits so far (ms).
    pub longest_wait_at_end_ms: f64,
    /// Move sent to the new state on the game's socket (ms).
    pub round_trip_ms: Spread,
    /// Players whose play failed.
    pub errors: usize,
}

/// What one player measured, kept as it comes so a run cut off keeps it.
#[derive(Default)]
pub(super) struct Record {
    /// From the start to its first game.
    pub first: Option<f64>,
    /// From the end of a game to the next.
    pub pairings: Vec<f64>,
    /// Its moves' round trips.
    pub round_trips: Vec<f64>,
    /// The games it saw end.
    pub ended: Vec<String>,
    /// When it became free, while it waits for its next game.
    pub free_since: Option<Instant>,
}

/// The figures of the players' records, gathered when the run stopped.
pub(super) fn figures(
    players: usize,
    records: &[Record],
    started: Instant,
    stopped: Instant,
    errors: usize,
) -> Figures {
    let mut firsts: Vec<f64> = records.iter().filter_map(|r| r.first).collect();
    let mut pairings: Vec<f64> = records.iter().flat_map(|r| r.pairings.clone()).collect();
    let mut round_trips: Vec<f64> = records.iter().flat_map(|r| r.round_trips.clone()).collect();
    let mut ended: Vec<&String> = records.iter().flat_map(|r| &r.ended).collect();
    ended.sort();
    ended.dedup();
    let waits: Vec<f64> = records
        .iter()
        .filter_map(|r| {
            r.free_since
                .map(|at| ms(stopped.saturating_duration_since(at)))
        })
        .collect();
    let late_waits = waits.iter().filter(|&&w| w > PAIRED_WITHIN_MS).count();
    let on_time = (pairings.iter().chain(&firsts))
        .filter(|&&p| p <= PAIRED_WITHIN_MS)
        .count();
    let counted = pairings.len() + firsts.len() + late_waits;
    let seconds = stopped.duration_since(started).as_secs_f64();
    Figures {
        players,
        seconds,
        games: ended.len(),
        moves: round_trips.len(),
        moves_per_second: round_trips.len() as f64 / seconds.max(1e-9),
        start_pairing_ms: Spread::of(&mut firsts),
        pairings: pairings.len(),
        pairing_ms: Spread::of(&mut pairings),
        paired_within_2s: if counted == 0 {
            0.0
        } else {
            on_time as f64 / counted as f64
        },
        waiting_at_end: waits.len(),
        longest_wait_at_end_ms: waits.iter().copied().fold(0.0, f64::max),
        round_trip_ms: Spread::of(&mut round_trips),
        errors,
    }
}

/// Prints the report as text.
pub(super) fn print(cfg: &Args, bases: &[String], r: &Report) {
    let a = &r.arena;
    println!(
        "arena of {} players on {}, {} ms thinking per move, {} moves a player a game, {:.1} s",
        a.players,
        bases.join(", "),
        crate::args::whole_millis(cfg.think),
        cfg.moves,
        a.seconds
    );
    println!(
        "games played      {} ({} moves, {:.0} per second)",
        a.games, a.moves, a.moves_per_second
    );
    println!("first pairing     {} (from the start)", a.start_pairing_ms);
    println!(
        "pairing           {} after a game: {}; {:.1}% of all within 2 s",
        a.pairings,
        a.pairing_ms,
        a.paired_within_2s * 100.0
    );
    println!(
        "waiting at end    {} players, the longest for {:.0} ms",
        a.waiting_at_end, a.longest_wait_at_end_ms
    );
    println!("move round-trip   {}", a.round_trip_ms);
    if let Some(b) = &r.baseline {
        println!(
            "baseline          {} local games at once, {} moves each, {:.1} s: {} games, {} moves ({:.0} per second)",
            b.games,
            2 * cfg.moves,
            b.seconds,
            b.games_played,
            b.moves,
            b.moves_per_second
        );
        println!("baseline trip     {}", b.round_trip_ms);
    }
    if let Some(ratio) = r.p99_ratio {
        println!("p99 ratio         {ratio:.2} (arena over baseline; the goal is at most 1.5)");
    }
    println!(
        "errors            {}",
        a.errors + r.baseline.as_ref().map_or(0, |b| b.errors)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn late_waits_at_the_end_count_against_the_share() {
        let t0 = Instant::now();
        let stopped = t0 + Duration::from_secs(10);
        let record = |first: f64, pairings: Vec<f64>, free: Option<u64>| Record {
            first: Some(first),
            pairings,
            free_since: free.map(|s| t0 + Duration::from_secs(s)),
            ..Record::default()
        };
        let records = [
            record(400.0, vec![100.0, 300.0, 2500.0], None),
            record(2100.0, vec![50.0], Some(9)),
            record(900.0, vec![], Some(5)),
        ];
        let f = figures(4, &records, t0, stopped, 0);
        assert_eq!(f.pairings, 4);
        assert_eq!(f.start_pairing_ms.max, 2100.0);
        assert_eq!(f.waiting_at_end, 2);
        assert_eq!(f.longest_wait_at_end_ms, 5000.0);
        // Five of seven pairings in time, and one wait already too long: 5 of 8.
        assert!(
            (f.paired_within_2s - 0.625).abs() < 1e-9,
            "{}",
            f.paired_within_2s
        );
    }
}
