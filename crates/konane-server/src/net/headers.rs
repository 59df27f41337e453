//! What every response carries and every request must bring: the security headers, JSON
//! bodies on every refusal (also those axum and hyper make themselves), and
//! `Content-Type: application/json` on every POST, so that another site's form cannot act
//! for its visitors (a cross-site request with that type needs a CORS preflight, which we
//! never grant).

use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, error_response};

/// The page loads nothing from elsewhere: scripts, styles, images, sockets and workers come
/// from this origin only. `wasm-unsafe-eval` lets a worker compile the WebAssembly engine;
/// nothing may frame the page.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     worker-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers every response gets.
pub fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Middleware: [`secure`] on every response; API answers are never cached.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let mut response = secure(next.run(request).await);
    if api && !response.headers().contains_key(header::CACHE_CONTROL) {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// Middleware: a POST without `Content-Type: application/json` gets 415 and does nothing.
pub async fn require_json(request: Request, next: Next) -> Response {
    if request.method() == Method::POST && !is_json(request.headers().get(header::CONTENT_TYPE)) {
        return ApiError::UnsupportedMediaType.into_response();
    }
    next.run(request).await
}

fn is_json(value: Option<&HeaderValue>) -> bool {
    value
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// The `error` code of a refusal that axum or hyper made (a rejected extractor, an unknown
/// method, a body over the limit), by its status.
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        StatusCode::TOO_MANY_REQUESTS => "too_many_requests",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    }
}

/// Longest text of a foreign refusal kept as its message.
const MESSAGE_LIMIT: usize = 1024;

/// Middleware: turns every refusal that is not JSON yet into the JSON error of
/// `docs/api.md`, keeping its status and, as the message, its text.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let content_type = response.headers().get(header::CONTENT_TYPE);
    // The page's own 404 (`web::static_file`) is HTML on purpose: a visitor reads it.
    let is_page = content_type
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !(status.is_client_error() || status.is_server_error()) || is_json(content_type) || is_page {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MESSAGE_LIMIT)
        .await
        .ok()
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .filter(|t| !t.is_empty() && !status.is_server_error())
        .unwrap_or_else(|| {
            status
                .canonical_reason()
                .unwrap_or("refused")
                .to_lowercase()
        });
    let mut fresh = error_response(status, code_of(status), &text);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            fresh.headers_mut().insert(name, value.clone());
        }
    }
    fresh
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_json_counts_as_json() {
        let v = |s: &'static str| Some(HeaderValue::from_static(s));
        assert!(is_json(v("application/json").as_ref()));
        assert!(is_json(v("Application/JSON; charset=utf-8").as_ref()));
        assert!(!is_json(v("text/plain").as_ref()));
        assert!(!is_json(v("application/x-www-form-urlencoded").as_ref()));
        assert!(!is_json(v("application/jsonp").as_ref()));
        assert!(!is_json(None));
    }
}
