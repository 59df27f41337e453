//! `konane accuracy`: how often the engine keeps a proven win, on positions whose winning
//! moves the solver has labelled.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{AnyPosition, Game, Move, Opening, Size};
use konane_engine::{Engine, EngineConfig, Frozen, Limits, Rng, SystemClock};

use crate::bars::BarChart;

/// The engine's winning-move accuracy: label positions, or measure the engine on them.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Play self-play games to a random ply, prove the position won for the side to move
    /// (or the game's next one that is), name every winning move, and append it to a file
    /// when some move loses (run again to go on).
    Label(LabelArgs),
    /// Let the engine think on every position of a file and count the wins it keeps.
    Run {
        /// The labelled positions.
        #[arg(default_value = "data/accuracy-8x8.txt")]
        file: PathBuf,
        /// Thinking times, comma-separated, e.g. 100ms,1s (a bare number counts
        /// milliseconds).
        #[arg(long = "time", alias = "ms", value_name = "TIME", default_value = "100ms,1s",
              value_delimiter = ',', value_parser = crate::args::millis)]
        times: Vec<std::time::Duration>,
        /// Also draw the shares kept, by band of plies, as an SVG chart into this file.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
}

/// What `konane accuracy label` labels, and where it writes.
#[derive(clap::Args, Debug)]
struct LabelArgs {
    /// Board size, rows x columns.
    #[arg(long, default_value = "8x8")]
    size: Size,
    /// The first and last ply a position may be taken at, e.g. 16-30.
    #[arg(long, default_value = "16-30", value_parser = parse_plies)]
    plies: (usize, usize),
    /// Stop once the file holds this many positions.
    #[arg(long)]
    count: usize,
    /// The file to append to.
    #[arg(long, default_value = "data/accuracy-8x8.txt")]
    out: PathBuf,
    /// Solver nodes allowed per position and per move; what needs more is skipped.
    #[arg(long, default_value_t = 200_000_000)]
    nodes: u64,
    /// The level of the self-play games (1-4 think by depth, so games repeat by seed).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=4))]
    level: u8,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Size of the table of proven positions in MiB.
    #[arg(long = "table-mib", alias = "table-mb", value_name = "TABLE_MIB",
          default_value_t = 1024, value_parser = crate::args::parse_mib)]
    table_mb: usize,
}

fn parse_plies(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected two plies like 16-30, not {text:?}");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    let (a, b): (usize, usize) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// One labelled position: `<position text>;<ply>;<winning moves>;<legal moves>` in the file.
struct Labelled {
    position: AnyPosition,
    ply: usize,
    winning: Vec<Move>,
    legal: usize,
}

impl Labelled {
    fn line(&self) -> String {
        let moves: Vec<String> = self
            .winning
            .iter()
            .map(|&m| self.position.move_text(m))
            .collect();
        format!(
            "{};{};{};{}",
            self.position,
            self.ply,
            moves.join(" "),
            self.legal
        )
    }

    fn parse(line: &str) -> Result<Labelled> {
        let [position, ply, winning, legal] = line.split(';').collect::<Vec<_>>()[..] else {
            bail!("expected four fields separated by ';'");
        };
        let position = AnyPosition::parse(position, Opening::CenterOrCorner)?;
        let winning = winning
            .split_whitespace()
            .map(|m| position.size().parse_move(m).map_err(anyhow::Error::from))
            .collect::<Result<Vec<_>>>()?;
        if winning.is_empty() || winning.iter().any(|&m| position.check(m).is_err()) {
            bail!("the winning moves must be legal and at least one");
        }
        Ok(Labelled {
            position,
            ply: ply.parse()?,
            winning,
            legal: legal.parse()?,
        })
    }
}

/// The positions of a file, skipping blank lines and `#` comments.
fn read(path: &Path) -> Result<Vec<Labelled>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(n, l)| {
            Labelled::parse(l).with_context(|| format!("{} line {}", path.display(), n + 1))
        })
        .collect()
}

/// Runs `konane accuracy`.
pub fn run(args: Args) -> Result<()> {
    match args.action {
        Action::Label(args) => label(&args),
        Action::Run { file, times, svg } => {
            let ms: Vec<u64> = times.into_iter().map(crate::args::whole_millis).collect();
            measure(&file, &ms, svg.as_deref())
        }
    }
}

/// Labels positions into `args.out` until it holds `args.count`: one self-play game at a
/// time, each giving at most one position.
fn label(args: &LabelArgs) -> Result<()> {
    let LabelArgs {
        size,
        plies: (first, last),
        count,
        ref out,
        nodes,
        level,
        seed,
        table_mb,
    } = *args;
    let existing = read(out)?;
    let mut seen: HashSet<AnyPosition> = existing.iter().map(|l| l.position).collect();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("opening {}", out.display()))?;
    let engine = Engine::new(EngineConfig {
        proof_mb: table_mb,
        ..EngineConfig::default()
    });
    let stop = AtomicBool::new(false);
    let mut prover = Prover {
        engine: &engine,
        nodes,
        stop: &stop,
        by_replies: 0,
    };
    let bar = ProgressBar::new(count as u64);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} labelling [{bar:30}] {pos}/{len} positions, {elapsed} (left {eta}) {msg}",
    )?);
    bar.set_position(existing.len() as u64);
    let mut tally = LabelTally::default();
    // Game i plays from stream i of the seed. A continued run starts at the file's length,
    // so it may meet games it skipped before (tried again) but never labels a position twice.
    let mut game_index = existing.len() as u64;
    while seen.len() < count {
        let mut rng = Rng::new(konane_engine::substream(seed, game_index));
        game_index += 1;
        let target = first + rng.below(last - first + 1);
        let positions = self_play(&engine, size, level, &mut rng)?;
        let Some(&pos) = positions.get(target) else {
            continue;
        };
        if pos.count_moves() == 0 || seen.contains(&pos) {
            continue;
        }
        tally.tried += 1;
        show_status(&bar, &tally, prover.by_replies, seen.len(), count);
        let labelled = match pick(&mut prover, &positions, target, last, &seen) {
            Pick::TooHard => {
                tally.too_hard += 1;
                continue;
            }
            Pick::Nothing => {
                tally.nothing += 1;
                continue;
            }
            Pick::Labelled(labelled) => *labelled,
        };
        tally.later += u64::from(labelled.ply > target);
        writeln!(file, "{}", labelled.line())?;
        file.flush()?;
        seen.insert(labelled.position);
        bar.inc(1);
    }
    bar.finish();
    let LabelTally {
        tried,
        too_hard,
        nothing,
        later,
    } = tally;
    println!(
        "{} positions in {} ({tried} games tried this run: {too_hard} too hard for {nodes} \
         nodes in their range of plies, {nothing} with no position there won with a move that \
         loses (or whose moves were too hard), {later} labelled after the ply drawn; \
         {} positions proven reply by reply)",
        seen.len(),
        out.display(),
        prover.by_replies
    );
    Ok(())
}

/// What a labelling run has met so far, for its status line and its summary.
#[derive(Default)]
struct LabelTally {
    /// Games whose drawn ply held a new position with moves.
    tried: u64,
    /// Games whose range of plies the prover could not reach.
    too_hard: u64,
    /// Games with no position in range won with a move that loses.
    nothing: u64,
    /// Games labelled at a later ply than the one drawn.
    later: u64,
}

/// The positions of one self-play game at `level`, from the start to the end.
fn self_play(engine: &Engine, size: Size, level: u8, rng: &mut Rng) -> Result<Vec<AnyPosition>> {
    let mut game = Game::new(size, Opening::CenterOrCorner);
    let mut positions = vec![*game.position()];
    while let Some(m) = engine.choose(game.position(), level, &Frozen, rng) {
        game.play(m)?;
        positions.push(*game.position());
    }
    Ok(positions)
}

/// Shows the run's counts on the bar, and as a line on stderr when the bar is hidden.
fn show_status(bar: &ProgressBar, tally: &LabelTally, by_replies: u64, seen: usize, count: usize) {
    let LabelTally {
        tried,
        too_hard,
        nothing,
        later,
    } = tally;
    let status = format!(
        "{tried} tried, {too_hard} too hard, {nothing} with nothing to label, {later} \
         labelled at a later ply, {by_replies} proven reply by reply"
    );
    // A run into a log has no bar: a line a game instead (each takes a while).
    if bar.is_hidden() {
        eprintln!(
            "{:.0} s: {seen}/{count} positions, {status}",
            bar.elapsed().as_secs_f64(),
        );
    }
    bar.set_message(status);
}

/// What one game gives the labelled file.
enum Pick {
    /// The positions from the drawn ply on could not all be proven.
    TooHard,
    /// No position in range is won with a move that loses.
    Nothing,
    /// The position to append.
    Labelled(Box<Labelled>),
}

/// The position a game gives: the one at `target`, or when it is lost for the side to move,
/// too hard, or won by every move, the game's next proven position up to `last` that is won
/// with a move that loses (after a lost target, its very next one).
fn pick(
    prover: &mut Prover,
    positions: &[AnyPosition],
    target: usize,
    last: usize,
    seen: &HashSet<AnyPosition>,
) -> Pick {
    // The game's positions are proven from its end back first: each proof then finds
    // the next position's in the table, and the target is reached for a fraction of a
    // cold solve's nodes (so `konane lines` reaches ply 17-21 of 8x8's main lines
    // within 500 M nodes a position, docs/solved.md).
    let mut proven = positions.len();
    while proven > target && prover.wins(&positions[proven - 1]).is_some() {
        proven -= 1;
    }
    if proven > last.min(positions.len() - 1) {
        return Pick::TooHard;
    }
    let labelled = (proven..=last.min(positions.len() - 1)).find_map(|ply| {
        let pos = positions[ply];
        (prover.wins(&pos) == Some(true) && !seen.contains(&pos))
            .then(|| prover.label(pos, ply))
            .flatten()
            .filter(|l| l.winning.len() < l.legal)
    });
    labelled.map_or(Pick::Nothing, |l| Pick::Labelled(Box::new(l)))
}

/// What the labeller proves with: the engine, nodes a solve, and a count of the positions
/// that only their replies' solves proved.
struct Prover<'a> {
    engine: &'a Engine,
    nodes: u64,
    stop: &'a AtomicBool,
    by_replies: u64,
}

impl Prover<'_> {
    /// Whether the side to move wins `pos`, or `None` when it could not be proven: one solve,
    /// and when that runs out, one of each reply, until a reply is lost (a win) or all are
    /// won (a loss). A search spread over every reply can run out where one kept on a single
    /// reply proves it: the 6x8 e3 row's last position fell that way after the row's own
    /// search had spent ten times the nodes (docs/solved.md).
    fn wins(&mut self, pos: &AnyPosition) -> Option<bool> {
        if let Ok(p) = self.engine.solve(pos, self.nodes, self.stop).0 {
            return Some(p.win);
        }
        let mut unproven = false;
        for m in pos.legal_moves() {
            let mut after = *pos;
            after.play(m).ok()?;
            match self.engine.solve(&after, self.nodes, self.stop).0 {
                Ok(p) if !p.win => {
                    self.by_replies += 1;
                    return Some(true);
                }
                Ok(_) => {}
                Err(_) => unproven = true,
            }
        }
        self.by_replies += u64::from(!unproven);
        (!unproven).then_some(false)
    }

    /// Every winning move of a won position, or `None` when a move could not be proven.
    fn label(&mut self, pos: AnyPosition, ply: usize) -> Option<Labelled> {
        let moves = pos.legal_moves();
        let mut winning = Vec::new();
        for &m in &moves {
            let mut after = pos;
            after.play(m).ok()?;
            if !self.wins(&after)? {
                winning.push(m);
            }
        }
        Some(Labelled {
            position: pos,
            ply,
            winning,
            legal: moves.len(),
        })
    }
}

/// Lets the engine think on every position of `file` at each of `times` (milliseconds) and
/// prints the wins it keeps, in all and by band of plies; draws them into `svg` if given.
fn measure(file: &Path, times: &[u64], svg: Option<&Path>) -> Result<()> {
    let positions = read(file)?;
    if positions.is_empty() {
        bail!("{} holds no labelled positions", file.display());
    }
    let bands = Bands::of(&positions);
    // What a player who picks any legal move keeps, on average.
    let chance = random_share(&positions);
    println!(
        "{} positions of {} (plies {}-{}, each won for the side to move); \
         a random legal move keeps the win in {:.1}% of them",
        positions.len(),
        file.display(),
        bands.lo,
        bands.hi,
        chance * 100.0
    );
    println!();
    // Positions where at most half the moves win: where a weak move is easy to find.
    let hard = positions.iter().filter(|l| is_hard(l)).count();
    print!(
        "{:>8} {:>14} {:>8} {:>22}",
        "think", "kept the win", "share", "where half or fewer win"
    );
    for &b in &bands.starts {
        print!(" {:>11}", bands.name(b));
    }
    println!();
    let mut chart = chart_frame(file, &positions, &bands, chance);
    for &ms in times {
        let kept = think_on(&positions, &bands, ms);
        print!(
            "{:>6}ms {:>14} {:>7.1}% {:>22}",
            ms,
            format!("{}/{}", kept.all, positions.len()),
            kept.all as f64 * 100.0 / positions.len() as f64,
            format!("{}/{hard}", kept.hard)
        );
        let mut shares = Vec::new();
        for (&b, &k) in bands.starts.iter().zip(&kept.by_band) {
            let n = bands.count(&positions, b);
            print!(" {:>11}", format!("{k}/{n}"));
            shares.push(k as f64 / n as f64);
        }
        println!();
        shares.push(kept.all as f64 / positions.len() as f64);
        chart.series.push((format!("{ms} ms"), shares));
    }
    if let Some(path) = svg {
        std::fs::write(path, chart.svg()).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Whether at most half of a position's moves win.
fn is_hard(l: &Labelled) -> bool {
    2 * l.winning.len() <= l.legal
}

/// The share of winning moves among the legal ones, averaged over `positions`.
fn random_share<'a>(positions: impl IntoIterator<Item = &'a Labelled>) -> f64 {
    let positions: Vec<&Labelled> = positions.into_iter().collect();
    positions
        .iter()
        .map(|l| l.winning.len() as f64 / l.legal as f64)
        .sum::<f64>()
        / positions.len() as f64
}

/// The plies of a file in bands of four: how the share kept changes as the game goes on.
struct Bands {
    /// The first ply of the file.
    lo: usize,
    /// The last ply of the file.
    hi: usize,
    /// The first ply of each band that holds a position, in order.
    starts: Vec<usize>,
}

impl Bands {
    fn of(positions: &[Labelled]) -> Bands {
        let (lo, hi) = positions.iter().fold((usize::MAX, 0), |(lo, hi), l| {
            (lo.min(l.ply), hi.max(l.ply))
        });
        let mut starts: Vec<usize> = positions.iter().map(|l| Bands::band(l.ply)).collect();
        starts.sort_unstable();
        starts.dedup();
        Bands { lo, hi, starts }
    }

    /// The band of `ply`: its first ply.
    fn band(ply: usize) -> usize {
        ply / 4 * 4
    }

    /// The band starting at `b` in words, within the file's plies.
    fn name(&self, b: usize) -> String {
        match (b.max(self.lo), (b + 3).min(self.hi)) {
            (first, last) if first == last => format!("ply {first}"),
            (first, last) => format!("plies {first}-{last}"),
        }
    }

    /// The positions in the band starting at `b`.
    fn of_band<'a>(
        &self,
        positions: &'a [Labelled],
        b: usize,
    ) -> impl Iterator<Item = &'a Labelled> {
        positions.iter().filter(move |l| Bands::band(l.ply) == b)
    }

    /// How many positions the band starting at `b` holds.
    fn count(&self, positions: &[Labelled], b: usize) -> usize {
        self.of_band(positions, b).count()
    }
}

/// The chart of `accuracy run --svg` with its groups and the random move's baseline; the
/// engine's shares are added a thinking time at a time.
fn chart_frame(file: &Path, positions: &[Labelled], bands: &Bands, chance: f64) -> BarChart {
    BarChart {
        title: format!(
            "Wins kept on {} {} positions of {}, by ply",
            positions.len(),
            positions[0].position.size(),
            file.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        ),
        groups: bands
            .starts
            .iter()
            .map(|&b| format!("{} ({})", bands.name(b), bands.count(positions, b)))
            .chain([format!("all ({})", positions.len())])
            .collect(),
        series: Vec::new(),
        baseline: Some((
            "a random move".to_string(),
            bands
                .starts
                .iter()
                .map(|&b| random_share(bands.of_band(positions, b)))
                .chain([chance])
                .collect(),
        )),
    }
}

/// The wins the engine kept at one thinking time.
struct Kept {
    /// In all.
    all: usize,
    /// Where at most half the moves win.
    hard: usize,
    /// In each band, in the order of `Bands::starts`.
    by_band: Vec<usize>,
}

/// Lets the engine, as the site's computer plays, think `ms` on every position.
fn think_on(positions: &[Labelled], bands: &Bands, ms: u64) -> Kept {
    // The engine as the site's computer plays: the solved boards' books learned.
    let mut engine = Engine::new(EngineConfig::default());
    engine.learn_solved();
    let bar = ProgressBar::new(positions.len() as u64);
    let mut kept = Kept {
        all: 0,
        hard: 0,
        by_band: vec![0; bands.starts.len()],
    };
    for l in positions {
        let limits = Limits {
            time_ms: Some(ms),
            ..Limits::default()
        };
        let result = engine.think(
            &l.position,
            limits,
            true,
            &SystemClock::start(),
            &mut |_| {},
        );
        if result.best.is_some_and(|m| l.winning.contains(&m)) {
            kept.all += 1;
            kept.hard += usize::from(is_hard(l));
            if let Some(i) = bands.starts.iter().position(|&b| b == Bands::band(l.ply)) {
                kept.by_band[i] += 1;
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use konane_core::with_position;
    use konane_engine::{ProofTable, Solver};

    fn fresh_engine() -> Engine {
        Engine::new(EngineConfig {
            proof_mb: 16,
            ..EngineConfig::default()
        })
    }

    #[test]
    fn replies_prove_what_one_solve_cannot_and_agree_with_a_full_solve() {
        const NODES: u64 = 3_000;
        let stop = AtomicBool::new(false);
        let size = Size::new(5, 7).unwrap();
        let (mut only_by_replies, mut proven) = (0, 0);
        let player = fresh_engine();
        for game_index in 0..6 {
            let mut rng = Rng::new(konane_engine::substream(7, game_index));
            let mut game = Game::new(size, Opening::CenterOrCorner);
            while let Some(m) = player.choose(game.position(), 1, &Frozen, &mut rng) {
                game.play(m).unwrap();
                let pos = *game.position();
                let truth = with_position!(&pos, p => {
                    Solver::new(&ProofTable::new(16), &stop, u64::MAX).solve(p)
                })
                .unwrap()
                .win;
                let engine = fresh_engine();
                let alone = engine.solve(&pos, NODES, &stop).0.is_ok();
                let engine = fresh_engine();
                let mut prover = Prover {
                    engine: &engine,
                    nodes: NODES,
                    stop: &stop,
                    by_replies: 0,
                };
                let Some(win) = prover.wins(&pos) else {
                    assert!(!alone, "{pos}");
                    continue;
                };
                assert_eq!(win, truth, "{pos}");
                assert_eq!(prover.by_replies, u64::from(!alone), "{pos}");
                proven += 1;
                only_by_replies += u64::from(!alone);
            }
        }
        assert!(
            only_by_replies > 0,
            "{proven} proven, none by replies alone"
        );
        eprintln!("{proven} proven, {only_by_replies} by replies alone");
    }
}
