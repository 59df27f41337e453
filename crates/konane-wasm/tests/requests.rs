//! The browser engine's requests, answered natively: the same `handle` the WebAssembly
//! build runs. Refusals carry the right codes, answers agree with the core and the engine,
//! and no input makes it panic. (`crates/konane/tests/analysis_browser.rs` asks the real
//! WebAssembly build in Chromium the same questions.)

use konane_core::{AnyPosition, Game, Opening, Size};
use konane_engine::{Engine, EngineConfig, Frozen, Rng};
use proptest::prelude::*;
use serde_json::{Value, json};

fn engine() -> Engine {
    Engine::new(EngineConfig {
        hash_mb: 4,
        proof_mb: 4,
        ..EngineConfig::default()
    })
}

fn ask(engine: &Engine, request: Value) -> (Value, Vec<Value>) {
    let mut reports = Vec::new();
    let answer = konane_wasm::handle(engine, &request.to_string(), &Frozen, &mut |line| {
        reports.push(serde_json::from_str(line).expect("reports are JSON"));
    });
    (
        serde_json::from_str(&answer).expect("answers are JSON"),
        reports,
    )
}

const START_6: &str = "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b";

fn refusal(request: Value) -> String {
    let (answer, _) = ask(&engine(), request);
    answer["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("not refused: {answer}"))
        .to_string()
}

#[test]
fn bad_requests_are_refused_with_their_code() {
    assert_eq!(refusal(json!("not an object")), "bad_request");
    assert_eq!(refusal(json!({"op": "fly"})), "bad_request");
    assert_eq!(refusal(json!({"op": "position"})), "bad_request");
    assert_eq!(
        refusal(json!({"op": "position", "position": "bw/wb"})),
        "bad_position"
    );
    assert_eq!(
        refusal(json!({"op": "position", "position": START_6, "opening": "edge"})),
        "bad_opening"
    );
    assert_eq!(
        refusal(json!({"op": "position", "position": START_6, "move": "z9"})),
        "bad_move"
    );
    assert_eq!(
        refusal(json!({"op": "position", "position": START_6, "move": "b5"})),
        "illegal_move"
    );
    assert_eq!(
        refusal(json!({"op": "think", "position": START_6})),
        "no_limit"
    );
    assert_eq!(
        refusal(json!({"op": "choose", "position": START_6, "level": 3, "seed": -1})),
        "bad_request"
    );
}

#[test]
fn a_position_and_a_move_answer_as_the_core_says() {
    let (answer, _) = ask(
        &engine(),
        json!({"op": "position", "position": START_6, "move": "c4"}),
    );
    let mut pos = AnyPosition::parse(START_6, Opening::CenterOrCorner).unwrap();
    pos.play_text("c4").unwrap();
    let ok = &answer["ok"];
    assert_eq!(ok["position"], pos.to_string());
    assert_eq!(ok["played"], "c4");
    assert_eq!(ok["turn"], "white");
    assert_eq!(ok["phase"], "white-removal");
    assert_eq!(ok["legal_moves"], json!(pos.legal_move_texts()));
    assert_eq!(ok["winner"], Value::Null);
}

#[test]
fn a_search_reports_every_depth_and_answers_with_the_last() {
    let (answer, reports) = ask(
        &engine(),
        json!({"op": "think", "position": START_6, "depth": 5, "solver": false}),
    );
    let depths: Vec<u64> = reports
        .iter()
        .map(|r| r["depth"].as_u64().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    let last = reports.last().unwrap();
    assert_eq!(&answer["ok"], last);
    let best = last["best"].as_str().unwrap();
    assert_eq!(last["pv"][0], best);
    assert!(["a6", "c4", "d3", "f1"].contains(&best), "{best}");
}

/// A 4x4 game is short enough for the search to see to the end: the score is proven, and
/// the board's texts say so.
#[test]
fn a_proven_result_reads_as_win_or_loss() {
    let start = "bwbw/wbwb/bwbw/wbwb b";
    let (answer, _) = ask(
        &engine(),
        json!({"op": "think", "position": start, "depth": 20, "solver": false}),
    );
    let ok = &answer["ok"];
    let proven = ok["proven"].as_str().expect("4x4 is seen to the end");
    let eval = ok["eval"].as_str().unwrap();
    assert!(eval.starts_with(proven), "{eval} {proven}");
    let (solved, _) = ask(
        &engine(),
        json!({"op": "solve", "position": start, "nodes": 1_000_000}),
    );
    assert_eq!(solved["ok"]["result"], proven);
}

#[test]
fn eval_texts() {
    assert_eq!(konane_wasm::eval_text(125), "+1.25");
    assert_eq!(konane_wasm::eval_text(-40), "-0.40");
    assert_eq!(
        konane_wasm::eval_text(konane_engine::score::WIN - 17),
        "win 9"
    );
    assert_eq!(
        konane_wasm::eval_text(-(konane_engine::score::WIN - 6)),
        "loss 3"
    );
}

/// A position after `plies` random moves, if the game lasts that long.
fn random_position(size: Size, seed: u64, plies: usize) -> Option<AnyPosition> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(size, Opening::CenterOrCorner);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]).ok()?;
    }
    Some(*game.position())
}

/// The request answers what `Engine::choose` answers for the same level and seed.
#[test]
fn choose_is_the_engines_choice() {
    let ours = engine();
    let theirs = engine();
    for seed in 0..12u64 {
        let Some(pos) = random_position(Size::new(6, 6).unwrap(), seed, 2 + seed as usize) else {
            continue;
        };
        for level in 1..=4u8 {
            let (answer, _) = ask(
                &ours,
                json!({"op": "choose", "position": pos.to_string(), "level": level, "seed": seed}),
            );
            let native = theirs
                .choose(&pos, level, &Frozen, &mut Rng::new(seed))
                .map(|m| pos.move_text(m));
            assert_eq!(answer["ok"]["move"], json!(native), "{pos} level {level}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any text at all gets a JSON answer, never a panic.
    #[test]
    fn any_input_gets_an_answer(text in ".{0,200}") {
        let answer = konane_wasm::handle(&engine(), &text, &Frozen, &mut |_| {});
        let v: Value = serde_json::from_str(&answer).unwrap();
        prop_assert!(v.get("ok").is_some() || v.get("error").is_some());
    }

    /// Positions of any kind and moves of any text: an answer, never a panic.
    #[test]
    fn any_position_request_gets_an_answer(position in "[bw. /]{0,40}", play in "[a-h1-9-]{0,6}") {
        let request = json!({"op": "position", "position": position, "move": play});
        let answer = konane_wasm::handle(&engine(), &request.to_string(), &Frozen, &mut |_| {});
        let v: Value = serde_json::from_str(&answer).unwrap();
        prop_assert!(v.get("ok").is_some() || v.get("error").is_some());
    }
}

#[test]
fn an_analysis_reports_three_lines_a_depth() {
    let (answer, reports) = ask(
        &engine(),
        json!({"op": "analyse", "position": START_6, "depth": 4, "lines": 3}),
    );
    assert_eq!(reports.len(), 4);
    let ok = &answer["ok"];
    assert_eq!(ok, reports.last().unwrap());
    let lines = ok["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{ok}");
    let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|s| s[0] >= s[1]), "{scores:?}");
    for l in lines {
        assert_eq!(l["pv"][0], l["move"]);
    }
    assert_eq!(
        refusal(json!({"op": "analyse", "position": START_6, "lines": 3})),
        "no_limit"
    );
}

#[test]
fn a_record_is_replayed() {
    let text = "[Size \"6x6\"]\n\n1. c4 c5 2. e4-c4\n";
    let (answer, _) = ask(&engine(), json!({"op": "record", "text": text}));
    let ok = &answer["ok"];
    assert_eq!(ok["start"], START_6);
    assert_eq!(ok["moves"], json!(["c4", "c5", "e4-c4"]));
    let mut pos = AnyPosition::parse(START_6, Opening::CenterOrCorner).unwrap();
    for (m, after) in ["c4", "c5", "e4-c4"]
        .iter()
        .zip(ok["positions"].as_array().unwrap())
    {
        pos.play_text(m).unwrap();
        assert_eq!(after, &pos.to_string());
    }
    assert_eq!(
        refusal(json!({"op": "record", "text": "[Size \"6x6\"]\n\n1. c4 a1\n"})),
        "bad_record"
    );
}
