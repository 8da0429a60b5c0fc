//! What the playground's "run it in production" part shows for a lane: a text to
//! copy (the lane's Lua script, its nginx lines, or for a teaching lane the wrong
//! script it stands for), how to call it with the lane's parameters, and what the
//! lab measured. Data, not sentences: the page words it in its own languages.

use alloc::string::String;

use ratelab_core::{Algorithm, Params};

use crate::nginx::{config, NginxConfig};
use crate::teaching::{teaching, Teaching};
use crate::{memory, KeySpace, LuaLane, Memory, Script, ScriptError};

/// What kind of text a lane gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A Redis Lua script (every exact limiter but nginx).
    Redis,
    /// nginx's `limit_req` lines (the nginx lane; its Lua port is `ratelab lua nginx`).
    Nginx,
    /// A teaching lane: the wrong script it stands for, labelled.
    Teaching,
}

/// A lane's production text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Production {
    /// What it is.
    pub kind: Kind,
    /// The text to copy (empty from [`production_without_text`] when it is
    /// [`Production::script`]'s).
    pub text: String,
    /// The script the text is (a Redis lane's, a teaching lane's wrong one); `None`
    /// for the nginx lane, whose lines are made from its parameters.
    pub script: Option<&'static Script>,
    /// For a Redis script: the `redis-cli` lines that load it and decide a request
    /// of cost 1 with the lane's parameters.
    pub call: Option<String>,
    /// For a Redis script: the memory lab's bytes per key.
    pub memory: Option<&'static Memory>,
    /// For the nginx lane: its configuration (and whether nginx can write its rate
    /// exactly).
    pub nginx: Option<NginxConfig>,
    /// For a teaching lane: which wrong script, and what goes wrong.
    pub teaching: Option<&'static Teaching>,
}

/// The production text of the lane `lane_id` running `algorithm` with `params`, with
/// its keys under the default prefix. Parameters beyond what Lua's numbers hold are
/// the error (in the engine's words).
pub fn production(
    algorithm: Algorithm,
    params: &Params,
    lane_id: &str,
) -> Result<Production, ScriptError> {
    let mut p = production_without_text(algorithm, params, lane_id)?;
    if let Some(s) = p.script {
        p.text = s.text().into();
    }
    Ok(p)
}

/// [`production`], except that a script's text is left empty, for the caller to
/// get from [`Production::script`]'s file (the playground fetches it when its box
/// opens, so that its bundle carries none of the scripts: about 7 KB gzipped).
pub fn production_without_text(
    algorithm: Algorithm,
    params: &Params,
    lane_id: &str,
) -> Result<Production, ScriptError> {
    let none = Production {
        kind: Kind::Redis,
        text: String::new(),
        script: None,
        call: None,
        memory: None,
        nginx: None,
        teaching: None,
    };
    let wrong = |id: &str| -> Result<Production, ScriptError> {
        let t = teaching(id).ok_or(ScriptError::NoScript {
            algorithm: algorithm.id(),
        })?;
        Ok(Production {
            kind: Kind::Teaching,
            script: t.script,
            teaching: Some(t),
            ..none.clone()
        })
    };
    match algorithm {
        Algorithm::SlidingLogLogsBlocked => wrong("sliding_log_zadd_first"),
        Algorithm::TokenBucketF64 => wrong("token_bucket_float_seconds"),
        Algorithm::Nginx => {
            let c = config(params, "ratelab")?;
            Ok(Production {
                kind: Kind::Nginx,
                text: c.text(params),
                nginx: Some(c),
                ..none
            })
        }
        _ => {
            let lane = LuaLane::new(algorithm, params)?;
            Ok(Production {
                kind: Kind::Redis,
                script: Some(lane.script()),
                call: Some(lane.example_call(&KeySpace::default(), lane_id, "client-42")),
                memory: memory(algorithm),
                ..none
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lane_gets_its_text() {
        let p = Params::new(5, 10_000);
        for a in Algorithm::ALL {
            let prod = production(a, &p, a.id()).unwrap();
            assert!(!prod.text.is_empty(), "{}", a.id());
            match prod.kind {
                Kind::Redis => {
                    assert!(prod
                        .text
                        .starts_with(&alloc::format!("-- ratelab {}", a.id())));
                    assert!(prod.call.as_deref().unwrap().contains(" 5 10000"));
                }
                Kind::Nginx => assert!(prod.text.contains("rate=30r/m")),
                Kind::Teaching => assert!(prod.text.contains("WRONG ON PURPOSE")),
            }
        }
        let huge = Params {
            burst: Some(u32::MAX as u64),
            ..Params::new(1, 1 << 40)
        };
        assert!(production(Algorithm::Gcra, &huge, "g").is_err());
    }
}
