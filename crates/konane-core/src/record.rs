//! Game records: PGN-style tag pairs, a blank line, and the move text.
//! The grammar is in `docs/notation.md`.

use core::fmt;

use crate::game::{AnyPosition, Game};
use crate::geometry::{Color, Opening, Size};

/// Tags whose values the record derives from its game, in the order they are written.
const GAME_TAGS: [&str; 5] = ["Size", "Opening", "Position", "Result", "Termination"];

/// Longest move-text line written.
const LINE_WIDTH: usize = 80;

/// A game with its tags. Reading back what [`fmt::Display`] writes gives the same record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    tags: Vec<(String, String)>,
    game: Game,
}

impl Record {
    /// A record of `game` with the caller's tags (Event, Black, ...), to which it adds
    /// `Size`, `Opening`, `Position` (when the game did not start from the initial
    /// position) and, unless given, `Result` and `Termination` from the game's outcome.
    pub fn new(game: Game, tags: Vec<(String, String)>) -> Record {
        let given = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        let (result, termination) = match (given("Result"), game.outcome()) {
            (Some(r), _) => (r, given("Termination")),
            (None, Some(o)) => (o.winner.name().to_string(), Some(o.termination())),
            (None, None) => ("*".to_string(), None),
        };
        let start = game.start();
        let initial = AnyPosition::start(start.size(), start.opening());
        let mut all: Vec<(String, String)> = tags
            .into_iter()
            .filter(|(n, _)| !GAME_TAGS.contains(&n.as_str()))
            .collect();
        all.push(("Size".into(), start.size().to_string()));
        all.push(("Opening".into(), start.opening().to_string()));
        if *start != initial {
            all.push(("Position".into(), start.to_string()));
        }
        all.push(("Result".into(), result));
        if let Some(t) = termination {
            all.push(("Termination".into(), t));
        }
        Record { tags: all, game }
    }

    /// The tags, in the order they are written.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of one tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game, replayed from the move text.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Reads a record; every move is checked against the rules.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let err = |line: usize, message: String| RecordError { line, message };
        let lines: Vec<&str> = text.lines().collect();
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut tag_lines: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i].trim();
            if line.starts_with('[') {
                let (name, value) = parse_tag(line).map_err(|m| err(i + 1, m))?;
                if tags.iter().any(|(n, _)| *n == name) {
                    return Err(err(i + 1, format!("the tag {name} appears twice")));
                }
                tags.push((name, value));
                tag_lines.push(i + 1);
            } else if !line.is_empty() {
                break;
            }
            i += 1;
        }
        let line_of = |name: &str| {
            tags.iter()
                .position(|(n, _)| n == name)
                .map_or(1, |k| tag_lines[k])
        };
        let value = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let opening = match value("Opening") {
            Some(v) => v
                .parse::<Opening>()
                .map_err(|e| err(line_of("Opening"), e.to_string()))?,
            None => Opening::default(),
        };
        let size = match value("Size") {
            Some(v) => Some(
                v.parse::<Size>()
                    .map_err(|e| err(line_of("Size"), e.to_string()))?,
            ),
            None => None,
        };
        let start = match value("Position") {
            Some(v) => {
                let p = AnyPosition::parse(v, opening)
                    .map_err(|e| err(line_of("Position"), e.to_string()))?;
                if let Some(s) = size.filter(|&s| s != p.size()) {
                    return Err(err(
                        line_of("Size"),
                        format!("the Size tag says {s} but the Position is {}", p.size()),
                    ));
                }
                p
            }
            None => AnyPosition::start(size.unwrap_or(Size::DEFAULT), opening),
        };
        let result = match value("Result") {
            None | Some("*") => None,
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            Some(other) => {
                return Err(err(
                    line_of("Result"),
                    format!("Result is '{other}': it must be black, white or *"),
                ));
            }
        };

        let game = replay(&lines[i..], i, start)?;
        if let (Some(claimed), Some(outcome)) = (result, game.outcome())
            && claimed != outcome.winner
        {
            return Err(err(
                line_of("Result"),
                format!(
                    "Result says {claimed} won, but the moves end with {}",
                    outcome.termination()
                ),
            ));
        }
        Ok(Record { tags, game })
    }
}

/// Plays the move text of a record, `lines` from line `first` (from 0), on `start`.
fn replay(lines: &[&str], first: usize, start: AnyPosition) -> Result<Game, RecordError> {
    let err = |line: usize, message: String| RecordError { line, message };
    let mut game = Game::from_position(start);
    let first_white = start.turn() == Color::White;
    for (n, line) in (first..).zip(lines) {
        for token in line.split_whitespace() {
            let ply = game.ply() + usize::from(first_white);
            let expected = ply / 2 + 1;
            let mv = match split_number(token) {
                Some((number, rest)) => {
                    if number != Some(expected) {
                        return Err(err(
                            n + 1,
                            format!("'{token}': move number {expected} was expected here"),
                        ));
                    }
                    rest
                }
                None => token,
            };
            if mv.is_empty() {
                continue;
            }
            game.play_text(mv)
                .map_err(|e| err(n + 1, format!("move {} ({mv}): {e}", game.ply() + 1)))?;
        }
    }
    Ok(game)
}

/// Reads `[Name "value"]`, with `\"` and `\\` escapes in the value.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let shape = || format!("'{line}' is not a tag: write [Name \"value\"]");
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(shape)?;
    let (name, rest) = inner.split_once(' ').ok_or_else(shape)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "'{name}' is not a tag name: use letters, digits and _"
        ));
    }
    let quoted = rest
        .trim()
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(shape)?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e),
                _ => {
                    return Err(format!(
                        "tag {name}: a backslash must be followed by \" or \\"
                    ));
                }
            },
            '"' => {
                return Err(format!(
                    "tag {name}: a quote inside the value must be written \\\""
                ));
            }
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Splits a leading move number (`12.` or `12...`) off a token: `Some((number, rest))`,
/// where the number is `None` when it does not fit in a `usize`.
fn split_number(token: &str) -> Option<(Option<usize>, &str)> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !token[digits..].starts_with('.') {
        return None;
    }
    let rest = token[digits..].trim_start_matches('.');
    Some((token[..digits].parse().ok(), rest))
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f)?;
        let first_white = self.game.start().turn() == Color::White;
        let mut line = String::new();
        for (i, mv) in self.game.move_texts().iter().enumerate() {
            let ply = i + usize::from(first_white);
            let mut token = String::new();
            if ply % 2 == 0 {
                token.push_str(&format!("{}. ", ply / 2 + 1));
            } else if i == 0 {
                token.push_str(&format!("{}... ", ply / 2 + 1));
            }
            token.push_str(mv);
            if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        if !line.is_empty() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// A game record that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// 1-based line of the record where the problem is.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips() {
        let mut game = Game::new(Size::DEFAULT, Opening::CenterOrCorner);
        for m in ["e4", "e5", "c4-e4", "c5-e5"] {
            game.play_text(m).unwrap();
        }
        let tags = vec![
            ("Event".to_string(), "Casual \"test\" game".to_string()),
            ("Black".to_string(), "Ana".to_string()),
        ];
        let rec = Record::new(game, tags);
        let text = rec.to_string();
        assert!(text.contains("1. e4 e5 2. c4-e4 c5-e5"), "{text}");
        assert!(
            text.contains("[Event \"Casual \\\"test\\\" game\"]"),
            "{text}"
        );
        assert!(text.contains("[Result \"*\"]"), "{text}");
        let back = Record::parse(&text).unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.to_string(), text);
    }

    #[test]
    fn a_record_from_a_position_with_white_to_move() {
        let start = AnyPosition::parse(".wbw/wbwb/bwbw/wbwb w", Opening::CenterOrCorner).unwrap();
        let mut game = Game::from_position(start);
        game.play_text("a3").unwrap();
        let rec = Record::new(game, vec![]);
        let text = rec.to_string();
        assert!(
            text.contains("[Position \".wbw/wbwb/bwbw/wbwb w\"]"),
            "{text}"
        );
        assert!(text.contains("1... "), "{text}");
        assert_eq!(Record::parse(&text).unwrap(), rec);
    }

    #[test]
    fn record_errors_name_the_line() {
        let e = Record::parse("[Size \"8x8\"]\n\n1. e4 e5 2. d5\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("move 3 (d5)"), "{e}");
        let e = Record::parse("[Size \"8x9x\"]\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = Record::parse("[Event \"a\"]\n[Result \"draw\"]\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Record::parse("\n1. e4 3. e5\n").unwrap_err();
        assert!(e.message.contains("move number 1"), "{e}");
        assert!(Record::parse("[Event \"a\"\n").is_err());
        assert!(Record::parse("[Event \"a\"]\n[Event \"b\"]\n").is_err());
    }
}
