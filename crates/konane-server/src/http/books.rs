//! `GET /api/books/{size}`: what `konane solve` proved on a board (the engine's built-in
//! books, `konane_engine::book`), for the engine in the browser to learn, so that the
//! analysis board and the computer offline know the solved boards' results from the first
//! move. Thinned to the most worked proofs: the browser's solver finds the rest below them.
//! A board too large to solve sends its table of `konane lines` (text) instead.

use std::sync::LazyLock;

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::{Json, Router};
use konane_core::Size;
use konane_engine::book;
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::http::views::BooksView;
use crate::{http::web, state::Shared};

/// The most proofs a board's book sends: 2 MiB, a small share of the browser engine's table.
pub const MAX_ENTRIES: usize = 1 << 17;

/// One board's thinned book and its entity tag.
struct BoardBook {
    size: Size,
    proofs: Vec<u8>,
    tag: String,
}

/// The boards of the built-in books and tables, each once.
fn booked() -> Vec<Size> {
    let mut sizes: Vec<Size> = book::SOLVED
        .iter()
        .map(|b| (b.rows, b.cols))
        .chain(book::TABLES.iter().map(|t| (t.rows, t.cols)))
        .filter_map(|(rows, cols)| Size::new(rows, cols).ok())
        .collect();
    sizes.sort_by_key(|s| (s.rows(), s.cols()));
    sizes.dedup();
    sizes
}

/// Every booked board's thinned book, made once, on the first request of one.
fn all() -> &'static [BoardBook] {
    static ALL: LazyLock<Vec<BoardBook>> = LazyLock::new(|| {
        booked()
            .into_iter()
            .filter_map(|size| {
                let proofs = match book::of_board(size.rows(), size.cols(), MAX_ENTRIES)? {
                    Ok(proofs) => proofs,
                    Err(e) => {
                        tracing::error!("the built-in book of {size} is broken: {e}");
                        return None;
                    }
                };
                let tag = Sha256::digest(&proofs)[..16]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                Some(BoardBook { size, proofs, tag })
            })
            .collect()
    });
    &ALL
}

/// The books' routes.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/books", get(index))
        .route("/books/{size}", get(board))
}

/// `GET /api/books`: which boards have a book, so the page asks only for those.
async fn index() -> Json<BooksView> {
    Json(BooksView {
        boards: booked().iter().map(Size::to_string).collect(),
    })
}

/// `GET /api/books/{size}`: the board's proofs as a checkpoint, or its table's text
/// (`application/octet-stream` both: the browser hands the bytes to its engine as they
/// are), 404 `not_found` for a board with neither.
async fn board(Path(size): Path<String>, request: HeaderMap) -> Result<Response, ApiError> {
    let size: Size = size
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("bad board size: {e}")))?;
    let found = all()
        .iter()
        .find(|b| b.size == size)
        .ok_or_else(|| ApiError::Missing(format!("book of the {size} board")))?;
    Ok(web::revalidated(
        &request,
        &found.tag,
        "application/octet-stream",
        Bytes::from_static(&found.proofs),
    ))
}
