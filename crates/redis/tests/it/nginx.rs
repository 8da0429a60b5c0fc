//! The nginx lane against a real nginx: the lines ratelab writes for a lane, short
//! real-time streams (simultaneous bursts, then spaced requests), and nginx's own
//! clock from its access log fed to the engine's port. nginx's statuses equal the
//! port's, and every delayed request is held at least the port's wait (less the one
//! millisecond nginx's clock can tick between taking a request and limiting it).

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use ratelab_core::{Algorithm, AnyLimiter, Limiter, Params};
use ratelab_redis::nginx::{send, version, Logged, Nginx};
use ratelab_scripts::nginx::config;

/// How much longer than the port's wait nginx may hold a request (timers fire on
/// the next event loop turn; the machine may be busy).
const SLACK_MS: u64 = 200;
/// How much shorter: nginx's clock (whole ms, updated once per event loop turn) can
/// tick between taking a request, the time the log gives, and its limit_req phase,
/// where the wait is computed; a request seen 1 ms later has drained 1 ms more.
const TICK_MS: u64 = 1;

/// A real-time case must keep every request at least 40 ms from the moment its
/// answer would flip (when enough of the excess has drained): nginx's clock can tick
/// between the time its log gives and its limit phase, and groups sent "at once"
/// spread over a millisecond or two. A request planned exactly on such a moment
/// (the old 1000 ms pair of the nodelay case, the per-minute case's 1200 ms) made
/// the test flaky.
struct Case {
    name: &'static str,
    params: Params,
    /// Groups of simultaneous requests: (ms after the start, how many).
    plan: &'static [(u64, usize)],
}

fn params(limit: u64, period_ms: u64, burst: u64, delay: Option<u64>, nodelay: bool) -> Params {
    Params {
        burst: Some(burst),
        delay,
        nodelay,
        ..Params::new(limit, period_ms)
    }
}

/// Sends the plan to nginx, group by group at its time, each group's requests at
/// once; returns the statuses the client saw (in request-number order).
fn drive(nginx: &Nginx, plan: &[(u64, usize)]) -> Vec<u16> {
    let start = Instant::now();
    let mut groups = Vec::new();
    let mut n = 0;
    for &(at, count) in plan {
        let first = n;
        n += count;
        std::thread::sleep(Duration::from_millis(at).saturating_sub(start.elapsed()));
        // Connect first, then send together.
        let streams: Vec<_> = (0..count).map(|_| nginx.open().unwrap()).collect();
        let barrier = Arc::new(Barrier::new(count));
        let handles: Vec<_> = streams
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let barrier = Arc::clone(&barrier);
                std::thread::spawn(move || {
                    barrier.wait();
                    (
                        first + i,
                        send(s, &format!("/index.html?r={}", first + i)).unwrap(),
                    )
                })
            })
            .collect();
        groups.push(handles);
    }
    let mut statuses = vec![0; n];
    for h in groups.into_iter().flatten() {
        let (i, status) = h.join().unwrap();
        statuses[i] = status;
    }
    statuses
}

fn check(case: &Case) {
    let lines = config(&case.params, "ratelab").unwrap();
    assert!(lines.exact, "{}: {}", case.name, lines.rate);
    let nginx = Nginx::start(
        &lines.zone,
        &format!("{}\n      limit_req_status 429;", lines.limit),
    )
    .unwrap();
    let client = drive(&nginx, case.plan);
    let mut log: Vec<Logged> = nginx.log().unwrap();
    assert_eq!(
        log.len(),
        client.len(),
        "{}: one log line per request",
        case.name
    );
    for l in &log {
        let i: usize = l.uri.rsplit('=').next().unwrap().parse().unwrap();
        assert_eq!(
            l.status, client[i],
            "{}: the log says what the client got",
            case.name
        );
    }
    // nginx's order of arrival, by its own clock; within a millisecond the order is
    // unknown, so each millisecond's requests are compared as a group.
    log.sort_by_key(|l| l.start_ms);
    let t0 = log[0].start_ms;
    let mut port = AnyLimiter::new(Algorithm::Nginx, &case.params).unwrap();
    let mut i = 0;
    while i < log.len() {
        let at = log[i].start_ms;
        let group: Vec<&Logged> = log[i..].iter().take_while(|l| l.start_ms == at).collect();
        i += group.len();
        let decided: Vec<_> = group
            .iter()
            .map(|_| port.check(at - t0, 1).unwrap())
            .collect();
        let mut want: Vec<(u16, u64)> = decided
            .iter()
            .map(|d| (if d.allowed() { 200 } else { 429 }, d.wait().ceil_ms()))
            .collect();
        let mut got: Vec<(u16, u64)> = group.iter().map(|l| (l.status, l.held_ms)).collect();
        want.sort();
        got.sort();
        if std::env::var_os("RATELAB_NGINX_VERBOSE").is_some() {
            eprintln!(
                "{} at {} ms: nginx {got:?}, port {want:?}",
                case.name,
                at - t0
            );
        }
        let statuses = |v: &[(u16, u64)]| v.iter().map(|p| p.0).collect::<Vec<_>>();
        assert_eq!(
            statuses(&got),
            statuses(&want),
            "{}: at {} ms nginx said {got:?}, the port {want:?}",
            case.name,
            at - t0
        );
        for (g, w) in got.iter().zip(&want) {
            if g.0 == 200 {
                assert!(
                    g.1 + TICK_MS >= w.1 && g.1 <= w.1 + SLACK_MS,
                    "{}: at {} ms nginx held a request {} ms, the port says {} ms",
                    case.name,
                    at - t0,
                    g.1,
                    w.1
                );
            }
        }
    }
    eprintln!(
        "{}: {} requests, {} passed, nginx and the port agree ({} / {})",
        case.name,
        client.len(),
        client.iter().filter(|&&s| s == 200).count(),
        lines.zone,
        lines.limit
    );
}

#[test]
fn nginx_decides_as_the_engines_port() {
    assert_eq!(
        version().unwrap(),
        ratelab_scripts::NGINX_VERSION,
        "the version the page names"
    );
    let cases = [
        Case {
            name: "burst (all excess delayed)",
            params: params(2, 1000, 5, None, false),
            plan: &[(0, 10), (3500, 1), (3700, 2)],
        },
        Case {
            name: "burst nodelay",
            params: params(2, 1000, 5, None, true),
            plan: &[(0, 10), (1100, 2), (1250, 1), (2600, 3)],
        },
        Case {
            name: "burst delay=3",
            params: params(2, 1000, 5, Some(3), false),
            plan: &[(0, 10), (2000, 3)],
        },
        Case {
            name: "per minute, nodelay",
            params: params(100, 60_000, 2, None, true),
            plan: &[
                (0, 4),
                (420, 1),
                (840, 1),
                (1260, 1),
                (1680, 1),
                (2100, 1),
                (2520, 1),
                (2940, 1),
                (3360, 1),
            ],
        },
        Case {
            name: "per minute, delayed",
            params: params(30, 60_000, 2, None, false),
            plan: &[(0, 4), (1500, 1), (2500, 1)],
        },
    ];
    // Each case has its own nginx; they run side by side to stay well under a minute.
    std::thread::scope(|s| {
        for case in &cases {
            s.spawn(move || check(case));
        }
    });
}
