//! What one client may hold open, and for how long: the timeouts of a connection and the
//! per-address caps on connections and WebSockets. Every open connection and socket holds
//! a [`Slot`]; dropping it gives the place back, so no path can leak a count.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::error::ApiError;

/// The transport's limits; `0` in a cap means no cap.
#[derive(Clone, Debug)]
pub struct Limits {
    /// A request's headers must arrive within this; it also closes idle keep-alive
    /// connections, since hyper runs the same timer while it waits for the next request.
    pub header_timeout: Duration,
    /// A request's body must arrive within this, counted from its headers.
    pub body_timeout: Duration,
    /// A WebSocket is pinged this often and closed after two intervals without a word.
    pub ping_interval: Duration,
    /// Open connections (WebSockets included) from one address.
    pub connections_per_address: u32,
    /// Open WebSockets from one address.
    pub sockets_per_address: u32,
    /// Open connections in all.
    pub max_connections: u32,
    /// Take the client's address from `X-Forwarded-For` (behind a reverse proxy).
    pub trust_proxy: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(30),
            connections_per_address: 64,
            sockets_per_address: 32,
            max_connections: 10_000,
            trust_proxy: false,
        }
    }
}

/// Why a connection or socket was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The address holds its share already (429).
    AddressFull,
    /// The server holds all the connections it takes (503).
    ServerFull,
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::AddressFull => ApiError::TooManyConnections,
            Refusal::ServerFull => {
                ApiError::Unavailable("the server is full: try again in a moment".into())
            }
        }
    }
}

/// What a slot counts.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Connection,
    Socket,
}

impl Kind {
    fn gauge(self) -> &'static str {
        match self {
            Kind::Connection => "konane_connections_open",
            Kind::Socket => "konane_sockets_open",
        }
    }
}

#[derive(Default)]
struct Counts {
    per_address: HashMap<IpAddr, [u32; 2]>,
    connections: u32,
}

/// The connections and sockets open now, by address.
pub struct Occupancy {
    limits: Limits,
    counts: Mutex<Counts>,
}

/// One open connection or socket; dropping it frees its place.
pub struct Slot {
    occupancy: Arc<Occupancy>,
    addr: IpAddr,
    kind: Kind,
}

impl Occupancy {
    /// Empty, enforcing `limits`.
    pub fn new(limits: Limits) -> Arc<Occupancy> {
        Arc::new(Occupancy {
            limits,
            counts: Mutex::default(),
        })
    }

    /// The limits enforced.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A place for a new connection from `addr`. Behind a trusted proxy every connection
    /// comes from the proxy, so only the total is capped then.
    pub fn connection(self: &Arc<Self>, addr: IpAddr) -> Result<Slot, Refusal> {
        let per_address = if self.limits.trust_proxy {
            0
        } else {
            self.limits.connections_per_address
        };
        self.take(addr, Kind::Connection, per_address)
    }

    /// A place for a new WebSocket of the client at `addr`.
    pub fn socket(self: &Arc<Self>, addr: IpAddr) -> Result<Slot, Refusal> {
        self.take(addr, Kind::Socket, self.limits.sockets_per_address)
    }

    /// How many connections and sockets `addr` holds now.
    pub fn held(&self, addr: IpAddr) -> (u32, u32) {
        let counts = self.lock();
        let [c, s] = counts.per_address.get(&addr).copied().unwrap_or_default();
        (c, s)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn take(self: &Arc<Self>, addr: IpAddr, kind: Kind, cap: u32) -> Result<Slot, Refusal> {
        let mut counts = self.lock();
        if let Kind::Connection = kind {
            let max = self.limits.max_connections;
            if max > 0 && counts.connections >= max {
                return Err(Refusal::ServerFull);
            }
        }
        let held = counts.per_address.entry(addr).or_default();
        if cap > 0 && held[kind as usize] >= cap {
            return Err(Refusal::AddressFull);
        }
        held[kind as usize] += 1;
        if let Kind::Connection = kind {
            counts.connections += 1;
        }
        metrics::gauge!(kind.gauge()).increment(1.0);
        Ok(Slot {
            occupancy: Arc::clone(self),
            addr,
            kind,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.occupancy.lock();
        if let Kind::Connection = self.kind {
            counts.connections = counts.connections.saturating_sub(1);
        }
        if let Some(held) = counts.per_address.get_mut(&self.addr) {
            held[self.kind as usize] = held[self.kind as usize].saturating_sub(1);
            if *held == [0, 0] {
                counts.per_address.remove(&self.addr);
            }
        }
        metrics::gauge!(self.kind.gauge()).decrement(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(connections: u32, sockets: u32, total: u32) -> Limits {
        Limits {
            connections_per_address: connections,
            sockets_per_address: sockets,
            max_connections: total,
            ..Limits::default()
        }
    }

    #[test]
    fn caps_hold_per_address_and_places_come_back() {
        let o = Occupancy::new(limits(2, 1, 3));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let first = o.connection(a).unwrap();
        let _second = o.connection(a).unwrap();
        assert_eq!(o.connection(a).err(), Some(Refusal::AddressFull));
        let _other = o.connection(b).unwrap();
        assert_eq!(o.connection(b).err(), Some(Refusal::ServerFull));
        drop(first);
        let _third = o.connection(a).unwrap();
        let socket = o.socket(a).unwrap();
        assert_eq!(o.socket(a).err(), Some(Refusal::AddressFull));
        assert!(o.socket(b).is_ok());
        assert_eq!(o.held(a), (2, 1));
        drop(socket);
        assert_eq!(o.held(a), (2, 0));
    }

    #[test]
    fn zero_means_no_cap_and_a_proxy_is_not_one_client() {
        let o = Occupancy::new(limits(0, 0, 0));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let held: Vec<Slot> = (0..500).map(|_| o.connection(a).unwrap()).collect();
        assert_eq!(o.held(a), (500, 0));
        drop(held);
        assert_eq!(o.held(a), (0, 0));
        let proxied = Occupancy::new(Limits {
            trust_proxy: true,
            ..limits(1, 1, 0)
        });
        let _one = proxied.connection(a).unwrap();
        assert!(proxied.connection(a).is_ok());
    }
}
