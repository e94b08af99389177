//! kubeplay-app: the playground page. It holds no simulation logic: it drives
//! `kubeplay-core` and renders its answers.

pub mod components;
pub mod panic;
pub mod state;

pub use components::app::App;
