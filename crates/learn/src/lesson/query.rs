//! The numbers a lesson states, each a question put to the engine's run.

use std::fmt::Write as _;

use ratelab_core::{Amount, AnyLimiter, Frac, Keyed, Limiter, Ms, Snapshot, Value};
use serde::{Serialize, Serializer};

use crate::judge::Judged;
use crate::texts::Lang;
use ratelab_sim::Config;
use ratelab_sim::{LaneReport, Report};

/// A named number in a lesson's texts: `{name}` is replaced by the answer to `query`.
#[derive(Clone, Copy, Debug)]
pub struct Fact {
    /// The slot name.
    pub name: &'static str,
    /// What to ask.
    pub query: Query,
}

/// Shorthand for a [`Fact`].
pub const fn fact(name: &'static str, query: Query) -> Fact {
    Fact { name, query }
}

/// A question about one step's run. `lane` is an index into the step's lanes, `req`
/// an index into its stream, times are in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// How many requests the stream has.
    Requests,
    /// Requests arriving in `[from, to)`.
    RequestsIn(u64, u64),
    /// A lane's passed count.
    Passed(usize),
    /// A lane's blocked count.
    Blocked(usize),
    /// `passed(a) − passed(b)` (0 if negative).
    PassedMinus(usize, usize),
    /// The most allowed in one yardstick window `(t − W, t]`.
    MaxInWindow(usize),
    /// The most allowed in one second.
    MaxIn1s(usize),
    /// The most allowed in one window by departure time (queue, nginx).
    MaxDepartures(usize),
    /// The longest wait.
    LongestWait(usize),
    /// The yardstick window.
    Window(usize),
    /// Where the busiest window ends (the arrival that completed it).
    BusiestEnd(usize),
    /// A lane's N.
    Limit(usize),
    /// A lane's burst as the limiter uses it.
    Burst(usize),
    /// A bucket's bound over the yardstick window T: `b + r·T`.
    Bound(usize),
    /// Allowed among the requests arriving in `[from, to)`.
    AllowedIn(usize, u64, u64),
    /// Denied among the requests arriving in `[from, to)`.
    BlockedIn(usize, u64, u64),
    /// The arrival time of the first request allowed at or after `t`.
    FirstAllowedFrom(usize, u64),
    /// Allowed per 10 s, buckets `[from, from + len)`, as `34 33 33`.
    Histogram(usize, usize, usize),
    /// The decisions as `✓✓✗…`.
    Marks(usize),
    /// A request's arrival time.
    Arrival(usize),
    /// The time from request `a`'s arrival to request `b`'s.
    Span(usize, usize),
    /// A moment the lesson names (shown as a time).
    Clock(u64),
    /// A length of time the lesson names.
    Length(u64),
    /// nginx's `delay` as the lane uses it.
    Delay(usize),
    /// A lane's emission interval W / N (one token, one slot).
    Interval(usize),
    /// Every request's wait in whole ms, rounded up, `✗` for a denial: `0 100 ✗`.
    WaitsMs(usize),
    /// Requests allowed without any wait.
    Undelayed(usize),
    /// Requests the lane allowed although it had already allowed N in the last W
    /// (judged on its own history, as lab D judges).
    WrongAllows(usize),
    /// Requests the lane denied although it had allowed fewer than N in the last W.
    WrongBlocks(usize),
    /// A request's wait (or "denied").
    Wait(usize, usize),
    /// A value computed in a step of a request's trace (`tokens`, `estimate`, ...).
    StepValue(usize, usize, &'static str),
    /// A state field before a request (`count`, `TAT`, ...).
    Before(usize, usize, &'static str),
    /// A state field after a request.
    After(usize, usize, &'static str),
    /// The left side of the comparison that decided a request.
    TestLhs(usize, usize),
    /// The right side of that comparison.
    TestRhs(usize, usize),
    /// How many requests the lane had allowed in `(t − W, t)` just before request
    /// `req` (W = the lane's period): the exact count of its own history.
    OwnCount(usize, usize),
    /// Tokens (token buckets, GCRA's equivalent) at time `t`, after the requests
    /// up to `t`.
    Tokens(usize, u64),
    /// Entries in a sliding log at `t` (denials too, for the teaching variant).
    LogLength(usize, u64),
    /// The `Retry-After` (whole seconds) a request at `t` would get.
    RetryAfter(usize, u64),
    /// The exact time until a request at `t` would pass.
    RetryExact(usize, u64),
    /// Lab D, judged on its own history, level `i`: share allowed.
    JudgedAllowed(usize),
    /// ... share wrongly allowed.
    JudgedWrongAllows(usize),
    /// ... share wrongly blocked.
    JudgedWrongBlocks(usize),
    /// ... mean estimate error.
    JudgedError(usize),
    /// ... the worst client's most in one window.
    JudgedWorst(usize),
    /// The worst client's most in one window over every level.
    JudgedWorstOverall,
    /// The level where that happened (the first, if several).
    JudgedWorstLoad,
    /// Lab D, next to a sliding log, level `i`: wrong allows.
    SweepWrongAllows(usize),
    /// ... wrong blocks.
    SweepWrongBlocks(usize),
    /// ... requests.
    SweepRequests(usize),
    /// The load of level `i` (`1.25x`).
    LoadLabel(usize),
}

/// A number of the page's yardstick table ("so far", one row per lane), by the
/// class of the cell that shows it (its `data-value`, whole ms for a wait).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Column {
    /// Passed (`td.passed`).
    Passed,
    /// Blocked (`td.blocked`).
    Blocked,
    /// Passed + blocked: the requests that have arrived (every lane sees them all).
    Arrived,
    /// The most allowed in one window (`td.max-window`).
    MaxWindow,
    /// The same by departure time, for a lane that delays (`.departures`, whose
    /// text is `(5 by departure)`).
    Departures,
    /// The most allowed in one second (`td.max-1s`).
    #[serde(rename = "max-1s")]
    Max1s,
    /// The longest wait, in whole ms rounded up (`td.longest-wait`).
    LongestWait,
}

impl Column {
    /// What the table shows in this column for a lane's yardstick `y`.
    pub fn of(self, y: &ratelab_sim::Yardstick) -> Option<u64> {
        Some(match self {
            Column::Passed => y.passed,
            Column::Blocked => y.blocked,
            Column::Arrived => y.passed + y.blocked,
            Column::MaxWindow => y.max_in_window,
            Column::Departures => y.max_in_window_departures?,
            Column::Max1s => y.max_in_1s,
            Column::LongestWait => y.longest_wait_ms,
        })
    }
}

impl Query {
    /// Where the page's yardstick table shows this number, if it does: the lane
    /// (its row) and the column. At the step's moment the table and the fact agree
    /// (a test checks every step of every lesson).
    pub fn on_yardstick(&self) -> Option<(usize, Column)> {
        Some(match *self {
            Query::Requests => (0, Column::Arrived),
            Query::Passed(l) => (l, Column::Passed),
            Query::Blocked(l) => (l, Column::Blocked),
            Query::MaxInWindow(l) => (l, Column::MaxWindow),
            Query::MaxDepartures(l) => (l, Column::Departures),
            Query::MaxIn1s(l) => (l, Column::Max1s),
            Query::LongestWait(l) => (l, Column::LongestWait),
            _ => return None,
        })
    }
}

/// A fact's value.
#[derive(Clone, Debug, PartialEq)]
pub enum FactValue {
    /// A whole number of requests (or seconds, for `Retry-After`).
    Count(u64),
    /// A point on the clock.
    Time(Ms),
    /// A length of time.
    Duration(Ms),
    /// An exact amount (tokens, an estimate).
    Amount(Frac),
    /// A float, as the teaching bucket computed it.
    Float(f64),
    /// A share, shown as a percentage.
    Share(Frac),
    /// A share known only approximately (rounded down), always shown with "≈".
    ApproxShare(Frac),
    /// Words or marks.
    Text(String),
}

impl Serialize for FactValue {
    /// Counts as numbers, floats as numbers, exact values as `{"num", "den"}` with
    /// what they measure (`ms`, `amount`, `share`), text as a string.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Exact {
            kind: &'static str,
            num: u128,
            den: u64,
        }
        let exact = |kind, f: Frac| Exact {
            kind,
            num: f.num(),
            den: f.den(),
        };
        match self {
            FactValue::Count(n) => s.serialize_u64(*n),
            FactValue::Float(x) => s.serialize_f64(*x),
            FactValue::Text(t) => s.serialize_str(t),
            FactValue::Time(m) => exact("time_ms", m.0).serialize(s),
            FactValue::Duration(m) => exact("duration_ms", m.0).serialize(s),
            FactValue::Amount(a) => exact("amount", *a).serialize(s),
            FactValue::Share(f) => exact("share", *f).serialize(s),
            FactValue::ApproxShare(f) => exact("approx_share", *f).serialize(s),
        }
    }
}

impl FactValue {
    /// The value as the yardstick table holds it: a count as is, a time or a
    /// length in whole ms rounded up; `None` for other values.
    pub fn table_value(&self) -> Option<u64> {
        match self {
            FactValue::Count(n) => Some(*n),
            FactValue::Time(m) | FactValue::Duration(m) => Some(m.ceil_ms()),
            _ => None,
        }
    }

    /// The value as a text in `lang` writes it: `9.8 s` / `9,8 s`, `4.95` / `4,95`,
    /// `≈13.273 %`, counts of 10 000 and more grouped with a no-break space.
    pub fn text(&self, lang: Lang) -> String {
        let local = |s: String| {
            if lang.decimal() == '.' {
                s
            } else {
                s.replace('.', ",")
            }
        };
        match self {
            FactValue::Count(n) => group(u128::from(*n)),
            FactValue::Time(m) | FactValue::Duration(m) => local(m.to_string()),
            FactValue::Amount(a) => local(a.to_string()),
            // The float is shown as the program printed it: that is the point.
            FactValue::Float(x) => format!("{x:?}"),
            FactValue::Share(f) | FactValue::ApproxShare(f) => {
                let mut s = String::new();
                let _ = Frac::new(f.num().saturating_mul(100), f.den()).write_decimal(&mut s, 3);
                if matches!(self, FactValue::ApproxShare(_)) && !s.starts_with('≈') {
                    s.insert(0, '≈');
                }
                local(s) + "\u{a0}%"
            }
            FactValue::Text(t) => t.clone(),
        }
    }
}

/// `300947` → `300 947` (no-break space), below 10 000 as is (also the memory
/// sums', [`crate::memory`]).
pub(crate) fn group(n: u128) -> String {
    let digits = n.to_string();
    if n < 10_000 {
        return digits;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{a0}');
        }
        out.push(c);
    }
    out
}

/// A step's run, to ask questions of.
pub(super) struct Context<'a> {
    config: &'a Config,
    report: &'a Report,
    judged: Option<&'a Judged>,
}

impl<'a> Context<'a> {
    pub(super) fn new(config: &'a Config, report: &'a Report, judged: Option<&'a Judged>) -> Self {
        Context {
            config,
            report,
            judged,
        }
    }

    fn lane(&self, lane: usize) -> Result<&'a LaneReport, String> {
        self.report
            .results
            .get(lane)
            .ok_or_else(|| format!("no lane {lane}"))
    }

    fn arrival(&self, req: usize) -> Result<u64, String> {
        self.config
            .stream
            .requests
            .get(req)
            .map(|r| r.t)
            .ok_or_else(|| format!("no request {req}"))
    }

    /// The lane's keyed limiter after every request before index `upto` (or, with
    /// `until`, every request arriving at or before that time).
    fn replay(&self, lane: usize, upto: usize) -> Result<Keyed<AnyLimiter>, String> {
        let spec = self
            .config
            .lanes
            .get(lane)
            .ok_or_else(|| format!("no lane {lane}"))?;
        let mut keyed = Keyed::new(spec.build().map_err(|e| e.to_string())?);
        let stream = &self.config.stream;
        for r in stream.requests.iter().take(upto) {
            let key = stream.key_name(r.key).unwrap_or("");
            keyed.check(key, r.t, r.cost).map_err(|e| e.to_string())?;
        }
        Ok(keyed)
    }

    fn upto_time(&self, t: u64) -> usize {
        self.config.stream.requests.partition_point(|r| r.t <= t)
    }

    fn explanation(&self, lane: usize, req: usize) -> Result<ratelab_core::Explanation, String> {
        let r = *self
            .config
            .stream
            .requests
            .get(req)
            .ok_or_else(|| format!("no request {req}"))?;
        let t = r.t;
        let key = self.config.stream.key_name(r.key).unwrap_or("");
        let keyed = self.replay(lane, req)?;
        keyed.get(key).explain(t, r.cost).map_err(|e| e.to_string())
    }

    fn judged_row(&self, i: usize) -> Result<&'a crate::judge::JudgedRow, String> {
        self.judged
            .and_then(|j| j.rows.get(i))
            .ok_or_else(|| format!("no judged level {i}"))
    }

    fn sweep_row(&self, i: usize) -> Result<&'a ratelab_sim::sweep::SweepRow, String> {
        self.report
            .sweep
            .as_ref()
            .and_then(|s| s.rows.get(i))
            .ok_or_else(|| format!("no sweep level {i}"))
    }

    /// Answers `q`, or says why it cannot (a lesson that asks about a lane or a
    /// request it does not have: the tests run every lesson).
    pub(super) fn eval(&self, q: &Query) -> Result<FactValue, String> {
        use FactValue as V;
        let stream = &self.config.stream;
        Ok(match *q {
            Query::Requests => V::Count(stream.len() as u64),
            Query::RequestsIn(a, b) => V::Count(
                stream
                    .requests
                    .iter()
                    .filter(|r| (a..b).contains(&r.t))
                    .count() as u64,
            ),
            Query::Passed(l) => V::Count(self.lane(l)?.yardstick.passed),
            Query::Blocked(l) => V::Count(self.lane(l)?.yardstick.blocked),
            Query::PassedMinus(a, b) => V::Count(
                self.lane(a)?
                    .yardstick
                    .passed
                    .saturating_sub(self.lane(b)?.yardstick.passed),
            ),
            Query::MaxInWindow(l) => V::Count(self.lane(l)?.yardstick.max_in_window),
            Query::MaxIn1s(l) => V::Count(self.lane(l)?.yardstick.max_in_1s),
            Query::MaxDepartures(l) => V::Count(
                self.lane(l)?
                    .yardstick
                    .max_in_window_departures
                    .ok_or("this lane never delays")?,
            ),
            Query::LongestWait(l) => V::Duration(self.lane(l)?.yardstick.longest_wait),
            Query::Window(l) => V::Duration(Ms::from_ms(self.lane(l)?.yardstick.window_ms)),
            Query::BusiestEnd(l) => V::Time(Ms::from_ms(
                self.lane(l)?
                    .yardstick
                    .max_in_window_end
                    .ok_or("nothing was allowed")?,
            )),
            Query::Limit(l) => V::Count(self.lane(l)?.params.limit),
            Query::Burst(l) => V::Count(self.lane(l)?.params.burst.ok_or("no burst")?),
            Query::Bound(l) => {
                let lr = self.lane(l)?;
                let b = lr.params.burst.ok_or("no burst")? as u128;
                let (n, p, t) = (
                    lr.params.limit as u128,
                    lr.params.period_ms,
                    lr.yardstick.window_ms as u128,
                );
                V::Amount(Frac::new(b * p as u128 + n * t, p))
            }
            Query::AllowedIn(l, a, b) => {
                V::Count(self.lane(l)?.allowed_between(stream, a, b) as u64)
            }
            Query::BlockedIn(l, a, b) => {
                let lr = self.lane(l)?;
                V::Count(
                    stream
                        .requests
                        .iter()
                        .zip(&lr.allowed)
                        .filter(|(r, &ok)| !ok && (a..b).contains(&r.t))
                        .count() as u64,
                )
            }
            Query::FirstAllowedFrom(l, t) => {
                let lr = self.lane(l)?;
                let at = stream
                    .requests
                    .iter()
                    .zip(&lr.allowed)
                    .find(|(r, &ok)| ok && r.t >= t)
                    .map(|(r, _)| r.t)
                    .ok_or("no request allowed after that")?;
                V::Time(Ms::from_ms(at))
            }
            Query::Histogram(l, from, len) => {
                let h = &self.lane(l)?.yardstick.histogram_10s;
                let part: Vec<String> = h.iter().skip(from).take(len).map(u64::to_string).collect();
                V::Text(part.join(" "))
            }
            Query::Marks(l) => V::Text(self.lane(l)?.marks()),
            Query::Arrival(i) => V::Time(Ms::from_ms(self.arrival(i)?)),
            Query::Span(a, b) => V::Duration(Ms::from_ms(
                self.arrival(b)?.saturating_sub(self.arrival(a)?),
            )),
            Query::Clock(t) => V::Time(Ms::from_ms(t)),
            Query::Length(t) => V::Duration(Ms::from_ms(t)),
            Query::Delay(l) => V::Count(self.lane(l)?.params.delay.ok_or("no delay")?),
            Query::Interval(l) => {
                let p = self.lane(l)?.params;
                V::Duration(Ms::scaled(p.period_ms as u128, p.limit.max(1)))
            }
            Query::WaitsMs(l) => {
                let each: Vec<String> = self
                    .lane(l)?
                    .waits
                    .iter()
                    .map(|w| w.map_or("✗".to_string(), |w| w.ceil_ms().to_string()))
                    .collect();
                V::Text(each.join(" "))
            }
            Query::Undelayed(l) => V::Count(
                self.lane(l)?
                    .waits
                    .iter()
                    .filter(|w| w.is_some_and(|w| w.is_zero()))
                    .count() as u64,
            ),
            Query::WrongAllows(l) | Query::WrongBlocks(l) => {
                let lr = self.lane(l)?;
                let (n, w) = (lr.params.limit, lr.params.period_ms as u128);
                let allows = matches!(q, Query::WrongAllows(_));
                let mut wrong = 0;
                for (i, (r, &ok)) in stream.requests.iter().zip(&lr.allowed).enumerate() {
                    let own = stream
                        .requests
                        .iter()
                        .take(i)
                        .zip(&lr.allowed)
                        .filter(|(p, &a)| a && p.key == r.key && p.t as u128 + w > r.t as u128)
                        .count() as u64;
                    let exact = own < n;
                    wrong += u64::from(if allows { ok && !exact } else { !ok && exact });
                }
                V::Count(wrong)
            }
            Query::Wait(l, i) => match *self.lane(l)?.waits.get(i).ok_or("no such request")? {
                Some(w) => V::Duration(w),
                None => V::Text("✗".into()),
            },
            Query::StepValue(l, i, name) => {
                let e = self.explanation(l, i)?;
                let s = e
                    .steps
                    .iter()
                    .find(|s| s.set == name)
                    .ok_or_else(|| format!("no step {name}"))?;
                value(&s.to)
            }
            Query::Before(l, i, name) | Query::After(l, i, name) => {
                let e = self.explanation(l, i)?;
                let fields = if matches!(q, Query::Before(..)) {
                    &e.before
                } else {
                    &e.after
                };
                let f = fields
                    .iter()
                    .find(|f| f.name == name)
                    .ok_or_else(|| format!("no field {name}"))?;
                value(&f.value)
            }
            Query::TestLhs(l, i) => value(&self.explanation(l, i)?.test.lhs),
            Query::TestRhs(l, i) => value(&self.explanation(l, i)?.test.rhs),
            Query::OwnCount(l, i) => {
                let lr = self.lane(l)?;
                let t = self.arrival(i)?;
                let key = stream.requests.get(i).map_or(0, |r| r.key);
                let w = lr.params.period_ms;
                let n = stream
                    .requests
                    .iter()
                    .zip(&lr.allowed)
                    .take(i)
                    .filter(|(r, &ok)| ok && r.key == key && r.t as u128 + w as u128 > t as u128)
                    .count();
                V::Count(n as u64)
            }
            Query::Tokens(l, t) => {
                let keyed = self.replay(l, self.upto_time(t))?;
                match keyed.get("").snapshot(t) {
                    Snapshot::TokenBucket { tokens, .. } | Snapshot::Gcra { tokens, .. } => {
                        V::Amount(tokens.0)
                    }
                    Snapshot::FloatTokenBucket { tokens, .. } => V::Float(tokens),
                    _ => return Err("this lane has no tokens".into()),
                }
            }
            Query::LogLength(l, t) => {
                let keyed = self.replay(l, self.upto_time(t))?;
                match keyed.get("").snapshot(t) {
                    Snapshot::SlidingLog { entries, .. } => {
                        V::Count(entries.iter().map(|e| e.count as u64).sum())
                    }
                    _ => return Err("this lane has no log".into()),
                }
            }
            Query::RetryAfter(l, t) | Query::RetryExact(l, t) => {
                let keyed = self.replay(l, self.upto_time(t))?;
                let limiter = keyed.get("");
                let d = limiter.peek(t, 1).map_err(|e| e.to_string())?;
                if matches!(q, Query::RetryExact(..)) {
                    V::Duration(d.retry_after())
                } else {
                    let h = d.headers(&limiter.policy());
                    V::Count(h.retry_after.ok_or("that request would pass")?)
                }
            }
            Query::JudgedAllowed(i) => V::Share(self.judged_row(i)?.allowed_share()),
            Query::JudgedWrongAllows(i) => V::Share(self.judged_row(i)?.wrong_allow_share()),
            Query::JudgedWrongBlocks(i) => V::Share(self.judged_row(i)?.wrong_block_share()),
            Query::JudgedError(i) => V::ApproxShare(self.judged_row(i)?.mean_error()),
            Query::JudgedWorst(i) => V::Count(self.judged_row(i)?.worst_client_max),
            Query::JudgedWorstOverall | Query::JudgedWorstLoad => {
                let rows = self.judged.map(|j| j.rows.as_slice()).unwrap_or_default();
                let worst = rows
                    .iter()
                    .max_by_key(|r| (r.worst_client_max, std::cmp::Reverse(r.load_permille)))
                    .ok_or("no judged levels")?;
                if matches!(q, Query::JudgedWorstOverall) {
                    V::Count(worst.worst_client_max)
                } else {
                    V::Text(worst.load.clone())
                }
            }
            Query::SweepWrongAllows(i) => V::Count(self.sweep_row(i)?.wrong_allows),
            Query::SweepWrongBlocks(i) => V::Count(self.sweep_row(i)?.wrong_blocks),
            Query::SweepRequests(i) => V::Count(self.sweep_row(i)?.requests),
            Query::LoadLabel(i) => V::Text(self.sweep_row(i)?.load.clone()),
        })
    }
}

/// An explanation's value as a fact.
fn value(v: &Value) -> FactValue {
    match v {
        Value::Count(n) | Value::Window(n) => FactValue::Count(*n),
        Value::Amount(Amount(a)) => FactValue::Amount(*a),
        Value::Time(t) => FactValue::Time(*t),
        Value::Duration(d) => FactValue::Duration(*d),
        Value::Float(x) => FactValue::Float(*x),
        other => {
            let mut s = String::new();
            let _ = write!(s, "{other}");
            FactValue::Text(s)
        }
    }
}
