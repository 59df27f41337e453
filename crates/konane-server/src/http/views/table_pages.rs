//! A tournament's table cut into pages. The socket sends every page of a tournament its
//! table's first page and, to each player, their own line with its neighbours: the whole
//! table of a large arena, sent to all its players after every change, is what a server
//! could not keep up with. `GET /api/tournaments/{id}?page=N` reads any page.

use crate::tournaments::errors::TournamentError;

/// Lines a page of the table holds.
pub const STANDINGS_PAGE: usize = 25;
/// Lines shown on either side of a player's own.
const NEIGHBOURS: usize = 2;

/// How many pages a table of `lines` lines has: at least one, empty when nobody plays.
pub fn pages(lines: usize) -> usize {
    lines.div_ceil(STANDINGS_PAGE).max(1)
}

/// Page `page` (from 1) of `table`; refused when there is no such page.
pub fn page_of<T>(table: &[T], page: usize) -> Result<&[T], TournamentError> {
    let last = pages(table.len());
    if page == 0 || page > last {
        return Err(TournamentError::bad(
            "page",
            format!("a page from 1 to {last} of the standings"),
        ));
    }
    let from = (page - 1) * STANDINGS_PAGE;
    Ok(&table[from..(from + STANDINGS_PAGE).min(table.len())])
}

/// The page asked for by a query's `page` value (a whole number from 1).
pub fn page_number(value: &str) -> Result<usize, TournamentError> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| TournamentError::bad("page", "a whole number from 1"))
}

/// The first line that is `mine` with up to [`NEIGHBOURS`] on either side, in the
/// table's order; none when no line is.
pub fn around<T>(table: &[T], mine: impl Fn(&T) -> bool) -> Option<&[T]> {
    let at = table.iter().position(mine)?;
    let from = at.saturating_sub(NEIGHBOURS);
    let to = (at + NEIGHBOURS + 1).min(table.len());
    Some(&table[from..to])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of `n` lines, each its rank.
    fn table(n: u32) -> Vec<u32> {
        (1..=n).collect()
    }

    #[test]
    fn pages_cover_the_table_and_no_more() {
        let t = table(2 * STANDINGS_PAGE as u32 + 3);
        assert_eq!(pages(t.len()), 3);
        assert_eq!(pages(0), 1);
        assert_eq!(pages(STANDINGS_PAGE), 1);
        assert_eq!(pages(STANDINGS_PAGE + 1), 2);
        let first = page_of(&t, 1).expect("page 1");
        assert_eq!(first.len(), STANDINGS_PAGE);
        assert_eq!(first[0], 1);
        let last = 2 * STANDINGS_PAGE as u32;
        assert_eq!(
            page_of(&t, 3).expect("page 3"),
            [last + 1, last + 2, last + 3]
        );
        assert!(page_of(&t, 0).is_err());
        assert!(page_of(&t, 4).is_err());
        assert!(
            page_of::<u32>(&[], 1)
                .expect("an empty first page")
                .is_empty()
        );
        assert!(page_of::<u32>(&[], 2).is_err());
    }

    #[test]
    fn a_page_number_is_a_whole_number_from_one() {
        assert_eq!(page_number("2"), Ok(2));
        for bad in ["0", "-1", "", "two", "1.5"] {
            let e = page_number(bad).expect_err(bad);
            assert_eq!(e.field(), Some("page"));
        }
    }

    #[test]
    fn a_players_line_comes_with_its_neighbours() {
        let t = table(10);
        let near = |rank: u32| around(&t, |&l| l == rank).map(<[u32]>::to_vec);
        assert_eq!(near(6), Some(vec![4, 5, 6, 7, 8]));
        assert_eq!(near(1), Some(vec![1, 2, 3]));
        assert_eq!(near(10), Some(vec![8, 9, 10]));
        assert_eq!(near(11), None);
    }
}
