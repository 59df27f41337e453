//! A whole opening table solved on threads sharing one [`ProofTable`]: each thread takes its
//! jobs from a [`Schedule`], and the caller hears of each finished job and, about once a
//! second, of the run's progress (the engine draws no bar and writes no file).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::numbers::ProofNumberSearch;
use super::progress::TreeProgress;
use super::schedule::{Job, Schedule};
use super::search::Solver;
use super::sharing::InProgress;
use super::table::ProofTable;

/// How far a run has got, as its progress callback hears it.
#[derive(Clone, PartialEq, Debug)]
pub struct RunProgress {
    /// Time since the run began.
    pub elapsed: Duration,
    /// Jobs proven, those proven before the run included.
    pub finished: usize,
    /// All jobs of the run.
    pub jobs: usize,
    /// Nodes searched in this run so far.
    pub nodes: u64,
    /// For each job being searched, the share of it done (0 to 1) by its furthest thread:
    /// threads on one job split its moves, so this is a floor.
    pub running: Vec<f64>,
}

/// A solver thread panicked, so the jobs' results are lost.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ThreadPanicked;

impl std::fmt::Display for ThreadPanicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a solver thread panicked")
    }
}

impl std::error::Error for ThreadPanicked {}

/// What a run tells its caller as it goes.
pub trait RunReport: Sync {
    /// Job `index`'s last thread is out: `job` holds its proof (or none, when it was given
    /// up) and every thread's nodes.
    fn finished(&self, index: usize, job: &Job);
    /// Called about once a second from a thread of its own while the run goes on.
    fn progress(&self, progress: &RunProgress);
}

/// How often the progress callback is called.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The state the threads of one run share.
struct Run<'a> {
    table: &'a ProofTable,
    search: ProofNumberSearch,
    threads: usize,
    schedule: Mutex<Schedule>,
    jobs: Mutex<&'a mut [Job]>,
    /// A finished job's flag stops the threads still helping with it.
    stops: Vec<AtomicBool>,
    in_progress: InProgress,
    nodes: AtomicU64,
    finished: AtomicUsize,
    working: AtomicUsize,
}

/// Solves every job not yet proven on `threads` threads sharing `table`, each position's
/// first thread turning to proof numbers as `search` says, telling `report` of each job
/// finished and of the progress. A job is given to a fresh thread first; once every job is
/// taken, a free thread helps the running job with the fewest threads on it, starting at
/// another root move (see [`Schedule`]).
pub fn solve_jobs(
    jobs: &mut [Job],
    threads: usize,
    table: &ProofTable,
    search: ProofNumberSearch,
    report: &dyn RunReport,
) -> Result<(), ThreadPanicked> {
    let threads = threads.max(1);
    let run = Run {
        table,
        search,
        threads,
        schedule: Mutex::new(Schedule::new(jobs)),
        finished: AtomicUsize::new(jobs.iter().filter(|j| j.proof.is_some()).count()),
        stops: jobs.iter().map(|_| AtomicBool::new(false)).collect(),
        jobs: Mutex::new(jobs),
        in_progress: InProgress::default(),
        nodes: AtomicU64::new(0),
        working: AtomicUsize::new(threads),
    };
    let trees: Vec<TreeProgress> = (0..threads).map(|_| TreeProgress::default()).collect();
    // Each thread's job, plus one; 0 while it has none.
    let on_job: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
    std::thread::scope(|s| {
        for (tree, on_job) in trees.iter().zip(&on_job) {
            let run = &run;
            s.spawn(move || {
                run.work(tree, on_job, report);
                run.working.fetch_sub(1, Ordering::Relaxed);
            });
        }
        s.spawn(|| run.watch(&trees, &on_job, report));
    });
    run.jobs
        .into_inner()
        .map(|_| ())
        .map_err(|_| ThreadPanicked)
}

impl Run<'_> {
    /// One thread's loop: takes jobs until none is left, solving each on the shared table.
    fn work(&self, tree: &TreeProgress, on_job: &AtomicUsize, report: &dyn RunReport) {
        while let Some((i, offset, pos)) = self
            .schedule
            .lock()
            .ok()
            .and_then(|mut sc| sc.take())
            .and_then(|(i, offset)| Some((i, offset, self.jobs.lock().ok()?[i].position)))
        {
            let t = Instant::now();
            let mut solver = Solver::new(self.table, &self.stops[i], u64::MAX)
                .with_progress(&self.nodes)
                .with_tree_progress(tree)
                .with_root_offset(offset);
            if self.threads > 1 {
                solver = solver.with_in_progress(&self.in_progress);
            }
            // Each position's first thread turns to proof numbers once it finds the
            // position hard, the others stay depth-first: on the whole 6x7 table the
            // pair took a third less time than two depth-first threads (docs/solved.md).
            if offset == 0 {
                solver = solver.with_proof_numbers(self.search);
            }
            on_job.store(i + 1, Ordering::Relaxed);
            let proof = konane_core::with_position!(&pos, p => solver.solve(p)).ok();
            on_job.store(0, Ordering::Relaxed);
            if proof.is_some() {
                self.stops[i].store(true, Ordering::Relaxed);
            }
            let last = self.schedule.lock().is_ok_and(|mut sc| sc.leave(i));
            let Ok(mut j) = self.jobs.lock() else { break };
            j[i].nodes += solver.nodes();
            if proof.is_some() {
                j[i].proof = proof;
                j[i].secs = t.elapsed().as_secs_f64();
            }
            // Reported when the last thread is out, so the job counts every thread's nodes.
            if last {
                report.finished(i, &j[i]);
                self.finished.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Tells `report` how far the run has got, about once a second until the threads are done.
    fn watch(&self, trees: &[TreeProgress], on_job: &[AtomicUsize], report: &dyn RunReport) {
        let began = Instant::now();
        let mut shown = Instant::now();
        while self.working.load(Ordering::Relaxed) > 0 {
            // Short naps, so a run is not made to wait up to a second for its end.
            std::thread::sleep(Duration::from_millis(10));
            if shown.elapsed() < PROGRESS_EVERY {
                continue;
            }
            shown = Instant::now();
            report.progress(&RunProgress {
                elapsed: began.elapsed(),
                finished: self.finished.load(Ordering::Relaxed),
                jobs: self.stops.len(),
                nodes: self.nodes.load(Ordering::Relaxed),
                running: running_shares(trees, on_job),
            });
        }
    }
}

/// The running jobs' shares done: for each job, the furthest of the threads on it.
fn running_shares(trees: &[TreeProgress], on_job: &[AtomicUsize]) -> Vec<f64> {
    let mut best: HashMap<usize, f64> = HashMap::new();
    for (tree, job) in trees.iter().zip(on_job) {
        let j = job.load(Ordering::Relaxed);
        if j > 0 {
            let share = best.entry(j).or_default();
            *share = share.max(tree.share());
        }
    }
    best.into_values().collect()
}

#[cfg(test)]
mod tests {
    use konane_core::{AnyPosition, Opening, Size};

    use super::*;
    use crate::solve::table::Proof;

    /// Records what a run reports.
    #[derive(Default)]
    struct Heard {
        finished: Mutex<Vec<(usize, Job)>>,
        progress: Mutex<Vec<RunProgress>>,
    }

    impl RunReport for Heard {
        fn finished(&self, index: usize, job: &Job) {
            self.finished.lock().expect("a lock").push((index, *job));
        }

        fn progress(&self, progress: &RunProgress) {
            self.progress.lock().expect("a lock").push(progress.clone());
        }
    }

    /// Every position after a first removal and a reply on a 5x5 board.
    fn opening_jobs() -> Vec<Job> {
        let start = AnyPosition::start(Size::new(5, 5).expect("a size"), Opening::CenterOrCorner);
        let mut jobs = Vec::new();
        for removal in start.legal_moves() {
            let mut after = start;
            after.play(removal).expect("a legal removal");
            for reply in after.legal_moves() {
                let mut p = after;
                p.play(reply).expect("a legal reply");
                jobs.push(Job::new(p));
            }
        }
        jobs
    }

    /// Each job solved alone, on a fresh table of its own.
    fn alone(job: &Job) -> Proof {
        let table = ProofTable::new(1);
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(&table, &stop, u64::MAX);
        konane_core::with_position!(&job.position, p => solver.solve(p)).expect("a proof")
    }

    fn run(jobs: &mut [Job], threads: usize) -> Heard {
        let heard = Heard::default();
        let table = ProofTable::new(1);
        solve_jobs(
            jobs,
            threads,
            &table,
            ProofNumberSearch::beside(1, threads),
            &heard,
        )
        .expect("no thread panics");
        heard
    }

    #[test]
    fn every_job_is_proven_and_reported_once_with_the_result_it_has_alone() {
        let mut jobs = opening_jobs();
        assert!(jobs.len() > 4, "{} jobs", jobs.len());
        // One job proven before the run: it is not taken again.
        let known = Proof {
            win: alone(&jobs[1]).win,
            best: None,
        };
        jobs[1].proof = Some(known);
        jobs[1].nodes = 7;
        let heard = run(&mut jobs, 2);
        let mut reported: Vec<usize> = heard
            .finished
            .into_inner()
            .expect("a lock")
            .into_iter()
            .map(|(i, job)| {
                assert_eq!(job, jobs[i], "the report of job {i} is its final state");
                i
            })
            .collect();
        reported.sort_unstable();
        let expected: Vec<usize> = (0..jobs.len()).filter(|&i| i != 1).collect();
        assert_eq!(reported, expected, "each job but the known one, once");
        assert_eq!(jobs[1].proof, Some(known));
        assert_eq!(jobs[1].nodes, 7, "nobody worked on the known job");
        for job in jobs.iter().filter(|j| j.position != jobs[1].position) {
            let proof = job.proof.expect("proven");
            assert_eq!(proof.win, alone(job).win, "{}", job.position);
            assert!(job.nodes > 0, "{}", job.position);
            if proof.win {
                let mut after = job.position;
                after
                    .play(proof.best.expect("a winning move"))
                    .expect("legal");
                assert!(!alone(&Job::new(after)).win, "{} wins", job.position);
            }
        }
    }

    #[test]
    fn one_thread_and_two_prove_the_same() {
        let mut one = opening_jobs();
        let mut two = one.clone();
        run(&mut one, 1);
        run(&mut two, 2);
        let wins = |jobs: &[Job]| -> Vec<Option<bool>> {
            jobs.iter().map(|j| j.proof.map(|p| p.win)).collect()
        };
        assert!(one.iter().all(|j| j.proof.is_some()));
        assert_eq!(wins(&one), wins(&two));
    }

    #[test]
    fn a_run_with_every_job_proven_takes_none() {
        let mut jobs = opening_jobs();
        for job in &mut jobs {
            job.proof = Some(Proof {
                win: false,
                best: None,
            });
        }
        let before = jobs.clone();
        let heard = run(&mut jobs, 2);
        assert_eq!(jobs, before);
        assert!(heard.finished.into_inner().expect("a lock").is_empty());
    }
}
