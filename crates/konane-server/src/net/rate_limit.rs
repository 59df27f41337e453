//! Requests per client address: a token bucket each, refilled at the configured rate and
//! holding up to two seconds' worth, so short bursts pass and floods get 429.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Buckets older than this many seconds are dropped when the table grows.
const IDLE_SECS: f64 = 60.0;

/// Per-address token buckets.
pub struct RateLimiter {
    per_second: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    /// Allows `per_second` requests a second from each address; 0 allows everything.
    pub fn new(per_second: u32) -> RateLimiter {
        RateLimiter {
            per_second: f64::from(per_second),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `addr`; false when its bucket is empty.
    pub fn allow(&self, addr: IpAddr) -> bool {
        if self.per_second <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let capacity = 2.0 * self.per_second;
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 10_000 {
            buckets.retain(|_, (_, t)| now.duration_since(*t).as_secs_f64() < IDLE_SECS);
        }
        let (tokens, last) = buckets.entry(addr).or_insert((capacity, now));
        *tokens =
            (*tokens + now.duration_since(*last).as_secs_f64() * self.per_second).min(capacity);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bursts_pass_and_floods_stop() {
        let r = RateLimiter::new(5);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let allowed = (0..20).filter(|_| r.allow(a)).count();
        assert_eq!(allowed, 10);
        assert!(r.allow(b));
        assert!((0..1000).all(|_| RateLimiter::new(0).allow(a)));
    }
}
