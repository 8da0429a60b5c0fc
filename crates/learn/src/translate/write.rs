//! From a lane back to each tool's config, where one maps.

use ratelab_core::Algorithm;
use serde::Serialize;

use super::{Message, Tool};
use ratelab_sim::LaneSpec;

/// How well a tool's config matches the lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fit {
    /// The tool decides exactly as the lane on every stream.
    Exact,
    /// The same rate and burst, decided a little differently (rounding, a coarser
    /// clock, refills in steps): the note says how.
    Close,
    /// The tool cannot express this lane.
    None,
}

/// One tool's config for a lane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Export {
    /// The tool.
    pub tool: Tool,
    /// How well it fits.
    pub fit: Fit,
    /// The config text, unless it does not fit at all.
    pub config: Option<String>,
    /// Why it fits as it does.
    pub note: Message,
}

/// What every tool would write for `lane`, in [`Tool::ALL`]'s order.
pub fn export(lane: &LaneSpec) -> Vec<Export> {
    Tool::ALL.iter().map(|&t| export_to(lane, t)).collect()
}

fn none(tool: Tool, key: &'static str) -> Export {
    Export {
        tool,
        fit: Fit::None,
        config: None,
        note: Message::new(key),
    }
}

/// `n` ms as Upstash writes durations: the largest unit that divides it.
fn upstash_duration(ms: u64) -> String {
    for (unit, scale) in [
        ("d", 86_400_000),
        ("h", 3_600_000),
        ("m", 60_000),
        ("s", 1_000),
    ] {
        if ms % scale == 0 {
            return format!("{} {unit}", ms / scale);
        }
    }
    format!("{ms} ms")
}

/// nginx's rate for N per W ms: `Xr/s` if whole per second, else `Xr/m` if whole per
/// minute. The engine's nginx decides from `N · 10⁶ / W` millirequests per second,
/// which both spellings keep.
fn nginx_rate(limit: u64, period_ms: u64) -> Option<String> {
    let (n, w) = (limit as u128, period_ms as u128);
    if (n * 1000) % w == 0 {
        Some(format!("{}r/s", n * 1000 / w))
    } else if (n * 60_000) % w == 0 {
        Some(format!("{}r/m", n * 60_000 / w))
    } else {
        None
    }
}

fn nginx_config(rate: &str, burst: u64, tail: &str) -> String {
    format!(
        "limit_req_zone $binary_remote_addr zone=ratelab:10m rate={rate};\nlimit_req zone=ratelab burst={burst}{tail};"
    )
}

/// The GCRA a lane equals, if one: the buckets and GCRA themselves, and nginx with
/// `nodelay` at a whole number of requests per second (then burst + 1).
fn as_gcra(lane: &LaneSpec) -> Option<(u64, u64, u64)> {
    let r = lane.resolved();
    let b = r.burst?;
    match lane.algorithm {
        Algorithm::TokenBucket | Algorithm::Gcra => Some((r.limit, r.period_ms, b)),
        Algorithm::Nginx if r.nodelay && (r.limit as u128 * 1000) % r.period_ms as u128 == 0 => {
            Some((r.limit, r.period_ms, b + 1))
        }
        _ => None,
    }
}

fn export_to(lane: &LaneSpec, tool: Tool) -> Export {
    let r = lane.resolved();
    let (n, w) = (r.limit, r.period_ms);
    match (lane.algorithm, tool) {
        (Algorithm::Nginx, Tool::Nginx) => match nginx_rate(n, w) {
            Some(rate) => {
                let tail = if r.nodelay {
                    " nodelay".to_string()
                } else {
                    match r.delay {
                        Some(d) if d > 0 => format!(" delay={d}"),
                        _ => String::new(),
                    }
                };
                Export {
                    tool,
                    fit: Fit::Exact,
                    config: Some(nginx_config(&rate, r.burst.unwrap_or(0), &tail)),
                    note: Message::new("export.nginx_same").with("n", r.burst.unwrap_or(0) + 1),
                }
            }
            None => none(tool, "export.nginx_rate"),
        },
        (Algorithm::FixedWindow, Tool::Upstash) => Export {
            tool,
            fit: Fit::Exact,
            config: Some(format!(
                "Ratelimit.fixedWindow({n}, \"{}\")",
                upstash_duration(w)
            )),
            note: Message::new("export.upstash_fixed"),
        },
        (Algorithm::SlidingWindowCounter, Tool::Upstash) => Export {
            tool,
            fit: Fit::Exact,
            config: Some(format!(
                "Ratelimit.slidingWindow({n}, \"{}\")",
                upstash_duration(w)
            )),
            note: Message::new("export.upstash_sliding"),
        },
        (Algorithm::LeakyQueue, Tool::Nginx) => match (nginx_rate(n, w), r.burst) {
            (Some(rate), Some(c)) if c >= 1 => Export {
                tool,
                fit: Fit::Close,
                config: Some(nginx_config(&rate, c.saturating_sub(1), "")),
                note: Message::new("export.nginx_queue").with("c", c),
            },
            _ => none(tool, "export.nginx_rate"),
        },
        _ => match as_gcra(lane) {
            Some((n, w, b)) => gcra_to(tool, n, w, b),
            None => none(
                tool,
                match lane.algorithm {
                    Algorithm::SlidingLog | Algorithm::SlidingLogLogsBlocked => "export.no_log",
                    Algorithm::FixedWindowAnchored => "export.no_anchored",
                    Algorithm::TokenBucketF64 => "export.no_float",
                    _ => "export.no_match",
                },
            ),
        },
    }
}

/// A GCRA (or token bucket) of `n` per `w` ms with burst `b`, as `tool` writes it.
fn gcra_to(tool: Tool, n: u64, w: u64, b: u64) -> Export {
    let (n128, w128) = (n as u128, w as u128);
    let whole_ns = (w128 * 1_000_000) % n128 == 0;
    match tool {
        Tool::Nginx => match nginx_rate(n, w) {
            Some(rate) if rate.ends_with("r/s") => Export {
                tool,
                fit: Fit::Exact,
                config: Some(nginx_config(&rate, b.saturating_sub(1), " nodelay")),
                note: Message::new("export.nginx_nodelay")
                    .with("b", b)
                    .with("burst", b.saturating_sub(1)),
            },
            Some(rate) => Export {
                tool,
                fit: Fit::Close,
                config: Some(nginx_config(&rate, b.saturating_sub(1), " nodelay")),
                note: Message::new("export.nginx_per_minute"),
            },
            None => none(tool, "export.nginx_rate"),
        },
        Tool::RedisCell if w % 1000 == 0 => Export {
            tool,
            fit: if whole_ns { Fit::Exact } else { Fit::Close },
            config: Some(format!(
                "CL.THROTTLE user123 {} {n} {}",
                b.saturating_sub(1),
                w / 1000
            )),
            note: if whole_ns {
                Message::new("export.cell")
                    .with("b", b)
                    .with("max_burst", b.saturating_sub(1))
            } else {
                Message::new("export.truncated_ns").with("tool", "redis-cell")
            },
        },
        Tool::RedisCell => none(tool, "export.cell_seconds"),
        Tool::Governor => {
            let named = match w {
                1_000 => Some("per_second"),
                60_000 => Some("per_minute"),
                3_600_000 => Some("per_hour"),
                _ => None,
            };
            let burst = if b == n && named.is_some() {
                String::new()
            } else {
                format!(".allow_burst(nonzero!({b}u32))")
            };
            let config = match (named, whole_ns) {
                (Some(name), _) => Some(format!("Quota::{name}(nonzero!({n}u32)){burst}")),
                (None, true) => {
                    let t_ns = w128 * 1_000_000 / n128;
                    let d = if t_ns % 1_000_000_000 == 0 {
                        format!("Duration::from_secs({})", t_ns / 1_000_000_000)
                    } else if t_ns % 1_000_000 == 0 {
                        format!("Duration::from_millis({})", t_ns / 1_000_000)
                    } else {
                        format!("Duration::from_nanos({t_ns})")
                    };
                    Some(format!(
                        "Quota::with_period({d}).unwrap().allow_burst(nonzero!({b}u32))"
                    ))
                }
                (None, false) => None,
            };
            match config {
                Some(c) => Export {
                    tool,
                    fit: if whole_ns { Fit::Exact } else { Fit::Close },
                    config: Some(c),
                    note: if whole_ns {
                        Message::new("export.governor").with("b", b)
                    } else {
                        Message::new("export.truncated_ns").with("tool", "governor")
                    },
                },
                None => none(tool, "export.governor_ns"),
            }
        }
        Tool::Spring if w % 1000 == 0 => {
            let k = w / 1000;
            Export {
                tool,
                fit: Fit::Close,
                config: Some(format!(
                    "redis-rate-limiter.replenishRate: {n}\nredis-rate-limiter.burstCapacity: {}\nredis-rate-limiter.requestedTokens: {k}",
                    b.saturating_mul(k)
                )),
                note: Message::new("export.spring"),
            }
        }
        Tool::Spring => none(tool, "export.spring_seconds"),
        Tool::Upstash if w % n == 0 => Export {
            tool,
            fit: Fit::Close,
            config: Some(format!(
                "Ratelimit.tokenBucket(1, \"{}\", {b})",
                upstash_duration(w / n)
            )),
            note: Message::new("export.upstash_bucket"),
        },
        Tool::Upstash => none(tool, "export.upstash_interval"),
    }
}
