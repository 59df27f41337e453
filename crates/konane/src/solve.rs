//! `konane solve`: who wins each opening with perfect play.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::args::{RuleArg, parse_mib, position_or_start, print_json, thread_count};
use crate::solve_report::{BenchBoard, BenchReport, SolveReport};
use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{AnyPosition, Color, Game, Move, Opening, Size};
pub(crate) use konane_engine::solve::Job;
use konane_engine::solve::{RunProgress, RunReport};
use konane_engine::symmetry::{canonical_key, map_between, unmap_move};
use konane_engine::{Keying, Proof, ProofNumberSearch, ProofTable, Solver, WhyHashed};

/// A line of the opening table.
pub(crate) struct Row {
    pub(crate) removal: Option<Move>,
    pub(crate) reply: Option<Move>,
    pub(crate) position: AnyPosition,
    pub(crate) job: Option<usize>,
}

/// Finished positions, one per line, so a long run can stop and go on later:
/// `<position text>;<win|loss|open>;<best move or ->;<nodes>;<seconds>`, where `open` is
/// an attempt that ran out of its nodes.
pub(crate) struct ResumeLog {
    file: Mutex<std::fs::File>,
}

impl ResumeLog {
    /// Opens (or creates) the log of a run from `start` and fills in the jobs it already
    /// holds; returns it with the proven positions it holds that are no job (the answers
    /// `konane lines --book` proved), so a run again proves nothing twice.
    pub(crate) fn open(
        path: &Path,
        start: &AnyPosition,
        jobs: &mut [Job],
    ) -> Result<(ResumeLog, Vec<Job>)> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let mut index: HashMap<AnyPosition, Vec<usize>> = HashMap::new();
        for (i, job) in jobs.iter().enumerate() {
            index.entry(job.position).or_default().push(i);
        }
        let mut others = Vec::new();
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let logged = ResumeLog::parse(line, start).ok_or_else(|| {
                anyhow!(
                    "{} line {}: not a solve result of this board",
                    path.display(),
                    n + 1
                )
            })?;
            match index.get(&logged.position) {
                // A later line about a job is a later attempt: it wins.
                Some(same) => same.iter().for_each(|&i| jobs[i] = logged),
                None if logged.proof.is_some() => others.push(logged),
                None => {}
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        let log = ResumeLog {
            file: Mutex::new(file),
        };
        Ok((log, others))
    }

    /// One line, `None` when it is not a solve result of `start`'s board and opening.
    fn parse(line: &str, start: &AnyPosition) -> Option<Job> {
        let [position, result, best, nodes, secs] = line.split(';').collect::<Vec<_>>()[..] else {
            return None;
        };
        let position = AnyPosition::parse(position, start.opening()).ok()?;
        if position.size() != start.size() {
            return None;
        }
        let best = match best {
            "-" => None,
            m => Some(position.size().parse_move(m).ok()?),
        };
        if best.is_some_and(|m| position.check(m).is_err()) {
            return None;
        }
        let proof = match result {
            "win" | "loss" => Some(Proof {
                win: result == "win",
                best,
            }),
            "open" => None,
            _ => return None,
        };
        Some(Job {
            position,
            proof,
            nodes: nodes.parse().ok()?,
            secs: secs.parse().ok()?,
        })
    }

    /// Appends a finished (or given up) job.
    pub(crate) fn append(&self, job: &Job) -> Result<()> {
        let best = job
            .proof
            .and_then(|p| p.best)
            .map_or("-".to_string(), |m| job.position.move_text(m));
        let result = match job.proof {
            Some(p) if p.win => "win",
            Some(_) => "loss",
            None => "open",
        };
        let line = format!(
            "{};{result};{best};{};{:.3}\n",
            job.position, job.nodes, job.secs
        );
        let mut f = self.file.lock().map_err(|_| anyhow!("log lock poisoned"))?;
        f.write_all(line.as_bytes())?;
        f.flush()?;
        Ok(())
    }
}

/// The opening table of one board (or a single position) and the distinct positions behind it.
pub(crate) struct Plan {
    pub(crate) rows: Vec<Row>,
    pub(crate) jobs: Vec<Job>,
}

impl Plan {
    /// When `start` is the initial position, every first removal and every White reply;
    /// otherwise the position itself. Symmetric images share one job.
    pub(crate) fn of(start: &AnyPosition) -> Result<Plan> {
        let initial = AnyPosition::start(start.size(), start.opening());
        let mut rows: Vec<Row> = Vec::new();
        let mut jobs: Vec<Job> = Vec::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        let mut add = |pos: AnyPosition, jobs: &mut Vec<Job>| {
            *by_key.entry(canonical_key(&pos)).or_insert_with(|| {
                jobs.push(Job::new(pos));
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
        Ok(Plan { rows, jobs })
    }

    /// Who wins a row, once its job is solved.
    pub(crate) fn winner_of(&self, row: &Row) -> Color {
        match row.job {
            // White has no reply to the removal: Black wins on the spot.
            None => Color::Black,
            Some(j) => {
                let job = &self.jobs[j];
                if job.proof.is_some_and(|p| p.win) {
                    job.position.turn()
                } else {
                    job.position.turn().opponent()
                }
            }
        }
    }

    /// The one-line verdict: who wins the whole board (or the single position), and how.
    fn verdict(&self, start: &AnyPosition) -> String {
        if *start != AnyPosition::start(start.size(), start.opening()) {
            return match self.rows.first() {
                Some(row) => format!("{} wins with perfect play.", self.winner_of(row).name()),
                None => String::new(),
            };
        }
        // Black wins with a removal every reply to which loses for White.
        let mut removals: Vec<Move> = self.rows.iter().filter_map(|r| r.removal).collect();
        removals.dedup();
        let winning: Vec<String> = removals
            .into_iter()
            .filter(|&r| {
                self.rows
                    .iter()
                    .filter(|row| row.removal == Some(r))
                    .all(|row| self.winner_of(row) == Color::Black)
            })
            .map(|r| start.move_text(r))
            .collect();
        if winning.is_empty() {
            "White wins with perfect play: every first removal has a winning reply.".to_string()
        } else {
            format!(
                "Black wins with perfect play, by removing {}.",
                winning.join(" or ")
            )
        }
    }

    /// Stores what the rows prove about the openings themselves: each row's position in its
    /// own orientation, each position after a first removal, and the initial position, so
    /// that a checkpoint tells an engine how to play from the first move. They stand for the
    /// whole table's work, so every checkpoint keeps them. Nothing is stored before every
    /// row is proven.
    fn store_openings(&self, start: &AnyPosition, table: &ProofTable) -> Result<()> {
        let initial = AnyPosition::start(start.size(), start.opening());
        if *start != initial || self.jobs.iter().any(|j| j.proof.is_none()) {
            return Ok(());
        }
        let store = |pos: &AnyPosition, proof: Proof| {
            konane_core::with_position!(pos, p => table.store(p, proof, u64::MAX));
        };
        let mut black_wins = None;
        for removal in start.legal_moves() {
            let rows: Vec<&Row> = self
                .rows
                .iter()
                .filter(|r| r.removal == Some(removal))
                .collect();
            for row in &rows {
                let Some(job) = row.job.map(|j| &self.jobs[j]) else {
                    continue;
                };
                if let Some(proof) = job.proof {
                    let best = proof.best.and_then(|m| {
                        map_between(&row.position, &job.position).map(|map| unmap_move(&map, m))
                    });
                    store(
                        &row.position,
                        Proof {
                            win: proof.win,
                            best,
                        },
                    );
                }
            }
            let white_reply = rows
                .iter()
                .find(|r| self.winner_of(r) == Color::White)
                .and_then(|r| r.reply);
            let mut after = *start;
            after.play(removal)?;
            store(
                &after,
                Proof {
                    win: white_reply.is_some(),
                    best: white_reply,
                },
            );
            if white_reply.is_none() {
                black_wins = black_wins.or(Some(removal));
            }
        }
        store(
            start,
            Proof {
                win: black_wins.is_some(),
                best: black_wins,
            },
        );
        Ok(())
    }

    /// Nodes spent on all jobs.
    fn nodes(&self) -> u64 {
        self.jobs.iter().map(|j| j.nodes).sum()
    }
}

/// What to solve, and where a long run keeps its work.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size, rows x columns.
    #[arg(long, default_value = "6x6")]
    size: Size,
    #[command(flatten)]
    rule: RuleArg,
    /// Solve this position instead of the openings (overrides --size).
    #[arg(long)]
    position: Option<String>,
    /// Threads to use (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Size of the table of proven positions in MiB.
    #[arg(long, alias = "table-mb", default_value_t = 1024, value_parser = parse_mib)]
    table_mib: usize,
    /// Keep finished positions in this file and skip them when run again.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Keep the table's expensive proofs in this file, load them when run again.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Prove every result a second time on a fresh table.
    #[arg(long)]
    recheck: bool,
    /// Keep the re-check's own expensive proofs in this file (never the first run's
    /// checkpoint), load them when run again.
    #[arg(long, requires = "recheck")]
    recheck_checkpoint: Option<PathBuf>,
    /// Measure instead: solve the whole opening table of each of these boards, both
    /// rules, and print nodes, time and speed.
    #[arg(long, value_delimiter = ',', num_args = 0.., default_missing_value = "5x6,6x6,5x7")]
    bench: Option<Vec<Size>>,
    /// Print one JSON document instead of text (docs/cli.md); not with --recheck or
    /// --checkpoint, whose reports are text.
    #[arg(long, conflicts_with_all = ["recheck", "checkpoint"])]
    json: bool,
}

/// Solves (or measures) what the flags ask for.
pub fn run(args: Args) -> Result<()> {
    let threads = thread_count(args.threads)?;
    if let Some(sizes) = &args.bench {
        return bench(sizes, threads, args.table_mib, args.json);
    }
    let start = position_or_start(args.position.as_deref(), args.size, args.rule.opening)?;
    let files = RunFiles {
        resume: args.resume,
        checkpoint: args.checkpoint,
        recheck: args.recheck,
        recheck_checkpoint: args.recheck_checkpoint,
    };
    solve_from(&start, threads, args.table_mib, &files, args.json)
}

/// The files a long run keeps, and whether its results are proven a second time.
pub struct RunFiles {
    /// Finished positions, one a line (see [`ResumeLog`]).
    pub resume: Option<PathBuf>,
    /// The table's expensive proofs (see [`Checkpoint`]).
    pub checkpoint: Option<PathBuf>,
    /// Prove every result again on a fresh table before printing it.
    pub recheck: bool,
    /// The re-check's own checkpoint (see [`Checkpoint`]), so a long re-check can go on later.
    pub recheck_checkpoint: Option<PathBuf>,
}

/// Proofs of at least 2^15 nodes go into a checkpoint: few enough to keep in the
/// repository, and each one saves a long search.
pub(crate) const CHECKPOINT_MIN_WORK: u32 = 16;

/// Proves each job's result again from nothing, so that no entry of the first run vouches
/// for itself: the core plays each claimed winning move (refusing an illegal one), and the
/// position after it, or the job itself when it is claimed lost, must come out lost on a
/// fresh table, solved on `threads` threads. A re-check keeps its own checkpoint (never the
/// first run's), so a long one can stop and go on. A disagreement is an error.
fn recheck_jobs(
    jobs: &[Job],
    threads: usize,
    table_mb: usize,
    checkpoint: Option<&Checkpoint>,
) -> Result<()> {
    let mut lost = Vec::new();
    for job in jobs {
        let Some(proof) = job.proof else { continue };
        let mut position = job.position;
        if proof.win {
            let best = proof
                .best
                .ok_or_else(|| anyhow!("{}: a win without a winning move", job.position))?;
            position.play(best).map_err(|e| {
                anyhow!(
                    "{}: the winning move {} is refused: {e}",
                    job.position,
                    job.position.move_text(best)
                )
            })?;
        }
        lost.push(Job::new(position));
    }
    let table = ProofTable::new(table_mb);
    if let Some(c) = checkpoint {
        c.load(&table, "re-check: ", "proofs of earlier re-checks")?;
    }
    let search = ProofNumberSearch::beside(table_mb, threads);
    solve_jobs(&mut lost, threads, &table, search, None, checkpoint)?;
    if let Some(c) = checkpoint {
        c.save(&table)?;
    }
    for job in &lost {
        match job.proof {
            Some(p) if !p.win => {}
            Some(_) => bail!("{}: the re-check proved the other result", job.position),
            None => bail!("{}: the re-check did not finish", job.position),
        }
        let line = replay_line(&job.position, &table)?;
        println!(
            "re-check: {} is lost for {} ({} nodes); replayed by the core: {} ({1} has no move)",
            job.position,
            job.position.turn().name(),
            job.nodes,
            line.join(" "),
        );
    }
    println!("Every result proven a second time on a fresh table.");
    Ok(())
}

/// Plays `lost` out through the core's game, which refuses any illegal move: the winner's
/// moves from `table` (solved again where it has lost the entry), the loser's first legal
/// move each time. Fails unless the game ends with the loser unable to move.
fn replay_line(lost: &AnyPosition, table: &ProofTable) -> Result<Vec<String>> {
    let winner = lost.turn().opponent();
    let stop = AtomicBool::new(false);
    let mut game = Game::from_position(*lost);
    while game.position().winner().is_none() {
        let pos = *game.position();
        let m = if pos.turn() == winner {
            let proof = konane_core::with_position!(&pos, p => Solver::new(table, &stop, u64::MAX).solve(p));
            match proof {
                Ok(Proof {
                    win: true,
                    best: Some(m),
                }) => m,
                _ => bail!(
                    "after {}: {} has no proven winning move",
                    game.move_texts().join(" "),
                    winner.name()
                ),
            }
        } else {
            pos.legal_moves()[0]
        };
        game.play(m).map_err(|e| {
            anyhow!(
                "after {}: {} is refused: {e}",
                game.move_texts().join(" "),
                pos.move_text(m)
            )
        })?;
    }
    if game.position().winner() != Some(winner) {
        bail!(
            "the replay from {lost} did not end in {}'s win",
            winner.name()
        );
    }
    Ok(game.move_texts())
}

/// How `table` keys the positions of `start`'s board, as a line for the start of a run; an
/// error when the run has a checkpoint and the keys are hashed, since a checkpoint keeps
/// exact keys only: a run of hours would keep none of its proofs, and one on a table too
/// small for the board's exact keys would leave the checkpoint's own out and save it without.
pub(crate) fn keys_note(
    table: &ProofTable,
    start: &AnyPosition,
    checkpoint: bool,
) -> Result<String> {
    let keying = konane_core::with_position!(start, p => table.board_key(p).keying());
    let why = match keying {
        Keying::Exact => {
            return Ok(
                "Keys: exact (no two positions share an entry, so no collision can forge a proof)"
                    .to_string(),
            );
        }
        Keying::Hashed(WhyHashed::LargeBoard) => "the board has 64 squares or more".to_string(),
        Keying::Hashed(WhyHashed::SmallTable { exact_from_mb }) => format!(
            "the table is too small for exact keys of this board; --table-mb {exact_from_mb} or \
             more makes them exact"
        ),
        Keying::Hashed(WhyHashed::OffColour) => {
            "a stone stands on a square of the other colour, which no game reaches".to_string()
        }
    };
    if checkpoint {
        bail!("a checkpoint keeps exact keys only, and this run's are hashed: {why}");
    }
    Ok(format!(
        "Keys: hashed, because {why}: a collision, though unlikely, could forge a proof"
    ))
}

/// Where a run keeps its hard-won proofs between sessions.
pub(crate) struct Checkpoint<'a> {
    pub(crate) path: &'a Path,
    /// Proofs of at least `2^(min_work - 1)` nodes are kept.
    pub(crate) min_work: u32,
}

impl Checkpoint<'_> {
    /// Writes the table's expensive proofs, through a temporary file so that a run stopped
    /// while writing keeps the previous checkpoint.
    pub(crate) fn save(&self, table: &ProofTable) -> Result<()> {
        let tmp = self.path.with_extension("tmp");
        std::fs::write(&tmp, table.checkpoint(self.min_work))
            .with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, self.path).with_context(|| format!("writing {}", self.path.display()))
    }

    /// Loads a checkpoint if there is one, and says how many proofs it held (`lead` and
    /// `what` word it: "{lead}{n} {what} loaded from {path}").
    pub(crate) fn load(&self, table: &ProofTable, lead: &str, what: &str) -> Result<()> {
        let n = match std::fs::read(self.path) {
            Ok(bytes) => table
                .load(&bytes)
                .with_context(|| format!("reading {}", self.path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(e) => return Err(e).with_context(|| format!("reading {}", self.path.display())),
        };
        if n > 0 {
            println!("{lead}{n} {what} loaded from {}", self.path.display());
        }
        Ok(())
    }
}

/// Whether two paths name one file, however they are spelled (the file need not exist yet,
/// its folder must).
fn same_file(a: &Path, b: &Path) -> Result<bool> {
    let resolve = |p: &Path| -> Result<PathBuf> {
        let name = p
            .file_name()
            .ok_or_else(|| anyhow!("{} names no file", p.display()))?;
        let folder = match p.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        let folder = folder
            .canonicalize()
            .with_context(|| format!("the folder of {}", p.display()))?;
        let path = folder.join(name);
        // A link to a file is the file.
        Ok(path.canonicalize().unwrap_or(path))
    };
    Ok(resolve(a)? == resolve(b)?)
}

/// How often a long run saves its checkpoint.
pub(crate) const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// Solves every job not yet done on `threads` threads sharing `table`, each position's first
/// thread turning to proof numbers as `search` says, appending each result to `log` and
/// saving `checkpoint` now and then (the caller saves the last one); the bar shows the speed
/// and the table's fill.
fn solve_jobs(
    jobs: &mut [Job],
    threads: usize,
    table: &ProofTable,
    search: ProofNumberSearch,
    log: Option<&ResumeLog>,
    checkpoint: Option<&Checkpoint>,
) -> Result<()> {
    // The bar counts thousandths of a position, so a long position moves it (and its
    // estimate of the time left) as its first plies' moves are done.
    let bar = ProgressBar::new(jobs.len() as u64 * PER_JOB);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} solving [{bar:30}] {percent}%, {elapsed} (left {eta}) {msg}",
    )?);
    let report = Bars {
        bar: &bar,
        table,
        log,
        checkpoint,
        times: Mutex::new(Times {
            saved: Instant::now(),
            logged: Instant::now(),
        }),
    };
    let run = konane_engine::solve::solve_jobs(jobs, threads, table, search, &report);
    bar.finish_and_clear();
    Ok(run?)
}

/// A run's bar, log and checkpoint, driven by the engine's reports.
struct Bars<'a> {
    bar: &'a ProgressBar,
    table: &'a ProofTable,
    log: Option<&'a ResumeLog>,
    checkpoint: Option<&'a Checkpoint<'a>>,
    times: Mutex<Times>,
}

/// When the checkpoint was last saved, and the last line written for a run without a bar.
struct Times {
    saved: Instant,
    logged: Instant,
}

impl RunReport for Bars<'_> {
    fn finished(&self, _: usize, job: &Job) {
        if let Some(log) = self.log
            && let Err(e) = log.append(job)
        {
            say(self.bar, &format!("warning: could not save progress: {e}"));
        }
        if let Some(p) = job.proof {
            let winner = if p.win {
                job.position.turn()
            } else {
                job.position.turn().opponent()
            };
            say(
                self.bar,
                &format!(
                    "proven: {}: {} wins ({} nodes, {:.0} s)",
                    job.position,
                    winner.name(),
                    job.nodes,
                    job.secs
                ),
            );
        }
    }

    fn progress(&self, p: &RunProgress) {
        let bar = self.bar;
        let secs = p.elapsed.as_secs_f64();
        let n = p.nodes;
        let done = p.finished;
        // Each running job's share in thousandths, short of a whole position until proven.
        let running: u64 = p
            .running
            .iter()
            .map(|s| (s * PER_JOB as f64).min(PER_JOB as f64 - 1.0) as u64)
            .sum();
        bar.set_position((done as u64 * PER_JOB + running).min(bar.length().unwrap_or(0)));
        let status = format!(
            "{done}/{} positions, {:.2} G nodes, {:.2} M nodes/s, table {:.1}% full",
            p.jobs,
            n as f64 / 1e9,
            n as f64 / secs.max(1e-9) / 1e6,
            f64::from(self.table.fill_permille()) / 10.0
        );
        let Ok(mut times) = self.times.lock() else {
            return;
        };
        // A run whose output is not a terminal (in the background, into a log) has
        // no bar: a line a minute instead.
        if bar.is_hidden() && times.logged.elapsed() >= Duration::from_secs(60) {
            times.logged = Instant::now();
            let share = bar.position() as f64 / bar.length().unwrap_or(1).max(1) as f64;
            eprintln!(
                "{:.0} s: {:.1}% (estimated from the first plies), {status}",
                secs,
                share * 100.0
            );
        }
        bar.set_message(status);
        if let Some(c) = self.checkpoint
            && times.saved.elapsed() >= CHECKPOINT_EVERY
        {
            times.saved = Instant::now();
            if let Err(e) = c.save(self.table) {
                say(
                    bar,
                    &format!("warning: could not save the checkpoint: {e:#}"),
                );
            }
        }
    }
}

/// Prints a line above the bar, or into the log when there is no bar (`println` on a
/// hidden bar prints nothing, and a run in the background has none).
pub(crate) fn say(bar: &ProgressBar, line: &str) {
    bar.suspend(|| eprintln!("{line}"));
}

/// Thousandths of a position in the progress bar.
const PER_JOB: u64 = 1000;

/// Solves `start`: when it is the initial position, every first removal and every White
/// reply; otherwise the position itself.
fn solve_from(
    start: &AnyPosition,
    threads: usize,
    table_mb: usize,
    files: &RunFiles,
    json: bool,
) -> Result<()> {
    if let (Some(run), Some(own)) = (&files.checkpoint, &files.recheck_checkpoint)
        && same_file(run, own)?
    {
        bail!("the re-check needs a checkpoint of its own, not the run's");
    }
    let began = Instant::now();
    let mut plan = Plan::of(start)?;
    if !json {
        println!(
            "Konane {}, opening {}: {} position(s) to solve ({} distinct up to symmetry), {} thread(s)",
            start.size(),
            start.opening(),
            plan.rows.len(),
            plan.jobs.len(),
            threads
        );
    }
    // Before the log is opened: a refused run changes no file.
    let table = ProofTable::new(table_mb);
    let checkpoints = files.checkpoint.is_some() || files.recheck_checkpoint.is_some();
    let keys = keys_note(&table, start, checkpoints)?;
    if !json {
        println!("{keys}");
    }
    let log = match files.resume.as_deref() {
        Some(path) => Some(ResumeLog::open(path, start, &mut plan.jobs)?.0),
        None => None,
    };
    let checkpoint = files.checkpoint.as_deref().map(|path| Checkpoint {
        path,
        min_work: CHECKPOINT_MIN_WORK,
    });
    if let Some(c) = &checkpoint {
        c.load(&table, "", "proofs")?;
    }
    solve_jobs(
        &mut plan.jobs,
        threads,
        &table,
        ProofNumberSearch::beside(table_mb, threads),
        log.as_ref(),
        checkpoint.as_ref(),
    )?;
    plan.store_openings(start, &table)?;
    if let Some(c) = &checkpoint {
        c.save(&table)?;
    }
    // The re-check's table is a fresh one, and may be as large: this one's memory goes first.
    drop(table);
    if files.recheck {
        let checkpoint = files.recheck_checkpoint.as_deref().map(|path| Checkpoint {
            path,
            min_work: CHECKPOINT_MIN_WORK,
        });
        recheck_jobs(&plan.jobs, threads, table_mb, checkpoint.as_ref())?;
    }

    let seconds = began.elapsed().as_secs_f64();
    let verdict = plan.verdict(start);
    let report = SolveReport::of(&plan, start, threads, keys, verdict, plan.nodes(), seconds);
    if json {
        return print_json(&report);
    }
    report.print();
    Ok(())
}

/// The fixed benchmark: the whole opening table of each board in `sizes`, both opening
/// rules, each on a fresh table, with nodes (the same on every run with one thread), time
/// and speed.
fn bench(sizes: &[Size], threads: usize, table_mb: usize, json: bool) -> Result<()> {
    if !json {
        println!(
            "Solver benchmark, {threads} thread(s), {table_mb} MiB table, a fresh table per board"
        );
        println!();
        println!(
            "{:<6} {:<17} {:>9} {:>15} {:>10} {:>11}  result",
            "board", "opening", "positions", "nodes", "time", "M nodes/s"
        );
    }
    let (mut all_nodes, mut all_secs) = (0u64, 0f64);
    let mut boards = Vec::new();
    for &size in sizes {
        for opening in Opening::ALL {
            let start = AnyPosition::start(size, opening);
            let mut plan = Plan::of(&start)?;
            let table = ProofTable::new(table_mb);
            let began = Instant::now();
            let search = ProofNumberSearch::beside(table_mb, threads);
            solve_jobs(&mut plan.jobs, threads, &table, search, None, None)?;
            let secs = began.elapsed().as_secs_f64();
            let nodes = plan.nodes();
            all_nodes += nodes;
            all_secs += secs;
            let board = BenchBoard {
                size: size.to_string(),
                opening: opening.name(),
                positions: plan.jobs.len(),
                nodes,
                seconds: secs,
                verdict: plan.verdict(&start),
            };
            if !json {
                println!(
                    "{:<6} {:<17} {:>9} {:>15} {:>9.2}s {:>11.2}  {}",
                    board.size,
                    board.opening,
                    board.positions,
                    nodes,
                    secs,
                    nodes as f64 / secs.max(1e-9) / 1e6,
                    board.verdict
                );
            }
            boards.push(board);
        }
    }
    if json {
        return print_json(&BenchReport {
            threads,
            table_mib: table_mb,
            boards,
            nodes: all_nodes,
            seconds: all_secs,
        });
    }
    println!(
        "{:<6} {:<17} {:>9} {:>15} {:>9.2}s {:>11.2}",
        "total",
        "",
        "",
        all_nodes,
        all_secs,
        all_nodes as f64 / all_secs.max(1e-9) / 1e6
    );
    Ok(())
}
