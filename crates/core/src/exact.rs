//! Exact rational numbers for times and amounts.
//!
//! Every decision is made in integers. Some quantities are still not whole
//! milliseconds or whole tokens: with 3 requests per 10 s the emission interval is
//! 3333⅓ ms. Limiters therefore keep time in units of `1/scale` ms (the scale is the
//! rate's `limit`), and report values as a fraction `num / den`. Nothing here rounds
//! until a caller asks for a whole number or a float for drawing.

use core::cmp::Ordering;
use core::fmt;

/// A non-negative fraction `num / den` with `den >= 1`.
///
/// Comparison is by value (`1/2 == 2/4`), done exactly by cross-multiplication.
#[derive(Clone, Copy, Debug)]
pub struct Frac {
    num: u128,
    den: u64,
}

impl Frac {
    /// Zero.
    pub const ZERO: Frac = Frac { num: 0, den: 1 };

    /// `num / den`; a zero denominator is treated as 1 (it never occurs inside the
    /// engine, and a constructor that cannot fail keeps callers simple).
    pub const fn new(num: u128, den: u64) -> Frac {
        Frac {
            num,
            den: if den == 0 { 1 } else { den },
        }
    }

    /// A whole number.
    pub const fn whole(n: u128) -> Frac {
        Frac { num: n, den: 1 }
    }

    /// The numerator as stored (not reduced).
    pub const fn num(self) -> u128 {
        self.num
    }

    /// The denominator as stored (not reduced).
    pub const fn den(self) -> u64 {
        self.den
    }

    /// Is it exactly zero?
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// Rounded down to a whole number, saturating at `u64::MAX`.
    pub fn floor(self) -> u64 {
        sat(self.num / self.den as u128)
    }

    /// Rounded up to a whole number, saturating at `u64::MAX`.
    pub fn ceil(self) -> u64 {
        sat(self.num.div_ceil(self.den as u128))
    }

    /// An approximation for drawing only. Never used for a decision.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The smaller of two values.
    pub fn min(self, other: Frac) -> Frac {
        if other < self {
            other
        } else {
            self
        }
    }

    /// Writes the value in decimal with at most `max_decimals` digits after the point.
    /// Exact values are written exactly ("3.25"); others are rounded to nearest and
    /// prefixed with "≈" so that nobody mistakes them for exact. A value that is not
    /// whole is never rounded to a whole number while six decimals would show it
    /// ("≈0.999817", not "≈1"): a trace step `(1 − ≈1) · 100 + 100 = ≈100.018` reads
    /// as wrong arithmetic.
    pub fn write_decimal(self, f: &mut dyn fmt::Write, max_decimals: u32) -> fmt::Result {
        let mut parts = self.decimal_parts(max_decimals);
        if !parts.exact && parts.used == 0 && max_decimals < 6 {
            parts = self.decimal_parts(6);
        }
        let Decimal {
            exact,
            int,
            digits,
            used,
        } = parts;
        if !exact {
            f.write_str("≈")?;
        }
        write!(f, "{int}")?;
        if used > 0 {
            f.write_str(".")?;
            for d in &digits[..used] {
                write!(f, "{d}")?;
            }
        }
        Ok(())
    }

    /// The value rounded (half up) to at most `max_decimals` digits after the
    /// point, trailing zeros dropped.
    fn decimal_parts(self, max_decimals: u32) -> Decimal {
        let den = self.den as u128;
        let mut int = self.num / den;
        let mut rem = self.num % den;
        // Collect up to max_decimals digits; if the remainder is then zero it is exact.
        let mut digits = [0u8; 18];
        let n = max_decimals.min(18) as usize;
        let mut used = 0;
        while rem != 0 && used < n {
            rem *= 10;
            digits[used] = (rem / den) as u8;
            rem %= den;
            used += 1;
        }
        let exact = rem == 0;
        // Round half up on the next digit.
        if !exact && rem * 10 / den >= 5 {
            let mut i = used;
            loop {
                if i == 0 {
                    int += 1;
                    break;
                }
                i -= 1;
                if digits[i] == 9 {
                    digits[i] = 0;
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        }
        // Drop trailing zeros (they can appear after rounding).
        while used > 0 && digits[used - 1] == 0 {
            used -= 1;
        }
        Decimal {
            exact,
            int,
            digits,
            used,
        }
    }
}

fn sat(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

impl PartialEq for Frac {
    fn eq(&self, other: &Frac) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Frac {}

impl PartialOrd for Frac {
    fn partial_cmp(&self, other: &Frac) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Frac {
    fn cmp(&self, other: &Frac) -> Ordering {
        if self.den == other.den {
            return self.num.cmp(&other.num);
        }
        // num < 2^127 in practice (times < 2^96); widen to avoid any overflow anyway.
        wide_mul(self.num, other.den).cmp(&wide_mul(other.num, self.den))
    }
}

/// `a * b` as a 192-bit number (high u128, low u128), for exact comparison.
fn wide_mul(a: u128, b: u64) -> (u128, u128) {
    let lo = (a as u64 as u128) * b as u128;
    let hi = (a >> 64) * b as u128;
    // a*b = hi * 2^64 + lo
    let (low, carry) = lo.overflowing_add(hi << 64);
    ((hi >> 64) + u128::from(carry), low)
}

impl fmt::Display for Frac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_decimal(f, 3)
    }
}

/// An exact time or duration in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ms(pub Frac);

impl Ms {
    /// Zero milliseconds.
    pub const ZERO: Ms = Ms(Frac::ZERO);

    /// Whole milliseconds.
    pub const fn from_ms(ms: u64) -> Ms {
        Ms(Frac::whole(ms as u128))
    }

    /// `scaled / scale` milliseconds.
    pub const fn scaled(scaled: u128, scale: u64) -> Ms {
        Ms(Frac::new(scaled, scale))
    }

    /// Is it exactly zero?
    pub const fn is_zero(self) -> bool {
        self.0.is_zero()
    }

    /// Rounded up to whole milliseconds (a request released at this time cannot
    /// leave before it), saturating.
    pub fn ceil_ms(self) -> u64 {
        self.0.ceil()
    }

    /// Rounded down to whole milliseconds, saturating.
    pub fn floor_ms(self) -> u64 {
        self.0.floor()
    }

    /// Whole seconds, rounded up (as `Retry-After` wants), saturating.
    pub fn ceil_secs(self) -> u64 {
        Frac::new(self.0.num, self.0.den.saturating_mul(1000)).ceil()
    }

    /// Milliseconds as a float, for drawing only.
    pub fn to_f64(self) -> f64 {
        self.0.to_f64()
    }
}

impl fmt::Display for Ms {
    /// Seconds with up to three decimals: "9.8 s", "≈3.333 s".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Frac::new(self.0.num, self.0.den.saturating_mul(1000)).write_decimal(f, 3)?;
        f.write_str(" s")
    }
}

/// An exact amount of requests or tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Amount(pub Frac);

impl Amount {
    /// A whole number of requests.
    pub const fn whole(n: u64) -> Amount {
        Amount(Frac::whole(n as u128))
    }

    /// `num / den` requests.
    pub const fn new(num: u128, den: u64) -> Amount {
        Amount(Frac::new(num, den))
    }

    /// Whole requests (rounded down).
    pub fn floor(self) -> u64 {
        self.0.floor()
    }

    /// For drawing only.
    pub fn to_f64(self) -> f64 {
        self.0.to_f64()
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_decimal(f, 3)
    }
}

/// Exact integer division by a divisor fixed in advance, without a division
/// instruction: `x / d` is a multiplication by a precomputed reciprocal and a shift
/// (Granlund and Montgomery, "Division by invariant integers using multiplication",
/// 1994, theorem 4.2), exact for every dividend below [`Divisor::MAX_DIVIDEND`]. A
/// 64-bit division costs tens of cycles, natively and in wasm; this costs one wide
/// multiplication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Divisor {
    d: u64,
    /// Bits 0–55: `m = ceil(2^(54 + ℓ) / d)` with `ℓ = ceil(log2 d)`, at most 2^55;
    /// bits 56–63: the shift `54 + ℓ`. (Two words, so that the limiters that hold
    /// one stay small.)
    packed: u64,
}

const M_BITS: u32 = 56;

impl Divisor {
    /// Dividends must stay below this (2^54).
    pub(crate) const MAX_DIVIDEND: u64 = 1 << 54;

    /// The reciprocal of `d` (a zero divisor is treated as 1, as in [`Frac::new`]).
    pub(crate) fn new(d: u64) -> Divisor {
        let d = d.max(1);
        // ceil(log2 d): 0 for d = 1.
        let l = 64 - (d - 1).leading_zeros();
        let shift = 54 + l;
        // d > 2^(ℓ − 1), so m ≤ 2^55: it fits. m·d − 2^(54+ℓ) < d ≤ 2^ℓ is the
        // theorem's condition for every dividend below 2^54.
        let m = (1u128 << shift).div_ceil(d as u128) as u64;
        Divisor {
            d,
            packed: m | (shift as u64) << M_BITS,
        }
    }

    /// The divisor.
    pub(crate) fn get(self) -> u64 {
        self.d
    }

    /// `x / d`, rounded down, for `x <` [`Divisor::MAX_DIVIDEND`].
    #[inline]
    pub(crate) fn div(self, x: u64) -> u64 {
        debug_assert!(x < Self::MAX_DIVIDEND, "{x} is too large a dividend");
        let m = self.packed & ((1 << M_BITS) - 1);
        (mul_wide(x, m) >> (self.packed >> M_BITS)) as u64
    }

    /// `x / d`, rounded up, for `x + d − 1 <` [`Divisor::MAX_DIVIDEND`].
    #[inline]
    pub(crate) fn div_ceil(self, x: u64) -> u64 {
        self.div(x + (self.d - 1))
    }
}

/// `a · b` in full. In wasm a `u128` product is a call to a 128 × 128-bit routine;
/// four 32 × 32-bit products are what it needs here.
#[inline]
fn mul_wide(a: u64, b: u64) -> u128 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        a as u128 * b as u128
    }
    #[cfg(target_arch = "wasm32")]
    {
        mul_halves(a, b)
    }
}

/// `a · b` from four 32 × 32-bit products (what wasm runs; tested on every target).
#[cfg(any(test, target_arch = "wasm32"))]
#[inline]
fn mul_halves(a: u64, b: u64) -> u128 {
    const LOW: u64 = u32::MAX as u64;
    let (a1, a0) = (a >> 32, a & LOW);
    let (b1, b0) = (b >> 32, b & LOW);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // Each sum below stays under 2^64: three terms below 2^32 each, or a product
    // below 2^64 − 2^33 + 1 plus three terms below 2^32.
    let mid = (p00 >> 32) + (p01 & LOW) + (p10 & LOW);
    let lo = (p00 & LOW) | (mid << 32);
    let hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    ((hi as u128) << 64) | lo as u128
}

/// A value in decimal: its whole part and up to 18 digits after the point.
struct Decimal {
    /// Whether the digits are the whole value.
    exact: bool,
    int: u128,
    digits: [u8; 18],
    /// How many of `digits` are written.
    used: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn decimals_are_exact_or_marked() {
        assert_eq!(Frac::new(13, 4).to_string(), "3.25");
        assert_eq!(Frac::new(10, 3).to_string(), "≈3.333");
        assert_eq!(Frac::new(20, 3).to_string(), "≈6.667");
        // Not whole, so not rounded to a whole number while six decimals show it.
        assert_eq!(Frac::new(19999, 10000).to_string(), "1.9999");
        assert_eq!(Frac::new(59_989, 60_000).to_string(), "≈0.999817");
        assert_eq!(Frac::new(1, 3_000_000).to_string(), "≈0");
        assert_eq!(Frac::whole(5).to_string(), "5");
        assert_eq!(Ms::from_ms(9800).to_string(), "9.8 s");
        assert_eq!(Ms::scaled(100_000, 3).to_string(), "≈33.333 s");
    }

    #[test]
    fn comparison_is_by_value() {
        assert_eq!(Frac::new(1, 2), Frac::new(2, 4));
        assert!(Frac::new(1, 3) < Frac::new(34, 100));
        assert!(Frac::new(u128::MAX, 3) > Frac::new(u128::MAX, 4));
    }

    #[test]
    fn division_by_a_reciprocal_is_exact() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut divisors = alloc::vec![
            1u64,
            2,
            3,
            7,
            1000,
            1666,
            1 << 20,
            (1 << 32) + 1,
            (1 << 52) - 1
        ];
        for _ in 0..200 {
            // Every size of divisor, up to 2^53.
            let v = next();
            divisors.push((v >> (v % 64)) % (1 << 53) + 1);
        }
        for d in divisors {
            let r = Divisor::new(d);
            let max = Divisor::MAX_DIVIDEND - d;
            let near = (next() % (d * 3 + 1)).min(max);
            for n in [
                0,
                1,
                d - 1,
                d,
                (d + 1).min(max),
                max - 1,
                max,
                next() % max,
                near,
            ] {
                assert_eq!(r.div(n), n / d, "{n} / {d}");
                assert_eq!(r.div_ceil(n), n.div_ceil(d), "ceil {n} / {d}");
            }
        }
    }

    #[test]
    fn the_wasm_product_is_the_product() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = (x, x.rotate_left(23) >> (x % 64));
            assert_eq!(mul_halves(a, b), a as u128 * b as u128, "{a} · {b}");
        }
        assert_eq!(
            mul_halves(u64::MAX, u64::MAX),
            u64::MAX as u128 * u64::MAX as u128
        );
    }

    #[test]
    fn rounding() {
        assert_eq!(Ms::scaled(10, 3).ceil_ms(), 4);
        assert_eq!(Ms::scaled(10, 3).floor_ms(), 3);
        assert_eq!(Ms::from_ms(1).ceil_secs(), 1);
        assert_eq!(Ms::from_ms(1000).ceil_secs(), 1);
        assert_eq!(Ms::from_ms(1001).ceil_secs(), 2);
        assert_eq!(Frac::new(u128::MAX, 1).floor(), u64::MAX);
    }
}
