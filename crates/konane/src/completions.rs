//! `konane completions`: a completion script for a shell, on stdout.

use std::io::Write;

use anyhow::Result;
use clap_complete::Shell;

/// The shell to complete in.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell, e.g. `konane completions bash > ~/.local/share/bash-completion/completions/konane`.
    shell: Shell,
}

/// Prints the script of `command`, the whole command line's definition.
pub fn run(args: Args, mut command: clap::Command) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "konane", &mut script);
    std::io::stdout().lock().write_all(&script)?;
    Ok(())
}
