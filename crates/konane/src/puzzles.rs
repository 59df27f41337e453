//! `konane puzzles`: mine puzzles from self-play and stored games, and prove a set again.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{AnyPosition, Color, Game, Opening, Record, Size};
use konane_engine::puzzle::{self, Puzzle, PuzzleId, Source};
use konane_engine::{Engine, EngineConfig, Frozen, ProofTable, Rng};

/// Puzzles: find them, or prove a set again.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Find proven puzzles and append them to a file (run again to go on).
    Generate {
        /// Board size, rows x columns.
        #[arg(long, default_value = "8x8")]
        size: Size,
        /// Stop once the file holds this many puzzles of this size.
        #[arg(long)]
        count: usize,
        /// Mine the games of this record file instead of self-play.
        #[arg(long)]
        from: Option<PathBuf>,
        /// The puzzle file to append to.
        #[arg(long, default_value = "data/puzzles.txt")]
        out: PathBuf,
        /// Solver nodes allowed per candidate position; what needs more is skipped.
        #[arg(long, default_value_t = 3_000_000)]
        nodes: u64,
        /// Only positions with at most this many stones are tried (default: by size).
        #[arg(long)]
        max_stones: Option<usize>,
        /// Puzzles taken from one game at most.
        #[arg(long, default_value_t = 2)]
        per_game: usize,
        /// Seed of the self-play games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Size of the table of proven positions in MiB.
        #[arg(long = "table-mib", alias = "table-mb", value_name = "TABLE_MIB",
              default_value_t = 256, value_parser = crate::args::parse_mib)]
        table_mb: usize,
    },
    /// Prove every puzzle of a file again and print what the set holds.
    Check {
        /// The puzzle file.
        #[arg(default_value = "data/puzzles.txt")]
        file: PathBuf,
        /// Solver nodes allowed per puzzle.
        #[arg(long, default_value_t = 50_000_000)]
        nodes: u64,
    },
}

/// The level pairs of self-play, in turn: weak and strong players make different mistakes.
const LEVEL_PAIRS: [(u8, u8); 6] = [(1, 2), (2, 3), (3, 4), (4, 1), (2, 4), (3, 1)];

/// Runs `konane puzzles`.
pub fn run(args: Args) -> Result<()> {
    match args.action {
        Action::Generate {
            size,
            count,
            from,
            out,
            nodes,
            max_stones,
            per_game,
            seed,
            table_mb,
        } => generate(&Mining {
            size,
            count,
            from,
            out,
            nodes,
            max_stones: max_stones.unwrap_or(default_max_stones(size)),
            per_game,
            seed,
            table_mb,
        }),
        Action::Check { file, nodes } => check(&file, nodes),
    }
}

/// A crowded board is too costly to prove; past these counts the solver is quick.
fn default_max_stones(size: Size) -> usize {
    match size.squares() {
        0..=36 => size.squares(),
        37..=64 => 26,
        _ => 30,
    }
}

struct Mining {
    size: Size,
    count: usize,
    from: Option<PathBuf>,
    out: PathBuf,
    nodes: u64,
    max_stones: usize,
    per_game: usize,
    seed: u64,
    table_mb: usize,
}

/// What the output file already holds.
struct Existing {
    ids: HashSet<PuzzleId>,
    of_size: usize,
    next_self_play: u64,
    next_record: u64,
}

fn read_existing(path: &Path, size: Size) -> Result<Existing> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let set = Puzzle::parse_set(&text).with_context(|| format!("reading {}", path.display()))?;
    let mut existing = Existing {
        ids: HashSet::new(),
        of_size: 0,
        next_self_play: 0,
        next_record: 0,
    };
    for p in set {
        if p.position.size() == size {
            existing.of_size += 1;
            match p.source {
                Source::SelfPlay { game, .. } => {
                    existing.next_self_play = existing.next_self_play.max(game + 1);
                }
                Source::Record { game, .. } => {
                    existing.next_record = existing.next_record.max(game + 1);
                }
            }
        }
        existing.ids.insert(p.id);
    }
    Ok(existing)
}

/// The games of a record file: a new record starts at a tag line after move text.
fn read_records(path: &Path) -> Result<Vec<Record>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut chunks: Vec<String> = Vec::new();
    let mut in_moves = true;
    for line in text.lines() {
        let tag = line.trim_start().starts_with('[');
        if tag && in_moves {
            chunks.push(String::new());
        }
        if !line.trim().is_empty() {
            in_moves = !tag;
        }
        if let Some(c) = chunks.last_mut() {
            c.push_str(line);
            c.push('\n');
        }
    }
    chunks
        .iter()
        .enumerate()
        .map(|(n, c)| {
            Record::parse(c).with_context(|| format!("{} record {}", path.display(), n + 1))
        })
        .collect()
}

/// Appends puzzles of `cfg.size` to `cfg.out` until it holds `cfg.count`, mined from the
/// games of `cfg.from` or else from self-play.
fn generate(cfg: &Mining) -> Result<()> {
    if cfg.count == 0 {
        bail!("--count must be at least 1");
    }
    let existing = read_existing(&cfg.out, cfg.size)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .with_context(|| format!("opening {}", cfg.out.display()))?;
    let bar = ProgressBar::new(cfg.count as u64);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} mining {prefix} [{bar:40}] {pos}/{len} puzzles, {elapsed} {msg}",
    )?);
    bar.set_prefix(cfg.size.to_string());
    bar.set_position(existing.of_size as u64);
    let mut miner = Miner {
        cfg,
        existing,
        file,
        bar,
        table: ProofTable::new(cfg.table_mb),
        stats: Stats::default(),
    };
    match &cfg.from {
        Some(from) => miner.mine_records(from)?,
        None => miner.mine_self_play()?,
    }
    miner.bar.finish();
    println!(
        "{} puzzles of {} in {}",
        miner.existing.of_size,
        cfg.size,
        cfg.out.display()
    );
    Ok(())
}

/// A mining run: what the file holds, where found puzzles go, and the proofs so far.
struct Miner<'a> {
    cfg: &'a Mining,
    existing: Existing,
    file: std::fs::File,
    bar: ProgressBar,
    table: ProofTable,
    stats: Stats,
}

impl Miner<'_> {
    /// Takes the puzzles of the record file's games, from the first game not mined yet.
    fn mine_records(&mut self, from: &Path) -> Result<()> {
        let records = read_records(from)?;
        for (n, record) in records
            .iter()
            .enumerate()
            .skip(self.existing.next_record as usize)
        {
            if self.existing.of_size >= self.cfg.count {
                break;
            }
            let mut game = Game::from_position(*record.game().start());
            let mut found = 0;
            for (ply, &m) in record.game().moves().iter().enumerate() {
                if found < self.cfg.per_game && candidate(game.position(), self.cfg.max_stones) {
                    let source = Source::Record {
                        game: n as u64,
                        ply: ply as u32,
                    };
                    found += usize::from(self.take(game.position(), source)?);
                }
                game.play(m)?;
            }
        }
        Ok(())
    }

    /// Plays self-play games, the level pairs in turn, from the first game not mined yet,
    /// until the file holds enough puzzles.
    fn mine_self_play(&mut self) -> Result<()> {
        let cfg = self.cfg;
        let engine = Engine::new(EngineConfig {
            hash_mb: 16,
            proof_mb: 1,
            threads: 1,
            ..EngineConfig::default()
        });
        let mut index = self.existing.next_self_play;
        while self.existing.of_size < cfg.count {
            let (black, white) = LEVEL_PAIRS[(index % LEVEL_PAIRS.len() as u64) as usize];
            let mut rng = Rng::new(cfg.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
            let mut game = Game::new(cfg.size, Opening::CenterOrCorner);
            engine.new_game();
            let mut found = 0;
            loop {
                let pos = *game.position();
                if found < cfg.per_game && candidate(&pos, cfg.max_stones) {
                    let source = Source::SelfPlay {
                        black,
                        white,
                        game: index,
                        ply: game.ply() as u32,
                    };
                    if self.take(&pos, source)? {
                        found += 1;
                    }
                    if self.existing.of_size >= cfg.count {
                        break;
                    }
                }
                let level = if pos.turn() == Color::Black {
                    black
                } else {
                    white
                };
                let Some(m) = engine.choose(&pos, level, &Frozen, &mut rng) else {
                    break;
                };
                game.play(m)?;
            }
            index += 1;
        }
        Ok(())
    }

    /// Proves `pos` a puzzle and appends it to the file if it is one and new; whether it was.
    fn take(&mut self, pos: &AnyPosition, source: Source) -> Result<bool> {
        self.stats.tried += 1;
        if self.existing.ids.contains(&PuzzleId::of(pos)) {
            return Ok(false);
        }
        match puzzle::find(pos, &self.table, self.cfg.nodes) {
            Err(_) => self.stats.unproven += 1,
            Ok(None) => {}
            Ok(Some(found)) => {
                let p = found.into_puzzle(*pos, source);
                writeln!(self.file, "{p}")?;
                self.file.flush()?;
                self.existing.ids.insert(p.id);
                self.existing.of_size += 1;
                self.bar.set_position(self.existing.of_size as u64);
                return Ok(true);
            }
        }
        self.bar.set_message(format!(
            "({} positions tried, {} over budget)",
            self.stats.tried, self.stats.unproven
        ));
        Ok(false)
    }
}

#[derive(Default)]
struct Stats {
    tried: u64,
    unproven: u64,
}

/// Worth proving: a jump to choose and a board thin enough for the solver.
fn candidate(pos: &AnyPosition, max_stones: usize) -> bool {
    let squares = pos.size().squares();
    let empty = (0..squares)
        .filter(|&i| pos.stone_at(konane_core::Square::from_index(i)).is_none())
        .count();
    empty >= 2 && squares - empty <= max_stones && pos.count_moves() >= 2
}

fn check(path: &Path, nodes: u64) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let set = Puzzle::parse_set(&text).with_context(|| format!("reading {}", path.display()))?;
    let bar = ProgressBar::new(set.len() as u64);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} proving [{bar:40}] {pos}/{len} puzzles, {elapsed}",
    )?);
    let table = ProofTable::new(256);
    let mut ids = HashSet::new();
    let mut failures = Vec::new();
    for p in &set {
        if !ids.insert(p.id.clone()) {
            failures.push(format!("{}: appears twice", p.id));
        }
        if let Err(e) = puzzle::verify(p, &table, nodes) {
            failures.push(format!("{}: {e}", p.id));
        }
        bar.inc(1);
    }
    bar.finish();
    print!("{}", summary(&set));
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("{f}");
        }
        bail!("{} of {} puzzles failed", failures.len(), set.len());
    }
    println!("all {} puzzles proven", set.len());
    Ok(())
}

/// Counts by size, theme and number of steps.
fn summary(set: &[Puzzle]) -> String {
    let mut sizes: Vec<Size> = set.iter().map(|p| p.position.size()).collect();
    sizes.sort_by_key(|s| (s.rows(), s.cols()));
    sizes.dedup();
    let mut out = String::from("size    puzzles");
    for t in puzzle::Theme::ALL {
        out.push_str(&format!(" {:>10}", t.name()));
    }
    out.push_str("  steps 1/2/3/4\n");
    for size in sizes {
        let of: Vec<&Puzzle> = set.iter().filter(|p| p.position.size() == size).collect();
        out.push_str(&format!("{:<7} {:>7}", size.to_string(), of.len()));
        for t in puzzle::Theme::ALL {
            let n = of.iter().filter(|p| p.themes.contains(&t)).count();
            out.push_str(&format!(" {n:>10}"));
        }
        let steps: Vec<String> = (1..=puzzle::MAX_STEPS)
            .map(|s| of.iter().filter(|p| p.steps() == s).count().to_string())
            .collect();
        out.push_str(&format!("  {}\n", steps.join("/")));
    }
    out
}
