//! Accounts' secrets: passwords (checked, hashed with argon2id) and session tokens (random,
//! stored only as their SHA-256, so a copy of the database logs nobody in).

use std::fmt;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use sha2::{Digest, Sha256};

/// Shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Longest password, in characters: hashing a megabyte would be a cheap way to load us.
pub const MAX_PASSWORD_CHARS: usize = 128;

/// A password as typed, checked for length; never printed.
#[derive(Clone)]
pub struct Password(String);

/// Why a password is refused.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PasswordError {
    /// Shorter than [`MIN_PASSWORD_CHARS`].
    #[error("the password is too short: at least {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    /// Longer than [`MAX_PASSWORD_CHARS`].
    #[error("the password is too long: at most {MAX_PASSWORD_CHARS} characters")]
    TooLong,
    /// The same as the account's name.
    #[error("the password may not be the account's name")]
    IsName,
}

impl PasswordError {
    /// Every reason code.
    pub const CODES: [&'static str; 3] = ["too_short", "too_long", "is_name"];

    /// The reason code the API sends with `bad_password`.
    pub fn code(&self) -> &'static str {
        match self {
            PasswordError::TooShort => "too_short",
            PasswordError::TooLong => "too_long",
            PasswordError::IsName => "is_name",
        }
    }
}

/// Hashing failed: no randomness for a salt, or a stored hash that is not one.
#[derive(Debug, thiserror::Error)]
#[error("password hashing: {0}")]
pub struct HashError(String);

impl Password {
    /// A new password for the account `name`.
    pub fn new(text: &str, name: &str) -> Result<Password, PasswordError> {
        let chars = text.chars().count();
        if chars < MIN_PASSWORD_CHARS {
            return Err(PasswordError::TooShort);
        }
        if chars > MAX_PASSWORD_CHARS {
            return Err(PasswordError::TooLong);
        }
        if text.to_lowercase() == name.to_lowercase() {
            return Err(PasswordError::IsName);
        }
        Ok(Password(text.to_string()))
    }

    /// A password as sent to log in: only its length is checked, so that a refusal says
    /// nothing about which accounts exist.
    pub fn attempt(text: &str) -> Option<Password> {
        (text.chars().count() <= MAX_PASSWORD_CHARS).then(|| Password(text.to_string()))
    }

    /// The PHC string to store: argon2id with its default cost (19 MiB, 2 passes), a
    /// fresh salt. Takes tens of milliseconds on purpose: run it off the async threads.
    pub fn hash(&self) -> Result<String, HashError> {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| HashError(e.to_string()))?;
        let salt = SaltString::encode_b64(&salt).map_err(|e| HashError(e.to_string()))?;
        Argon2::default()
            .hash_password(self.0.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| HashError(e.to_string()))
    }

    /// Whether this is the password `stored` was made from.
    pub fn verify(&self, stored: &str) -> Result<bool, HashError> {
        let hash = PasswordHash::new(stored).map_err(|e| HashError(e.to_string()))?;
        Ok(Argon2::default()
            .verify_password(self.0.as_bytes(), &hash)
            .is_ok())
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

/// A hash made once at start, checked against when a login names no account, so that a
/// refusal takes as long whether or not the account exists.
pub fn decoy_hash() -> Result<String, HashError> {
    Password("not anybody's password".into()).hash()
}

/// The secret of a logged-in browser: 256 random bits as 64 hex digits, sent in the
/// session cookie.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl SessionToken {
    /// A new random token.
    pub fn random() -> Result<SessionToken, getrandom::Error> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)?;
        Ok(SessionToken(hex(&bytes)))
    }

    /// A token as a cookie carries it, if it has the shape of one.
    pub fn from_cookie(text: &str) -> Option<SessionToken> {
        (text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| SessionToken(text.to_ascii_lowercase()))
    }

    /// The token for the cookie.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the database keeps: the token's SHA-256.
    pub fn digest(&self) -> String {
        hex(&Sha256::digest(self.0.as_bytes()))
    }
}

impl fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionToken(..)")
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_checked_and_verified() {
        assert_eq!(
            Password::new("short", "ana").err(),
            Some(PasswordError::TooShort)
        );
        assert_eq!(
            Password::new(&"x".repeat(129), "ana").err(),
            Some(PasswordError::TooLong)
        );
        assert_eq!(
            Password::new("Anakonda", "anakonda").err(),
            Some(PasswordError::IsName)
        );
        let p = Password::new("correct horse", "ana").unwrap();
        let stored = p.hash().unwrap();
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(!stored.contains("correct horse"));
        assert!(p.verify(&stored).unwrap());
        assert!(
            !Password::attempt("correct horsf")
                .unwrap()
                .verify(&stored)
                .unwrap()
        );
        // Two hashes of one password differ by their salt.
        assert_ne!(p.hash().unwrap(), stored);
        assert!(p.verify("not a hash").is_err());
    }

    #[test]
    fn session_tokens_are_stored_as_digests() {
        let t = SessionToken::random().unwrap();
        assert_eq!(t.as_str().len(), 64);
        assert_eq!(SessionToken::from_cookie(t.as_str()), Some(t.clone()));
        assert_ne!(t.digest(), t.as_str());
        assert_eq!(t.digest().len(), 64);
        assert_eq!(SessionToken::from_cookie("abc"), None);
        assert_eq!(SessionToken::from_cookie(&"g".repeat(64)), None);
    }
}
