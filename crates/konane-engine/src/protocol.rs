//! The engine protocol: one command per line in, one or more reply lines out
//! (`docs/engine-protocol.md`). This module is the whole state machine and does no I/O of
//! its own, so it is tested line by line; `konane engine` wires it to stdin and stdout.

use konane_core::{AnyPosition, Game, Opening, Size};

use crate::clock::Clock;
use crate::level::{LevelConfig, Rng};
use crate::score::plies_to_end;
use crate::search::{Limits, SearchResult};
use crate::{Engine, EngineConfig};

/// The protocol's version, sent in reply to `protocol`.
pub const VERSION: u32 = 1;

/// Whether to keep reading commands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

/// One engine session: the game so far and the engine's tables.
pub struct Session {
    engine: Engine,
    game: Game,
    rng: Rng,
    name: String,
}

impl Session {
    /// A session on the default 8x8 board, as `name` (sent by `protocol`).
    pub fn new(config: EngineConfig, name: &str) -> Session {
        Session {
            engine: Engine::new(config),
            game: Game::new(Size::DEFAULT, Opening::default()),
            rng: Rng::new(0),
            name: name.to_string(),
        }
    }

    /// The game as the session knows it.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one command line, sending each reply line to `out`.
    pub fn handle(&mut self, line: &str, clock: &dyn Clock, out: &mut dyn FnMut(String)) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Flow::Continue;
        };
        let reply = match command {
            "protocol" => {
                out(format!("protocol konane {VERSION}"));
                out(format!("name {}", self.name));
                Ok("ok".to_string())
            }
            "ping" => Ok(format!("pong {}", args.join(" ")).trim_end().to_string()),
            "newgame" => self.new_game(args),
            "position" => self.set_position(args),
            "moves" => self.play(args),
            "undo" => match self.game.undo() {
                Some(_) => Ok("ok".into()),
                None => Err("no move to take back".into()),
            },
            "show" => Ok(format!("position {}", self.game.position())),
            "legal" => Ok(format!(
                "legal {}",
                self.game.position().legal_move_texts().join(" ")
            )
            .trim_end()
            .to_string()),
            "go" => self.go(args, clock, out),
            "quit" => return Flow::Quit,
            other => Err(format!("unknown command '{other}'")),
        };
        out(reply.unwrap_or_else(|e| format!("error {e}")));
        Flow::Continue
    }

    fn new_game(&mut self, args: &[&str]) -> Result<String, String> {
        let size = match args.first() {
            Some(s) => s.parse::<Size>().map_err(|e| e.to_string())?,
            None => Size::DEFAULT,
        };
        let opening = match args.get(1) {
            Some(s) => s.parse::<Opening>().map_err(|e| e.to_string())?,
            None => Opening::default(),
        };
        if args.len() > 2 {
            return Err("newgame takes a size and an opening rule".into());
        }
        self.game = Game::new(size, opening);
        self.engine.new_game();
        Ok("ok".into())
    }

    fn set_position(&mut self, args: &[&str]) -> Result<String, String> {
        // position <board> <side> [opening <rule>]
        let (text, rest) = match args {
            [board, side, rest @ ..] => (format!("{board} {side}"), rest),
            _ => return Err("position takes position text: <rows> <side>".into()),
        };
        let opening = match rest {
            [] => self.game.start().opening(),
            ["opening", rule] => rule.parse::<Opening>().map_err(|e| e.to_string())?,
            _ => return Err("after the position text only 'opening <rule>' may follow".into()),
        };
        let pos = AnyPosition::parse(&text, opening).map_err(|e| e.to_string())?;
        self.game = Game::from_position(pos);
        Ok("ok".into())
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        // All or nothing: a bad move leaves the game as it was.
        let mut game = self.game.clone();
        for (i, m) in args.iter().enumerate() {
            game.play_text(m)
                .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        }
        self.game = game;
        Ok("ok".into())
    }

    fn go(
        &mut self,
        args: &[&str],
        clock: &dyn Clock,
        out: &mut dyn FnMut(String),
    ) -> Result<String, String> {
        let mut limits = Limits::default();
        let mut level = None;
        let mut it = args.iter();
        while let Some(&key) = it.next() {
            let value = it
                .next()
                .ok_or_else(|| format!("go: '{key}' needs a value"))?;
            let number = value
                .parse::<u64>()
                .map_err(|_| format!("go: '{value}' is not a number"))?;
            match key {
                "depth" => limits.depth = Some(number.min(u64::from(u32::MAX)) as u32),
                "time" => limits.time_ms = Some(number),
                "nodes" => limits.nodes = Some(number),
                "level" => level = Some(number.clamp(1, 8) as u8),
                "seed" => self.rng = Rng::new(number),
                other => return Err(format!("go: unknown limit '{other}'")),
            }
        }
        let pos = *self.game.position();
        if pos.count_moves() == 0 {
            return Ok("bestmove none".into());
        }
        let best = match level {
            Some(l) if LevelConfig::of(l).temperature > 0 => {
                self.engine.choose(&pos, l, clock, &mut self.rng)
            }
            Some(l) => {
                let cfg = LevelConfig::of(l);
                let result = self
                    .engine
                    .think(&pos, cfg.limits, cfg.solver, clock, &mut |r| {
                        out(info(&pos, r))
                    });
                result.best
            }
            None => {
                if limits == Limits::default() {
                    limits.time_ms = Some(1_000);
                }
                self.engine
                    .think(&pos, limits, true, clock, &mut |r| out(info(&pos, r)))
                    .best
            }
        };
        Ok(match best {
            Some(m) => format!("bestmove {}", pos.move_text(m)),
            None => "bestmove none".into(),
        })
    }
}

/// An `info` line for a completed iteration.
fn info(pos: &AnyPosition, r: &SearchResult) -> String {
    let pv: Vec<String> = r.pv.iter().map(|&m| pos.move_text(m)).collect();
    format!(
        "info depth {} score {} nodes {} time {} nps {}{} pv {}",
        r.depth,
        score_words(r.score),
        r.nodes,
        r.elapsed_ms,
        r.nodes * 1000 / r.elapsed_ms.max(1),
        if r.proof { " proven" } else { "" },
        pv.join(" ")
    )
}

/// `cp <centi-moves>`, or `win <plies>` / `loss <plies>` for a result seen to the end.
pub fn score_words(score: i32) -> String {
    match plies_to_end(score) {
        Some(p) if score > 0 => format!("win {p}"),
        Some(p) => format!("loss {p}"),
        None => format!("cp {score}"),
    }
}
