//! The few calendar sums the schedule needs (UTC, proleptic Gregorian): the first day of
//! a month. Days are counted from 1 January 1970, as Unix time counts them.

const DAY_MS: i64 = 86_400_000;

/// The day number of `year`-`month`-`day` (month 1-12).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    // Years from March, so that the leap day is the last of its year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The year and month (1-12) of day number `days`.
fn civil_month(days: i64) -> (i64, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month)
}

/// The first instant at or after `now` (Unix ms) that is the first day of a month at
/// `time_of_day` (ms after midnight UTC).
pub fn first_of_month_at(now: i64, time_of_day: i64) -> i64 {
    let (mut year, mut month) = civil_month(now.div_euclid(DAY_MS));
    loop {
        let at = days_from_civil(year, month, 1) * DAY_MS + time_of_day;
        if at >= now {
            return at;
        }
        (year, month) = if month == 12 {
            (year + 1, 1)
        } else {
            (year, month + 1)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_numbers_match_known_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(2026, 12, 7), 20_794);
        assert_eq!(civil_month(20_794), (2026, 12));
        assert_eq!(civil_month(11_016), (2000, 2), "29 February 2000");
        assert_eq!(civil_month(-1), (1969, 12));
        for days in (-1000..30_000).step_by(7) {
            let (y, m) = civil_month(days);
            let first = days_from_civil(y, m, 1);
            assert!(first <= days && days - first < 31, "day {days}");
        }
    }

    #[test]
    fn the_first_of_the_next_month_at_its_hour() {
        // Monday 7 December 2026, 15:37 UTC → 1 January 2027, 12:00.
        let now = 1_796_657_820_000;
        let noon = 12 * 3_600_000;
        let next = first_of_month_at(now, noon);
        assert_eq!(next, (days_from_civil(2027, 1, 1)) * DAY_MS + noon);
        assert_eq!(first_of_month_at(next, noon), next, "its own next start");
        assert_eq!(
            first_of_month_at(next + 1, noon),
            days_from_civil(2027, 2, 1) * DAY_MS + noon
        );
        // On the first of a month before the hour: the same day.
        let morning = days_from_civil(2027, 3, 1) * DAY_MS + 3_600_000;
        assert_eq!(
            first_of_month_at(morning, noon),
            days_from_civil(2027, 3, 1) * DAY_MS + noon
        );
    }
}
