//! The WebAssembly exports: a request goes in through a buffer this module owns, the answer
//! comes out through another, and iteration reports leave through an import.
//!
//! The protocol, as `web/engine-worker.js` drives it:
//! 1. `konane_input(len)` sizes the input buffer and returns its address; JavaScript writes
//!    the request's UTF-8 bytes there.
//! 2. `konane_call()` answers it and returns the answer's length; during a search it calls
//!    the import `konane.report(ptr, len)` once per completed iteration.
//! 3. `konane_output()` returns the answer's address, valid until the next call.
//!
//! A board's books go in the same way: the checkpoint's bytes into the input buffer, then
//! `konane_learn()`.
//!
//! Time comes from the import `konane.now_ms()` (`performance.now()` in the worker).

// Exported and imported functions need `no_mangle` and an `extern` block; nothing else here
// is unsafe, and the buffers are plain `Vec`s, so no raw pointer is ever read in Rust.
#![allow(unsafe_code)]

use std::cell::RefCell;

use konane_engine::{Clock, Engine};

#[link(wasm_import_module = "konane")]
unsafe extern "C" {
    /// Milliseconds from a monotonic clock (`performance.now()`).
    safe fn now_ms() -> f64;
    /// Hands one iteration report (UTF-8 JSON at `ptr`, `len` bytes) to the worker.
    safe fn report(ptr: *const u8, len: usize);
}

thread_local! {
    static ENGINE: Engine = Engine::new(crate::config());
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The browser's clock, started when a request arrives.
struct PerformanceClock(f64);

impl Clock for PerformanceClock {
    fn elapsed_ms(&self) -> u64 {
        (now_ms() - self.0).max(0.0) as u64
    }
}

/// Makes room for a request of `len` bytes and returns where to write it.
#[unsafe(no_mangle)]
pub extern "C" fn konane_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|v| {
        v.clear();
        v.resize(len, 0);
        v.as_mut_ptr()
    })
}

/// Answers the request in the input buffer; returns the answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn konane_call() -> usize {
    let bytes = INPUT.take();
    let request = String::from_utf8_lossy(&bytes);
    let clock = PerformanceClock(now_ms());
    let answer = ENGINE.with(|engine| {
        crate::handle(engine, &request, &clock, &mut |line| {
            report(line.as_ptr(), line.len())
        })
    });
    let len = answer.len();
    OUTPUT.set(answer.into_bytes());
    len
}

/// Learns the proofs in the input buffer, a checkpoint of a board's books or the text of a
/// board's table (from `/api/books/{size}`); returns how many fitted, or -1 when the bytes
/// are neither.
#[unsafe(no_mangle)]
pub extern "C" fn konane_learn() -> i32 {
    let bytes = INPUT.take();
    ENGINE
        .with(|engine| engine.learn(&bytes))
        .map_or(-1, |n| i32::try_from(n).unwrap_or(i32::MAX))
}

/// Where the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn konane_output() -> *const u8 {
    OUTPUT.with_borrow(|v| v.as_ptr())
}
