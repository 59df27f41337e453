//! Standings on a hand-worked example.

use konane_tournament::{Bye, Color, Played, Standing, standings};

fn game(round: u32, black: usize, white: usize, winner: Option<Color>) -> Played {
    Played {
        round,
        black,
        white,
        winner,
    }
}

#[test]
fn points_buchholz_sonneborn_berger_worked_by_hand() {
    use Color::{Black, White};
    // Players 0-3 play a round robin; 4 and 5 only sit out, and 4's game with 2 is not over.
    let played = [
        game(1, 0, 3, Some(Black)), // 0 beats 3
        game(1, 2, 1, Some(White)), // 1 beats 2
        game(2, 0, 2, Some(Black)), // 0 beats 2
        game(2, 1, 3, Some(White)), // 3 beats 1
        game(3, 1, 0, Some(Black)), // 1 beats 0
        game(3, 3, 2, Some(White)), // 2 beats 3
        game(4, 4, 2, None),
    ];
    let byes = [
        Bye {
            round: 1,
            player: 4,
        },
        Bye {
            round: 2,
            player: 5,
        },
    ];
    // Points: 0 and 1 two each, 2 and 3 one each, 4 and 5 one (a bye) each.
    // Buchholz: 0 met 3, 2, 1 = 1 + 1 + 2 = 4; 1 met 2, 3, 0 = 4; 2 met 1, 0, 3 = 5;
    // 3 met 0, 1, 2 = 5; the byes add nothing.
    // Sonneborn-Berger: 0 beat 3 and 2 = 2; 1 beat 2 and 0 = 3; 2 beat 3 = 1; 3 beat 1 = 2.
    let line = |player, rank, points, games, wins, buchholz, sonneborn_berger| Standing {
        player,
        rank,
        points,
        games,
        wins,
        buchholz,
        sonneborn_berger,
    };
    let expected = vec![
        line(1, 1, 2, 3, 2, 4, 3),
        line(0, 2, 2, 3, 2, 4, 2),
        line(3, 3, 1, 3, 1, 5, 2),
        line(2, 4, 1, 3, 1, 5, 1),
        line(4, 5, 1, 0, 0, 0, 0),
        line(5, 6, 1, 0, 0, 0, 0),
    ];
    assert_eq!(standings(6, &played, &byes), expected);
}

#[test]
fn players_outside_the_field_count_for_nothing() {
    let played = [
        game(1, 0, 7, Some(Color::Black)),
        game(1, 1, 0, Some(Color::Black)),
    ];
    let byes = [Bye {
        round: 1,
        player: 9,
    }];
    let lines = standings(2, &played, &byes);
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[0].player, lines[0].points, lines[0].games),
        (1, 1, 1)
    );
    assert_eq!(
        (lines[1].player, lines[1].points, lines[1].buchholz),
        (0, 0, 1)
    );
    assert_eq!(lines[0].sonneborn_berger, 0);
}
