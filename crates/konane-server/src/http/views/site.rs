//! What the site's other routes answer: the boards with a book, the health check.

use serde::Serialize;

/// The boards that have a book.
#[derive(Serialize, Debug)]
pub struct BooksView {
    /// Their sizes, as "6x8".
    pub boards: Vec<String>,
}

/// The answer of `/healthz`.
#[derive(Serialize)]
pub struct Health {
    /// Always `"ok"`: any trouble is a 503 instead.
    pub status: &'static str,
    /// `"sqlite"` or `"postgres"`.
    pub database: &'static str,
}
