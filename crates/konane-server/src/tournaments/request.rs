//! A new tournament as a player asks for it (`POST /api/tournaments`): what may be asked,
//! each refusal naming its field.

use konane_core::{Opening, Size};
use serde::Deserialize;

use crate::players::name::PlayerName;
use crate::tournaments::errors::TournamentError;
use crate::tournaments::model::{Format, Settings};

/// Longest an arena may run (minutes).
pub const MAX_ARENA_MINUTES: u32 = 720;
/// Most rounds a Swiss may have.
pub const MAX_SWISS_ROUNDS: u32 = 15;
/// Latest a player's tournament may start (seconds ahead): a week.
pub const MAX_STARTS_IN_S: i64 = 7 * 86_400;
/// Longest name.
pub const MAX_NAME_CHARS: usize = 60;

/// A clock as a tournament asks for it.
#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    minutes: f64,
    #[serde(default)]
    increment: f64,
}

/// `POST /api/tournaments`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    kind: String,
    name: String,
    clock: ClockRequest,
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    opening: Option<String>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    starts_in_s: Option<i64>,
    #[serde(default)]
    minutes: Option<u32>,
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(default)]
    double: Option<bool>,
    #[serde(default)]
    entry_code: Option<String>,
    #[serde(default)]
    min_rating: Option<u32>,
    #[serde(default)]
    min_games: Option<u32>,
}

/// A checked request: the settings and the delay before the start (ms).
pub struct Checked {
    /// What the tournament is.
    pub settings: Settings,
    /// How long until it starts (ms).
    pub starts_in_ms: i64,
}

impl CreateTournament {
    /// The settings, if every field is allowed; `creator` is shown as the organiser.
    pub fn check(&self, creator: &PlayerName) -> Result<Checked, TournamentError> {
        let name = self.name.trim();
        if name.is_empty()
            || name.chars().count() > MAX_NAME_CHARS
            || name.chars().any(char::is_control)
        {
            return Err(TournamentError::bad(
                "name",
                format!("a name of 1 to {MAX_NAME_CHARS} characters"),
            ));
        }
        let format = self.format()?;
        let ClockRequest { minutes, increment } = self.clock;
        if !(minutes > 0.0 && minutes <= 180.0 && (0.0..=60.0).contains(&increment)) {
            return Err(TournamentError::bad(
                "clock",
                "0 to 180 minutes and an increment of 0 to 60 seconds",
            ));
        }
        let size: Size = self
            .size
            .as_deref()
            .unwrap_or("8x8")
            .parse()
            .map_err(|e: konane_core::SizeError| TournamentError::bad("size", e.to_string()))?;
        if size.rows() < 4 || size.cols() < 4 {
            return Err(TournamentError::bad("size", "boards from 4x4 to 16x16"));
        }
        let opening: Opening = self
            .opening
            .as_deref()
            .unwrap_or("center-or-corner")
            .parse()
            .map_err(|e: konane_core::OpeningError| {
                TournamentError::bad("opening", e.to_string())
            })?;
        let standard = size.rows() == 8 && size.cols() == 8 && opening == Opening::CenterOrCorner;
        if self.rated && !standard {
            return Err(TournamentError::bad(
                "rated",
                "rated tournaments are played on 8x8 with the center-or-corner opening",
            ));
        }
        let starts_in_s = self.starts_in_s.unwrap_or(300);
        if !(0..=MAX_STARTS_IN_S).contains(&starts_in_s) {
            return Err(TournamentError::bad(
                "starts_in_s",
                "from 0 seconds to a week",
            ));
        }
        let entry_code = match self.entry_code.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(code) if code.len() <= 40 && !code.chars().any(char::is_control) => {
                Some(code.to_string())
            }
            Some(_) => {
                return Err(TournamentError::bad(
                    "entry_code",
                    "a code of up to 40 characters",
                ));
            }
        };
        if self.min_rating.is_some_and(|r| !(500..=3000).contains(&r)) {
            return Err(TournamentError::bad(
                "min_rating",
                "a rating from 500 to 3000",
            ));
        }
        if self.min_games.is_some_and(|g| g > 1000) {
            return Err(TournamentError::bad("min_games", "up to 1000 games"));
        }
        Ok(Checked {
            settings: Settings {
                name: name.to_string(),
                format,
                initial_ms: (minutes * 60_000.0).round() as i64,
                increment_ms: (increment * 1000.0).round() as i64,
                size: size.to_string(),
                opening: opening.to_string(),
                rated: self.rated,
                entry_code,
                min_rating: self.min_rating,
                min_games: self.min_games,
                creator_name: Some(creator.as_str().to_string()),
                site_title: None,
                season: None,
            },
            starts_in_ms: starts_in_s * 1000,
        })
    }

    fn format(&self) -> Result<Format, TournamentError> {
        let unused = |field: &'static str, given: bool| {
            if given {
                Err(TournamentError::bad(
                    field,
                    format!("not a field of a {}", self.kind),
                ))
            } else {
                Ok(())
            }
        };
        match self.kind.as_str() {
            "arena" => {
                unused("rounds", self.rounds.is_some())?;
                unused("double", self.double.is_some())?;
                let minutes = self.minutes.unwrap_or(30);
                if !(10..=MAX_ARENA_MINUTES).contains(&minutes) {
                    return Err(TournamentError::bad(
                        "minutes",
                        format!("10 to {MAX_ARENA_MINUTES} minutes"),
                    ));
                }
                Ok(Format::Arena { minutes })
            }
            "swiss" => {
                unused("minutes", self.minutes.is_some())?;
                unused("double", self.double.is_some())?;
                let rounds = self.rounds.unwrap_or(5);
                if !(1..=MAX_SWISS_ROUNDS).contains(&rounds) {
                    return Err(TournamentError::bad(
                        "rounds",
                        format!("1 to {MAX_SWISS_ROUNDS} rounds"),
                    ));
                }
                Ok(Format::Swiss { rounds })
            }
            "round-robin" => {
                unused("minutes", self.minutes.is_some())?;
                unused("rounds", self.rounds.is_some())?;
                Ok(Format::RoundRobin {
                    double: self.double.unwrap_or(false),
                })
            }
            _ => Err(TournamentError::bad("kind", "arena, swiss or round-robin")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> Result<Checked, TournamentError> {
        let req: CreateTournament = serde_json::from_str(json).expect("parses");
        req.check(&PlayerName::parse("Ana").expect("a name"))
    }

    #[test]
    fn a_good_request_becomes_its_settings() {
        let c = request(
            r#"{"kind":"swiss","name":" Friday ","clock":{"minutes":3,"increment":2},"rated":true,"rounds":4,"starts_in_s":60}"#,
        )
        .expect("allowed");
        assert_eq!(c.settings.name, "Friday");
        assert_eq!(c.settings.format, Format::Swiss { rounds: 4 });
        assert_eq!(
            (c.settings.initial_ms, c.settings.increment_ms),
            (180_000, 2_000)
        );
        assert_eq!(c.settings.size, "8x8");
        assert_eq!(c.starts_in_ms, 60_000);
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases = [
            (
                r#"{"kind":"ladder","name":"x","clock":{"minutes":3}}"#,
                "kind",
            ),
            (
                r#"{"kind":"arena","name":"","clock":{"minutes":3}}"#,
                "name",
            ),
            (
                r#"{"kind":"arena","name":"x","clock":{"minutes":0}}"#,
                "clock",
            ),
            (
                r#"{"kind":"arena","name":"x","clock":{"minutes":3,"increment":61}}"#,
                "clock",
            ),
            (
                r#"{"kind":"arena","name":"x","clock":{"minutes":3},"minutes":5}"#,
                "minutes",
            ),
            (
                r#"{"kind":"arena","name":"x","clock":{"minutes":3},"rounds":5}"#,
                "rounds",
            ),
            (
                r#"{"kind":"swiss","name":"x","clock":{"minutes":3},"rounds":0}"#,
                "rounds",
            ),
            (
                r#"{"kind":"swiss","name":"x","clock":{"minutes":3},"size":"3x3"}"#,
                "size",
            ),
            (
                r#"{"kind":"swiss","name":"x","clock":{"minutes":3},"size":"8"}"#,
                "size",
            ),
            (
                r#"{"kind":"swiss","name":"x","clock":{"minutes":3},"opening":"nope"}"#,
                "opening",
            ),
            (
                r#"{"kind":"swiss","name":"x","clock":{"minutes":3},"starts_in_s":-1}"#,
                "starts_in_s",
            ),
            (
                r#"{"kind":"swiss","name":"x","clock":{"minutes":3},"min_rating":90}"#,
                "min_rating",
            ),
        ];
        for (json, field) in cases {
            let e = request(json)
                .err()
                .unwrap_or_else(|| panic!("{json} refused"));
            assert_eq!(e.field(), Some(field), "{json}: {e}");
        }
    }
}
