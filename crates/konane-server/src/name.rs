//! A player's display name, checked: what other players read must be what it looks like.

use std::fmt;

/// Longest name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// A display name: trimmed, 1 to 40 characters, with no control, bidi-override or
/// zero-width characters (they could make a name read as another or reorder the page).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayerName(String);

/// Why a name is refused.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum NameError {
    /// Nothing but white space.
    #[error("the name is empty")]
    Empty,
    /// Longer than [`MAX_NAME_CHARS`].
    #[error("the name has {0} characters: at most {MAX_NAME_CHARS} are allowed")]
    TooLong(usize),
    /// A character that does not show as itself.
    #[error("the name holds the invisible or control character U+{0:04X}")]
    Hidden(u32),
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
        if chars > MAX_NAME_CHARS {
            return Err(NameError::TooLong(chars));
        }
        Ok(PlayerName(name.to_string()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
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
        assert_eq!(
            PlayerName::parse("Kōnane Kai").unwrap().as_str(),
            "Kōnane Kai"
        );
        assert_eq!(PlayerName::parse("   "), Err(NameError::Empty));
        assert_eq!(
            PlayerName::parse(&"x".repeat(41)),
            Err(NameError::TooLong(41))
        );
        for bad in [
            "a\u{202E}b",
            "a\u{200B}b",
            "a\u{2066}b",
            "a\nb",
            "a\u{7}b",
            "\u{FEFF}a",
        ] {
            assert!(
                matches!(PlayerName::parse(bad), Err(NameError::Hidden(_))),
                "{bad:?}"
            );
        }
    }
}
