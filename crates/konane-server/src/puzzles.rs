//! Puzzles (`/api/puzzles`, docs/api.md; routes in `http::puzzles`, statements in
//! `store::puzzles`): the shipped set, loaded into the database on first
//! start, chosen near the player's rating, and checked move by move here, so the page never
//! holds a solution before the player has moved. A visitor's rating lives in the browser and
//! comes with each rated attempt; a logged-in player's is stored here (`puzzle_ratings`).

use std::collections::HashMap;
use std::sync::OnceLock;

use konane_core::AnyPosition;
use konane_engine::puzzle::Puzzle;

use crate::error::ApiError;
use crate::games::game::GameError;
use crate::players::glicko::Rating;
use crate::players::ratings::Standing;
use crate::store::accounts::Account;
use crate::store::{Store, StoreError};

/// The shipped set; docs/puzzles.md describes it and how it was proven.
const SET: &str = include_str!("../../../data/puzzles.txt");

/// Puzzles considered when choosing one near a rating.
pub const NEAREST: i64 = 24;

/// Times a logged-in player's rated attempt is tried again when the puzzle's rating moved
/// under it (other players' attempts at the same moment).
const RATING_TRIES: usize = 8;

/// The rating a streak of `n` solved puzzles asks for: each one a little harder.
pub fn streak_rating(n: u32) -> f64 {
    1000.0 + 100.0 * f64::from(n)
}

/// The shipped puzzles, read once.
pub struct Book {
    /// The puzzles, in the file's order.
    pub puzzles: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
}

/// The shipped set, parsed on first use.
pub fn book() -> Result<&'static Book, ApiError> {
    static BOOK: OnceLock<Result<Book, String>> = OnceLock::new();
    BOOK.get_or_init(|| {
        let puzzles = Puzzle::parse_set(SET).map_err(|e| format!("data/puzzles.txt: {e}"))?;
        let by_id = puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.to_string(), i))
            .collect();
        Ok(Book { puzzles, by_id })
    })
    .as_ref()
    .map_err(|e| ApiError::Internal(e.clone()))
}

impl Book {
    /// A puzzle by id, or 404.
    pub fn get(&self, id: &str) -> Result<&Puzzle, ApiError> {
        self.by_id
            .get(id)
            .map(|&i| &self.puzzles[i])
            .ok_or_else(|| ApiError::NotFound(id.to_string()))
    }
}

/// Writes every shipped puzzle the database does not hold yet; existing ratings stay.
pub async fn load_set(store: &Store) -> Result<usize, StoreError> {
    let Ok(book) = book() else {
        return Ok(0);
    };
    store.load_puzzles(&book.puzzles).await
}

/// A puzzle's rating now, or 404.
pub async fn rating_of(store: &Store, id: &str) -> Result<Rating, ApiError> {
    store
        .puzzle_rating(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(id.to_string()))
}

/// A logged-in player's answer: with `version` (a rated attempt that has just ended) both
/// ratings move in one transaction, if the account's rating is still at `version` and the
/// puzzle was never rated for it; otherwise nothing changes. The account's standing and the
/// puzzle's rating after it.
pub async fn rate_account(
    store: &Store,
    account: &Account,
    id: &str,
    version: Option<i64>,
    solved: bool,
) -> Result<(Standing, Rating), ApiError> {
    let Some(version) = version else {
        return Ok((
            store.puzzle_standing(&account.id).await?,
            rating_of(store, id).await?,
        ));
    };
    for _ in 0..RATING_TRIES {
        if let Some(done) = store
            .try_rate_puzzle(&account.id, id, version, solved)
            .await?
        {
            return Ok(done);
        }
    }
    Err(ApiError::Internal(format!(
        "puzzle {id}: its rating kept changing while an attempt was stored"
    )))
}

/// The puzzle of a UTC date (`YYYY.MM.DD`): the same for everyone that day.
pub fn daily_index(date: &str, count: usize) -> usize {
    let hash = date.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (hash % count.max(1) as u64) as usize
}

/// A judged move.
#[derive(Debug)]
pub struct Judged {
    /// The move was the line's.
    pub correct: bool,
    /// The line is complete.
    pub solved: bool,
    /// The opponent's answer.
    pub reply: Option<konane_core::Move>,
    /// The position after the player's move, where the reply is played.
    pub after: AnyPosition,
    /// The position after the reply.
    pub shown: AnyPosition,
    /// The rest of the line, after a wrong move.
    pub solution: Option<Vec<String>>,
}

impl Judged {
    /// Whether the attempt is over: solved, or failed.
    pub fn ended(&self) -> bool {
        self.solved || !self.correct
    }
}

/// Judges the last of `moves` (all from the puzzle's position); everything before it must be
/// the line as the server gave it. Pure, so the tests can drive it without a server.
pub fn judge(p: &Puzzle, moves: &[String]) -> Result<Judged, ApiError> {
    if moves.len().is_multiple_of(2) || moves.len() > p.line.len() {
        return Err(ApiError::BadRequest(format!(
            "{} moves: send the moves so far, ending with yours",
            moves.len()
        )));
    }
    let step = moves.len() / 2;
    let mut pos = p.position;
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .size()
            .parse_move(text)
            .map_err(|e| ApiError::Game(GameError::BadMove(e)))?;
        if i + 1 < moves.len() && m != p.line[i] {
            return Err(ApiError::NotInLine(i + 1));
        }
        pos.play(m)
            .map_err(|e| ApiError::Game(GameError::Illegal(e)))?;
        if i + 1 == moves.len() {
            let after = pos;
            let correct = m == p.line[i];
            let solved = correct && i + 1 == p.line.len();
            let reply = if correct {
                p.line.get(i + 1).copied()
            } else {
                p.refutations[step]
                    .iter()
                    .find(|&&(w, _)| w == m)
                    .map(|&(_, a)| a)
            };
            if let Some(r) = reply {
                pos.play(r).map_err(|e| ApiError::Internal(e.to_string()))?;
            }
            let solution = (!correct).then(|| {
                p.line[i..]
                    .iter()
                    .map(|&m| p.position.size().move_text(m).to_string())
                    .collect()
            });
            return Ok(Judged {
                correct,
                solved,
                reply,
                after,
                shown: pos,
                solution,
            });
        }
    }
    Err(ApiError::BadRequest("no move".into()))
}
