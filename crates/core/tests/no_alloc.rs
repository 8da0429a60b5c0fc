//! The hot path allocates nothing: `check`, `peek` and every number a server reads
//! from a `Decision` (`wait`, `retry_after`, `reset`, `remaining`) touch no heap once
//! a limiter's state has reached its size. Counted by a global allocator that
//! tallies, per thread, every allocation made while a test asks it to.
//!
//! The sliding logs are the only limiters whose state grows: the log doubles its
//! ring up to the most entries a window can hold (N for the log, the distinct
//! request times of a window for the variant that logs denials too), and never again
//! once it has held that many.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ratelab_core::{Algorithm, AnyLimiter, Keyed, Limiter, Params};

/// [`System`], counting allocations (and reallocations) on threads that asked.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn tally() {
    // `try_with`: a thread being torn down may still free and allocate.
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to `System`; the tally touches only
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        tally();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        tally();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        tally();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations `f` made on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    ALLOCATIONS.with(|a| a.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(Cell::get)
}

/// One block of traffic as (gap ms, cost): bursts of simultaneous and close
/// requests between quiet spells, about twice the limit of 100 per minute, so that
/// every limiter both allows and denies. Replayed block after block, every window
/// of a later block has the shape of a window seen before.
fn block() -> Vec<(u64, u32)> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..2_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let gap = match x % 8 {
                0..=2 => 0,
                3..=5 => x % 97,
                _ => x % 1_500,
            };
            (gap, 1 + (x >> 40) as u32 % 3)
        })
        .collect()
}

/// Runs `blocks` blocks through `l` from `*t`, reading every number a server reads.
fn run(l: &mut AnyLimiter, t: &mut u64, blocks: usize, block: &[(u64, u32)]) -> u64 {
    let mut digest = 0u64;
    for _ in 0..blocks {
        for &(gap, cost) in block {
            *t += gap;
            let Ok(p) = l.peek(*t, cost) else { continue };
            let Ok(d) = l.check(*t, cost) else { continue };
            assert_eq!(p.allowed(), d.allowed());
            digest = digest
                .rotate_left(5)
                .wrapping_add(d.wait().ceil_ms() ^ d.retry_after().ceil_ms())
                .wrapping_add(d.reset().ceil_secs() ^ d.remaining());
        }
    }
    digest
}

#[test]
fn check_and_decisions_allocate_nothing_once_warm() {
    let block = block();
    for alg in Algorithm::ALL {
        let params = Params::new(100, 60_000);
        let Ok(mut l) = AnyLimiter::new(alg, &params) else {
            panic!("{}: 100 per minute is valid", alg.id());
        };
        let mut t = 0;
        let warm = allocations(|| {
            std::hint::black_box(run(&mut l, &mut t, 3, &block));
        });
        let hot = allocations(|| {
            std::hint::black_box(run(&mut l, &mut t, 3, &block));
        });
        assert_eq!(hot, 0, "{}: {hot} allocations once warm", alg.id());
        match alg {
            // Doubling from 4 entries to 128 (≥ N = 100): five reallocations and
            // the first allocation.
            Algorithm::SlidingLog => assert!(warm <= 6, "sliding_log: {warm}"),
            // Distinct times in a window: more than N, still a few doublings.
            Algorithm::SlidingLogLogsBlocked => {
                assert!((1..=12).contains(&warm), "logs_blocked: {warm}")
            }
            _ => assert_eq!(warm, 0, "{}: {warm} allocations warming up", alg.id()),
        }
    }
}

#[test]
fn a_known_key_allocates_nothing() {
    let block = block();
    let Ok(proto) = AnyLimiter::new(Algorithm::Gcra, &Params::new(100, 60_000)) else {
        panic!("gcra: 100 per minute is valid");
    };
    let mut keyed = Keyed::new(proto);
    let keys: Vec<String> = (0..26u8)
        .map(|i| char::from(b'a' + i).to_string())
        .collect();
    let mut t = 0;
    let mut send = |keyed: &mut Keyed<AnyLimiter>| {
        let mut allowed = 0u64;
        for (i, &(gap, cost)) in block.iter().enumerate() {
            t += gap;
            let Some(key) = keys.get(i % keys.len()) else {
                continue;
            };
            if let Ok(d) = keyed.check(key, t, cost) {
                allowed += u64::from(d.allowed());
            }
        }
        allowed
    };
    // The first request of each key allocates its entry (key and state).
    let warm = allocations(|| {
        std::hint::black_box(send(&mut keyed));
    });
    assert!(warm >= 26, "{warm}");
    let hot = allocations(|| {
        std::hint::black_box(send(&mut keyed));
    });
    assert_eq!(hot, 0);
}

/// The tally itself counts: a test that could not fail would prove nothing.
#[test]
fn the_tally_sees_an_allocation() {
    let n = allocations(|| {
        std::hint::black_box(vec![1u8; 64]);
    });
    assert_eq!(n, 1);
}
