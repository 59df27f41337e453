//! A database made by an older server is brought up to date, rows and all: the games'
//! schema at migration 7 (indexed by the millisecond of their last change), upgraded by
//! opening it, keeps its games findable by the minute of their last change.
//!
//! The PostgreSQL half needs `KONANE_TEST_POSTGRES=postgres://…` (under `CI=true` it may
//! not be skipped); it runs in a schema of its own.

use std::path::{Path, PathBuf};

use konane_server::store::Store;
use sqlx::any::install_default_drivers;
use sqlx::{AnyPool, Row};

/// The migrations of `backend` up to and including `last`, copied into a folder of their own.
fn migrations_up_to(backend: &str, last: u32, scratch: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(backend);
    let to = scratch.join(format!("migrations-{backend}"));
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let number: u32 = name[..4].parse().unwrap();
        if number <= last {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
    to
}

fn scratch(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("konane-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Makes the schema of migration 7 at `url`, stores two games in it the way the old server
/// did, opens it with today's server and checks what migration 8 made of them.
async fn upgrade_keeps_games(backend: &str, url: &str, scratch: &Path) -> Vec<String> {
    install_default_drivers();
    let old = AnyPool::connect(url).await.unwrap();
    sqlx::migrate::Migrator::new(migrations_up_to(backend, 7, scratch))
        .await
        .unwrap()
        .run(&old)
        .await
        .unwrap();
    for (id, updated_at) in [("g1", 125_000_i64), ("g2", 59_999)] {
        sqlx::query(
            "INSERT INTO games (id, seq, status, listed, data, created_at, updated_at) \
             VALUES ($1, 3, 'playing', 0, '{}', 0, $2)",
        )
        .bind(id)
        .bind(updated_at)
        .execute(&old)
        .await
        .unwrap();
    }
    old.close().await;

    Store::open(url)
        .await
        .expect("the old database opens and migrates");
    let new = AnyPool::connect(url).await.unwrap();
    let rows = sqlx::query("SELECT id, changed_minute FROM games ORDER BY id")
        .fetch_all(&new)
        .await
        .unwrap();
    let minutes: Vec<(String, i64)> = rows
        .iter()
        .map(|r| (r.get("id"), r.get("changed_minute")))
        .collect();
    assert_eq!(minutes, [("g1".to_string(), 2), ("g2".to_string(), 0)]);
    let index_names = match backend {
        "sqlite" => {
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' \
                     AND name NOT LIKE 'sqlite_%' ORDER BY name"
        }
        _ => {
            "SELECT indexname::text AS name FROM pg_indexes WHERE tablename = 'games' \
              AND schemaname = current_schema() ORDER BY indexname"
        }
    };
    let indexes = sqlx::query(index_names).fetch_all(&new).await.unwrap();
    new.close().await;
    indexes.iter().map(|r| r.get::<String, _>("name")).collect()
}

#[tokio::test]
async fn an_sqlite_database_of_migration_7_is_upgraded() {
    let dir = scratch("migrate");
    let url = format!("sqlite://{}?mode=rwc", dir.join("old.db").display());
    let indexes = upgrade_keeps_games("sqlite", &url, &dir).await;
    assert_eq!(indexes, ["games_changed", "games_lobby"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn a_postgres_database_of_migration_7_is_upgraded() {
    let base = match std::env::var("KONANE_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "KONANE_TEST_POSTGRES must be set in CI: the PostgreSQL tests may not be skipped"
            );
            eprintln!("SKIPPED: the PostgreSQL upgrade test needs KONANE_TEST_POSTGRES");
            return;
        }
    };
    install_default_drivers();
    let dir = scratch("migrate-pg");
    // One schema of its own, made anew: nothing the other tests store reaches it.
    let schema = "konane_upgrade_test";
    let admin = AnyPool::connect(&base).await.unwrap();
    for sql in [
        "DROP SCHEMA IF EXISTS konane_upgrade_test CASCADE",
        "CREATE SCHEMA konane_upgrade_test",
    ] {
        sqlx::query(sql).execute(&admin).await.unwrap();
    }
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options=-csearch_path%3D{schema}");
    let indexes = upgrade_keeps_games("postgres", &url, &dir).await;
    assert_eq!(indexes, ["games_changed", "games_lobby", "games_pkey"]);
    let fillfactor = sqlx::query(
        "SELECT array_to_string(reloptions, ',') AS o FROM pg_class c \
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'games' AND n.nspname = $1",
    )
    .bind(schema)
    .fetch_one(&admin)
    .await
    .unwrap();
    assert_eq!(fillfactor.get::<String, _>("o"), "fillfactor=50");
    sqlx::query("DROP SCHEMA konane_upgrade_test CASCADE")
        .execute(&admin)
        .await
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
