//! Page state, kept apart from the components that show it.

pub mod run;
pub mod scenario;
