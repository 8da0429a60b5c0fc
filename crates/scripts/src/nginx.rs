//! The nginx lines that configure an nginx lane: `limit_req_zone` and `limit_req`.
//!
//! nginx writes a rate as whole requests per second (`10r/s`) or per minute
//! (`100r/m`) and keeps it as millirequests per second rounded down (`100r/m` is
//! 1666). The engine's nginx port keeps `limit · 1 000 000 / period_ms` rounded
//! down; the lines below say the rate nginx would keep as the same number whenever
//! one of nginx's two forms can, so both decide alike. (The tests run these lines
//! on a real nginx.)

use alloc::format;
use alloc::string::String;

use ratelab_core::{Algorithm, AnyLimiter, Params};

use crate::ScriptError;

/// The configuration of one nginx lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NginxConfig {
    /// The rate as nginx writes it: `10r/s`, `30r/m`.
    pub rate: String,
    /// The rate nginx keeps, in millirequests per second.
    pub milli: u64,
    /// Whether `rate` keeps exactly the engine's millirequests. When it cannot,
    /// `rate` is the nearest nginx can write.
    pub exact: bool,
    /// The `limit_req_zone` line (in `http { }`).
    pub zone: String,
    /// The `limit_req` line (in the `server { }` or `location { }` it guards).
    pub limit: String,
}

/// The lines for an nginx lane with `params`, in a zone named `zone`.
pub fn config(params: &Params, zone: &str) -> Result<NginxConfig, ScriptError> {
    AnyLimiter::new(Algorithm::Nginx, params)?;
    let milli = params.limit * 1_000_000 / params.period_ms;
    let (rate, exact) = if milli % 1000 == 0 {
        (format!("{}r/s", milli / 1000), true)
    } else {
        // nginx keeps n r/m as floor(n · 1000 / 60): the least n reaching `milli`
        // either keeps it exactly or overshoots it; then the nearer of it and the one
        // below is said, marked as not exact.
        let per_min = |n: u64| n * 1000 / 60;
        let n = (milli * 60).div_ceil(1000);
        if per_min(n) == milli {
            (format!("{n}r/m"), true)
        } else {
            let lower = n.saturating_sub(1).max(1);
            let nearest = if milli - per_min(lower).min(milli) <= per_min(n) - milli {
                lower
            } else {
                n
            };
            (format!("{nearest}r/m"), false)
        }
    };
    let mut limit = format!("limit_req zone={zone}");
    let burst = params.burst_for(Algorithm::Nginx);
    if burst > 0 {
        limit.push_str(&format!(" burst={burst}"));
    }
    if params.nodelay {
        limit.push_str(" nodelay");
    } else if let Some(d) = params.delay.filter(|&d| d > 0) {
        limit.push_str(&format!(" delay={d}"));
    }
    limit.push(';');
    Ok(NginxConfig {
        zone: format!("limit_req_zone $binary_remote_addr zone={zone}:10m rate={rate};"),
        milli: if exact { milli } else { rate_milli(&rate) },
        rate,
        exact,
        limit,
    })
}

fn rate_milli(rate: &str) -> u64 {
    let (n, unit) = rate.split_at(rate.len() - 3);
    let n: u64 = n.parse().unwrap_or(0);
    if unit == "r/s" {
        n * 1000
    } else {
        n * 1000 / 60
    }
}

impl NginxConfig {
    /// The lines with a word on where each goes, ready to paste.
    pub fn text(&self, params: &Params) -> String {
        let burst = params.burst_for(Algorithm::Nginx);
        let mut out = String::new();
        if !self.exact {
            out.push_str(&format!(
                "# nginx cannot write {} millirequests per second exactly; {} keeps {}.\n",
                params.limit * 1_000_000 / params.period_ms,
                self.rate,
                self.milli
            ));
        }
        out.push_str(&format!(
            "# In http {{ }}: a 10 MB zone, one key per client address.\n{}\n\
             # In the server {{ }} or location {{ }} it guards ({} admitted at once):\n{}\n\
             limit_req_status 429;\n",
            self.zone,
            burst + 1,
            self.limit
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(
        limit: u64,
        period: u64,
        burst: Option<u64>,
        delay: Option<u64>,
        nodelay: bool,
    ) -> NginxConfig {
        config(
            &Params {
                burst,
                delay,
                nodelay,
                ..Params::new(limit, period)
            },
            "ratelab",
        )
        .unwrap()
    }

    #[test]
    fn rates_are_written_as_nginx_keeps_them() {
        assert_eq!(cfg(10, 1000, Some(5), None, false).rate, "10r/s");
        let c = cfg(100, 60_000, None, None, true);
        assert_eq!((c.rate.as_str(), c.milli, c.exact), ("100r/m", 1666, true));
        assert_eq!(c.limit, "limit_req zone=ratelab nodelay;");
        // 5 per 10 s is 0.5 r/s, which nginx writes as 30r/m.
        assert_eq!(cfg(5, 10_000, Some(3), Some(1), false).rate, "30r/m");
        assert_eq!(
            cfg(5, 10_000, Some(3), Some(1), false).limit,
            "limit_req zone=ratelab burst=3 delay=1;"
        );
        // 1 per 7 s is 142 millirequests: nginx has 8r/m (133) or 9r/m (150).
        let c = cfg(1, 7000, None, None, false);
        assert!(!c.exact);
        assert_eq!((c.rate.as_str(), c.milli), ("9r/m", 150));
    }
}
