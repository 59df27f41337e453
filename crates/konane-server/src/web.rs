//! The page, embedded in the binary: no files to install, no build step. Each file goes
//! out with its content hash as `ETag` and `Cache-Control: no-cache`, so browsers keep it
//! but ask every time, and a new build is never hidden behind a stale copy.

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

use crate::error::{ApiError, error_response};

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

fn asset(path: &str, request: &HeaderMap) -> Option<Response> {
    let file = Assets::get(path)?;
    let hash: String = file
        .metadata
        .sha256_hash()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let etag = format!("\"{hash}\"");
    let caching = [
        (header::ETAG, etag.clone()),
        (header::CACHE_CONTROL, "no-cache".to_string()),
    ];
    if matches_etag(request.get(header::IF_NONE_MATCH), &etag) {
        return Some((StatusCode::NOT_MODIFIED, caching).into_response());
    }
    Some(
        (
            caching,
            [(header::CONTENT_TYPE, content_type(path))],
            file.data.into_owned(),
        )
            .into_response(),
    )
}

/// Whether `If-None-Match` names this entity tag (or any, with `*`); weak tags match too.
fn matches_etag(if_none_match: Option<&HeaderValue>, etag: &str) -> bool {
    let Some(list) = if_none_match.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    list.split(',')
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == etag)
}

/// The page for `/` and for every `/game/{id}`: the page reads the id from the address.
pub async fn index(headers: HeaderMap) -> Response {
    asset("index.html", &headers).unwrap_or_else(|| {
        ApiError::Internal("the page is missing from this build".into()).into_response()
    })
}

/// Any other file under `web/`. An address that names no file and looks like a page (no
/// `.ext`) gets the page itself with 404, so the visitor sees the site's header and its
/// "no such page"; a missing file (a script, an image) stays a JSON error.
pub async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    if let Some(file) = asset(path, &headers) {
        return file;
    }
    let names_a_file = path
        .rsplit('/')
        .next()
        .is_some_and(|last| last.contains('.'));
    match Assets::get("index.html").filter(|_| !names_a_file) {
        Some(page) => (
            StatusCode::NOT_FOUND,
            [
                (header::CONTENT_TYPE, content_type("index.html")),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            page.data.into_owned(),
        )
            .into_response(),
        None => error_response(
            StatusCode::NOT_FOUND,
            "not_found",
            &format!("no file {path}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_tags_match_as_http_says() {
        let v = |s: &'static str| Some(HeaderValue::from_static(s));
        let tag = "\"abc\"";
        assert!(matches_etag(v("\"abc\"").as_ref(), tag));
        assert!(matches_etag(v("\"x\", W/\"abc\"").as_ref(), tag));
        assert!(matches_etag(v("*").as_ref(), tag));
        assert!(!matches_etag(v("\"abd\"").as_ref(), tag));
        assert!(!matches_etag(None, tag));
    }
}
