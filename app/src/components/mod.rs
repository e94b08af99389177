//! One component per file.

pub mod app;
pub mod controls;
pub mod editor;
pub mod object_list;
pub mod views;
