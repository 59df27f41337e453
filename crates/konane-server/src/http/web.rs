//! The page, embedded in the binary: no files to install, no build step. Each file goes
//! out with its content hash as `ETag` and `Cache-Control: no-cache`, so browsers keep it
//! but ask every time, and a new build is never hidden behind a stale copy. The service
//! worker `/sw.js` is filled in here with the build's version and the files it keeps
//! offline (see [`Build`]).

use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;
use serde::Serialize;
use sha2::{Digest, Sha256};

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
    Some(revalidated(
        request,
        &hash,
        content_type(path),
        file.data.into_owned(),
    ))
}

/// `body` with its entity tag (`tag`, quoted here) and `Cache-Control: no-cache`, or 304
/// when the request's `If-None-Match` already names it.
pub fn revalidated(
    request: &HeaderMap,
    tag: &str,
    content_type: &'static str,
    body: impl IntoResponse,
) -> Response {
    let etag = format!("\"{tag}\"");
    let fresh = matches_etag(request.get(header::IF_NONE_MATCH), &etag);
    let caching = [
        (header::ETAG, etag),
        (header::CACHE_CONTROL, "no-cache".to_string()),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, caching).into_response();
    }
    (caching, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The service worker's source under `web/`; served only through [`service_worker`].
const WORKER: &str = "sw.js";
/// Where the server writes [`Build`] into the worker's source.
const BUILD_MARK: &str = "/* BUILD */ null";

/// What the service worker is told about this build.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Build {
    /// A hash over every embedded file's name and content: it names the worker's cache,
    /// so any changed file makes a new cache and an updated worker.
    pub version: String,
    /// The addresses the worker keeps for offline use: every embedded file but itself.
    pub files: Vec<String>,
}

impl Build {
    /// The build of the files `(name, sha256)`, in any order.
    pub fn of<'a>(files: impl IntoIterator<Item = (&'a str, [u8; 32])>) -> Build {
        let mut files: Vec<_> = files.into_iter().collect();
        files.sort();
        let mut hash = Sha256::new();
        for (name, content) in &files {
            // The length first: no two different lists hash the same bytes.
            hash.update((name.len() as u64).to_le_bytes());
            hash.update(name.as_bytes());
            hash.update(content);
        }
        let version = hash.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let files = files
            .iter()
            .filter(|(name, _)| *name != WORKER)
            .map(|(name, _)| format!("/{name}"))
            .collect();
        Build { version, files }
    }
}

/// This binary's build, from its embedded files.
pub fn build() -> &'static Build {
    static BUILD: LazyLock<Build> = LazyLock::new(|| {
        let names: Vec<_> = Assets::iter().collect();
        Build::of(names.iter().filter_map(|name| {
            Assets::get(name).map(|file| (name.as_ref(), file.metadata.sha256_hash()))
        }))
    });
    &BUILD
}

/// The worker's source with `build` written in, or `None` when the source has no mark.
fn worker_source(source: &str, build: &Build) -> Option<String> {
    let json = serde_json::to_string(build).ok()?;
    source
        .contains(BUILD_MARK)
        .then(|| source.replacen(BUILD_MARK, &json, 1))
}

/// `GET /sw.js`: the service worker, with this build's version and files written in.
pub async fn service_worker(request: HeaderMap) -> Response {
    static SOURCE: LazyLock<Option<String>> = LazyLock::new(|| {
        let file = Assets::get(WORKER)?;
        worker_source(std::str::from_utf8(&file.data).ok()?, build())
    });
    let Some(source) = SOURCE.as_ref() else {
        return ApiError::Internal("the service worker is missing from this build".into())
            .into_response();
    };
    revalidated(
        &request,
        &build().version,
        content_type(WORKER),
        source.clone(),
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

    #[test]
    fn the_version_changes_with_any_file_and_only_then() {
        let files = [
            ("app.js", [1; 32]),
            ("sw.js", [2; 32]),
            ("i18n/en.json", [3; 32]),
        ];
        let build = Build::of(files);
        assert_eq!(
            build,
            Build::of(files.iter().rev().copied()),
            "order does not matter"
        );
        let mut changed = files;
        changed[0].1[31] = 9;
        assert_ne!(build.version, Build::of(changed).version, "a changed file");
        changed = files;
        changed[1].1[0] = 9;
        assert_ne!(
            build.version,
            Build::of(changed).version,
            "a changed worker"
        );
        assert_ne!(
            build.version,
            Build::of(files[..2].iter().copied()).version,
            "a file gone"
        );
        let renamed = [
            ("app.js", [1; 32]),
            ("sw.js", [2; 32]),
            ("i18n/de.json", [3; 32]),
        ];
        assert_ne!(build.version, Build::of(renamed).version, "a file renamed");
        assert_eq!(
            build.files,
            ["/app.js", "/i18n/en.json"],
            "every file but the worker"
        );
    }

    #[test]
    fn the_worker_gets_the_build_written_in() {
        let made = Build::of([("app.js", [1; 32])]);
        let source = worker_source("const BUILD = /* BUILD */ null;", &made).unwrap();
        assert_eq!(
            source,
            format!("const BUILD = {};", serde_json::to_string(&made).unwrap())
        );
        assert_eq!(worker_source("const BUILD = null;", &made), None);
        let shipped = Assets::get(WORKER).expect("web/sw.js is embedded");
        assert!(worker_source(std::str::from_utf8(&shipped.data).unwrap(), build()).is_some());
    }
}
