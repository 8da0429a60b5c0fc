//! Requests and streams: what every scenario produces and every runner consumes.

use crate::error::SimError;

/// The most requests one stream may hold (JSON input and generated scenarios alike).
///
/// Two million is about what a browser tab can hold comfortably together with the
/// per-lane results (lab D's whole sweep is larger, but it is never materialised).
pub const MAX_REQUESTS: usize = 2_000_000;

/// The largest time accepted from JSON: 2^53 − 1 ms, the largest integer JavaScript
/// and every JSON reader agree on.
pub const MAX_TIME_MS: u64 = (1 << 53) - 1;

/// The longest limiter id and request key accepted.
pub const MAX_LABEL_CHARS: usize = 64;

/// One request: when it arrives, from whom, and how much it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Request {
    /// Arrival time in ms on the virtual clock.
    pub t: u64,
    /// Index into the stream's key table ([`Stream::keys`]); key 0 is `""` unless the
    /// stream says otherwise.
    pub key: u32,
    /// Cost (≥ 1): a request of cost c counts as c requests everywhere.
    pub cost: u32,
}

impl Request {
    /// A request of cost 1 from key 0 at `t`.
    pub const fn at(t: u64) -> Request {
        Request { t, key: 0, cost: 1 }
    }

    /// A request of cost 1 from `key` at `t`.
    pub const fn keyed(t: u64, key: u32) -> Request {
        Request { t, key, cost: 1 }
    }

    /// Checks this request as the `i`th of a stream whose key table has `keys`
    /// names and whose request before it came at `previous`: not before it, its
    /// key in the table, its cost ≥ 1 ([`Stream::validate`] checks each request
    /// with this; so does a reader that gets a stream a part at a time).
    pub fn check(&self, i: usize, previous: Option<u64>, keys: usize) -> Result<(), SimError> {
        if let Some(p) = previous.filter(|&p| self.t < p) {
            return Err(SimError::at(
                &format!("requests[{i}].t"),
                format_args!(
                    "{} comes before requests[{}].t = {p} (requests must be sorted by time)",
                    self.t,
                    i.wrapping_sub(1)
                ),
            ));
        }
        if self.key as usize >= keys {
            return Err(SimError::at(
                &format!("requests[{i}].key"),
                format_args!(
                    "key index {} is not in the key table ({keys} keys)",
                    self.key
                ),
            ));
        }
        if self.cost == 0 {
            return Err(SimError::at(&format!("requests[{i}].cost"), "must be > 0"));
        }
        Ok(())
    }
}

/// A stream: requests sorted by time (equal times allowed) and the key table their
/// `key` fields index.
///
/// The fields are public so that streams can be built and inspected freely;
/// [`Stream::validate`] checks the invariants, and every runner calls it first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    /// The requests, sorted by `t`.
    pub requests: Vec<Request>,
    /// Key names; a request's `key` is an index into this table.
    pub keys: Vec<String>,
}

impl Default for Stream {
    fn default() -> Stream {
        Stream::new()
    }
}

impl Stream {
    /// An empty stream whose key table is `[""]` (one anonymous client).
    pub fn new() -> Stream {
        Stream {
            requests: Vec::new(),
            keys: vec![String::new()],
        }
    }

    /// Requests of cost 1 from key `""` at the given times (which must be sorted).
    pub fn from_times(times: impl IntoIterator<Item = u64>) -> Stream {
        Stream {
            requests: times.into_iter().map(Request::at).collect(),
            keys: vec![String::new()],
        }
    }

    /// How many requests.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// No requests.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// The name of key `key`, if the table has it.
    pub fn key_name(&self, key: u32) -> Option<&str> {
        self.keys.get(key as usize).map(String::as_str)
    }

    /// The arrival times, in order.
    pub fn times(&self) -> impl Iterator<Item = u64> + '_ {
        self.requests.iter().map(|r| r.t)
    }

    /// Checks the invariants: at most [`MAX_REQUESTS`], sorted by time, every key in
    /// the table, every cost ≥ 1. Errors name the request as the JSON format does.
    pub fn validate(&self) -> Result<(), SimError> {
        if self.requests.len() > MAX_REQUESTS {
            return Err(SimError::at(
                "requests",
                format_args!(
                    "{} requests is too many (at most {MAX_REQUESTS})",
                    self.requests.len()
                ),
            ));
        }
        let mut previous: Option<u64> = None;
        for (i, r) in self.requests.iter().enumerate() {
            r.check(i, previous, self.keys.len())?;
            previous = Some(r.t);
        }
        Ok(())
    }
}
