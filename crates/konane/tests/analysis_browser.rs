//! The engine in the browser (web/engine.wasm in a Web Worker), in a real headless
//! Chromium against the real `konane serve`: its legal moves equal the server's on random
//! positions of many sizes, and a level with a seed chooses what the native engine chooses.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use fantoccini::Client;
use konane_core::{AnyPosition, Game, Opening, Size};
use konane_engine::{Engine, Frozen, Rng};
use rig::*;
use serde_json::{Value, json};

/// Sends `requests` to one page engine (web/engine.js), in order; each answer, or
/// `{"error": code}` for a refusal.
async fn in_the_worker(c: &Client, requests: &[Value]) -> Vec<Value> {
    let script = r#"
        const [requests, done] = arguments;
        import("/engine.js").then(async ({ Engine }) => {
            const engine = new Engine();
            const out = [];
            for (const r of requests) {
                try { out.push(await engine.request(r)); } catch (e) { out.push({ error: e.code }); }
            }
            done(out);
        }, (e) => done([{ error: String(e) }]));
    "#;
    let answer = c
        .execute_async(script, vec![json!(requests)])
        .await
        .expect("the script runs");
    answer.as_array().cloned().expect("a list of answers")
}

/// A position after `plies` random moves (fewer if the game ends first).
fn random_position(size: Size, opening: Opening, seed: u64, plies: usize) -> AnyPosition {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(size, opening);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())])
            .expect("a generated move is legal");
    }
    *game.position()
}

#[tokio::test]
async fn the_workers_legal_moves_are_the_servers() {
    if !browsers_present() {
        return;
    }
    let rig = rig("wasm-moves");
    let c = rig.browser("player", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    let sizes = ["4x4", "5x7", "6x6", "8x8", "9x9", "12x10", "16x16"];
    let mut requests = Vec::new();
    for (i, size) in sizes.iter().enumerate() {
        for opening in Opening::ALL {
            for seed in 0..6u64 {
                let plies = (seed as usize * 7 + i) % 40;
                let pos = random_position(size.parse().unwrap(), opening, seed, plies);
                requests.push(json!({"op": "position", "position": pos.to_string(), "opening": opening.name()}));
            }
        }
    }
    let ours = in_the_worker(&c, &requests).await;
    assert_eq!(ours.len(), requests.len());
    let http = reqwest::Client::new();
    let mut with_moves = 0;
    for (request, ours) in requests.iter().zip(&ours) {
        let body = json!({"position": request["position"], "opening": request["opening"]});
        let server: Value = http
            .post(format!("{}/api/position", rig.base))
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(ours, &server, "{body}");
        with_moves += usize::from(!server["legal_moves"].as_array().unwrap().is_empty());
    }
    assert!(with_moves > requests.len() / 2, "{with_moves}");
    assert_no_console_errors(&c, "the worker's legal moves").await;
}

/// Levels 1 to 4 stop at a fixed depth long before their time runs out, so the seed alone
/// decides their move: the browser must choose exactly what the native engine chooses.
#[tokio::test]
async fn a_level_with_a_seed_chooses_as_the_native_engine() {
    if !browsers_present() {
        return;
    }
    let rig = rig("wasm-choose");
    let c = rig.browser("player", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    let native = Engine::new(konane_wasm::config());
    let mut requests = Vec::new();
    let mut expected = Vec::new();
    for (size, plies) in [
        ("6x6", 3u64),
        ("6x6", 9),
        ("8x8", 2),
        ("8x8", 12),
        ("7x9", 6),
    ] {
        let pos = random_position(
            size.parse().unwrap(),
            Opening::CenterOrCorner,
            plies,
            plies as usize,
        );
        for seed in [1u64, 7, 2024, 99_999] {
            for level in 1..=4u8 {
                requests.push(json!({"op": "choose", "position": pos.to_string(), "level": level, "seed": seed}));
                let m = native.choose(&pos, level, &Frozen, &mut Rng::new(seed));
                expected.push(json!({"move": m.map(|m| pos.move_text(m))}));
            }
        }
    }
    let ours = in_the_worker(&c, &requests).await;
    for ((request, ours), native) in requests.iter().zip(&ours).zip(&expected) {
        assert_eq!(ours, native, "{request}");
    }
    // Level 1 is random: on some position, different seeds must have chosen differently.
    let mut choices = std::collections::HashMap::<String, std::collections::HashSet<String>>::new();
    for (r, a) in requests.iter().zip(&ours).filter(|(r, _)| r["level"] == 1) {
        choices
            .entry(r["position"].to_string())
            .or_default()
            .insert(a["move"].to_string());
    }
    assert!(choices.values().any(|moves| moves.len() > 1), "{choices:?}");
    assert_no_console_errors(&c, "choosing in the worker").await;
}

/// The moves that win `pos`, by the native solver (each leaves the opponent a proven loss);
/// `None` when the solver cannot settle every move within its budget.
fn winning_moves(pos: &AnyPosition) -> Option<Vec<String>> {
    let engine = Engine::new(konane_engine::EngineConfig {
        hash_mb: 8,
        proof_mb: 32,
        ..konane_engine::EngineConfig::default()
    });
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut wins = Vec::new();
    for m in pos.legal_moves() {
        let mut after = *pos;
        after.play(m).ok()?;
        let proof = engine.solve(&after, 3_000_000, &stop).0.ok()?;
        if !proof.win {
            wins.push(pos.move_text(m));
        }
    }
    Some(wins)
}

/// Positions whose winning moves the solver knows: `(position, winning moves)`, some won
/// and some lost for the side to move.
fn solved_positions(
    size: &str,
    plies: std::ops::Range<usize>,
    want: usize,
) -> Vec<(AnyPosition, Vec<String>)> {
    let mut out = Vec::new();
    let (mut won, mut lost) = (0, 0);
    for seed in 0..400u64 {
        let plies = plies.start + seed as usize % plies.len();
        let pos = random_position(size.parse().unwrap(), Opening::CenterOrCorner, seed, plies);
        if pos.count_moves() < 2 {
            continue;
        }
        let Some(wins) = winning_moves(&pos) else {
            continue;
        };
        // Positions where some move does not win, so naming a winning one means something.
        let keep = if wins.is_empty() {
            lost < want / 2
        } else {
            won < want - want / 2 && wins.len() < pos.count_moves() as usize
        };
        if keep {
            if wins.is_empty() {
                lost += 1;
            } else {
                won += 1;
            }
            out.push((pos, wins));
        }
        if out.len() == want {
            break;
        }
    }
    assert_eq!(out.len(), want, "not enough solved {size} positions");
    out
}

/// The squares matching `css` (`data-square` of each).
async fn squares(c: &Client, css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in c
        .find_all(fantoccini::Locator::Css(css))
        .await
        .unwrap_or_default()
    {
        out.extend(e.attr("data-square").await.ok().flatten());
    }
    out
}

/// The best move named and the one the arrow shows, when they agree. Read in one script:
/// the arrow is redrawn at every depth, so an element found by one WebDriver call may be
/// gone by the next.
async fn best_and_arrow(c: &Client) -> Option<String> {
    let js = "const best = document.querySelector('[data-analysis]')?.dataset.bestmove;
              const arrow = document.querySelector('[data-best-arrow]')?.dataset.bestArrow;
              return best && best === arrow ? best : null;";
    let found = c.execute(js, vec![]).await.ok()?;
    found.as_str().map(str::to_string)
}

async fn wait_proven(c: &Client, secs: u64) -> (String, String, String) {
    let what = || "the analysis board never showed a proven result".to_string();
    eventually(secs, what, || async {
        let proven = attr(c, "[data-analysis]", "data-proven").await?;
        let best = attr(c, "[data-analysis]", "data-bestmove")
            .await
            .unwrap_or_default();
        let eval = attr(c, "[data-analysis]", "data-eval").await?;
        (proven == "loss" || !best.is_empty()).then_some((proven, best, eval))
    })
    .await
}

#[tokio::test]
async fn the_analysis_board_names_a_winning_move() {
    if !browsers_present() {
        return;
    }
    let rig = rig("analysis-wins");
    let c = rig.browser("player", 1280, 900).await;
    let mut cases = solved_positions("6x6", 4..12, 3);
    // On 8x8 the won positions only: proving a loss there (every move loses) can take the
    // browser's solver longer than a test should wait; 6x6 covers the lost ones.
    cases.extend(
        solved_positions("8x8", 24..34, 4)
            .into_iter()
            .filter(|(_, wins)| !wins.is_empty()),
    );
    for (pos, wins) in &cases {
        let url = reqwest::Url::parse_with_params(
            &format!("{}/analysis", rig.base),
            [("position", pos.to_string())],
        )
        .unwrap();
        c.goto(url.as_str()).await.unwrap();
        let (proven, best, eval) = wait_proven(&c, 60).await;
        if wins.is_empty() {
            assert_eq!(proven, "loss", "{pos}");
            assert!(eval.starts_with("loss"), "{pos}: {eval}");
        } else {
            assert_eq!(proven, "win", "{pos}");
            assert!(wins.contains(&best), "{pos}: {best} is not one of {wins:?}");
            assert!(eval.starts_with("win"), "{pos}: {eval}");
            let what = || format!("{pos}: the arrow never showed the best move");
            let arrow = eventually(10, what, || best_and_arrow(&c)).await;
            assert!(
                wins.contains(&arrow),
                "{pos}: the arrow shows {arrow}, not a win"
            );
        }
        let verdict = text(&c, "[data-verdict]").await;
        assert!(verdict.contains("wins"), "{pos}: {verdict}");
    }
    assert_no_console_errors(&c, "the analysis board").await;
}

/// The browser's engine learns what `konane solve` proved (GET /api/books/{size}): at the
/// start of 7x7 (center rule) and after Black's d3 on 6x8, positions its solver alone could
/// not prove in hours, and at the earliest won position of the 7x8 and 8x8 tables, the board
/// shows the proven winner and a winning move at once, in the book's orientation and in
/// another (d3 is e4 under a half turn).
#[tokio::test]
async fn the_analysis_board_knows_the_solved_boards() {
    if !browsers_present() {
        return;
    }
    let rig = rig("analysis-books");
    let c = rig.browser("player", 1280, 900).await;
    emulate(&c, "dark", "reduce").await;
    let after = |size: &str, opening: Opening, moves: &[&str]| {
        let mut pos = AnyPosition::start(size.parse().unwrap(), opening);
        for m in moves {
            pos.play_text(m).unwrap();
        }
        pos
    };
    // Each table of a board too large to solve (7x8, 8x8): the earliest won position of the
    // engine's main lines (the most stones).
    let lines: Vec<(AnyPosition, String)> = konane_engine::book::TABLES
        .iter()
        .map(|t| {
            let (pos, proof) = konane_engine::book::read_table(t.text)
                .unwrap()
                .into_iter()
                .filter(|(p, proof)| proof.win && p.opening() == Opening::CenterOrCorner)
                .max_by_key(|(p, _)| p.to_string().matches(['b', 'w']).count())
                .unwrap();
            let best = pos.move_text(proof.best.unwrap());
            (pos, best)
        })
        .collect();
    let solved = [
        (after("7x7", Opening::Center, &[]), "center", "d4"),
        (
            after("6x8", Opening::CenterOrCorner, &["d3"]),
            "center-or-corner",
            "e3",
        ),
    ];
    let tables = lines
        .iter()
        .map(|(pos, best)| (*pos, "center-or-corner", best.as_str()));
    for (pos, opening, winning) in solved.into_iter().chain(tables) {
        let url = reqwest::Url::parse_with_params(
            &format!("{}/analysis", rig.base),
            [("position", pos.to_string()), ("opening", opening.into())],
        )
        .unwrap();
        c.goto(url.as_str()).await.unwrap();
        let (proven, best, eval) = wait_proven(&c, 30).await;
        assert_eq!(
            (proven.as_str(), best.as_str()),
            ("win", winning),
            "{pos}: {eval}"
        );
        let verdict = text(&c, "[data-verdict]").await;
        assert!(verdict.contains("wins"), "{pos}: {verdict}");
        // The search's line that starts with the proven move comes first and says "win",
        // not the search's guess.
        let js = "const line = document.querySelector('[data-line]');
                  return line && line.title.split(' ')[0] === arguments[0]
                      ? line.querySelector('.line-eval').textContent : null;";
        let what = || format!("{pos}: the first line was not {winning}'s, saying win");
        eventually(10, what, || async {
            let eval = c.execute(js, vec![winning.into()]).await.ok()?;
            eval.as_str()
                .filter(|e| e.starts_with("win"))
                .map(str::to_string)
        })
        .await;
        screenshot(&c, &format!("analysis-book-{}", pos.size())).await;
    }
    assert_no_console_errors(&c, "the analysis board with books").await;
}

/// The search itself counts the moves to the end once it sees there: "wins in N moves",
/// `data-eval` "win N" or "loss N", and three lines with their scores.
#[tokio::test]
async fn a_proven_position_shows_its_result_and_the_board_explores_variations() {
    if !browsers_present() {
        return;
    }
    let rig = rig("analysis-proven");
    for (label, w, h, scheme) in [
        ("desktop-light", 1280, 900, "light"),
        ("phone-dark", 390, 844, "dark"),
    ] {
        let c = rig.browser(label, w, h).await;
        emulate(&c, scheme, "reduce").await;
        let (pos, _) = solved_positions("6x6", 10..14, 2).remove(1);
        let url = reqwest::Url::parse_with_params(
            &format!("{}/analysis", rig.base),
            [("position", pos.to_string())],
        )
        .unwrap();
        c.goto(url.as_str()).await.unwrap();
        let what = || "the search never counted the moves to the end".to_string();
        let eval = eventually(30, what, || async {
            let e = attr(&c, "[data-analysis]", "data-eval").await?;
            (e.split(' ').nth(1).is_some()).then_some(e)
        })
        .await;
        let n: u32 = eval.split(' ').nth(1).unwrap().parse().unwrap();
        let verdict = text(&c, "[data-verdict]").await;
        assert!(
            verdict.contains(&format!("wins in {n} move")),
            "{verdict} for {eval}"
        );
        assert!(attr(&c, "[data-analysis]", "data-depth").await.is_some());
        let lines = c
            .find_all(fantoccini::Locator::Css("[data-line]"))
            .await
            .unwrap();
        assert_eq!(lines.len(), 3.min(pos.count_moves() as usize));
        screenshot(&c, &format!("analysis-{label}")).await;

        // A move of our own, back, and another: the first stays the main line.
        click_a_move(&c).await;
        wait_for(&c, "[data-tree] [data-node]", 5).await;
        let first = attr(&c, "[data-tree] [data-node]", "data-move")
            .await
            .unwrap();
        // Back only once the move is the current one, as a player sees it: a click before
        // the page has taken the move goes back from the start (CI saw that race once).
        wait_for(&c, "[data-tree] [aria-current=true]", 5).await;
        click(&c, "[data-nav=back]").await;
        // Back at the start: no move of the tree is the current one.
        wait_gone(&c, "[data-tree] [aria-current=true]").await;
        let mut played = false;
        for square in squares(&c, "[data-action=select]").await {
            click(&c, &format!("[data-square='{square}']")).await;
            if let Some(to) = squares(&c, "[data-action=target]")
                .await
                .into_iter()
                .find(|to| format!("{square}-{to}") != first)
            {
                click(&c, &format!("[data-square='{to}']")).await;
                played = true;
                break;
            }
            click(&c, &format!("[data-square='{square}']")).await;
        }
        assert!(played, "{pos} has a second jump");
        wait_for(&c, "[data-variation] [data-node]", 5).await;
        let main = attr(&c, "[data-tree] > [data-node]", "data-move")
            .await
            .unwrap();
        assert_eq!(main, first, "the main line keeps its first move");
        screenshot(&c, &format!("analysis-variation-{label}")).await;
        assert_no_console_errors(&c, label).await;
        c.close().await.unwrap();
    }
}

/// A won position, a move that throws the win away, and the opponent's winning reply: the
/// review marks the first a blunder and the second nothing, and draws the graph.
#[tokio::test]
async fn the_review_marks_a_known_blunder() {
    if !browsers_present() {
        return;
    }
    let rig = rig("review");
    let (pos, wins) = solved_positions("6x6", 8..12, 2)
        .into_iter()
        .find(|(_, wins)| !wins.is_empty())
        .expect("a won position");
    let blunder = pos
        .legal_move_texts()
        .into_iter()
        .find(|m| !wins.contains(m))
        .expect("a move that does not win");
    let mut after = pos;
    after.play_text(&blunder).unwrap();
    let engine = Engine::new(konane_wasm::config());
    let stop = std::sync::atomic::AtomicBool::new(false);
    let reply = engine
        .solve(&after, 3_000_000, &stop)
        .0
        .unwrap()
        .best
        .unwrap();
    let reply = after.move_text(reply);
    let number = if pos.turn() == konane_core::Color::Black {
        "1."
    } else {
        "1..."
    };
    let record = format!("[Size \"6x6\"]\n[Position \"{pos}\"]\n\n{number} {blunder} {reply}\n");
    for (label, w, h, scheme) in [
        ("desktop-dark", 1280, 900, "dark"),
        ("phone-light", 390, 844, "light"),
    ] {
        let c = rig.browser(label, w, h).await;
        emulate(&c, scheme, "reduce").await;
        c.goto(&format!("{}/analysis", rig.base)).await.unwrap();
        let area = wait_for(&c, "[data-open-text]", 10).await;
        area.send_keys(&record).await.unwrap();
        click(&c, "[data-open]").await;
        wait_for(&c, &format!("[data-tree] [data-move='{reply}']"), 10).await;
        click(&c, "[data-review-start]").await;
        wait_for(&c, "[data-review] [data-graph]", 30).await;
        let judged = |m: String| {
            let c = &c;
            async move { attr(c, &format!("[data-review-move='{m}']"), "data-judgement").await }
        };
        assert_eq!(
            judged(blunder.clone()).await.as_deref(),
            Some("blunder"),
            "{record}"
        );
        assert_eq!(judged(reply.clone()).await.as_deref(), Some(""), "{record}");
        let better = attr(
            &c,
            &format!("[data-review-move='{blunder}'] [data-better]"),
            "data-better",
        )
        .await;
        assert!(
            better.is_some_and(|b| wins.contains(&b)),
            "{record}: the better move wins"
        );
        let graph = attr(&c, "[data-graph]", "data-graph").await.unwrap();
        assert_eq!(graph.split(',').count(), 3, "{graph}");
        screenshot(&c, &format!("review-{label}")).await;
        assert_no_console_errors(&c, label).await;
        c.close().await.unwrap();
    }
}
