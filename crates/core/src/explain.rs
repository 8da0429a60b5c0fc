//! Why a limiter decided what it did, as structured data that prints like a row of a
//! trace table: `10.1 s: window 1 ≠ 0 → count := 0; count 0 < 5 → allow`.
//!
//! The UI renders the parts (and translates the verdict); the CLI prints the
//! `Display` form. Both come from the same [`Explanation`].

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::exact::{Amount, Ms};

/// One number (or list) in an explanation.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A whole count of requests.
    Count(u64),
    /// An exact, possibly fractional, number of requests or tokens.
    Amount(Amount),
    /// A point on the clock.
    Time(Ms),
    /// A length of time.
    Duration(Ms),
    /// A window index (`floor(t / W)`).
    Window(u64),
    /// A float, as the teaching float bucket computes it (printed in full, so that
    /// `0.9999999999999999` shows).
    Float(f64),
    /// A sliding log: times, each with how many requests it holds.
    Log(Vec<(Ms, u32)>),
    /// Nothing yet (no window opened, no request seen).
    None,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Count(n) | Value::Window(n) => write!(f, "{n}"),
            Value::Amount(a) => write!(f, "{a}"),
            Value::Time(t) | Value::Duration(t) => write!(f, "{t}"),
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Log(ts) => {
                f.write_str("[")?;
                for (i, (t, n)) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    Ms::write_secs(*t, f)?;
                    if *n > 1 {
                        write!(f, "×{n}")?;
                    }
                }
                f.write_str("]")
            }
            Value::None => f.write_str("–"),
        }
    }
}

impl Ms {
    /// Seconds without the unit, for compact lists.
    fn write_secs(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::exact::Frac::new(self.0.num(), self.0.den().saturating_mul(1000)).write_decimal(f, 3)
    }
}

/// A named state variable and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The variable's name as the algorithm's pseudo-code spells it (`count`, `tokens`,
    /// `TAT`, `excess`, ...).
    pub name: &'static str,
    /// Its value.
    pub value: Value,
}

impl Field {
    /// Shorthand.
    pub fn new(name: &'static str, value: Value) -> Field {
        Field { name, value }
    }
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `<`
    Lt,
    /// `≤`
    Le,
    /// `>`
    Gt,
    /// `≥`
    Ge,
    /// `=`
    Eq,
    /// `≠`
    Ne,
}

impl Op {
    /// The symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "≤",
            Op::Gt => ">",
            Op::Ge => "≥",
            Op::Eq => "=",
            Op::Ne => "≠",
        }
    }

    /// The operator that holds when this one does not.
    pub fn negated(self) -> Op {
        match self {
            Op::Lt => Op::Ge,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            Op::Ge => Op::Lt,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
        }
    }
}

/// `label lhs op rhs`, with whether it held: the test that decided, or the condition
/// of a step.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// What the left side is (`count`, `tokens`, `TAT − t`, ...); may be empty.
    pub label: &'static str,
    /// The left side's value.
    pub lhs: Value,
    /// The operator.
    pub op: Op,
    /// The right side's value.
    pub rhs: Value,
    /// Whether `lhs op rhs` is true.
    pub holds: bool,
}

impl Comparison {
    /// The operator as it reads for the values: `op` if it holds, its negation if not
    /// (`5 ≥ 5` rather than "`5 < 5` is false").
    pub fn shown_op(&self) -> Op {
        if self.holds {
            self.op
        } else {
            self.op.negated()
        }
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.label.is_empty() {
            write!(f, "{} ", self.label)?;
        }
        write!(f, "{} {} {}", self.lhs, self.shown_op().symbol(), self.rhs)
    }
}

/// An update made before the test: `[condition →] name := [formula =] value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Why the update happens (`window 1 ≠ 0`), if it is conditional.
    pub when: Option<Comparison>,
    /// The variable set.
    pub set: &'static str,
    /// How the value is computed, with the numbers filled in, if it is worth showing
    /// (`min(5, 0.7 + 0.3 s · 0.5/s)`).
    pub formula: Option<String>,
    /// The new value.
    pub to: Value,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(w) = &self.when {
            write!(f, "{w} → ")?;
        }
        write!(f, "{} := ", self.set)?;
        if let Some(formula) = &self.formula {
            write!(f, "{formula} = ")?;
        }
        write!(f, "{}", self.to)
    }
}

/// The outcome, as a trace table prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Passes at once.
    Allow,
    /// Passes after a wait (leaky queue, nginx without `nodelay`).
    Delay(Ms),
    /// Rejected (429).
    Deny,
}

impl Verdict {
    /// The verdict a decision reads as.
    pub fn of(d: &crate::Decision) -> Verdict {
        match (d.allowed(), d.wait().is_zero()) {
            (false, _) => Verdict::Deny,
            (true, true) => Verdict::Allow,
            (true, false) => Verdict::Delay(d.wait()),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Allow => f.write_str("allow"),
            Verdict::Delay(w) => write!(f, "allow after {w}"),
            Verdict::Deny => f.write_str("deny"),
        }
    }
}

/// One row of a trace table: the state before, the updates, the test with its
/// numbers, the verdict, and the state after.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// When the request arrived.
    pub at: Ms,
    /// Its cost.
    pub cost: u32,
    /// The state before the request.
    pub before: Vec<Field>,
    /// Updates made before the test (a new window, a refill, expired entries).
    pub steps: Vec<Step>,
    /// The comparison that decided.
    pub test: Comparison,
    /// The outcome.
    pub verdict: Verdict,
    /// The state after the request.
    pub after: Vec<Field>,
}

impl Explanation {
    /// The state fields as `name = value, ...`.
    pub fn fields(fields: &[Field]) -> String {
        use core::fmt::Write;
        let mut s = String::new();
        for (i, fl) in fields.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "{} = {}", fl.name, fl.value);
        }
        s
    }
}

impl fmt::Display for Explanation {
    /// `10.1 s: window 1 ≠ 0 → count := 0; count 0 < 5 → allow`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.at)?;
        for s in &self.steps {
            write!(f, "{s}; ")?;
        }
        write!(f, "{} → {}", self.test, self.verdict)
    }
}
