//! The page, embedded in the binary: no files to install, no build step.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

/// Everything under `web/`.
#[derive(Embed)]
#[folder = "../../web"]
struct Assets;

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        // `WebAssembly.compileStreaming` accepts nothing else.
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

fn asset(path: &str) -> Option<Response> {
    let file = Assets::get(path)?;
    Some(
        (
            [(header::CONTENT_TYPE, content_type(path))],
            file.data.into_owned(),
        )
            .into_response(),
    )
}

/// The page for `/` and for every `/game/{id}`: the page reads the id from the address.
pub async fn index() -> Response {
    asset("index.html").unwrap_or_else(|| {
        (StatusCode::NOT_FOUND, "the page is missing from this build").into_response()
    })
}

/// Any other file under `web/`.
pub async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    asset(path).unwrap_or_else(|| (StatusCode::NOT_FOUND, "not found").into_response())
}
