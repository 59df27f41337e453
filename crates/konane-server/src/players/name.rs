//! A player's display name, checked: what other players read must be what it looks like,
//! and nobody may pass for the computer or the site.

use std::fmt;

/// Shortest name, in characters.
pub const MIN_NAME_CHARS: usize = 2;
/// Longest name, in characters.
pub const MAX_NAME_CHARS: usize = 20;

/// A display name: trimmed, 2 to 20 letters, digits, `_` and `-` (letters of any script,
/// so Czech and German names are written as they are), and not one of the names the site
/// itself uses.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayerName(String);

/// Why a name is refused; `code()` is what the page words in its language.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum NameError {
    /// Nothing but white space.
    #[error("the name is empty")]
    Empty,
    /// Shorter than [`MIN_NAME_CHARS`].
    #[error("the name has {0} character: at least {MIN_NAME_CHARS} are needed")]
    TooShort(usize),
    /// Longer than [`MAX_NAME_CHARS`].
    #[error("the name has {0} characters: at most {MAX_NAME_CHARS} are allowed")]
    TooLong(usize),
    /// A character that does not show as itself.
    #[error("the name holds the invisible or control character U+{0:04X}")]
    Hidden(u32),
    /// A character other than a letter, a digit, `_` or `-`.
    #[error("the name holds '{0}': use letters, digits, _ and - only")]
    Character(char),
    /// A name the site uses for itself or its engine.
    #[error("'{0}' is reserved: the site and its engine use it")]
    Reserved(String),
}

impl NameError {
    /// The reason code the API sends with `bad_name`.
    pub fn code(&self) -> &'static str {
        match self {
            NameError::Empty => "empty",
            NameError::TooShort(_) => "too_short",
            NameError::TooLong(_) => "too_long",
            NameError::Hidden(_) => "hidden_character",
            NameError::Character(_) => "bad_character",
            NameError::Reserved(_) => "reserved",
        }
    }

    /// Every reason code.
    pub const CODES: [&'static str; 6] = [
        "empty",
        "too_short",
        "too_long",
        "hidden_character",
        "bad_character",
        "reserved",
    ];
}

/// Characters that change how text around them reads without showing themselves.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
            | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{061C}' // Arabic letter mark
            | '\u{FEFF}' // zero-width no-break space
            | '\u{00AD}' // soft hyphen
            | '\u{180E}' // Mongolian vowel separator
        )
}

/// Names (compared without case, `_`, `-` and trailing digits) that would pass for the
/// computer, the site or its staff, in the site's three languages.
const RESERVED: [&str; 16] = [
    "computer",
    "engine",
    "konane",
    "kōnane",
    "konaneengine",
    "počítač",
    "pocitac",
    "rechner",
    "bot",
    "ai",
    "admin",
    "administrator",
    "moderator",
    "system",
    "anonymous",
    "anonym",
];

/// Prefixes that read as the engine's own label ("Computer · level 5").
const RESERVED_PREFIXES: [&str; 5] = ["computer", "engine", "počítač", "pocitac", "konane"];

fn reserved(name: &str) -> bool {
    let key: String = name
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    let stem = key.trim_end_matches(|c: char| c.is_ascii_digit());
    RESERVED.contains(&stem)
        || RESERVED_PREFIXES
            .iter()
            .any(|p| stem.starts_with(p) && stem[p.len()..].starts_with("level"))
}

impl PlayerName {
    /// Checks a name as typed.
    pub fn parse(text: &str) -> Result<PlayerName, NameError> {
        let name = text.trim();
        if let Some(c) = name.chars().find(|&c| is_hidden(c)) {
            return Err(NameError::Hidden(u32::from(c)));
        }
        let chars = name.chars().count();
        if chars == 0 {
            return Err(NameError::Empty);
        }
        if chars < MIN_NAME_CHARS {
            return Err(NameError::TooShort(chars));
        }
        if chars > MAX_NAME_CHARS {
            return Err(NameError::TooLong(chars));
        }
        if let Some(c) = name
            .chars()
            .find(|&c| !(c.is_alphanumeric() || c == '_' || c == '-'))
        {
            return Err(NameError::Character(c));
        }
        if reserved(name) {
            return Err(NameError::Reserved(name.to_string()));
        }
        Ok(PlayerName(name.to_string()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name as accounts are told apart: `Ana` and `ana` are one account.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(PlayerName::parse("  Ana ").unwrap().as_str(), "Ana");
        for good in [
            "Kōnane_Kai",
            "Jiří-7",
            "Müller",
            "ab",
            &"x".repeat(20),
            "Engineer",
        ] {
            assert_eq!(PlayerName::parse(good).unwrap().as_str(), good);
        }
        assert_eq!(PlayerName::parse("   "), Err(NameError::Empty));
        assert_eq!(PlayerName::parse("a"), Err(NameError::TooShort(1)));
        assert_eq!(
            PlayerName::parse(&"x".repeat(21)),
            Err(NameError::TooLong(21))
        );
        for (bad, c) in [("Ana Kai", ' '), ("a.b", '.'), ("<b>", '<'), ("ana@x", '@')] {
            assert_eq!(
                PlayerName::parse(bad),
                Err(NameError::Character(c)),
                "{bad}"
            );
        }
        for bad in [
            "a\u{202E}b",
            "a\u{200B}b",
            "a\u{2066}b",
            "a\nb",
            "a\u{7}b",
            "\u{FEFF}ab",
        ] {
            assert!(
                matches!(PlayerName::parse(bad), Err(NameError::Hidden(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn nobody_passes_for_the_computer() {
        for bad in [
            "Computer",
            "COMPUTER",
            "computer2",
            "Computer_level_5",
            "engine",
            "Engine-level-8",
            "Konane",
            "Kōnane",
            "konane_engine",
            "Počítač",
            "admin",
            "Bot",
            "AI",
        ] {
            assert!(
                matches!(PlayerName::parse(bad), Err(NameError::Reserved(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_code_is_listed() {
        for e in [
            NameError::Empty,
            NameError::TooShort(1),
            NameError::TooLong(21),
            NameError::Hidden(7),
            NameError::Character(' '),
            NameError::Reserved(String::new()),
        ] {
            assert!(NameError::CODES.contains(&e.code()));
        }
    }
}
