//! The accept loop: our own, because `axum::serve` hides hyper's builder, and we need its
//! header timeout (which also ends idle keep-alive connections), a deadline on bodies,
//! per-address caps, and an accept that survives running out of file descriptors.

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Request};
use axum::response::{IntoResponse, Response};
use http_body::Frame;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;
use tower::ServiceExt;

use crate::error::ApiError;
use crate::net::caps::{Occupancy, Refusal, Slot};

/// The address of the client that sent a request: the peer's, or with `--trust-proxy` the
/// last hop of `X-Forwarded-For` (the address the proxy saw). Every per-client rule (rate,
/// caps, fairness) keys on this and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// The client behind a request from `peer` with these headers.
    pub fn resolve(peer: SocketAddr, headers: &HeaderMap, trust_proxy: bool) -> ClientAddr {
        let forwarded = trust_proxy
            .then(|| headers.get_all("x-forwarded-for").iter().next_back())
            .flatten()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|hop| hop.trim().parse::<IpAddr>().ok());
        ClientAddr(forwarded.unwrap_or(peer.ip()))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        if let Some(addr) = parts.extensions.get::<ClientAddr>() {
            return Ok(*addr);
        }
        // A router served some other way (tests with `into_make_service_with_connect_info`).
        parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| ClientAddr(peer.ip()))
            .ok_or_else(|| ApiError::Internal("no client address on the request".into()))
    }
}

/// The place of the WebSocket a connection was upgraded to, kept as long as the
/// connection lives (the upgraded socket owns the connection's stream).
#[derive(Clone, Default)]
pub struct SocketHold(Arc<Mutex<Option<Slot>>>);

impl SocketHold {
    /// Keeps `slot` until the connection closes.
    pub fn keep(&self, slot: Slot) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(slot);
    }
}

/// A connection's stream with the places it holds: they are freed when the stream is
/// dropped, after the last request or when its WebSocket closes.
struct Held {
    stream: TcpStream,
    _connection: Slot,
    _socket: SocketHold,
}

impl AsyncRead for Held {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Held {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A request body that must arrive in full before a deadline, so a client cannot hold a
/// request open by trickling its body.
struct DeadlineBody {
    inner: Incoming,
    deadline: Pin<Box<Sleep>>,
    limit: Duration,
}

/// The body did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
struct BodyTimeout(Duration);

impl http_body::Body for DeadlineBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(BodyTimeout(self.limit)))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Waits after failed accepts: 10 ms doubling to 1 s, so a full descriptor table does not
/// spin the loop, and the first success starts over.
struct Backoff(Option<Duration>);

impl Backoff {
    async fn after(&mut self, e: &std::io::Error) {
        let wait = match self.0 {
            None => {
                tracing::warn!("accepting a connection failed: {e}; retrying");
                Duration::from_millis(10)
            }
            Some(d) => (d * 2).min(Duration::from_secs(1)),
        };
        self.0 = Some(wait);
        metrics::counter!("konane_accept_errors_total").increment(1);
        tokio::time::sleep(wait).await;
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the requests under
/// way finish (for up to the header timeout; open WebSockets simply end).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    occupancy: Arc<Occupancy>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = occupancy.limits().clone();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let mut refusing = builder.clone();
    refusing.keep_alive(false);
    // Each connection holds a receiver: it hears the shutdown, and the sender sees when
    // the last connection has finished.
    let (stopping, stop) = tokio::sync::watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    let mut backoff = Backoff(None);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => {
                backoff.0 = None;
                pair
            }
            Err(e) => {
                tokio::select! {
                    () = backoff.after(&e) => continue,
                    () = &mut shutdown => break,
                }
            }
        };
        // Moves go out one small write at a time: don't let Nagle hold them back.
        let _ = stream.set_nodelay(true);
        match occupancy.connection(peer.ip()) {
            Ok(slot) => {
                let hold = SocketHold::default();
                let io = TokioIo::new(Held {
                    stream,
                    _connection: slot,
                    _socket: hold.clone(),
                });
                let app = app.clone();
                let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let client = ClientAddr::resolve(peer, request.headers(), limits.trust_proxy);
                    let mut request = request.map(|inner| {
                        Body::new(DeadlineBody {
                            inner,
                            deadline: Box::pin(tokio::time::sleep(limits.body_timeout)),
                            limit: limits.body_timeout,
                        })
                    });
                    let extensions = request.extensions_mut();
                    extensions.insert(ConnectInfo(peer));
                    extensions.insert(client);
                    extensions.insert(hold.clone());
                    app.clone().oneshot(request)
                });
                let conn = builder.serve_connection(io, service).with_upgrades();
                let mut stop = stop.clone();
                tokio::spawn(async move {
                    let mut conn = std::pin::pin!(conn);
                    let done = tokio::select! {
                        done = conn.as_mut() => done,
                        _ = stop.changed() => {
                            conn.as_mut().graceful_shutdown();
                            conn.await
                        }
                    };
                    if let Err(e) = done {
                        tracing::debug!("connection from {peer}: {e}");
                    }
                    drop(stop);
                });
            }
            Err(refusal) => {
                let conn = refusing.serve_connection(TokioIo::new(stream), refuse(refusal));
                tokio::spawn(conn);
            }
        }
    }
    drop(listener);
    drop(stop);
    let _ = stopping.send(());
    if tokio::time::timeout(limits.header_timeout, stopping.closed())
        .await
        .is_err()
    {
        tracing::warn!("some requests were still running at shutdown");
    }
    Ok(())
}

/// Answers every request of a refused connection with the refusal, then closes it.
fn refuse(
    refusal: Refusal,
) -> impl hyper::service::Service<
    Request<Incoming>,
    Response = Response,
    Error = Infallible,
    Future = std::future::Ready<Result<Response, Infallible>>,
> + Clone {
    hyper::service::service_fn(move |_: Request<Incoming>| {
        std::future::ready(Ok(crate::net::headers::secure(
            ApiError::from(refusal).into_response(),
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_the_last_hop_only_behind_a_trusted_proxy() {
        let peer: SocketAddr = "10.0.0.1:4000".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "6.6.6.6, 203.0.113.7".parse().unwrap());
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(
            ClientAddr::resolve(peer, &headers, true).0,
            ip("203.0.113.7")
        );
        assert_eq!(ClientAddr::resolve(peer, &headers, false).0, ip("10.0.0.1"));
        headers.insert("x-forwarded-for", "not an address".parse().unwrap());
        assert_eq!(ClientAddr::resolve(peer, &headers, true).0, ip("10.0.0.1"));
        assert_eq!(
            ClientAddr::resolve(peer, &HeaderMap::new(), true).0,
            ip("10.0.0.1")
        );
    }
}
