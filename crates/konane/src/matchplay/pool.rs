//! Pairs of games in parallel, with a progress bar and the sequential test's early stop.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::config::MatchConfig;
use super::game::{PairPlayed, play_pair};
use super::lineup::make_player;
use super::result::MatchResult;
use crate::stats::{PairCounts, Verdict};

/// The pairs finished so far, and how far the test has read them.
struct Tally {
    /// Pair `k` once it is finished.
    pairs: Vec<Option<PairPlayed>>,
    /// The pairs `0..read` are finished and counted in `counts`.
    read: usize,
    counts: PairCounts,
    a_wins: usize,
    games: usize,
    verdict: Option<Verdict>,
}

impl Tally {
    /// Files a finished pair and counts every pair that now completes the finished prefix,
    /// so the test sees pairs in their order whichever worker finishes first: with
    /// reproducible players the test stops at the same pair at any concurrency.
    fn file(&mut self, cfg: &MatchConfig, pair: PairPlayed) {
        self.a_wins += pair.games.iter().filter(|g| g.a_won).count();
        self.games += 2;
        let index = pair.index;
        self.pairs[index] = Some(pair);
        while self.verdict.is_none() {
            let Some(Some(next)) = self.pairs.get(self.read) else {
                break;
            };
            self.counts.add(next.result());
            self.read += 1;
            self.verdict = cfg.sprt.and_then(|s| s.verdict(&self.counts));
        }
    }

    fn message(&self, cfg: &MatchConfig) -> String {
        let c = &self.counts;
        let mut text = format!(
            "{} {} - {} {}; pairs +{} ={} -{}",
            cfg.a_name,
            self.a_wins,
            self.games - self.a_wins,
            cfg.b_name,
            c.won,
            c.split,
            c.lost
        );
        if let Some(sprt) = cfg.sprt {
            let (lower, upper) = sprt.bounds();
            text += &format!(", LLR {:+.2} ({lower:.2}, {upper:.2})", sprt.llr(c));
        }
        text
    }
}

/// Keeps the first error of any worker; the others stop when they see it.
fn record_failure(slot: &Mutex<Option<anyhow::Error>>, e: anyhow::Error) {
    if let Ok(mut f) = slot.lock() {
        f.get_or_insert(e);
    }
}

/// Plays the match's pairs, `cfg.concurrency` at a time, until all are played or the
/// sequential test decides; a progress bar shows the count when `show_progress` is set.
pub fn play_match(cfg: &MatchConfig, show_progress: bool) -> Result<MatchResult> {
    if cfg.games == 0 || !cfg.games.is_multiple_of(2) {
        bail!("--games must be even and at least 2: each opening is played twice, colours swapped");
    }
    let pairs = cfg.games / 2;
    let bar = if show_progress {
        ProgressBar::new(cfg.games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(ProgressStyle::with_template(
        "{spinner} {msg} [{bar:30}] {pos}/{len} games, {elapsed} (eta {eta})",
    )?);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let tally = Mutex::new(Tally {
        pairs: (0..pairs).map(|_| None).collect(),
        read: 0,
        counts: PairCounts::default(),
        a_wins: 0,
        games: 0,
        verdict: None,
    });
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.clamp(1, pairs) {
            let (next, stop, tally, failure, bar) = (&next, &stop, &tally, &failure, &bar);
            s.spawn(move || {
                let players = make_player(&cfg.a, &cfg.go)
                    .and_then(|a| Ok([a, make_player(&cfg.b, &cfg.go)?]));
                let mut players = match players {
                    Ok(p) => p,
                    Err(e) => {
                        record_failure(failure, e);
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pairs || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    match play_pair(cfg, i, &mut players) {
                        Ok(pair) => {
                            let Ok(mut t) = tally.lock() else { break };
                            t.file(cfg, pair);
                            if t.verdict.is_some() {
                                stop.store(true, Ordering::Relaxed);
                            }
                            bar.set_message(t.message(cfg));
                            bar.inc(2);
                        }
                        Err(e) => {
                            record_failure(failure, e);
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let Ok(tally) = tally.into_inner() else {
        bail!("a match worker panicked");
    };
    // Pairs finished after the test decided are left out, so the result does not depend on
    // how many were running when it did.
    let read = tally.read;
    Ok(MatchResult {
        pairs: tally.pairs.into_iter().take(read).flatten().collect(),
        verdict: tally.verdict,
    })
}
