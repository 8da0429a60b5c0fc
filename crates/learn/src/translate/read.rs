//! Reading each tool's config text into a lane.
//!
//! The readers look for the tool's own words and numbers and ignore the rest (a
//! pasted `server { … }` block, YAML around Spring's keys, a `let` around a governor
//! quota), so that people can paste what they have. What they cannot read is one
//! [`Message`] naming it.

use ratelab_core::Algorithm;

use super::{quote, Message, Tool};
use ratelab_sim::LaneSpec;

/// What a reader returns: the lane, the cost of one request, whether the lane is
/// exact, and the notes.
pub(super) type Read = (LaneSpec, u32, bool, Vec<Message>);

/// Which tool a text is written for.
pub(super) fn detect(text: &str) -> Result<Tool, Message> {
    let lower = text.to_ascii_lowercase();
    if text.trim().is_empty() {
        return Err(Message::new("error.empty"));
    }
    Ok(if lower.contains("cl.throttle") {
        Tool::RedisCell
    } else if lower.contains("limit_req") {
        Tool::Nginx
    } else if text.contains("Quota")
        || ["per_second", "per_minute", "per_hour", "with_period"]
            .iter()
            .any(|w| text.contains(w))
    {
        Tool::Governor
    } else if ["slidingWindow", "fixedWindow", "tokenBucket"]
        .iter()
        .any(|w| text.contains(w))
    {
        Tool::Upstash
    } else if lower.contains("replenish") || text.contains("RedisRateLimiter") {
        Tool::Spring
    } else {
        return Err(Message::new("error.unknown").with("text", quote(text)));
    })
}

/// A whole number as the tools write them (`10`, `10_000`, `10u32`).
fn number(word: &str, what: &'static str) -> Result<u64, Message> {
    let digits: String = word
        .trim()
        .trim_end_matches("u32")
        .trim_end_matches("u64")
        .chars()
        .filter(|&c| c != '_')
        .collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Message::new("error.number")
            .with("what", what)
            .with("text", quote(word)));
    }
    digits.parse::<u64>().map_err(|_| {
        Message::new("error.too_large")
            .with("what", what)
            .with("text", quote(word))
    })
}

/// The statements (up to `;`) that start with `directive` as a whole word.
fn statements<'a>(text: &'a str, directive: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(directive) {
        let before_ok = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = &rest[at + directive.len()..];
        let after_ok = after
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if before_ok && after_ok {
            let end = after.find(';').unwrap_or(after.len());
            out.push(&after[..end]);
            rest = &after[end..];
        } else {
            rest = after;
        }
    }
    out
}

/// `name=value` in a directive's words.
fn param<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    words
        .iter()
        .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
}

/// nginx: one `limit_req_zone` (the one `limit_req` names, if several) and the first
/// `limit_req`.
pub(super) fn nginx(text: &str) -> Result<Read, Message> {
    let zones = statements(text, "limit_req_zone");
    let reqs = statements(text, "limit_req");
    let req_words: Vec<&str> = reqs
        .first()
        .map(|r| r.split_whitespace().collect())
        .unwrap_or_default();
    let wanted = param(&req_words, "zone");
    let zone = zones
        .iter()
        .map(|z| z.split_whitespace().collect::<Vec<_>>())
        .find(|w| {
            wanted.is_none_or(|name| {
                param(w, "zone").is_some_and(|z| z.split(':').next() == Some(name))
            })
        });
    let Some(zone) = zone else {
        return Err(match wanted {
            Some(name) if !zones.is_empty() => {
                Message::new("error.nginx_zone").with("zone", quote(name))
            }
            _ => Message::new("error.nginx_no_zone"),
        });
    };
    let rate = param(&zone, "rate").ok_or_else(|| Message::new("error.nginx_no_rate"))?;
    let (n, period_ms) = if let Some(n) = rate.strip_suffix("r/s") {
        (n, 1_000)
    } else if let Some(n) = rate.strip_suffix("r/m") {
        (n, 60_000)
    } else {
        return Err(Message::new("error.nginx_rate").with("text", quote(rate)));
    };
    let n = number(n, "rate")?;
    let mut lane = LaneSpec::simple(Algorithm::Nginx, n, period_ms);
    let mut notes = Vec::new();
    if reqs.is_empty() {
        notes.push(Message::new("note.nginx_no_limit_req"));
    }
    if reqs.len() > 1 {
        notes.push(Message::new("note.nginx_first_only"));
    }
    let burst = param(&req_words, "burst")
        .map(|b| number(b, "burst"))
        .transpose()?
        .unwrap_or(0);
    lane.params.burst = Some(burst);
    let nodelay = req_words.contains(&"nodelay");
    let delay = param(&req_words, "delay")
        .map(|d| number(d, "delay"))
        .transpose()?;
    if nodelay && delay.is_some() {
        return Err(Message::new("error.nginx_both"));
    }
    lane.params.nodelay = nodelay;
    lane.params.delay = delay;
    if period_ms == 60_000 && (n * 1000) % 60 != 0 {
        notes.push(
            Message::new("note.nginx_per_minute")
                .with("rate", rate)
                .with("milli", n * 1000 / 60),
        );
    }
    Ok((lane, 1, true, notes))
}

/// redis-cell: `CL.THROTTLE <key> <max_burst> <count per period> <period> [<quantity>]`.
pub(super) fn cell(text: &str) -> Result<Read, Message> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '"' || c == '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let at = words
        .iter()
        .position(|w| w.eq_ignore_ascii_case("CL.THROTTLE"))
        .ok_or_else(|| Message::new("error.unknown").with("text", quote(text)))?;
    let args = &words[at + 1..];
    if !(4..=5).contains(&args.len()) {
        return Err(Message::new("error.cell_args").with("n", args.len()));
    }
    let max_burst = number(args[1], "max_burst")?;
    let count = number(args[2], "count per period")?;
    let period_s = number(args[3], "period")?;
    let quantity = args.get(4).map(|q| number(q, "quantity")).transpose()?;
    if count == 0 || period_s == 0 {
        return Err(Message::new("error.cell_zero"));
    }
    if quantity == Some(0) {
        return Err(Message::new("error.cell_peek"));
    }
    let period_ms = period_s.checked_mul(1000).ok_or_else(|| {
        Message::new("error.too_large")
            .with("what", "period")
            .with("text", period_s)
    })?;
    let burst = max_burst.saturating_add(1);
    let lane = LaneSpec::simple(Algorithm::Gcra, count, period_ms).with_burst(burst);
    let whole_ns = (period_s as u128 * 1_000_000_000) % count as u128 == 0;
    let mut notes = vec![Message::new("note.cell_burst")
        .with("max_burst", max_burst)
        .with("burst", burst)];
    if !whole_ns {
        notes.push(Message::new("note.truncated_ns").with("tool", "redis-cell"));
    }
    let cost = u32::try_from(quantity.unwrap_or(1)).map_err(|_| {
        Message::new("error.too_large")
            .with("what", "quantity")
            .with("text", quote(args[4]))
    })?;
    Ok((lane, cost, whole_ns, notes))
}

/// The text inside the parentheses right after the first `word` that has them.
fn call_args<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found + word.len();
        from = at;
        let Some(rest) = text[at..].trim_start().strip_prefix('(') else {
            continue;
        };
        let mut depth = 1;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(&rest[..i]);
                    }
                }
                _ => {}
            }
        }
        return None;
    }
    None
}

/// The first integer literal in `text` that is not part of a name (`NonZeroU32` has
/// none, `nonzero!(10u32)` has 10).
fn first_integer(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if starts {
            let end = text[i..]
                .find(|c: char| !(c.is_ascii_digit() || c == '_'))
                .map_or(text.len(), |e| i + e);
            return Some(&text[i..end]);
        }
        i += 1;
    }
    None
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// governor: `Quota::per_second(n)` (and `per_minute`, `per_hour`), or
/// `Quota::with_period(Duration::from_millis(d))`, then `.allow_burst(b)`.
pub(super) fn governor(text: &str) -> Result<Read, Message> {
    let count = |args: &str, what| {
        first_integer(args)
            .ok_or_else(|| {
                Message::new("error.number")
                    .with("what", what)
                    .with("text", quote(args))
            })
            .and_then(|n| number(n, what))
    };
    let mut notes = Vec::new();
    let per = [
        ("per_second", 1_000u64),
        ("per_minute", 60_000),
        ("per_hour", 3_600_000),
    ];
    let (limit, period_ms, default_burst, exact) =
        if let Some((name, p)) = per.iter().find(|(w, _)| text.contains(w)) {
            let n = count(call_args(text, name).unwrap_or(""), "max_burst")?;
            if n == 0 {
                return Err(Message::new("error.governor_zero"));
            }
            let exact = (*p as u128 * 1_000_000) % n as u128 == 0;
            (n, *p, n, exact)
        } else if let Some(args) = call_args(text, "with_period") {
            let units = [
                ("from_secs", 1_000_000_000u128),
                ("from_millis", 1_000_000),
                ("from_micros", 1_000),
                ("from_nanos", 1),
            ];
            if args.contains("_f64") || args.contains("_f32") {
                return Err(Message::new("error.governor_float"));
            }
            let (unit, ns) = units
                .iter()
                .find(|(u, _)| args.contains(u))
                .ok_or_else(|| Message::new("error.governor_duration").with("text", quote(args)))?;
            let d = count(call_args(args, unit).unwrap_or(""), "period")? as u128 * ns;
            if d == 0 {
                return Err(Message::new("error.governor_zero"));
            }
            // One cell per d ns = 10^6 / d cells per ms, in lowest terms.
            let g = gcd(1_000_000, d);
            let (limit, period) = (1_000_000 / g, d / g);
            let period = u64::try_from(period).map_err(|_| {
                Message::new("error.too_large")
                    .with("what", "period")
                    .with("text", quote(args))
            })?;
            (limit as u64, period, 1, true)
        } else {
            return Err(Message::new("error.governor_quota"));
        };
    let burst = match call_args(text, "allow_burst") {
        Some(args) => count(args, "allow_burst")?,
        None => default_burst,
    };
    if burst == 0 {
        return Err(Message::new("error.governor_zero"));
    }
    if !exact {
        notes.push(Message::new("note.truncated_ns").with("tool", "governor"));
    }
    notes.push(Message::new("note.governor_burst").with("burst", burst));
    let lane = LaneSpec::simple(Algorithm::Gcra, limit, period_ms).with_burst(burst);
    Ok((lane, 1, exact, notes))
}

/// An Upstash duration: `"10 s"`, `"500ms"`, `"1 m"`, `"2h"`, `"1 d"`.
fn upstash_duration(text: &str) -> Result<u64, Message> {
    let t = text
        .trim()
        .trim_matches(|c| c == '"' || c == '\'' || c == '`');
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let scale = match unit.trim_start() {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(Message::new("error.upstash_duration").with("text", quote(t))),
    };
    let n = number(n, "duration")?;
    n.checked_mul(scale).ok_or_else(|| {
        Message::new("error.too_large")
            .with("what", "duration")
            .with("text", quote(text))
    })
}

/// Upstash Ratelimit (JavaScript): `Ratelimit.fixedWindow(tokens, window)`,
/// `slidingWindow(tokens, window)`, `tokenBucket(refillRate, interval, maxTokens)`.
pub(super) fn upstash(text: &str) -> Result<Read, Message> {
    let split =
        |args: &str| -> Vec<String> { args.split(',').map(|a| a.trim().to_string()).collect() };
    if let Some(args) = call_args(text, "slidingWindow").or_else(|| call_args(text, "fixedWindow"))
    {
        let sliding = text.contains("slidingWindow");
        let a = split(args);
        if a.len() != 2 {
            return Err(Message::new("error.upstash_args")
                .with(
                    "call",
                    if sliding {
                        "slidingWindow"
                    } else {
                        "fixedWindow"
                    },
                )
                .with("expected", "tokens, window"));
        }
        let n = number(&a[0], "tokens")?;
        let w = upstash_duration(&a[1])?;
        let (algorithm, note) = if sliding {
            (Algorithm::SlidingWindowCounter, "note.upstash_sliding")
        } else {
            (Algorithm::FixedWindow, "note.upstash_fixed")
        };
        return Ok((
            LaneSpec::simple(algorithm, n, w),
            1,
            true,
            vec![Message::new(note)],
        ));
    }
    if let Some(args) = call_args(text, "tokenBucket") {
        let a = split(args);
        if a.len() != 3 {
            return Err(Message::new("error.upstash_args")
                .with("call", "tokenBucket")
                .with("expected", "refillRate, interval, maxTokens"));
        }
        let r = number(&a[0], "refillRate")?;
        let i = upstash_duration(&a[1])?;
        let max = number(&a[2], "maxTokens")?;
        let lane = LaneSpec::simple(Algorithm::TokenBucket, r, i).with_burst(max);
        let note = Message::new("note.upstash_bucket")
            .with("r", r)
            .with("interval", ratelab_sim::share::format_duration(i));
        return Ok((lane, 1, false, vec![note]));
    }
    Err(Message::new("error.upstash_call"))
}

/// The value written after `key` and `:` or `=` (YAML, properties).
fn setting<'a>(text: &'a str, keys: &[&str]) -> Option<&'a str> {
    for line in text.lines() {
        for key in keys {
            if let Some(at) = line.find(key) {
                let rest = line[at + key.len()..].trim_start();
                if let Some(v) = rest.strip_prefix(':').or_else(|| rest.strip_prefix('=')) {
                    return Some(v.trim().trim_matches(|c| c == '"' || c == '\''));
                }
            }
        }
    }
    None
}

/// Spring Cloud Gateway: `replenishRate`, `burstCapacity`, `requestedTokens` as
/// YAML or properties, or `new RedisRateLimiter(replenishRate, burstCapacity[,
/// requestedTokens])`.
pub(super) fn spring(text: &str) -> Result<Read, Message> {
    let (rate, cap, tokens) = if let Some(args) = call_args(text, "RedisRateLimiter") {
        let a: Vec<&str> = args.split(',').map(str::trim).collect();
        if !(2..=3).contains(&a.len()) {
            return Err(Message::new("error.spring_args").with("n", a.len()));
        }
        (
            number(a[0], "replenishRate")?,
            number(a[1], "burstCapacity")?,
            a.get(2)
                .map(|t| number(t, "requestedTokens"))
                .transpose()?
                .unwrap_or(1),
        )
    } else {
        let get = |keys: &[&str], what| setting(text, keys).map(|v| number(v, what)).transpose();
        let rate = get(
            &["replenishRate", "replenish-rate", "replenish_rate"],
            "replenishRate",
        )?
        .ok_or_else(|| Message::new("error.spring_rate"))?;
        // Spring's defaults: burstCapacity 1, requestedTokens 1.
        let cap = get(
            &["burstCapacity", "burst-capacity", "burst_capacity"],
            "burstCapacity",
        )?
        .unwrap_or(1);
        let tokens = get(
            &["requestedTokens", "requested-tokens", "requested_tokens"],
            "requestedTokens",
        )?
        .unwrap_or(1);
        (rate, cap, tokens)
    };
    if cap == 0 {
        return Err(Message::new("error.spring_zero"));
    }
    if rate == 0 || tokens == 0 {
        return Err(Message::new("error.spring_rate"));
    }
    let mut notes = vec![Message::new("note.spring_clock")];
    // In requests: r tokens a second at c tokens a request is r requests per c s,
    // and b tokens hold ⌊b / c⌋ requests.
    let period_ms = tokens.checked_mul(1000).ok_or_else(|| {
        Message::new("error.too_large")
            .with("what", "requestedTokens")
            .with("text", tokens)
    })?;
    let burst = cap / tokens;
    if burst == 0 {
        return Err(Message::new("error.spring_small")
            .with("b", cap)
            .with("c", tokens));
    }
    let exact_units = cap % tokens == 0;
    if !exact_units {
        notes.push(
            Message::new("note.spring_remainder")
                .with("b", cap)
                .with("c", tokens)
                .with("burst", burst),
        );
    }
    if tokens > 1 {
        notes.push(Message::new("note.spring_units").with("c", tokens));
    }
    let lane = LaneSpec::simple(Algorithm::TokenBucket, rate, period_ms).with_burst(burst);
    Ok((lane, 1, false, notes))
}
