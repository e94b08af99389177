//! The simulation kernel: virtual time, an event queue ordered by (time, sequence), and
//! seeded random streams, one per component.

pub mod hash;
pub mod queue;
pub mod rng;
pub mod sharded;
pub mod time;

pub use queue::EventQueue;
pub use rng::Rng;
pub use time::Millis;
