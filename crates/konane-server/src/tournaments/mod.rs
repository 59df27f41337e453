//! Tournaments: arenas, Swiss events and round robins, created by players or by the site's
//! schedule, and the site's correspondence leagues, paired and ended by the director that
//! every instance runs. The arithmetic of
//! pairing and standings is `konane-tournament`'s; here is what the site makes of it.

pub mod calendar;
pub mod director;
pub mod errors;
pub mod every;
pub mod league;
pub mod model;
pub mod request;
pub mod schedule;
pub mod seasons;
pub mod standings;
pub mod watch;
