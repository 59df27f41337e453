//! Which thread works on which job of a whole opening table: fresh jobs first, then help for
//! the running job with the fewest threads on it.

use konane_core::AnyPosition;

use super::table::Proof;

/// One position to prove, and what was found.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Job {
    /// The position to prove.
    pub position: AnyPosition,
    /// What is proven about it, once it is.
    pub proof: Option<Proof>,
    /// Nodes spent, also on an attempt that ran out of them (`proof` is then `None`).
    pub nodes: u64,
    /// Seconds the proof took, from its first thread's start to the proof.
    pub secs: f64,
}

impl Job {
    /// A position not tried yet.
    pub fn new(position: AnyPosition) -> Job {
        Job {
            position,
            proof: None,
            nodes: 0,
            secs: 0.0,
        }
    }
}

/// Which thread works on which job: each takes the next unsolved job, and when none is left
/// it helps with the running job that has the fewest threads on it, starting at another
/// root move, so that no core idles while the last long positions are being proven.
pub struct Schedule {
    /// Threads working on each job.
    threads: Vec<usize>,
    /// Jobs proven (in this run or before it).
    solved: Vec<bool>,
    /// The first job no thread has taken yet.
    next: usize,
}

impl Schedule {
    /// A schedule of `jobs`, those already proven left out.
    pub fn new(jobs: &[Job]) -> Schedule {
        Schedule {
            threads: vec![0; jobs.len()],
            solved: jobs.iter().map(|j| j.proof.is_some()).collect(),
            next: 0,
        }
    }

    /// A job to work on and the root offset to start at, or `None` when every job is solved
    /// or being solved.
    pub fn take(&mut self) -> Option<(usize, usize)> {
        while self.next < self.solved.len() {
            let i = self.next;
            self.next += 1;
            if !self.solved[i] {
                self.threads[i] = 1;
                return Some((i, 0));
            }
        }
        let (i, n) = (0..self.solved.len())
            .filter(|&i| !self.solved[i] && self.threads[i] > 0)
            .map(|i| (i, self.threads[i]))
            .min_by_key(|&(_, n)| n)?;
        self.threads[i] = n + 1;
        Some((i, n))
    }

    /// A thread is done with job `i` (it proved it, or was stopped because another thread
    /// did); true when it was the last one on it.
    pub fn leave(&mut self, i: usize) -> bool {
        self.solved[i] = true;
        self.threads[i] -= 1;
        self.threads[i] == 0
    }
}

#[cfg(test)]
mod tests {
    use konane_core::{Opening, Size};

    use super::*;

    fn jobs(solved: &[bool]) -> Vec<Job> {
        let start = AnyPosition::start(Size::new(4, 4).expect("a size"), Opening::Center);
        solved
            .iter()
            .map(|&s| Job {
                proof: s.then_some(Proof {
                    win: false,
                    best: None,
                }),
                ..Job::new(start)
            })
            .collect()
    }

    #[test]
    fn threads_take_fresh_jobs_then_help_the_least_helped() {
        let mut s = Schedule::new(&jobs(&[false, true, false]));
        // Job 1 was solved before the run: nobody takes it.
        assert_eq!(s.take(), Some((0, 0)));
        assert_eq!(s.take(), Some((2, 0)));
        // No fresh job left: help, at the next root offset, the job with fewest threads.
        assert_eq!(s.take(), Some((0, 1)));
        assert_eq!(s.take(), Some((2, 1)));
        assert_eq!(s.take(), Some((0, 2)));
        assert!(!s.leave(0), "two threads are still on job 0");
        // A solved job gets no more helpers.
        assert_eq!(s.take(), Some((2, 2)));
        assert!(!s.leave(0));
        assert!(s.leave(0), "the last thread out of job 0");
        for _ in 0..3 {
            s.leave(2);
        }
        assert_eq!(s.take(), None);
    }

    #[test]
    fn nothing_to_take_when_everything_is_solved() {
        assert_eq!(Schedule::new(&jobs(&[true, true])).take(), None);
        assert_eq!(Schedule::new(&[]).take(), None);
    }
}
