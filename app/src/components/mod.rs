//! One component per file.

pub mod app;
pub mod cluster;
pub mod console;
pub mod controls;
pub mod details;
pub mod editor;
pub mod embed;
pub mod etcd;
pub mod events;
pub mod export;
pub mod flow;
pub mod heat_map;
pub mod markup;
pub mod object_list;
pub mod playback;
pub mod pod;
pub mod scheduler;
pub mod share;
pub mod timeline;
pub mod tour;
pub mod views;
