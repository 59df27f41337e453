//! `konane solve`: who wins each opening with perfect play.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{AnyPosition, Color, Move};
use konane_engine::symmetry::{canonical_key, map_between, unmap_move};
use konane_engine::{Proof, ProofTable, Solver};

/// One position to prove, and what was found.
struct Job {
    position: AnyPosition,
    proof: Option<Proof>,
    nodes: u64,
    secs: f64,
}

/// A line of the opening table.
struct Row {
    removal: Option<Move>,
    reply: Option<Move>,
    position: AnyPosition,
    job: Option<usize>,
}

/// Finished positions, one per line, so a long run can stop and go on later:
/// `<position text>;<win|loss>;<best move or ->;<nodes>;<seconds>`.
struct ResumeLog {
    file: Mutex<std::fs::File>,
}

impl ResumeLog {
    /// Opens (or creates) the log and fills in the jobs it already holds.
    fn open(path: &Path, jobs: &mut [Job]) -> Result<ResumeLog> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let bad = || anyhow!("{} line {}: not a solve result", path.display(), n + 1);
            let fields: Vec<&str> = line.split(';').collect();
            let [position, result, best, nodes, secs] = fields[..] else {
                return Err(bad());
            };
            let Some(job) = jobs.iter_mut().find(|j| j.position.to_string() == position) else {
                continue;
            };
            let best = match best {
                "-" => None,
                m => Some(job.position.size().parse_move(m).map_err(|_| bad())?),
            };
            job.proof = Some(Proof {
                win: result == "win",
                best,
            });
            job.nodes = nodes.parse().map_err(|_| bad())?;
            job.secs = secs.parse().map_err(|_| bad())?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(ResumeLog {
            file: Mutex::new(file),
        })
    }

    fn append(&self, job: &Job) -> Result<()> {
        let Some(proof) = job.proof else {
            return Ok(());
        };
        let best = proof
            .best
            .map_or("-".to_string(), |m| job.position.move_text(m));
        let line = format!(
            "{};{};{best};{};{:.3}\n",
            job.position,
            if proof.win { "win" } else { "loss" },
            job.nodes,
            job.secs
        );
        let mut f = self.file.lock().map_err(|_| anyhow!("log lock poisoned"))?;
        f.write_all(line.as_bytes())?;
        f.flush()?;
        Ok(())
    }
}

/// Solves `start`: when it is the initial position, every first removal and every White
/// reply; otherwise the position itself.
pub fn run(
    start: &AnyPosition,
    threads: usize,
    table_mb: usize,
    resume: Option<&Path>,
) -> Result<()> {
    let began = Instant::now();
    let initial = AnyPosition::start(start.size(), start.opening());
    // (removal, reply, position after both, index of its job) for the opening table.
    let mut rows: Vec<Row> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut add = |pos: AnyPosition, jobs: &mut Vec<Job>| {
        *by_key.entry(canonical_key(&pos)).or_insert_with(|| {
            jobs.push(Job {
                position: pos,
                proof: None,
                nodes: 0,
                secs: 0.0,
            });
            jobs.len() - 1
        })
    };
    if *start == initial {
        for removal in start.legal_moves() {
            let mut after = *start;
            after.play(removal)?;
            let replies = after.legal_moves();
            if replies.is_empty() {
                rows.push(Row {
                    removal: Some(removal),
                    reply: None,
                    position: after,
                    job: None,
                });
            }
            for reply in replies {
                let mut p = after;
                p.play(reply)?;
                let job = add(p, &mut jobs);
                rows.push(Row {
                    removal: Some(removal),
                    reply: Some(reply),
                    position: p,
                    job: Some(job),
                });
            }
        }
    } else {
        let job = add(*start, &mut jobs);
        rows.push(Row {
            removal: None,
            reply: None,
            position: *start,
            job: Some(job),
        });
    }
    println!(
        "Konane {}, opening {}: {} position(s) to solve ({} distinct up to symmetry), {} thread(s)",
        start.size(),
        start.opening(),
        rows.len(),
        jobs.len(),
        threads
    );

    let log = match resume {
        Some(path) => Some(ResumeLog::open(path, &mut jobs)?),
        None => None,
    };
    let table = ProofTable::new(table_mb);
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} solving [{bar:40}] {pos}/{len} positions, {elapsed} {msg}",
    )?);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let jobs = Mutex::new(jobs);
    let count = jobs.lock().map_or(0, |j| j.len());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let Some((pos, done)) = jobs
                        .lock()
                        .ok()
                        .map(|j| (j[i].position, j[i].proof.is_some()))
                    else {
                        break;
                    };
                    if done {
                        bar.inc(1);
                        continue;
                    }
                    let t = Instant::now();
                    let mut solver = Solver::new(&table, &stop, u64::MAX);
                    let proof = konane_core::with_position!(&pos, p => solver.solve(p)).ok();
                    if let Ok(mut j) = jobs.lock() {
                        j[i].proof = proof;
                        j[i].nodes = solver.nodes();
                        j[i].secs = t.elapsed().as_secs_f64();
                        if let Some(log) = log.as_ref()
                            && let Err(e) = log.append(&j[i])
                        {
                            bar.println(format!("warning: could not save progress: {e}"));
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let jobs = jobs.into_inner().unwrap_or_default();

    println!();
    println!(
        "{:<8} {:<8} {:<7} {:<10} {:>14} {:>9}",
        "removal", "reply", "winner", "best move", "nodes", "time"
    );
    let winner_of = |row: &Row| -> Color {
        match row.job {
            // White has no reply to the removal: Black wins on the spot.
            None => Color::Black,
            Some(j) => {
                let job = &jobs[j];
                let win = job.proof.is_some_and(|p| p.win);
                if win {
                    job.position.turn()
                } else {
                    job.position.turn().opponent()
                }
            }
        }
    };
    for row in &rows {
        let text = |m: Option<Move>| m.map_or("-".to_string(), |m| start.move_text(m));
        let (best, nodes, secs) = match row.job {
            Some(j) => {
                let job = &jobs[j];
                // The job may be a mirror image of this row: carry its move back.
                let best = job
                    .proof
                    .and_then(|p| p.best)
                    .and_then(|m| {
                        map_between(&row.position, &job.position).map(|map| unmap_move(&map, m))
                    })
                    .map_or("-".to_string(), |m| row.position.move_text(m));
                (best, job.nodes, job.secs)
            }
            None => ("-".to_string(), 0, 0.0),
        };
        println!(
            "{:<8} {:<8} {:<7} {:<10} {:>14} {:>8.2}s",
            text(row.removal),
            text(row.reply),
            winner_of(row).name(),
            best,
            nodes,
            secs
        );
    }
    let total_nodes: u64 = jobs.iter().map(|j| j.nodes).sum();
    println!();
    if *start == initial {
        // Black wins with a removal every reply to which loses for White.
        let mut winning: Vec<String> = Vec::new();
        let mut removals: Vec<Move> = rows.iter().filter_map(|r| r.removal).collect();
        removals.dedup();
        for &r in &removals {
            if rows
                .iter()
                .filter(|row| row.removal == Some(r))
                .all(|row| winner_of(row) == Color::Black)
            {
                winning.push(start.move_text(r));
            }
        }
        if winning.is_empty() {
            println!("White wins with perfect play: every first removal has a winning reply.");
        } else {
            println!(
                "Black wins with perfect play, by removing {}.",
                winning.join(" or ")
            );
        }
    } else if let Some(row) = rows.first() {
        println!("{} wins with perfect play.", winner_of(row).name());
    }
    let secs = began.elapsed().as_secs_f64();
    println!(
        "{total_nodes} nodes in {secs:.2} s ({:.1} M nodes/s)",
        total_nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
