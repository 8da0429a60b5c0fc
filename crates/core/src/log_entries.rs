//! The sliding log's storage: its entries, oldest first, in 8 bytes each.
//!
//! A log over a window of W ms only ever holds times inside `(now − W, now]`, so for
//! any window up to 2^30 ms (about 12 days) every entry is stored as a 31-bit offset
//! from a base time, with the `allowed` flag in the 32nd bit, next to its 32-bit
//! count: half of a plain `(u64, u32, bool)` entry, which is what keeps 300 clients'
//! logs in the L2 cache. When a new time no longer fits, the base moves up to the
//! oldest entry (the offsets of one window span less than 2^30, so there is always
//! room for at least 2^30 ms more; a move costs one pass over the log). Longer
//! windows keep 16-byte entries with their absolute times. Both are exact: an offset
//! is an integer number of ms, and `base + offset` is the time.

use alloc::vec::Vec;
use core::fmt;

/// Requests logged at one time: `n` of them (a request of cost c counts c times).
/// Equal times share an entry, so the log never holds more than N entries and a
/// huge cost is one entry, not a huge allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// When, in ms.
    pub t: u64,
    /// How many requests.
    pub n: u32,
    /// Whether they were allowed (only the teaching variant logs denied ones).
    pub allowed: bool,
}

/// The longest window whose entries are kept as offsets.
const COMPACT_WINDOW: u64 = 1 << 30;
/// Offsets are below this (31 bits); the top bit of the word is the flag.
const OFFSET_LIMIT: u64 = 1 << 31;
const ALLOWED_BIT: u32 = 1 << 31;

/// An entry as an offset from the log's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    /// Bit 31: allowed; bits 0–30: the time minus the base.
    word: u32,
    n: u32,
}

/// What one storage holds per entry: a time (given the base), a count, a verdict.
trait Slot: Copy {
    fn time(&self, base: u64) -> u64;
    fn count(&mut self) -> &mut u32;
    fn allowed(&self) -> bool;

    #[inline]
    fn n(mut self) -> u32 {
        *self.count()
    }

    /// Adds `n` requests, unless the count would overflow.
    #[inline]
    fn add(&mut self, n: u32) -> Option<()> {
        let c = self.count();
        *c = c.checked_add(n)?;
        Some(())
    }
}

impl Slot for Packed {
    #[inline]
    fn time(&self, base: u64) -> u64 {
        base + (self.word & !ALLOWED_BIT) as u64
    }
    #[inline]
    fn count(&mut self) -> &mut u32 {
        &mut self.n
    }
    #[inline]
    fn allowed(&self) -> bool {
        self.word & ALLOWED_BIT != 0
    }
}

impl Slot for Entry {
    #[inline]
    fn time(&self, _base: u64) -> u64 {
        self.t
    }
    #[inline]
    fn count(&mut self) -> &mut u32 {
        &mut self.n
    }
    #[inline]
    fn allowed(&self) -> bool {
        self.allowed
    }
}

/// The entries whose times are at or before a cutoff, counted from the oldest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Expiry {
    /// How many entries.
    pub entries: usize,
    /// How many requests they hold.
    pub requests: u64,
    /// The time of the oldest entry after them, if there is one.
    pub next: Option<u64>,
}

/// A ring buffer whose capacity is a power of two, so that an index wraps with a
/// mask. (`VecDeque` wraps with a comparison and keeps a general capacity; this is
/// the log's hottest code.) Compares and prints as its items, oldest first.
#[derive(Clone)]
pub(crate) struct Ring<T> {
    /// Empty or a power of two long; items at `head`, `head + 1`, … (wrapping).
    buf: Vec<T>,
    head: usize,
    len: usize,
}

impl<T: Copy> Ring<T> {
    fn new() -> Ring<T> {
        Ring {
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }

    #[inline]
    fn slot(&self, i: usize) -> usize {
        // buf.len() is a power of two whenever there are items.
        (self.head + i) & self.buf.len().wrapping_sub(1)
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&T> {
        if i < self.len {
            self.buf.get(self.slot(i))
        } else {
            None
        }
    }

    #[inline]
    fn back_mut(&mut self) -> Option<&mut T> {
        let i = self.len.checked_sub(1)?;
        let s = self.slot(i);
        self.buf.get_mut(s)
    }

    /// Drops the `count` oldest items (all of them if there are fewer).
    #[inline]
    fn drop_front(&mut self, count: usize) {
        let count = count.min(self.len);
        self.head = self.slot(count);
        self.len -= count;
    }

    #[inline]
    fn push_back(&mut self, v: T) {
        if self.len == self.buf.len() {
            self.grow(v);
        }
        let s = self.slot(self.len);
        if let Some(slot) = self.buf.get_mut(s) {
            *slot = v;
            self.len += 1;
        }
    }

    /// Doubles the capacity (at least 4), items from index 0. `fill` pads it.
    #[cold]
    fn grow(&mut self, fill: T) {
        let cap = (self.buf.len() * 2).max(4);
        let mut buf = Vec::with_capacity(cap);
        buf.extend(self.iter().copied());
        buf.resize(cap, fill);
        self.buf = buf;
        self.head = 0;
    }

    fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len).filter_map(move |i| self.buf.get(self.slot(i)))
    }

    fn for_each_mut(&mut self, mut f: impl FnMut(&mut T)) {
        for i in 0..self.len {
            let s = self.slot(i);
            if let Some(v) = self.buf.get_mut(s) {
                f(v);
            }
        }
    }
}

impl<T: Copy + PartialEq> PartialEq for Ring<T> {
    fn eq(&self, other: &Ring<T>) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<T: Copy + Eq> Eq for Ring<T> {}

impl<T: Copy + fmt::Debug> fmt::Debug for Ring<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The log's entries, oldest first (times never decrease).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Entries {
    /// Offsets from `base` (windows up to 2^30 ms).
    Compact { base: u64, ring: Ring<Packed> },
    /// Absolute times.
    Wide(Ring<Entry>),
}

/// Runs `$body` with `$q` bound to the ring and `$base` to its base time.
macro_rules! with_ring {
    ($entries:expr, |$q:ident, $base:ident| $body:expr) => {
        match $entries {
            Entries::Compact { base, ring: $q } => {
                let $base = *base;
                $body
            }
            Entries::Wide($q) => {
                let $base = 0u64;
                $body
            }
        }
    };
}

/// How many of the oldest entries [`expired_in`] counts without a branch.
const AHEAD: usize = 3;

#[inline]
fn expired_in<S: Slot>(q: &Ring<S>, base: u64, cutoff: u64) -> Expiry {
    // Times never decrease, so the expired entries are a prefix. How long it is
    // varies from request to request (none after a burst, several after a pause), so
    // a loop that stops at the first live entry mispredicts its exit about once per
    // request; instead the first few entries are counted with comparisons only, and
    // a loop runs on only when all of them have expired.
    let mut entries = 0;
    let mut requests = 0;
    for i in 0..AHEAD {
        let (t, n) = q.get(i).map_or((u64::MAX, 0), |e| (e.time(base), e.n()));
        let expired = t <= cutoff;
        entries += expired as usize;
        requests += if expired { n as u64 } else { 0 };
    }
    if entries == AHEAD {
        while let Some(e) = q.get(entries) {
            if e.time(base) > cutoff {
                break;
            }
            entries += 1;
            requests += e.n() as u64;
        }
    }
    Expiry {
        entries,
        requests,
        next: q.get(entries).map(|e| e.time(base)),
    }
}

fn nth_in<S: Slot>(q: &Ring<S>, base: u64, from: usize, k: u64) -> Option<u64> {
    let mut seen = 0;
    for e in q.iter().skip(from) {
        seen += e.n() as u64;
        if k < seen {
            return Some(e.time(base));
        }
    }
    None
}

impl Entries {
    /// Empty storage for a log over `window_ms`.
    pub fn for_window(window_ms: u64) -> Entries {
        if window_ms <= COMPACT_WINDOW {
            Entries::Compact {
                base: 0,
                ring: Ring::new(),
            }
        } else {
            Entries::Wide(Ring::new())
        }
    }

    /// How many entries.
    #[inline]
    pub fn len(&self) -> usize {
        with_ring!(self, |q, _base| q.len())
    }

    /// The entries with times at or before `cutoff` (none when `cutoff` is `None`),
    /// and the time of the first one after them.
    #[inline]
    pub fn expired(&self, cutoff: Option<u64>) -> Expiry {
        with_ring!(self, |q, base| match cutoff {
            Some(c) => expired_in(q, base, c),
            None => Expiry {
                entries: 0,
                requests: 0,
                next: q.get(0).map(|e| e.time(base)),
            },
        })
    }

    /// The time of the entry that holds the `k`-th request (from 0) counted from
    /// entry `from`, if there are that many.
    pub fn nth_request(&self, from: usize, k: u64) -> Option<u64> {
        with_ring!(self, |q, base| nth_in(q, base, from, k))
    }

    /// Drops the `count` oldest entries.
    #[inline]
    pub fn drop_oldest(&mut self, count: usize) {
        with_ring!(self, |q, _base| q.drop_front(count))
    }

    /// Appends `e` (at or after every entry's time), merged into the newest entry
    /// when it has the same time and verdict and the count still fits.
    #[inline]
    pub fn push(&mut self, e: Entry) {
        if let Entries::Compact { base, ring } = self {
            if ring.len() == 0 {
                *base = e.t;
            }
            let mut off = e.t.saturating_sub(*base);
            if off >= OFFSET_LIMIT {
                // Move the base up to the oldest entry. Within one window of at most
                // 2^30 ms this always makes room; if the log holds older entries than
                // that (it never does), keep absolute times instead.
                let oldest = ring.get(0).map_or(e.t, |p| p.time(*base));
                off = e.t - oldest;
                if off >= COMPACT_WINDOW {
                    self.widen();
                    return self.push(e);
                }
                let shift = (oldest - *base) as u32;
                // Every offset is at least `shift` (the oldest entry's); the flag
                // bit is above them all.
                ring.for_each_mut(|p| p.word -= shift);
                *base = oldest;
            }
            let word = off as u32 | if e.allowed { ALLOWED_BIT } else { 0 };
            if let Some(b) = ring.back_mut() {
                if b.word == word && b.add(e.n).is_some() {
                    return;
                }
            }
            ring.push_back(Packed { word, n: e.n });
        } else if let Entries::Wide(q) = self {
            if let Some(b) = q.back_mut() {
                if b.t == e.t && b.allowed == e.allowed && b.add(e.n).is_some() {
                    return;
                }
            }
            q.push_back(e);
        }
    }

    /// Switches to absolute times.
    fn widen(&mut self) {
        if let Entries::Compact { .. } = self {
            let mut wide = Ring::new();
            for e in self.iter() {
                wide.push_back(e);
            }
            *self = Entries::Wide(wide);
        }
    }

    /// The entries, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = Entry> + '_ {
        let (compact, wide) = match self {
            Entries::Compact { base, ring } => (Some((*base, ring)), None),
            Entries::Wide(q) => (None, Some(q)),
        };
        compact
            .into_iter()
            .flat_map(|(base, ring)| {
                ring.iter().map(move |p| Entry {
                    t: p.time(base),
                    n: p.n,
                    allowed: p.allowed(),
                })
            })
            .chain(wide.into_iter().flat_map(|q| q.iter().copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn entry(t: u64, n: u32, allowed: bool) -> Entry {
        Entry { t, n, allowed }
    }

    #[test]
    fn the_ring_behaves_as_a_deque() {
        let mut ring = Ring::new();
        let mut model = alloc::collections::VecDeque::new();
        let mut x: u32 = 12345;
        for i in 0..5000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            match x % 5 {
                0..=2 => {
                    ring.push_back(i);
                    model.push_back(i);
                }
                3 => {
                    let k = (x as usize / 8) % 3;
                    ring.drop_front(k);
                    for _ in 0..k {
                        model.pop_front();
                    }
                }
                _ => {
                    if let (Some(a), Some(b)) = (ring.back_mut(), model.back_mut()) {
                        *a += 1;
                        *b += 1;
                    }
                }
            }
            assert_eq!(ring.len(), model.len());
            assert_eq!(ring.get(0), model.front());
            assert!(ring.iter().eq(model.iter()), "after {i} operations");
        }
        assert_eq!(ring.get(ring.len()), None);
    }

    #[test]
    fn entries_are_eight_bytes() {
        assert_eq!(core::mem::size_of::<Packed>(), 8);
    }

    #[test]
    fn equal_times_merge_and_verdicts_do_not() {
        let mut e = Entries::for_window(1000);
        e.push(entry(5, 1, true));
        e.push(entry(5, 2, true));
        e.push(entry(5, 1, false));
        e.push(entry(5, u32::MAX, false));
        let all: Vec<Entry> = e.iter().collect();
        assert_eq!(
            all,
            [
                entry(5, 3, true),
                entry(5, 1, false),
                entry(5, u32::MAX, false)
            ]
        );
    }

    #[test]
    fn the_base_moves_up_and_times_stay_exact() {
        let w: u64 = 1 << 30;
        let mut e = Entries::for_window(w);
        let mut t: u64 = 7;
        let mut kept: Vec<Entry> = Vec::new();
        // Eight windows' worth of time, one entry every quarter window, expiring as
        // the log does: every offset must move at least once.
        for _ in 0..32 {
            let cut = t.checked_sub(w);
            let x = e.expired(cut);
            e.drop_oldest(x.entries);
            kept.retain(|k| cut.is_none_or(|c| k.t > c));
            e.push(entry(t, 1, t % 2 == 1));
            kept.push(entry(t, 1, t % 2 == 1));
            assert_eq!(e.iter().collect::<Vec<_>>(), kept);
            assert!(matches!(e, Entries::Compact { .. }));
            t += w / 4 + 1;
        }
    }

    #[test]
    fn long_windows_keep_absolute_times() {
        let mut e = Entries::for_window(1 << 40);
        for t in [0, 1 << 35, u64::MAX] {
            e.push(entry(t, 1, true));
        }
        assert!(matches!(e, Entries::Wide(_)));
        assert_eq!(
            e.iter().map(|x| x.t).collect::<Vec<_>>(),
            [0, 1 << 35, u64::MAX]
        );
        assert_eq!(e.nth_request(1, 0), Some(1 << 35));
        assert_eq!(e.nth_request(0, 3), None);
    }

    #[test]
    fn a_compact_log_holding_more_than_a_window_widens_instead_of_failing() {
        // Never happens inside a sliding log (it drops expired entries first).
        let mut e = Entries::for_window(1000);
        e.push(entry(0, 1, true));
        e.push(entry(1 << 40, 1, true));
        assert!(matches!(e, Entries::Wide(_)));
        assert_eq!(e.iter().map(|x| x.t).collect::<Vec<_>>(), [0, 1 << 40]);
    }

    #[test]
    fn expiry_counts_from_the_oldest() {
        let mut e = Entries::for_window(1000);
        for (t, n) in [(10, 2), (20, 1), (30, 4)] {
            e.push(entry(t, n, true));
        }
        assert_eq!(
            e.expired(Some(20)),
            Expiry {
                entries: 2,
                requests: 3,
                next: Some(30)
            }
        );
        assert_eq!(e.expired(None).next, Some(10));
        assert_eq!(e.expired(Some(99)).next, None);
        assert_eq!(e.nth_request(0, 2), Some(20));
        assert_eq!(e.nth_request(1, 1), Some(30));
    }
}
