//! The eight limiter scripts as one Redis 7 function library, the shipped form next
//! to `EVALSHA`: loaded once per server with `FUNCTION LOAD REPLACE`, each limiter
//! then called by name (`FCALL ratelab_gcra 1 <key> TIME 1 0 100 60000 20`), with no
//! SHA1 to track and nothing lost on `SCRIPT FLUSH` (functions are kept with the
//! data). Each function is its limiter's script, the same spliced text byte for
//! byte, with `KEYS` and `ARGV` as its parameters: the same exact arithmetic, the
//! same state under the same keys, the same reply and the same error texts.
//!
//! ```
//! use ratelab_core::Algorithm;
//! use ratelab_scripts::library;
//!
//! assert!(library::text().starts_with("#!lua name=ratelab\n"));
//! assert_eq!(library::function(Algorithm::Gcra), Some("ratelab_gcra"));
//! let gcra = ratelab_scripts::script(Algorithm::Gcra).unwrap();
//! assert!(library::text().contains(gcra.text()));
//! ```

use ratelab_core::Algorithm;

/// The library's name (its `#!lua name=` line): what `FUNCTION LOAD` answers, and
/// what `FUNCTION DELETE` takes.
pub const NAME: &str = "ratelab";

/// The library's text, what `FUNCTION LOAD` takes: a header (`lua/library.lua`),
/// then each of [`crate::SCRIPTS`] registered as `ratelab_<name>`. A function, not
/// a constant, so a build that never calls it carries none of it.
pub fn text() -> &'static str {
    crate::generated::library_text()
}

/// The function `algorithm` is registered as (`ratelab_gcra`); `None` for the
/// engine's teaching variants, which have no script.
pub fn function(algorithm: Algorithm) -> Option<&'static str> {
    Some(match algorithm {
        Algorithm::FixedWindow => "ratelab_fixed_window",
        Algorithm::FixedWindowAnchored => "ratelab_fixed_window_anchored",
        Algorithm::SlidingLog => "ratelab_sliding_log",
        Algorithm::SlidingWindowCounter => "ratelab_sliding_window_counter",
        Algorithm::TokenBucket => "ratelab_token_bucket",
        Algorithm::LeakyQueue => "ratelab_leaky_queue",
        Algorithm::Gcra => "ratelab_gcra",
        Algorithm::Nginx => "ratelab_nginx",
        Algorithm::SlidingLogLogsBlocked | Algorithm::TokenBucketF64 => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn each_limiter_is_its_script_registered_by_its_name() {
        let text = text();
        let mut n = 0;
        for a in Algorithm::ALL {
            let (Some(script), Some(name)) = (crate::script(a), function(a)) else {
                assert!(function(a).is_none(), "{}", a.id());
                continue;
            };
            assert_eq!(name, format!("ratelab_{}", script.name));
            let registered = format!(
                "\nredis.register_function('{name}', function(KEYS, ARGV)\n{}end)\n",
                script.text()
            );
            assert_eq!(text.matches(&registered).count(), 1, "{name}");
            n += 1;
        }
        assert_eq!(n, 8);
        assert_eq!(text.matches("redis.register_function(").count(), 8);
        assert!(text.starts_with(&format!("#!lua name={NAME}\n")));
    }
}
