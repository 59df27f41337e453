//! The resume log: finished positions, one a line, so a long run can stop and go on.

use std::collections::HashMap;
use std::sync::Mutex;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use konane_core::AnyPosition;
use konane_engine::Proof;
use konane_engine::solve::Job;

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
