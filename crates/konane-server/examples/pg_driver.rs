//! What sqlx's `Any` driver costs against its native PostgreSQL driver, on the statement a
//! move runs: the same conditional update of a game's row (with a row of a real game's
//! size), one after another and from 16 tasks at once, through each driver in turn, each
//! run twice in alternation so that drift on a shared machine shows.
//!
//! ```text
//! cargo run --release -p konane-server --example pg_driver -- postgres://konane:konane@127.0.0.1:5432/konane_bench
//! ```

use std::time::Instant;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::postgres::PgPoolOptions;
use sqlx::{AnyPool, PgPool};

const ROWS: i64 = 200;
/// Updates of each row in one run.
const PER_ROW: i64 = 20;
const UPDATES: i64 = ROWS * PER_ROW;
const TASKS: usize = 16;
const UPDATE: &str = "UPDATE driver_bench SET seq = $1, status = $2, listed = $3, data = $4, updated_at = $5 \
                      WHERE id = $6 AND seq = $7";

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), sqlx::Error> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "postgres://konane:konane@127.0.0.1:5432/konane_bench".into());
    install_default_drivers();
    let any = AnyPoolOptions::new()
        .max_connections(TASKS as u32)
        .connect(&url)
        .await?;
    let native = PgPoolOptions::new()
        .max_connections(TASKS as u32)
        .connect(&url)
        .await?;
    sqlx::query("DROP TABLE IF EXISTS driver_bench")
        .execute(&native)
        .await?;
    sqlx::query(
        "CREATE TABLE driver_bench (id TEXT PRIMARY KEY, seq BIGINT NOT NULL, status TEXT NOT NULL, \
         listed BIGINT NOT NULL, data TEXT NOT NULL, updated_at BIGINT NOT NULL)",
    )
    .execute(&native)
    .await?;
    for i in 0..ROWS {
        sqlx::query("INSERT INTO driver_bench VALUES ($1, 0, 'playing', 0, '', 0)")
            .bind(format!("g{i}"))
            .execute(&native)
            .await?;
    }
    // About what a stored 8x8 game twenty moves in weighs.
    let data = "x".repeat(1_200);
    println!("{UPDATES} conditional updates of a {}-byte row", data.len());
    println!("driver   tasks   updates/s");
    let mut base = 0;
    for _ in 0..2 {
        for tasks in [1, TASKS] {
            let a = run(Driver::Any(any.clone()), tasks, &data, base).await?;
            base += PER_ROW;
            let n = run(Driver::Native(native.clone()), tasks, &data, base).await?;
            base += PER_ROW;
            println!("Any      {tasks:>5}   {a:>9.0}");
            println!("native   {tasks:>5}   {n:>9.0}   (Any/native {:.2})", a / n);
        }
    }
    sqlx::query("DROP TABLE driver_bench")
        .execute(&native)
        .await?;
    Ok(())
}

/// One pool of either driver.
#[derive(Clone)]
enum Driver {
    Any(AnyPool),
    Native(PgPool),
}

/// Updates every row `PER_ROW` times from `tasks` tasks (each owns some rows, so a row's
/// updates come in order), the rows starting at sequence number `base`; the rate.
async fn run(driver: Driver, tasks: usize, data: &str, base: i64) -> Result<f64, sqlx::Error> {
    let started = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for t in 0..tasks {
        let driver = driver.clone();
        let data = data.to_string();
        set.spawn(async move {
            for j in 0..PER_ROW {
                for row in (t as i64..ROWS).step_by(tasks) {
                    let seq = base + j;
                    let id = format!("g{row}");
                    // The same statement and values through either driver's own types.
                    macro_rules! update {
                        ($pool:expr) => {
                            sqlx::query(UPDATE)
                                .bind(seq + 1)
                                .bind("playing")
                                .bind(0i64)
                                .bind(&data)
                                .bind(seq)
                                .bind(&id)
                                .bind(seq)
                                .execute($pool)
                                .await?
                                .rows_affected()
                        };
                    }
                    let matched = match &driver {
                        Driver::Any(pool) => update!(pool),
                        Driver::Native(pool) => update!(pool),
                    };
                    if matched != 1 {
                        return Err(sqlx::Error::Protocol(format!("row {row} was not at {seq}")));
                    }
                }
            }
            Ok(())
        });
    }
    while let Some(r) = set.join_next().await {
        r.map_err(|e| sqlx::Error::Protocol(e.to_string()))??;
    }
    Ok((ROWS * PER_ROW) as f64 / started.elapsed().as_secs_f64())
}
