//! The files a long run keeps: its resume log and checkpoints, and whether a table's keys
//! are exact enough for a checkpoint.

use std::time::Duration;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use konane_core::AnyPosition;
use konane_engine::{Keying, ProofTable, WhyHashed};

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
pub(super) fn same_file(a: &Path, b: &Path) -> Result<bool> {
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
