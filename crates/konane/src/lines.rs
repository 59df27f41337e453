//! `konane lines`: the engine's main lines of a board too large to solve whole, proven
//! from their end back as far as the solver reaches.
//!
//! A main line is the engine's own game from one row of the opening table (a first removal
//! and White's reply), each move found at a fixed number of nodes, so the line is the same
//! on every run. Walking back from the end, each position is proven on a table that already
//! holds the proofs of the positions after it; the first position that needs more than the
//! node limit ends the walk, as every earlier one would need more still.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{AnyPosition, Color, Game, Move, Size, with_position};
use konane_engine::{
    Engine, EngineConfig, Frozen, Limits, Proof, ProofNumberSearch, ProofTable, Solver,
};

use crate::args::RuleArg;
use crate::solve::{
    CHECKPOINT_EVERY, CHECKPOINT_MIN_WORK, Checkpoint, Job, Plan, ResumeLog, keys_note, say,
};

/// What `konane lines` proves, and where it keeps its work.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size, rows x columns.
    #[arg(long, default_value = "8x8")]
    size: Size,
    #[command(flatten)]
    rule: RuleArg,
    /// Engine nodes for each move of a line (one thread, so a line is the same every run).
    #[arg(long, default_value_t = 1_000_000)]
    line_nodes: u64,
    /// Solver nodes allowed for each position; the first position that needs more ends
    /// the walk back along its line.
    #[arg(long, default_value_t = 100_000_000)]
    node_limit: u64,
    /// Threads to use, one line each (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Size of the table of proven positions in MiB.
    #[arg(long = "table-mib", alias = "table-mb", value_name = "TABLE_MIB",
          default_value_t = 1024, value_parser = crate::args::parse_mib)]
    table_mb: usize,
    /// Keep each position's result in this file and skip it when run again.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Keep the table's expensive proofs in this file, load them when run again (a checkpoint
    /// keeps exact keys only: fewer squares than 30 and the table's index bits, so 7x8 from
    /// 2,048 MiB on; a board of 64 squares has none, and the run refuses it).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Write the table the engine learns (`konane_engine::book`) into this file: every
    /// proven position of the lines, and every answer to a position lost for the side to
    /// move, with its winning move.
    #[arg(long)]
    book: Option<PathBuf>,
}

/// One main line: an opening row and the engine's game from it.
struct Line {
    removal: Move,
    reply: Move,
    /// The moves of the whole game, the removals first.
    moves: Vec<String>,
    /// Indices into the run's jobs: the positions from ply 2 (after the reply) to the end.
    jobs: Vec<usize>,
}

/// How far back a line is proven.
struct Reach {
    /// The earliest proven position's index in [`Line::jobs`]; `None`: not even the end.
    from: Option<usize>,
    /// Where the walk stopped: the position that needed more than the node limit.
    open: Option<usize>,
}

/// Plays the engine's line from each distinct opening row of `start`'s board, then proves
/// each line from its end back, `threads` lines at a time, and prints how far each reached.
pub fn run(args: Args) -> Result<()> {
    let threads = crate::args::thread_count(args.threads)?;
    let start = AnyPosition::start(args.size, args.rule.opening);
    let plan = Plan::of(&start)?;
    println!(
        "Konane {}, opening {}: the engine's lines from {} distinct opening rows ({} nodes a \
         move), each proven back from its end within {} nodes a position, {} thread(s)",
        args.size,
        args.rule.opening,
        plan.jobs.len(),
        args.line_nodes,
        args.node_limit,
        threads
    );
    // Before the lines are played: a refused run costs nothing and changes no file.
    let table = ProofTable::new(args.table_mb);
    println!("{}", keys_note(&table, &start, args.checkpoint.is_some())?);
    let (lines, mut jobs) = play_lines(&start, &plan, args.line_nodes)?;
    let (log, answers) = match args.resume.as_deref() {
        Some(path) => {
            let (log, answers) = ResumeLog::open(path, &start, &mut jobs)?;
            (Some(log), answers)
        }
        None => (None, Vec::new()),
    };
    let checkpoint = args.checkpoint.as_deref().map(|path| Checkpoint {
        path,
        min_work: CHECKPOINT_MIN_WORK,
    });
    if let Some(c) = &checkpoint {
        c.load(&table, "", "proofs")?;
    }
    store_proven(&table, &answers, &jobs);
    let began = Instant::now();
    let walk = Walk {
        table: &table,
        search: ProofNumberSearch::beside(args.table_mb, threads),
        node_limit: args.node_limit,
        jobs: Mutex::new(jobs),
        log: log.as_ref(),
        checkpoint: checkpoint.as_ref(),
        saved: Mutex::new(Instant::now()),
        nodes: AtomicU64::new(0),
        bar: ProgressBar::new(lines.iter().map(|l| l.jobs.len() as u64).sum()),
    };
    walk.bar.set_style(ProgressStyle::with_template(
        "{spinner} proving [{bar:30}] {pos}/{len} positions, {elapsed} {msg}",
    )?);
    let (jobs, reaches) = walk_back(&walk, &lines, threads)?;
    let book = args
        .book
        .as_ref()
        .map(|path| (path, book_text(&start, &lines, &reaches, &jobs, &walk)));
    walk.bar.finish_and_clear();
    // Hours of work are in each of these: neither's failure may cost the other or the report.
    let saved = checkpoint.as_ref().map_or(Ok(()), |c| c.save(&table));
    let written = book.map_or(Ok(()), |(path, text)| {
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
    });
    report(&start, &lines, &reaches, &jobs);
    let nodes = walk.nodes.load(Ordering::Relaxed);
    let secs = began.elapsed().as_secs_f64();
    println!(
        "{nodes} nodes in {secs:.2} s ({:.1} M nodes/s)",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    saved?;
    written
}

/// The engine's main line from each distinct opening row of the plan, and the jobs of
/// their positions.
fn play_lines(start: &AnyPosition, plan: &Plan, line_nodes: u64) -> Result<(Vec<Line>, Vec<Job>)> {
    let mut jobs = Vec::new();
    let mut lines = Vec::new();
    let bar = ProgressBar::new(plan.jobs.len() as u64);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} playing the lines [{bar:30}] {pos}/{len}, {elapsed}",
    )?);
    for j in 0..plan.jobs.len() {
        // The first row of each distinct position stands for its mirror images.
        let Some(row) = plan.rows.iter().find(|r| r.job == Some(j)) else {
            continue;
        };
        let (Some(removal), Some(reply)) = (row.removal, row.reply) else {
            continue;
        };
        lines.push(main_line(start, removal, reply, line_nodes, &mut jobs)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok((lines, jobs))
}

/// Stores in `table` everything the resume log holds proven: the jobs', and also the
/// book's answers, which are no job of the walk's: without them a run again would prove
/// (and log) them again.
fn store_proven(table: &ProofTable, answers: &[Job], jobs: &[Job]) {
    for (pos, proof) in answers
        .iter()
        .chain(jobs)
        .filter_map(|j| Some((j.position, j.proof?)))
    {
        with_position!(&pos, p => table.store(p, proof, u64::MAX));
    }
}

/// Walks back along every line, `threads` lines at a time; the jobs as the walk left them
/// and each line's reach.
fn walk_back(walk: &Walk, lines: &[Line], threads: usize) -> Result<(Vec<Job>, Vec<Reach>)> {
    let queue = Mutex::new((0..lines.len()).collect::<VecDeque<_>>());
    let reaches: Vec<Mutex<Option<Reach>>> = lines.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                while let Some(i) = queue.lock().ok().and_then(|mut q| q.pop_front()) {
                    let reach = walk.back_along(&lines[i]);
                    if let Ok(mut r) = reaches[i].lock() {
                        *r = Some(reach);
                    }
                }
            });
        }
    });
    let panicked = || anyhow!("a solver thread panicked");
    let jobs = walk.jobs.lock().map_err(|_| panicked())?.clone();
    let reaches = reaches
        .into_iter()
        .map(|r| r.into_inner().ok().flatten())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(panicked)?;
    Ok((jobs, reaches))
}

/// The engine's game after `removal` and `reply`, each move at `line_nodes` nodes on a
/// fresh engine, so that neither the lines before it nor the run's proofs change it; its
/// positions are appended to `jobs`.
fn main_line(
    start: &AnyPosition,
    removal: Move,
    reply: Move,
    line_nodes: u64,
    jobs: &mut Vec<Job>,
) -> Result<Line> {
    let engine = Engine::new(EngineConfig::default());
    let mut game = Game::new(start.size(), start.opening());
    game.play(removal)?;
    game.play(reply)?;
    let limits = Limits {
        nodes: Some(line_nodes),
        ..Limits::default()
    };
    let mut line = vec![jobs.len()];
    jobs.push(Job::new(*game.position()));
    while let Some(m) = engine
        .think(game.position(), limits, true, &Frozen, &mut |_| {})
        .best
    {
        game.play(m)?;
        line.push(jobs.len());
        jobs.push(Job::new(*game.position()));
    }
    Ok(Line {
        removal,
        reply,
        moves: game.move_texts(),
        jobs: line,
    })
}

/// What the threads walking back along the lines share.
struct Walk<'a> {
    table: &'a ProofTable,
    search: ProofNumberSearch,
    node_limit: u64,
    jobs: Mutex<Vec<Job>>,
    log: Option<&'a ResumeLog>,
    checkpoint: Option<&'a Checkpoint<'a>>,
    /// When the checkpoint was last saved.
    saved: Mutex<Instant>,
    nodes: AtomicU64,
    bar: ProgressBar,
}

impl Walk<'_> {
    /// Proves `line`'s positions from its end back until one needs more than the node limit
    /// (or needed more in an earlier run with this limit or a larger one).
    fn back_along(&self, line: &Line) -> Reach {
        let mut reach = Reach {
            from: None,
            open: None,
        };
        for (k, &j) in line.jobs.iter().enumerate().rev() {
            let Some(job) = self.jobs.lock().ok().map(|jobs| jobs[j]) else {
                break;
            };
            let job = match job.proof {
                Some(_) => job,
                None if job.nodes >= self.node_limit => job,
                None => self.prove(job),
            };
            self.bar.inc(1);
            if let Ok(mut jobs) = self.jobs.lock() {
                jobs[j] = job;
            }
            let Some(proof) = job.proof else {
                reach.open = Some(k);
                self.bar.inc(k as u64);
                break;
            };
            // The line's positions are the table's content, whatever each one cost: stored
            // as the most worked, every checkpoint keeps them (and the positions before see
            // them, also when they come from an earlier run's log).
            with_position!(&job.position, p => self.table.store(p, proof, u64::MAX));
            reach.from = Some(k);
        }
        reach
    }

    /// One attempt at `job` within the node limit, logged.
    fn prove(&self, mut job: Job) -> Job {
        let stop = AtomicBool::new(false);
        let began = Instant::now();
        let mut solver =
            Solver::new(self.table, &stop, self.node_limit).with_proof_numbers(self.search);
        job.proof = with_position!(&job.position, p => solver.solve(p)).ok();
        // An open position keeps its largest attempt, not their sum: the walk skips it only
        // under a limit no larger than one that has failed.
        job.nodes = match job.proof {
            Some(_) => job.nodes + solver.nodes(),
            None => job.nodes.max(solver.nodes()),
        };
        job.secs += began.elapsed().as_secs_f64();
        let total = self.nodes.fetch_add(solver.nodes(), Ordering::Relaxed) + solver.nodes();
        self.bar.set_message(format!(
            "{:.2} G nodes, table {:.1}% full",
            total as f64 / 1e9,
            f64::from(self.table.fill_permille()) / 10.0
        ));
        if let Some(log) = self.log
            && let Err(e) = log.append(&job)
        {
            say(&self.bar, &format!("warning: could not save progress: {e}"));
        }
        // Positions of a million nodes or more are worth a line of their own in a long run.
        if solver.nodes() >= 1_000_000 {
            say(
                &self.bar,
                &format!(
                    "{}: {} ({} nodes, {:.0} s)",
                    job.position,
                    match job.proof {
                        Some(p) => format!("{} wins", winner(&job.position, p.win).name()),
                        None => "open".to_string(),
                    },
                    solver.nodes(),
                    began.elapsed().as_secs_f64()
                ),
            );
        }
        if let (Some(c), Ok(mut saved)) = (self.checkpoint, self.saved.lock())
            && saved.elapsed() >= CHECKPOINT_EVERY
        {
            *saved = Instant::now();
            if let Err(e) = c.save(self.table) {
                say(
                    &self.bar,
                    &format!("warning: could not save the checkpoint: {e:#}"),
                );
            }
        }
        job
    }
}

/// The book of the lines (see [`konane_engine::book::Table`]): a comment saying what it is,
/// then `position;win|loss;best move or -` for each proven position of a line and each
/// position after a move from a lost one (each a win for the side to move, proven by the
/// walk or now, within the node limit; one that needs more is left out).
fn book_text(
    start: &AnyPosition,
    lines: &[Line],
    reaches: &[Reach],
    jobs: &[Job],
    walk: &Walk,
) -> String {
    let mut text = format!(
        "# Konane {}: the engine's main lines proven from their end back (konane lines), and\n\
         # every answer to their lost positions. position;win|loss;best move or -\n",
        start.size()
    );
    let mut seen = std::collections::HashSet::new();
    let mut left_out = 0;
    let mut add = |pos: &AnyPosition, proof: Proof| {
        if seen.insert(pos.to_string()) {
            let best = proof.best.map_or("-".to_string(), |m| pos.move_text(m));
            let result = if proof.win { "win" } else { "loss" };
            text.push_str(&format!("{pos};{result};{best}\n"));
        }
    };
    for (line, reach) in lines.iter().zip(reaches) {
        let Some(from) = reach.from else { continue };
        for &j in &line.jobs[from..] {
            let Some(proof) = jobs[j].proof else { continue };
            add(&jobs[j].position, proof);
            if proof.win {
                continue;
            }
            for m in jobs[j].position.legal_moves() {
                let mut after = jobs[j].position;
                if after.play(m).is_err() {
                    continue;
                }
                let known = with_position!(&after, p => walk.table.probe(p));
                match known.or_else(|| walk.prove(Job::new(after)).proof) {
                    Some(proof) => {
                        // Part of the book as the lines are, so the checkpoint keeps it too.
                        with_position!(&after, p => walk.table.store(p, proof, u64::MAX));
                        add(&after, proof);
                    }
                    None => left_out += 1,
                }
            }
        }
    }
    if left_out > 0 {
        say(
            &walk.bar,
            &format!(
                "{left_out} answers to lost positions needed more than the node limit and are not in the book"
            ),
        );
    }
    text
}

/// Who wins a position whose side to move wins (`win`) or loses.
fn winner(pos: &AnyPosition, win: bool) -> Color {
    if win {
        pos.turn()
    } else {
        pos.turn().opponent()
    }
}

/// The table of the lines in the form of `docs/solved.md`: how far back each is proven, who
/// wins there and the winning move, how often the result turns along the rest of the line
/// (each turn is a move of the engine that threw a proven win away), the nodes spent on the
/// line and where it is still open.
fn report(start: &AnyPosition, lines: &[Line], reaches: &[Reach], jobs: &[Job]) {
    println!();
    println!(
        "{:<8} {:<8} {:>6} {:>12} {:<7} {:<10} {:>6} {:>14} {:>16}",
        "removal",
        "reply",
        "plies",
        "proven from",
        "winner",
        "best move",
        "turns",
        "nodes",
        "open before"
    );
    for (line, reach) in lines.iter().zip(reaches) {
        let text = |m: Move| start.move_text(m);
        // Positions of a line are numbered from the reply's: its ply is 2.
        let ply = |k: usize| k + 2;
        let open = reach.open.map_or("-".to_string(), |k| {
            format!("ply {} ({})", ply(k), jobs[line.jobs[k]].nodes)
        });
        let nodes: u64 = line.jobs.iter().map(|&j| jobs[j].nodes).sum();
        let Some(from) = reach.from else {
            println!(
                "{:<8} {:<8} {:>6} {:>12} {:<7} {:<10} {:>6} {:>14} {:>16}",
                text(line.removal),
                text(line.reply),
                line.moves.len(),
                "-",
                "-",
                "-",
                "-",
                nodes,
                open
            );
            continue;
        };
        let winners: Vec<Color> = line.jobs[from..]
            .iter()
            .filter_map(|&j| jobs[j].proof.map(|p| winner(&jobs[j].position, p.win)))
            .collect();
        let turns = winners.windows(2).filter(|w| w[0] != w[1]).count();
        let first = &jobs[line.jobs[from]];
        let best = first
            .proof
            .and_then(|p| p.best)
            .map_or("-".to_string(), |m| first.position.move_text(m));
        println!(
            "{:<8} {:<8} {:>6} {:>12} {:<7} {:<10} {:>6} {:>14} {:>16}",
            text(line.removal),
            text(line.reply),
            line.moves.len(),
            format!("ply {}", ply(from)),
            winners.first().map_or("-", |c| c.name()),
            best,
            turns,
            nodes,
            open
        );
    }
    println!();
    for (line, reach) in lines.iter().zip(reaches) {
        let Some(proven) = reach.from.map(|k| k + 2) else {
            continue;
        };
        println!(
            "{}, proven from ply {}: {}",
            line.moves[..2].join(" "),
            proven,
            line.moves[..proven].join(" ")
        );
    }
}
