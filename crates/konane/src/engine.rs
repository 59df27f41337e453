//! `konane engine`: the engine protocol on stdin and stdout (docs/engine-protocol.md).

use std::io::{BufRead, Write};

use anyhow::Result;
use konane_engine::SystemClock;
use konane_engine::protocol::{Flow, Session};

use crate::args::EngineArgs;

/// The engine to speak for.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
}

/// Answers protocol commands from stdin until `quit` or the end of input; `info` lines go
/// out as the search produces them.
pub fn run(args: Args) -> Result<()> {
    let config = args.engine.config()?;
    let name = format!("Konane engine {}", env!("CARGO_PKG_VERSION"));
    let mut session = Session::new(config, &name);
    let mut stdout = std::io::stdout().lock();
    let mut write_error = None;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let clock = SystemClock::start();
        let flow = session.handle(&line, &clock, &mut |reply| {
            if let Err(e) = writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
                write_error.get_or_insert(e);
            }
        });
        if let Some(e) = write_error.take() {
            return Err(e.into());
        }
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}
