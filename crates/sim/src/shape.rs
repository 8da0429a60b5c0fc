//! A parameterised scenario's stream, known from its budget before it is made.
//!
//! The work budget ([`crate::cost`]) reads a stream for a few figures: how many
//! requests, the last time, and per key the most requests and distinct times inside
//! a window. For the scenarios whose stream is arithmetic on the budget (`edge-burst`,
//! `edge-burst-demo`, `2x-rate`, `burst-then-drip`, `ten-at-once`), those figures
//! follow from N and W alone, so a link asking for two million requests against a
//! log of a million can be refused without making them (it took 0.7–1.3 s on the
//! page's main thread to make and measure them only to refuse them).
//!
//! Each of those streams is one key's times `⌊p_k⌋` for real positions `p_0 < p_1 <
//! …` at least `d` apart, the first one possibly taken by several requests (a burst
//! at 0). A window `(t − L, t]` holds the integers `t − L + 1 ..= t`, so its requests
//! come from the positions in a real interval of length L, and positions `d` apart
//! fit at most `⌈L / d⌉` times in it: that, the burst's extra requests, and the
//! stream's length bound every window ([`Shape::window`]). The count and the last
//! time are exact. `crates/sim/tests/it/shape.rs` checks all of it against the
//! generated streams at many budgets and at the caps' extremes.

/// The figures of a stream the estimate needs, from its parameters: the count and
/// last time exact, the window figures upper bounds (close to the stream's: away
/// from its ends an evenly spread stream has `⌊L / d⌋` or `⌈L / d⌉` positions in a
/// window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// How many requests (exact).
    pub requests: u64,
    /// The last request's time (exact; 0 when there are none).
    pub last_ms: u64,
    /// Requests at the first position besides one (a burst at 0); the other
    /// positions carry one request each.
    pub burst_extra: u64,
    /// The least gap between two positions, `step_num / step_den` ms (as a
    /// fraction, so that the bound is exact integer arithmetic); 0 when every
    /// request is at one time.
    pub step_num: u128,
    /// See [`Shape::step_num`] (never 0).
    pub step_den: u128,
}

/// The most requests and distinct times one key has inside any window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowLoad {
    /// The most distinct arrival times inside any window `(t − L, t]`.
    pub distinct: u64,
    /// The most requests inside any window.
    pub requests: u64,
}

impl Shape {
    /// Requests at evenly spread positions `step_num / step_den` ms apart.
    pub const fn spread(requests: u64, last_ms: u64, step_num: u128, step_den: u128) -> Shape {
        Shape {
            requests,
            last_ms,
            burst_extra: 0,
            step_num,
            step_den,
        }
    }

    /// Bounds for windows of `window_ms` (the stream's one key).
    pub fn window(&self, window_ms: u64) -> WindowLoad {
        let positions = if self.requests == 0 {
            0
        } else if self.step_num == 0 {
            // Every request at one time.
            1
        } else {
            // ⌈L·den / num⌉ positions fit in a real interval of length L.
            let fit = (window_ms as u128 * self.step_den).div_ceil(self.step_num);
            let n = (self.requests - self.burst_extra.min(self.requests)) as u128;
            fit.min(n) as u64
        };
        WindowLoad {
            distinct: positions.min(window_ms),
            requests: positions
                .saturating_add(self.burst_extra)
                .min(self.requests),
        }
    }
}
