//! The site's own events: a schedule of rules ("a 3+2 arena every hour at :00"), from
//! which the director creates the coming events ahead of time. The operator may replace
//! the default with a JSON file (`konane serve --schedule FILE`, docs/tournaments.md).

use serde::Deserialize;

use crate::tournaments::calendar;
pub use crate::tournaments::every::Every;
use crate::tournaments::model::{Format, Season, Settings};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// 1 January 1970 was a Thursday: day 0 is weekday 3 counting Monday as 0.
const EPOCH_WEEKDAY: i64 = 3;

/// A day of the week.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    /// Monday.
    Mon,
    /// Tuesday.
    Tue,
    /// Wednesday.
    Wed,
    /// Thursday.
    Thu,
    /// Friday.
    Fri,
    /// Saturday.
    Sat,
    /// Sunday.
    Sun,
}

/// One rule of the schedule.
#[derive(Clone, PartialEq, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The events' name; without one, the site's own ("Hourly 3+2 Arena"), which pages
    /// word in their language.
    #[serde(default)]
    pub name: Option<String>,
    /// Kind and length: `{"kind": "arena", "minutes": 30}`, `{"kind": "swiss", "rounds": 5}`,
    /// `{"kind": "league", "days": 3}`.
    pub format: Format,
    /// Minutes on each clock (a league's clock is its days a move).
    #[serde(default)]
    pub minutes: f64,
    /// Seconds added a move.
    #[serde(default)]
    pub increment: f64,
    /// The board.
    #[serde(default = "eight")]
    pub size: String,
    /// The opening rule.
    #[serde(default = "center_or_corner")]
    pub opening: String,
    /// Rated.
    #[serde(default = "yes")]
    pub rated: bool,
    /// How often.
    pub every: Every,
    /// Minute of the hour it starts.
    #[serde(default)]
    pub minute: u32,
    /// Hour of the day (UTC), for daily and weekly events.
    #[serde(default)]
    pub hour: u32,
    /// The day, for weekly events.
    #[serde(default)]
    pub weekday: Option<Weekday>,
    /// How many coming events are listed ahead.
    #[serde(default = "one")]
    pub ahead: u32,
}

fn eight() -> String {
    "8x8".into()
}
fn center_or_corner() -> String {
    "center-or-corner".into()
}
fn yes() -> bool {
    true
}
fn one() -> u32 {
    1
}

/// The site's schedule.
#[derive(Clone, PartialEq, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// Its rules.
    pub rules: Vec<Rule>,
}

/// A schedule that cannot be used, and why.
#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    /// Not the JSON of a schedule.
    #[error("not a schedule: {0}")]
    Json(#[from] serde_json::Error),
    /// A rule out of range.
    #[error("rule {name:?}: {message}")]
    Rule {
        /// The rule's name.
        name: String,
        /// What is wrong.
        message: String,
    },
}

/// An event the schedule wants to exist: a key naming rule and start, its settings, the
/// start.
#[derive(Clone, PartialEq, Debug)]
pub struct Coming {
    /// Unique for the rule and the start, so it is created once.
    pub key: String,
    /// What the event is.
    pub settings: Settings,
    /// When it starts (Unix ms).
    pub starts_at: i64,
}

impl Schedule {
    /// The schedule a fresh server runs: an hourly 3+2 arena, a daily 6+0 arena, a
    /// weekly 10+5 Swiss and a monthly 8x8 correspondence league at 3 days a move.
    pub fn site_default() -> Schedule {
        let rule = |format, minutes, increment, every, hour, weekday, ahead| Rule {
            name: None,
            format,
            minutes,
            increment,
            size: eight(),
            opening: center_or_corner(),
            rated: true,
            every,
            minute: 0,
            hour,
            weekday,
            ahead,
        };
        Schedule {
            rules: vec![
                rule(
                    Format::Arena { minutes: 30 },
                    3.0,
                    2.0,
                    Every::Hour,
                    0,
                    None,
                    3,
                ),
                rule(
                    Format::Arena { minutes: 60 },
                    6.0,
                    0.0,
                    Every::Day,
                    18,
                    None,
                    2,
                ),
                rule(
                    Format::Swiss { rounds: 5 },
                    10.0,
                    5.0,
                    Every::Week,
                    16,
                    Some(Weekday::Sat),
                    1,
                ),
                rule(
                    Format::League { days: 3 },
                    0.0,
                    0.0,
                    Every::Month,
                    12,
                    None,
                    1,
                ),
            ],
        }
    }

    /// Reads an operator's schedule, checking every rule.
    pub fn from_json(text: &str) -> Result<Schedule, ScheduleError> {
        let schedule: Schedule = serde_json::from_str(text)?;
        for r in &schedule.rules {
            let bad = |message: &str| ScheduleError::Rule {
                name: r.title(),
                message: message.into(),
            };
            if r.name
                .as_ref()
                .is_some_and(|n| n.trim().is_empty() || n.chars().count() > 60)
            {
                return Err(bad("a name of 1 to 60 characters"));
            }
            let league = matches!(r.format, Format::League { .. });
            let clock_ok =
                r.minutes > 0.0 && r.minutes <= 180.0 && (0.0..=60.0).contains(&r.increment);
            if !league && !clock_ok {
                return Err(bad("0 to 180 minutes and 0 to 60 seconds of increment"));
            }
            if league && r.every != Every::Month {
                return Err(bad(
                    "a league's seasons start monthly (\"every\": \"month\")",
                ));
            }
            if r.minute > 59 || r.hour > 23 {
                return Err(bad("minute 0-59, hour 0-23"));
            }
            if r.every == Every::Week && r.weekday.is_none() {
                return Err(bad("a weekly event needs its weekday"));
            }
            if !(1..=24).contains(&r.ahead) {
                return Err(bad("ahead: 1 to 24 events"));
            }
            if r.size.parse::<konane_core::Size>().is_err()
                || r.opening.parse::<konane_core::Opening>().is_err()
            {
                return Err(bad("a board such as 8x8 and an opening rule"));
            }
            match r.format {
                Format::Arena { minutes } if !(10..=720).contains(&minutes) => {
                    return Err(bad("an arena of 10 to 720 minutes"));
                }
                Format::Swiss { rounds } if !(1..=15).contains(&rounds) => {
                    return Err(bad("a Swiss of 1 to 15 rounds"));
                }
                Format::League { days } if !(1..=14).contains(&days) => {
                    return Err(bad("a league of 1 to 14 days a move"));
                }
                _ => {}
            }
        }
        Ok(schedule)
    }

    /// The events that should exist at `now`: each rule's next `ahead` starts; a league's
    /// first season (each later season is made when the one before it ends).
    pub fn coming(&self, now: i64) -> Vec<Coming> {
        let mut out = Vec::new();
        for rule in &self.rules {
            if let Some(season) = &rule.settings().season {
                out.push(Coming {
                    key: season.key(),
                    settings: rule.settings(),
                    starts_at: rule.next_start(now),
                });
                continue;
            }
            let mut start = rule.next_start(now);
            for _ in 0..rule.ahead {
                out.push(Coming {
                    key: format!("{}@{start}", rule.title()),
                    settings: rule.settings(),
                    starts_at: start,
                });
                start = rule.next_start(start + 1);
            }
        }
        out
    }
}

impl Rule {
    /// The first start at or after `now`.
    pub fn next_start(&self, now: i64) -> i64 {
        let minute = i64::from(self.minute) * 60_000;
        let hour = i64::from(self.hour) * HOUR_MS;
        let (period, offset) = match self.every {
            Every::Hour => (HOUR_MS, minute),
            Every::Day => (DAY_MS, hour + minute),
            Every::Week => {
                let day = self.weekday.map_or(0, |d| d as i64);
                // Day 0 of the epoch is a Thursday; weeks here start on the epoch's Monday.
                let monday = (7 - EPOCH_WEEKDAY) % 7;
                (7 * DAY_MS, (monday + day) % 7 * DAY_MS + hour + minute)
            }
            Every::Month => return calendar::first_of_month_at(now, hour + minute),
        };
        let base = (now - offset).div_euclid(period) * period + offset;
        if base >= now { base } else { base + period }
    }

    /// The events' name: the rule's, or the site's own in English.
    pub fn title(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let every = match self.every {
            Every::Hour => "Hourly",
            Every::Day => "Daily",
            Every::Week => "Weekly",
            Every::Month => "Monthly",
        };
        let kind = match self.format {
            Format::Arena { .. } => "Arena",
            Format::Swiss { .. } => "Swiss",
            Format::RoundRobin { .. } => "Round Robin",
            Format::League { .. } => return format!("{every} {} League", self.size),
        };
        format!("{every} {}+{} {kind}", self.minutes, self.increment)
    }

    fn settings(&self) -> Settings {
        let (initial_ms, increment_ms, season) = match self.format {
            Format::League { days } => (
                i64::from(days) * DAY_MS,
                0,
                Some(Season {
                    league: self.title(),
                    number: 1,
                }),
            ),
            _ => (
                (self.minutes * 60_000.0).round() as i64,
                (self.increment * 1000.0).round() as i64,
                None,
            ),
        };
        Settings {
            name: self.title(),
            site_title: self.name.is_none().then_some(self.every),
            format: self.format,
            initial_ms,
            increment_ms,
            season,
            size: self.size.clone(),
            opening: self.opening.clone(),
            rated: self.rated,
            entry_code: None,
            min_rating: None,
            min_games: None,
            creator_name: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Monday 7 December 2026, 15:37:00 UTC.
    const NOW: i64 = 1_796_657_820_000;

    #[test]
    fn starts_fall_on_the_hour_the_day_and_the_weekday() {
        let s = Schedule::site_default();
        let hourly = s.rules[0].next_start(NOW);
        assert_eq!(hourly, 1_796_659_200_000, "16:00 the same day");
        let daily = s.rules[1].next_start(NOW);
        assert_eq!(daily, 1_796_666_400_000, "18:00 the same day");
        let weekly = s.rules[2].next_start(NOW);
        assert_eq!(weekly, 1_797_091_200_000, "Saturday 12 December, 16:00");
        assert_eq!(
            s.rules[0].next_start(hourly),
            hourly,
            "a start is its own next start"
        );
    }

    #[test]
    fn the_default_lists_its_coming_events_once_each() {
        let coming = Schedule::site_default().coming(NOW);
        assert_eq!(coming.len(), 3 + 2 + 1 + 1);
        let mut keys: Vec<_> = coming.iter().map(|c| c.key.clone()).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 7);
        let league = coming.last().expect("the league");
        assert_eq!(league.key, "league:Monthly 8x8 League#1");
        assert_eq!(league.starts_at, 1_798_804_800_000, "1 January 2027, 12:00");
        assert_eq!(
            Schedule::site_default().coming(league.starts_at + 1).last(),
            Some(&Coming {
                starts_at: 1_801_483_200_000,
                ..league.clone()
            }),
            "the first season's key stays, whenever it is asked"
        );
        assert!(coming.iter().all(|c| c.starts_at >= NOW));
        assert_eq!(coming[1].starts_at - coming[0].starts_at, HOUR_MS);
    }

    #[test]
    fn an_operators_file_is_read_and_bad_rules_are_named() {
        let good = r#"{"rules": [{"name": "Blitz", "format": {"kind": "arena", "minutes": 45},
            "minutes": 5, "increment": 0, "every": "day", "hour": 20, "ahead": 2}]}"#;
        let s = Schedule::from_json(good).expect("a schedule");
        assert_eq!(s.rules[0].format, Format::Arena { minutes: 45 });
        let weekly = r#"{"rules": [{"name": "W", "format": {"kind": "swiss", "rounds": 5},
            "minutes": 5, "every": "week"}]}"#;
        let e = Schedule::from_json(weekly).expect_err("no weekday");
        assert!(e.to_string().contains("weekday"), "{e}");
        assert!(Schedule::from_json("{}").is_err());
        let league = r#"{"rules": [{"format": {"kind": "league", "days": 2}, "every": "month"}]}"#;
        let s = Schedule::from_json(league).expect("a league");
        assert_eq!(s.rules[0].title(), "Monthly 8x8 League");
        let weekly_league = r#"{"rules": [{"format": {"kind": "league", "days": 2},
            "every": "week", "weekday": "mon"}]}"#;
        let e = Schedule::from_json(weekly_league).expect_err("leagues are monthly");
        assert!(e.to_string().contains("monthly"), "{e}");
        let long = r#"{"rules": [{"format": {"kind": "league", "days": 30}, "every": "month"}]}"#;
        assert!(Schedule::from_json(long).is_err());
    }
}
