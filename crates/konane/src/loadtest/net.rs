//! The load test's connections: HTTP clients and WebSockets, from a given local address.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// A WebSocket as the load test holds it.
pub(super) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An HTTP client, from `from` when given. A server ends a keep-alive connection that has
/// been idle for its header timeout (10 s by default); players who think that long would
/// send a move into a socket it is closing. Browsers send such a request again; this
/// client instead never reuses a connection idle for more than 5 s.
pub(super) fn client(from: Option<IpAddr>) -> Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .pool_idle_timeout(Duration::from_secs(5))
        .local_address(from)
        .build()?)
}

/// A WebSocket on `path` of `base` (an http:// address), from `from` when given (so a
/// player's sockets come from its own address, as its requests do), with `cookie`.
pub(super) async fn connect(
    base: &str,
    path: &str,
    from: Option<IpAddr>,
    cookie: Option<&str>,
    read_buffer: usize,
) -> Result<Socket> {
    let url = format!("{}{path}", base.replacen("http", "ws", 1));
    let mut request = url.as_str().into_client_request()?;
    if let Some(cookie) = cookie {
        request.headers_mut().insert("cookie", cookie.parse()?);
    }
    let config = WebSocketConfig::default()
        .read_buffer_size(read_buffer)
        .write_buffer_size(0);
    let Some(from) = from else {
        return Ok(
            tokio_tungstenite::connect_async_with_config(request, Some(config), false)
                .await?
                .0,
        );
    };
    let host = request
        .uri()
        .host()
        .ok_or_else(|| anyhow!("no host in {url}"))?
        .trim_matches(['[', ']'])
        .to_string();
    let port = request.uri().port_u16().unwrap_or(80);
    let target: SocketAddr = tokio::net::lookup_host((host.as_str(), port))
        .await?
        .find(|a| a.is_ipv4() == from.is_ipv4())
        .with_context(|| format!("no address of {host} to reach from {from}"))?;
    let socket = if from.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.bind(SocketAddr::new(from, 0))?;
    let stream = socket.connect(target).await?;
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    Ok(
        tokio_tungstenite::client_async_with_config(request, stream, Some(config))
            .await?
            .0,
    )
}
