//! Page state, kept apart from the components that show it. Everything but `playground` is
//! plain Rust, tested natively.

pub mod derive;
pub mod draft;
pub mod export;
pub mod flow;
pub mod gallery;
pub mod highlight;
pub mod i18n;
pub mod player;
pub mod playground;
pub mod prefix_view;
pub mod scenario;
pub mod start;
pub mod tour;
