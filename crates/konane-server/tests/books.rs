//! `GET /api/books`: the solved boards' proofs for the engine in the browser, over real HTTP.

mod common;

use common::start;
use konane_core::{AnyPosition, Opening};
use konane_engine::{Engine, EngineConfig, Frozen, Limits, ProofTable, book};
use reqwest::StatusCode;

#[tokio::test]
async fn a_solved_boards_book_proves_its_opening_in_a_browsers_engine() {
    let s = start().await;
    let (status, index) = s.json("/api/books").await;
    assert_eq!(status, StatusCode::OK);
    // The solved boards' checkpoints and the tables of 7x8 and 8x8, each board once.
    assert_eq!(
        index["boards"],
        serde_json::json!(["6x7", "6x8", "7x7", "7x8", "8x8"])
    );

    let r = s.client.get(s.url("/api/books/7x7")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "application/octet-stream");
    assert_eq!(r.headers()["cache-control"], "no-cache");
    let etag = r.headers()["etag"].clone();
    let proofs = r.bytes().await.unwrap();
    assert!(proofs.len() <= 8 + 16 * konane_server::http::books::MAX_ENTRIES);
    assert_eq!(
        ProofTable::boards_in(&proofs),
        ["7x7".parse().unwrap()],
        "7x7's proofs only"
    );
    let again = s
        .client
        .get(s.url("/api/books/7x7"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // The browser's engine (one thread, 32 MiB tables) with the book proves at once that
    // Black wins 7x7 by removing d4, which it cannot without.
    let pos = || AnyPosition::start("7x7".parse().unwrap(), Opening::Center);
    let config = EngineConfig {
        hash_mb: 32,
        proof_mb: 32,
        ..EngineConfig::default()
    };
    let limits = Limits {
        depth: None,
        nodes: Some(100_000),
        time_ms: None,
    };
    let with_book = Engine::new(config);
    assert!(with_book.learn(&proofs).unwrap() > 1000);
    let r = with_book.think(&pos(), limits, true, &Frozen, &mut |_| {});
    assert!(r.proof, "proven with the book");
    assert_eq!(r.best.map(|m| pos().move_text(m)), Some("d4".into()));
    let without = Engine::new(config);
    let r = without.think(&pos(), limits, true, &Frozen, &mut |_| {});
    assert!(!r.proof, "nothing proven without the book");
}

/// 7x8 and 8x8, too large to solve, send their tables of the engine's main lines, which a
/// browser's engine learns as they are: a table's hardest won position is then a proven
/// win at once.
#[tokio::test]
async fn a_board_too_large_to_solve_sends_its_table() {
    let s = start().await;
    for size in ["7x8", "8x8"] {
        let r = s
            .client
            .get(s.url(&format!("/api/books/{size}")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{size}");
        let table = r.bytes().await.unwrap();
        let text = std::str::from_utf8(&table).unwrap();
        let entries = book::read_table(text).unwrap();
        assert!(entries.len() > 100, "{size}");
        assert!(
            entries
                .iter()
                .all(|(pos, _)| pos.size().to_string() == size)
        );
        let engine = Engine::new(EngineConfig {
            hash_mb: 32,
            proof_mb: 32,
            ..EngineConfig::default()
        });
        assert_eq!(engine.learn(&table).unwrap(), entries.len());
        let limits = Limits {
            depth: None,
            nodes: Some(2_000),
            time_ms: None,
        };
        // The won position with the most stones: the earliest of the lines.
        let (pos, _) = entries
            .iter()
            .filter(|(_, p)| p.win)
            .max_by_key(|(pos, _)| pos.to_string().matches(['b', 'w']).count())
            .unwrap();
        let r = engine.think(pos, limits, true, &Frozen, &mut |_| {});
        assert!(r.proof, "{pos}: proven with the table");
        let r = Engine::new(EngineConfig::default()).think(pos, limits, true, &Frozen, &mut |_| {});
        assert!(!r.proof, "{pos}: proven without the table");
        // Bytes that are neither a checkpoint nor a table teach nothing.
        assert!(engine.learn(b"\xff\xfe").is_err());
        assert!(engine.learn(b"not a table").is_err());
    }
}

#[tokio::test]
async fn a_board_without_a_book_or_no_board_at_all_is_refused() {
    let s = start().await;
    for (path, status, code) in [
        ("/api/books/6x6", StatusCode::NOT_FOUND, "not_found"),
        ("/api/books/big", StatusCode::BAD_REQUEST, "bad_request"),
        ("/api/books/99x99", StatusCode::BAD_REQUEST, "bad_request"),
    ] {
        let (got, body) = s.json(path).await;
        assert_eq!(got, status, "{path}");
        assert_eq!(body["error"], code, "{path}");
    }
}
