//! etcd in miniature: the MVCC key-value store behind kube-apiserver, behaving like etcd v3.
//!
//! # Model
//! - One global `revision`. A fresh store is at revision 1, as a new etcd is. Every write
//!   (a put, a delete that removes something, a transaction with at least one effective write,
//!   a lease revocation that deletes keys) increments it by exactly one; all the changes of one
//!   request share that revision. A delete of a missing key or a transaction that writes nothing
//!   does not bump it.
//! - Per key: `create_revision`, `mod_revision`, `version` (1 on create, +1 per put, reset by a
//!   delete) and `lease` (0 = none). Values are [`Rc<str>`] (JSON text), shared and never copied.
//! - Full history per key, so reads at an older revision see what was there then (an older
//!   version is held as its difference from the next one, see `history.rs`), until
//!   [`Etcd::compact`] drops it: reading below the compacted revision is
//!   [`EtcdError::Compacted`], above the current one [`EtcdError::FutureRev`].
//! - Watches ([`Etcd::watch`]) replay the stored history from their start revision, then every
//!   later change, each exactly once and in revision order. Delivery is pull-based and
//!   deterministic: [`Etcd::pending_watches`] lists (in creation order) the watches with events
//!   waiting, [`Etcd::take_events`] drains one.
//! - Leases ([`Etcd::lease_grant`]) with a TTL in seconds against the caller's virtual clock in
//!   milliseconds; [`Etcd::expire_leases`] revokes the expired ones and deletes their keys, one
//!   revision per lease.
//! - Requests larger than etcd's default `--max-request-bytes` (1.5 MiB) are refused with
//!   [`EtcdError::RequestTooLarge`].
//!
//! # API at a glance
//! - reads: [`Etcd::get`], [`Etcd::range_prefix`], [`Etcd::range`] (etcd's `[key, range_end)`),
//!   [`Etcd::history`] (every stored version of one key), [`Etcd::changes`] (the stored events
//!   from a revision, read-only), [`Etcd::keys_changed`] (the keys written between two
//!   revisions);
//! - writes: [`Etcd::put`], [`Etcd::delete`], [`Etcd::delete_prefix`], [`Etcd::txn`] with
//!   [`Compare`]s and [`Op`]s;
//! - watches: [`Etcd::watch`], [`Etcd::cancel_watch`], [`Etcd::take_events`],
//!   [`Etcd::pending_watches`];
//! - leases: [`Etcd::lease_grant`], [`Etcd::lease_revoke`], [`Etcd::lease_keepalive`],
//!   [`Etcd::lease_time_to_live`], [`Etcd::lease_leases`], [`Etcd::expire_leases`];
//! - maintenance: [`Etcd::compact`], [`Etcd::revision`], [`Etcd::compact_revision`],
//!   [`Etcd::db_size`], [`Etcd::db_size_in_use`], [`Etcd::key_count`], [`Etcd::raft_index`].
//!
//! Everything is ordered (`BTreeMap`, `Vec`); nothing depends on the OS, the clock or randomness.

mod code;
mod history;
mod lease;
mod store;
mod watch;

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

pub use lease::LeaseTimeToLive;
pub use watch::{EventKind, WatchEvent, WatchId};

/// etcd's default `--max-request-bytes`: 1.5 MiB.
pub const MAX_REQUEST_BYTES: usize = 1_572_864;
/// The cluster id of a single-member etcd started with default flags.
pub const CLUSTER_ID: u64 = 0xcdf8_1819_4e3a_8c32;
/// The member id of a single-member etcd started with default flags (`8e9e05c52164694d`).
pub const MEMBER_ID: u64 = 0x8e9e_05c5_2164_694d;
/// The raft term of a single member that elected itself once.
pub const RAFT_TERM: u64 = 2;
/// The etcd server version this store imitates.
pub const SERVER_VERSION: &str = "3.6.5";
/// The storage (db file) version of that server.
pub const STORAGE_VERSION: &str = "3.6.0";
/// etcd's minimum lease TTL with default flags (1.5 election timeouts, rounded up), in seconds.
pub const MIN_LEASE_TTL: i64 = 2;

/// One key at one revision, as etcd's `mvccpb.KeyValue`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue {
    pub key: String,
    pub value: Rc<str>,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
    pub lease: i64,
}

/// The errors etcd returns; `Display` is the text etcd's client shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EtcdError {
    /// `etcdserver: mvcc: required revision has been compacted`
    Compacted,
    /// `etcdserver: mvcc: required revision is a future revision`
    FutureRev,
    /// `etcdserver: request is too large`
    RequestTooLarge,
    /// `etcdserver: requested lease not found`
    LeaseNotFound,
    /// `etcdserver: duplicate key given in txn request`
    DuplicateKey,
    /// `etcdserver: key is not provided`
    EmptyKey,
}

impl fmt::Display for EtcdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EtcdError::Compacted => "etcdserver: mvcc: required revision has been compacted",
            EtcdError::FutureRev => "etcdserver: mvcc: required revision is a future revision",
            EtcdError::RequestTooLarge => "etcdserver: request is too large",
            EtcdError::LeaseNotFound => "etcdserver: requested lease not found",
            EtcdError::DuplicateKey => "etcdserver: duplicate key given in txn request",
            EtcdError::EmptyKey => "etcdserver: key is not provided",
        })
    }
}

impl std::error::Error for EtcdError {}

/// The answer to a range read: `kvs` in key order (at most `limit` of them), `count` of all the
/// keys in the range, `more` when `limit` cut the list, and the store's revision.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeResponse {
    pub kvs: Vec<KeyValue>,
    pub count: usize,
    pub more: bool,
    pub revision: i64,
}

/// The answer to a put: the revision after it and the value it replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PutResponse {
    pub revision: i64,
    pub prev_kv: Option<KeyValue>,
}

/// The answer to a single-key delete: the revision after it and what was deleted, if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeleteResponse {
    pub revision: i64,
    pub prev_kv: Option<KeyValue>,
}

/// The answer to a range delete: the revision after it, how many keys went, and what they held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeleteRangeResponse {
    pub revision: i64,
    pub deleted: usize,
    pub prev_kvs: Vec<KeyValue>,
}

/// How a [`Compare`] relates the key's field to the given number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareResult {
    Equal,
    NotEqual,
    Greater,
    Less,
}

/// What a [`Compare`] looks at. A missing key has zero revisions, version and lease; comparing
/// the value of a missing key always fails, as in etcd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompareTarget {
    ModRevision(i64),
    CreateRevision(i64),
    Version(i64),
    Lease(i64),
    Value(Rc<str>),
}

/// One condition of a transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compare {
    pub key: String,
    pub result: CompareResult,
    pub target: CompareTarget,
}

impl Compare {
    /// `mod_revision(key) <result> rev`; `mod_revision(key, Equal, 0)` means "key does not exist".
    pub fn mod_revision(key: impl Into<String>, result: CompareResult, rev: i64) -> Self {
        Compare {
            key: key.into(),
            result,
            target: CompareTarget::ModRevision(rev),
        }
    }
    /// `create_revision(key) <result> rev`.
    pub fn create_revision(key: impl Into<String>, result: CompareResult, rev: i64) -> Self {
        Compare {
            key: key.into(),
            result,
            target: CompareTarget::CreateRevision(rev),
        }
    }
    /// `version(key) <result> version`.
    pub fn version(key: impl Into<String>, result: CompareResult, version: i64) -> Self {
        Compare {
            key: key.into(),
            result,
            target: CompareTarget::Version(version),
        }
    }
    /// `lease(key) <result> lease`.
    pub fn lease(key: impl Into<String>, result: CompareResult, lease: i64) -> Self {
        Compare {
            key: key.into(),
            result,
            target: CompareTarget::Lease(lease),
        }
    }
    /// `value(key) <result> value` (byte-wise order).
    pub fn value(key: impl Into<String>, result: CompareResult, value: Rc<str>) -> Self {
        Compare {
            key: key.into(),
            result,
            target: CompareTarget::Value(value),
        }
    }
}

/// One operation of a transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Read one key (at the transaction's state, earlier writes of the same branch included).
    Get(String),
    /// Read every key under a prefix.
    GetPrefix(String),
    /// Write a key, attached to `lease` (0 = none).
    Put {
        key: String,
        value: Rc<str>,
        lease: i64,
    },
    /// Delete one key.
    Delete(String),
}

impl Op {
    /// A put without a lease.
    pub fn put(key: impl Into<String>, value: Rc<str>) -> Self {
        Op::Put {
            key: key.into(),
            value,
            lease: 0,
        }
    }
}

/// A transaction: if every compare holds, `success` runs, otherwise `failure`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Txn {
    pub compare: Vec<Compare>,
    pub success: Vec<Op>,
    pub failure: Vec<Op>,
}

/// The result of one [`Op`] of a transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpResponse {
    Get(RangeResponse),
    Put(PutResponse),
    Delete(DeleteResponse),
}

/// The answer to a transaction: which branch ran, the revision after it, one response per op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnResponse {
    pub succeeded: bool,
    pub revision: i64,
    pub responses: Vec<OpResponse>,
}

/// One stored version of a key; `value == None` is the tombstone a delete leaves.
#[derive(Clone, Debug)]
struct Rev {
    mod_revision: i64,
    create_revision: i64,
    version: i64,
    lease: i64,
    value: Option<history::Stored>,
}

/// The store. See the module documentation.
#[derive(Clone, Debug)]
pub struct Etcd {
    revision: i64,
    compact_revision: i64,
    /// Every key with its stored versions, oldest first.
    keys: BTreeMap<Rc<str>, Vec<Rev>>,
    live_keys: usize,
    /// Every change since the compacted revision, in revision order (for watches): the revision
    /// and the key; the event itself is rebuilt from the key's stored versions.
    events: Vec<(i64, Rc<str>)>,
    watchers: BTreeMap<WatchId, watch::Watcher>,
    /// How many events wait in all watches together, so a reader can tell there are none
    /// without looking at each watch.
    events_waiting: usize,
    next_watch_id: i64,
    leases: BTreeMap<i64, lease::Lease>,
    lease_seq: u64,
    raft_index: u64,
    /// Approximate bytes of every stored version.
    bytes_held: u64,
    /// The backend file size: the high-water mark of the bytes in use (it only shrinks on defrag).
    db_size: u64,
    empty: Rc<str>,
    /// The texts new keys are coded against (see `history.rs`).
    references: history::References,
    /// Scratch space for coding a superseded version, kept across writes.
    scratch: code::Table,
    /// Key prefixes whose latest values a reader keeps (decoded, by the text's identity):
    /// their new keys are kept whole.
    held_prefixes: Vec<String>,
}

impl Default for Etcd {
    fn default() -> Self {
        Self::new()
    }
}

/// The pages of a freshly created bolt database in use, and its file size.
const DB_BASE_IN_USE: u64 = 16_384;
const DB_BASE_SIZE: u64 = 20_480;
const DB_PAGE: u64 = 4096;
/// Bookkeeping bytes per stored version (bolt key with its revision, index entry).
const REV_OVERHEAD: u64 = 48;

impl Etcd {
    /// A fresh store: revision 1, nothing stored, raft index 4 (what a new single member has
    /// applied after its bootstrap entries).
    pub fn new() -> Self {
        Etcd {
            revision: 1,
            compact_revision: 0,
            keys: BTreeMap::new(),
            live_keys: 0,
            events: Vec::new(),
            watchers: BTreeMap::new(),
            events_waiting: 0,
            next_watch_id: 0,
            leases: BTreeMap::new(),
            lease_seq: 0,
            raft_index: 4,
            bytes_held: 0,
            db_size: DB_BASE_SIZE,
            empty: Rc::from(""),
            references: Default::default(),
            scratch: Default::default(),
            held_prefixes: Vec::new(),
        }
    }

    /// Keeps the first versions of new keys under `prefix` whole, as every latest version is
    /// (see `history.rs`): a reader holds them and knows them by their text's identity.
    pub fn hold_latest(&mut self, prefix: &str) {
        if !self.held_prefixes.iter().any(|p| p == prefix) {
            self.held_prefixes.push(prefix.to_string());
        }
    }

    /// The current revision.
    pub fn revision(&self) -> i64 {
        self.revision
    }

    /// The revision of the last compaction (0 before any).
    pub fn compact_revision(&self) -> i64 {
        self.compact_revision
    }

    /// How many keys exist now.
    pub fn key_count(&self) -> usize {
        self.live_keys
    }

    /// The raft index: one entry per write request (also those that change nothing, lease
    /// grants and revocations, compactions), after the 4 entries of a new member's bootstrap.
    /// A single member has applied everything it committed, so this is also the applied index.
    pub fn raft_index(&self) -> u64 {
        self.raft_index
    }

    /// The backend database's size in bytes (approximate; like bolt's file, it never shrinks).
    pub fn db_size(&self) -> u64 {
        self.db_size
    }

    /// The bytes of the database logically in use (approximate; shrinks after compaction).
    pub fn db_size_in_use(&self) -> u64 {
        DB_BASE_IN_USE + self.bytes_held.div_ceil(DB_PAGE) * DB_PAGE
    }

    fn rev_bytes(key: &str, value_len: usize) -> u64 {
        (key.len() + value_len) as u64 + REV_OVERHEAD
    }

    fn note_size(&mut self) {
        let in_use = self.db_size_in_use() + DB_PAGE;
        if in_use > self.db_size {
            self.db_size = in_use;
        }
    }
}
