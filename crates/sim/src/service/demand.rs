//! First attempts: every client's demand, made from the seed, merged into one
//! sorted list.
//!
//! Client `c` (its index in the service) draws from generators of its own,
//! `Pcg64::new(seed | c << 64, S)` with one stream selector `S` per purpose
//! (arrivals, route choices, retry jitter), so a client's traffic depends only on the
//! seed, its index and its own spec: adding a client, or changing another client's
//! retry policy, leaves it alone. A Poisson part `j` of a client's demand uses
//! [`crate::traffic::Poisson`]'s arrivals (software `ln`, the same bits in wasm) from
//! the arrival generator with selector `S + 2j`.

use rand_core::Rng;
use rand_pcg::Pcg64;

use crate::error::SimError;
use crate::stream::MAX_REQUESTS;
use crate::traffic::Poisson;

use super::spec::{ClientSpec, Demand, ServiceSpec};

const ARRIVALS: u128 = 0x5261_7465_4c61_6220_6172_7269_7665;
const ROUTES: u128 = 0x5261_7465_4c61_6220_726f_7574_6573;
const JITTER: u128 = 0x5261_7465_4c61_6220_6a69_7474_6572;
const BALANCER: u128 = 0x5261_7465_4c61_6220_6261_6c61_6e63;

/// The generator of client `client` for one purpose.
fn client_rng(seed: u64, client: u32, stream: u128) -> Pcg64 {
    Pcg64::new(seed as u128 | (client as u128) << 64, stream)
}

/// Client `client`'s jitter generator (used by [`super::retry`]).
pub(crate) fn jitter_rng(seed: u64, client: u32) -> Pcg64 {
    client_rng(seed, client, JITTER)
}

/// The balancer's generator (random balancing).
pub(crate) fn balancer_rng(seed: u64) -> Pcg64 {
    Pcg64::new(seed as u128, BALANCER)
}

/// A whole number drawn uniformly from `0..=max`, without modulo bias.
pub(crate) fn uniform(rng: &mut Pcg64, max: u64) -> u64 {
    let Some(n) = max.checked_add(1) else {
        return rng.next_u64();
    };
    // Reject the top partial copy of 0..n so that every value is equally likely.
    let zone = u64::MAX - (u64::MAX - n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= zone {
            return x % n;
        }
    }
}

/// One first attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Arrival {
    /// When it is sent.
    pub t: u64,
    /// Which client (index).
    pub client: u32,
    /// Its order within the client's demand (a tie-break that keeps the sort exact).
    pub order: u32,
    /// Which route (index).
    pub route: u32,
}

/// Every client's first attempts, sorted by time, then client, then order.
pub(crate) fn first_attempts(spec: &ServiceSpec, path: &str) -> Result<Vec<Arrival>, SimError> {
    let mut out = Vec::new();
    for (c, client) in (0u32..).zip(&spec.clients) {
        let times = client_times(spec, c, client, path)?;
        let mut routes = client_rng(spec.seed, c, ROUTES);
        // Drawn in the order of the service's routes, however the mix was written.
        let mut mix = client.routes.clone();
        mix.sort_unstable();
        let total: u64 = mix.iter().map(|&(_, w)| w as u64).sum();
        for (order, t) in (0u32..).zip(times) {
            if out.len() >= MAX_REQUESTS {
                return Err(too_much(path));
            }
            let route = if client.routes.len() == 1 {
                client.routes.first().map_or(0, |&(r, _)| r)
            } else {
                pick(
                    &client.routes,
                    uniform(&mut routes, total.saturating_sub(1)),
                )
            };
            out.push(Arrival {
                t,
                client: c,
                order,
                route,
            });
        }
    }
    out.sort_unstable();
    Ok(out)
}

fn too_much(path: &str) -> SimError {
    SimError::at(
        path,
        format_args!("the demand makes more than {MAX_REQUESTS} requests"),
    )
}

/// The route whose cumulative weight range holds `x`.
fn pick(routes: &[(u32, u32)], x: u64) -> u32 {
    let mut acc = 0u64;
    for &(r, w) in routes {
        acc += w as u64;
        if x < acc {
            return r;
        }
    }
    routes.last().map_or(0, |&(r, _)| r)
}

/// One client's first-attempt times, sorted.
fn client_times(
    spec: &ServiceSpec,
    c: u32,
    client: &ClientSpec,
    path: &str,
) -> Result<Vec<u64>, SimError> {
    let mut times = Vec::new();
    let push = |t: u64, times: &mut Vec<u64>| {
        if times.len() >= MAX_REQUESTS {
            Err(too_much(path))
        } else {
            times.push(t);
            Ok(())
        }
    };
    for (j, part) in (0u128..).zip(&client.demand) {
        match part {
            Demand::Poisson {
                rate,
                per_ms,
                from_ms,
                until_ms,
            } => {
                let end = until_ms.unwrap_or(spec.duration_ms);
                let p = Poisson {
                    clients: 1,
                    load_permille: 1000,
                    limit: *rate,
                    period_ms: *per_ms,
                    duration_ms: end.saturating_sub(*from_ms),
                    seed: spec.seed,
                };
                for t in p.arrivals(client_rng(spec.seed, c, ARRIVALS + 2 * j)) {
                    push(from_ms + t, &mut times)?;
                }
            }
            Demand::Bursts {
                size,
                spacing_ms,
                every_ms,
                from_ms,
                until_ms,
            } => {
                let end = until_ms.unwrap_or(spec.duration_ms);
                let mut start = *from_ms;
                while start < end {
                    for k in 0..*size as u64 {
                        push(
                            start.saturating_add(k.saturating_mul(*spacing_ms)),
                            &mut times,
                        )?;
                    }
                    match every_ms {
                        Some(e) => start = start.saturating_add(*e),
                        None => break,
                    }
                }
            }
            Demand::PageLoads { size, at_ms } => {
                for &t in at_ms {
                    for _ in 0..*size {
                        push(t, &mut times)?;
                    }
                }
            }
            Demand::Times(given) => {
                for &t in given {
                    push(t, &mut times)?;
                }
            }
        }
    }
    times.sort_unstable();
    Ok(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_covers_its_range_and_nothing_else() {
        let mut rng = jitter_rng(1, 0);
        let mut seen = [0u32; 4];
        for _ in 0..4000 {
            let x = uniform(&mut rng, 3) as usize;
            seen[x] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(uniform(&mut rng, 0), 0);
        let _ = uniform(&mut rng, u64::MAX);
    }

    #[test]
    fn weights_pick_routes() {
        let routes = [(2, 3), (0, 1)];
        let picked: Vec<u32> = (0..4).map(|x| pick(&routes, x)).collect();
        assert_eq!(picked, [2, 2, 2, 0]);
    }
}
