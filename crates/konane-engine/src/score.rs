//! Scores: centi-moves for heuristic values, and won or lost in a known number of plies.

/// The score of a win on the spot; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Above every score.
pub const INFINITY: i32 = 32_000;
/// Scores beyond this (in either sign) are proven results.
const PROVEN: i32 = WIN - 1_000;

/// True when the score is a proven win or loss.
pub fn is_proven(score: i32) -> bool {
    score.abs() > PROVEN
}

/// Plies to the end of the game, for a proven score.
pub fn plies_to_end(score: i32) -> Option<i32> {
    is_proven(score).then(|| WIN - score.abs())
}

/// A score as people read it: `+1.25` (moves ahead), `win in 7 moves` or `loss in 3 moves`.
pub fn describe(score: i32) -> String {
    match plies_to_end(score) {
        Some(plies) => {
            // A move here is one of the winner's own moves.
            let moves = (plies + 1) / 2;
            let word = if score > 0 { "win" } else { "loss" };
            let unit = if moves == 1 { "move" } else { "moves" };
            format!("{word} in {moves} {unit}")
        }
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}

/// A score relative to the root, made relative to a node `ply` plies down, for storing.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score + ply as i32
    } else if score < -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score - ply as i32
    } else if score < -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_well() {
        assert_eq!(describe(125), "+1.25");
        assert_eq!(describe(-40), "-0.40");
        assert_eq!(describe(WIN - 1), "win in 1 move");
        assert_eq!(describe(WIN - 13), "win in 7 moves");
        assert_eq!(describe(-(WIN - 6)), "loss in 3 moves");
        assert_eq!(from_table(to_table(WIN - 9, 4), 4), WIN - 9);
        assert_eq!(to_table(WIN - 9, 4), WIN - 5);
    }
}
