//! The Kubernetes API surface shared by every component: resource discovery, request and
//! response shapes, errors, and helpers to read object metadata from JSON objects.

pub mod error;
pub mod json;
pub mod meta;
pub mod quantity;
pub mod resources;
pub mod selector;
pub mod sorting;
pub mod value;

pub use error::{ApiError, FieldError, FieldErrorType};
pub use resources::{ResourceInfo, RESOURCES};

/// Objects travel and are stored as JSON, exactly as on the wire. Keys are sorted, which is
/// also the order `kubectl get -o yaml|json` prints them in.
pub type Object = crate::api::value::Value;
