//! Time, as the engine sees it: asked through a trait, so the engine itself needs no OS
//! clock (the browser build brings its own).

/// Milliseconds since the search started.
pub trait Clock: Sync {
    /// Milliseconds elapsed.
    fn elapsed_ms(&self) -> u64;
}

/// The operating system's monotonic clock.
#[cfg(not(target_arch = "wasm32"))]
pub struct SystemClock(std::time::Instant);

#[cfg(not(target_arch = "wasm32"))]
impl SystemClock {
    /// A clock that starts now.
    pub fn start() -> Self {
        SystemClock(std::time::Instant::now())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

/// A clock that never moves, for searches limited by depth or nodes alone.
pub struct Frozen;

impl Clock for Frozen {
    fn elapsed_ms(&self) -> u64 {
        0
    }
}
