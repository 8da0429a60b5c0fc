//! A service run as text: one row per variant (demand, offered load and its
//! amplification, goodput, refusals and who refused, latency, the windows' maxima),
//! then each client's 429 rate per variant.

use ratelab_sim::service::{Decider, Percentiles, ServiceReport};

use crate::table::{render as table, Align};

/// The most clients listed one by one; the rest are summed up in one line.
const CLIENT_ROWS: usize = 12;

/// `1234` → `1.234 s`, whole seconds without decimals, under a second in ms.
fn ms(v: u64) -> String {
    if v < 1000 {
        format!("{v} ms")
    } else if v % 1000 == 0 {
        format!("{} s", v / 1000)
    } else {
        let s = format!("{}.{:03}", v / 1000, v % 1000);
        format!("{} s", s.trim_end_matches('0'))
    }
}

/// `p50 / p95 / p99`, `–` when nothing succeeded.
fn percentiles(p: &Percentiles) -> String {
    match (p.p50, p.p95, p.p99) {
        (Some(a), Some(b), Some(c)) => format!("{} / {} / {}", ms(a), ms(b), ms(c)),
        _ => "–".into(),
    }
}

/// `12.5%` from thousandths.
fn percent(permille: u64) -> String {
    if permille % 10 == 0 {
        format!("{}%", permille / 10)
    } else {
        format!("{}.{}%", permille / 10, permille % 10)
    }
}

/// Every variant's yardstick, and the clients' 429 rates.
pub fn render(services: &[ServiceReport]) -> String {
    let header = [
        "service",
        "demand",
        "offered",
        "amplification",
        "first try",
        "after retry",
        "gave up",
        "429",
        "503",
        "refused by",
        "store down: passed / refused",
        "latency p50 / p95 / p99",
        "max in 1 s",
        "max in W",
    ];
    let mut align = [Align::Right; 14];
    align[0] = Align::Left;
    align[9] = Align::Left;
    align[11] = Align::Left;
    let rows: Vec<Vec<String>> = services
        .iter()
        .map(|s| {
            let y = &s.yardstick;
            let mut refused: Vec<String> = y
                .denied_by
                .iter()
                .filter(|d| d.count > 0)
                .map(|d| format!("{} {}", d.limit, d.count))
                .collect();
            if y.fallback_refused > 0 {
                refused.push(format!("fallback {}", y.fallback_refused));
            }
            if y.status_503 > 0 {
                refused.push(format!("store down {}", y.status_503));
            }
            vec![
                s.id.clone(),
                y.demand.to_string(),
                y.offered.to_string(),
                y.amplification.clone(),
                y.goodput.first_try.to_string(),
                y.goodput.after_retry.to_string(),
                y.goodput.gave_up.to_string(),
                y.status_429.to_string(),
                y.status_503.to_string(),
                if refused.is_empty() {
                    "–".into()
                } else {
                    refused.join(", ")
                },
                if s.attempts.iter().any(|a| a.decider != Decider::Limits) {
                    format!(
                        "{} / {}",
                        y.fail_open + y.fallback_passed,
                        y.status_503 + y.fallback_refused
                    )
                } else {
                    "–".into()
                },
                percentiles(&y.latency_ms),
                y.max_in_1s.to_string(),
                format!("{} (W = {})", y.max_in_window, ms(y.window_ms)),
            ]
        })
        .collect();
    let mut out = table(&header, &align, &rows);
    out.push('\n');
    out.push_str(&clients(services));
    out
}

/// Per client, per variant: `passed / attempts (429 rate)`.
fn clients(services: &[ServiceReport]) -> String {
    let Some(first) = services.first() else {
        return String::new();
    };
    let mut header: Vec<&str> = vec!["client: passed / attempts (429s)"];
    header.extend(services.iter().map(|s| s.id.as_str()));
    let mut align = vec![Align::Right; header.len()];
    if let Some(a) = align.first_mut() {
        *a = Align::Left;
    }
    let count = first.yardstick.clients.len();
    let cell = |s: &ServiceReport, i: usize| {
        s.yardstick.clients.get(i).map_or(String::new(), |c| {
            format!(
                "{} / {} ({})",
                c.passed,
                c.offered,
                percent(c.rate_429_permille)
            )
        })
    };
    let mut rows: Vec<Vec<String>> = (0..count.min(CLIENT_ROWS))
        .map(|i| {
            let name = first.yardstick.clients.get(i).map_or("", |c| &c.name);
            let mut row = vec![name.to_string()];
            row.extend(services.iter().map(|s| cell(s, i)));
            row
        })
        .collect();
    if count > CLIENT_ROWS {
        let mut row = vec![format!("{} more clients", count - CLIENT_ROWS)];
        row.extend(services.iter().map(|s| {
            let rest = s.yardstick.clients.get(CLIENT_ROWS..).unwrap_or(&[]);
            let passed: u64 = rest.iter().map(|c| c.passed).sum();
            let offered: u64 = rest.iter().map(|c| c.offered).sum();
            let refused: u64 = rest.iter().map(|c| c.status_429).sum();
            let rate = if offered == 0 {
                0
            } else {
                (refused * 2000 + offered) / (2 * offered)
            };
            format!("{passed} / {offered} ({})", percent(rate))
        }));
        rows.push(row);
    }
    table(&header, &align, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_rates_read_plainly() {
        assert_eq!(ms(0), "0 ms");
        assert_eq!(ms(999), "999 ms");
        assert_eq!(ms(4000), "4 s");
        assert_eq!(ms(5402), "5.402 s");
        assert_eq!(ms(1500), "1.5 s");
        assert_eq!(percent(352), "35.2%");
        assert_eq!(percent(0), "0%");
        assert_eq!(percent(1000), "100%");
    }
}
