//! Many keys (clients, IPs, API tokens), each with its own limiter state.

use alloc::collections::BTreeMap;
use alloc::string::String;

use crate::decision::Decision;
use crate::error::CheckError;
use crate::params::check_time;
use crate::Limiter;

/// A limiter per key, all built from one prototype.
///
/// Memory: a key costs one limiter state. [`Keyed::evict_at_rest`] drops every key
/// whose limiter is *at rest* (indistinguishable from a new one for every future
/// decision, e.g. a full bucket or an expired window), which never changes a
/// decision; a server calls it now and then, and memory stays proportional to the
/// keys active within about one period. (The simulator does not evict: it keeps
/// idle keys so that scrubbing back shows their state exactly as it was.)
#[derive(Clone, Debug)]
pub struct Keyed<L> {
    prototype: L,
    keys: BTreeMap<String, L>,
    last: u64,
}

impl<L: Limiter + Clone> Keyed<L> {
    /// Every key starts as a copy of `prototype` (which should be fresh).
    pub fn new(prototype: L) -> Keyed<L> {
        Keyed {
            prototype,
            keys: BTreeMap::new(),
            last: 0,
        }
    }

    /// Checks a request from `key`. Time must not go backwards across keys either.
    pub fn check(&mut self, key: &str, now: u64, cost: u32) -> Result<Decision, CheckError> {
        check_time(self.last, now)?;
        let d = match self.keys.get_mut(key) {
            Some(l) => l.check(now, cost)?,
            None => {
                let mut l = self.prototype.clone();
                let d = l.check(now, cost)?;
                self.keys.insert(key.into(), l);
                d
            }
        };
        self.last = now;
        Ok(d)
    }

    /// What `key` would be told at `now`, without changing anything.
    pub fn peek(&self, key: &str, now: u64, cost: u32) -> Result<Decision, CheckError> {
        check_time(self.last, now)?;
        self.keys
            .get(key)
            .unwrap_or(&self.prototype)
            .peek(now, cost)
    }

    /// The state of `key` (a fresh limiter if the key is unknown or was evicted).
    pub fn get(&self, key: &str) -> &L {
        self.keys.get(key).unwrap_or(&self.prototype)
    }

    /// Drops every key at rest at `now`; returns how many were dropped.
    pub fn evict_at_rest(&mut self, now: u64) -> usize {
        let before = self.keys.len();
        self.keys.retain(|_, l| !l.is_at_rest(now));
        before - self.keys.len()
    }

    /// Keys currently stored.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// No key stored.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The stored keys and their limiters, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &L)> {
        self.keys.iter().map(|(k, l)| (k.as_str(), l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rate, TokenBucket};

    #[test]
    fn keys_are_independent_and_idle_ones_go() {
        let tb = TokenBucket::new(Rate::new(1, 1000).unwrap(), 1).unwrap();
        let mut k = Keyed::new(tb);
        assert!(k.check("a", 0, 1).unwrap().allowed());
        assert!(!k.check("a", 10, 1).unwrap().allowed());
        assert!(k.check("b", 10, 1).unwrap().allowed());
        assert_eq!(k.len(), 2);
        assert_eq!(k.evict_at_rest(500), 0);
        assert_eq!(k.evict_at_rest(1010), 2);
        assert!(k.is_empty());
        assert!(matches!(
            k.check("a", 5, 1),
            Err(CheckError::TimeWentBackwards { .. })
        ));
    }
}
