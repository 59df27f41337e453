//! What an instance tells the others when it stores a change of a game (PostgreSQL's
//! `NOTIFY`, sent once the change has committed): which instance stored it,
//! the game's new sequence number and, when it fits in a notification, the state its pages
//! are sent, so the other instances need not read the game back.
//!
//! The payload is one header line, `instance:seq:flags:id`, then optionally a newline and
//! the state's JSON. `flags` is `s` when the engine playing itself is to move next (an
//! instance that shows the game to someone moves it on) and `-` otherwise.

/// PostgreSQL refuses payloads of 8,000 bytes or more; a state that would not fit is left
/// out and the receivers load the game.
const MAX_PAYLOAD: usize = 7_999;

/// One stored change, as announced to the other instances.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Notice<'a> {
    /// The instance that stored it ([`crate::store::Store::instance`]).
    pub instance: u64,
    /// The game.
    pub id: &'a str,
    /// The game's sequence number after the change.
    pub seq: i64,
    /// The engine playing itself moves next.
    pub self_play: bool,
    /// The game's state as JSON (a [`crate::http::views::GameView`]), when it fits.
    pub state: Option<&'a str>,
}

impl Notice<'_> {
    /// The notification's payload, without the state when that would make it too long.
    pub fn encode(&self) -> String {
        let flags = if self.self_play { "s" } else { "-" };
        let mut text = format!("{:x}:{}:{flags}:{}", self.instance, self.seq, self.id);
        if let Some(state) = self.state
            && text.len() + 1 + state.len() <= MAX_PAYLOAD
        {
            text.push('\n');
            text.push_str(state);
        }
        text
    }

    /// Reads a payload back; none when it is not one of ours.
    pub fn parse(payload: &str) -> Option<Notice<'_>> {
        let (header, state) = match payload.split_once('\n') {
            Some((h, s)) => (h, Some(s)),
            None => (payload, None),
        };
        let mut parts = header.splitn(4, ':');
        let instance = u64::from_str_radix(parts.next()?, 16).ok()?;
        let seq = parts.next()?.parse().ok()?;
        let self_play = match parts.next()? {
            "s" => true,
            "-" => false,
            _ => return None,
        };
        let id = parts.next().filter(|id| !id.is_empty())?;
        Some(Notice {
            instance,
            id,
            seq,
            self_play,
            state,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_state_too_long_for_postgresql_is_left_out() {
        let long = "x".repeat(MAX_PAYLOAD);
        let n = Notice {
            instance: 7,
            id: "abc",
            seq: 3,
            self_play: false,
            state: Some(&long),
        };
        let text = n.encode();
        assert_eq!(text, "7:3:-:abc");
        assert_eq!(Notice::parse(&text), Some(Notice { state: None, ..n }));
        let fits = "y".repeat(MAX_PAYLOAD - text.len() - 1);
        let text = Notice {
            state: Some(&fits),
            ..n
        }
        .encode();
        assert_eq!(text.len(), MAX_PAYLOAD);
        assert_eq!(Notice::parse(&text).and_then(|n| n.state), Some(&*fits));
    }

    #[test]
    fn foreign_payloads_are_refused() {
        for bad in [
            "", "abc", "zz:1:-:g", "1:x:-:g", "1:1:q:g", "1:1:-:", "1:1:-", "g:1",
        ] {
            assert_eq!(Notice::parse(bad), None, "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn every_notice_reads_back(
            instance in any::<u64>(),
            id in "[A-Za-z0-9:]{1,20}",
            seq in 0i64..i64::MAX,
            self_play in any::<bool>(),
            state in proptest::option::of("\\PC{0,200}"),
        ) {
            let n = Notice { instance, id: &id, seq, self_play, state: state.as_deref() };
            let text = n.encode();
            prop_assert!(text.len() <= MAX_PAYLOAD);
            prop_assert_eq!(Notice::parse(&text), Some(n));
        }

        #[test]
        fn no_payload_makes_it_panic(payload in "\\PC{0,60}") {
            let _ = Notice::parse(&payload);
        }
    }
}
