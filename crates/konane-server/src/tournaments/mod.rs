//! Tournaments: arenas, Swiss events and round robins, created by players or by the site's
//! schedule, paired and ended by the director that every instance runs. The arithmetic of
//! pairing and standings is `konane-tournament`'s; here is what the site makes of it.

pub mod director;
pub mod errors;
pub mod every;
pub mod model;
pub mod request;
pub mod schedule;
pub mod standings;
pub mod watch;
