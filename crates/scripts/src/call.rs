//! How to call a script, as a person would type it.

use alloc::format;
use alloc::string::String;

use crate::{KeySpace, LuaLane};

impl LuaLane {
    /// The `redis-cli` lines that load the script from the file `<name>.lua` holding
    /// exactly [`Script::text`](crate::Script::text) (what `ratelab lua` prints on
    /// standard output and the playground's Copy copies), and decide one request of
    /// cost 1 for `key` on the server's clock, with a reading of the reply.
    ///
    /// `redis-cli -x` sends the file's bytes unchanged, so `SCRIPT LOAD` answers the
    /// SHA1 printed here; `"$(cat file)"` would not (the shell drops the final
    /// newline, and the SHA1 changes with it).
    pub fn example_call(&self, space: &KeySpace, lane: &str, key: &str) -> String {
        let keys = self.keys(space, lane, key);
        let mut quoted = String::new();
        for k in &keys {
            quoted.push(' ');
            quoted.push_str(&shell_quote(k));
        }
        let mut args = String::from("TIME 1 0");
        for a in self.params_args() {
            args.push(' ');
            args.push_str(&a);
        }
        let sha = self.script().sha1;
        format!(
            "# Save as {name}.lua; load once per server (prints {sha}, its EVALSHA name):\n\
             redis-cli -x SCRIPT LOAD < {name}.lua\n\
             # Per request: {n} key(s), server clock (TIME), cost 1, slack 0, {params}:\n\
             redis-cli EVALSHA {sha} {n}{quoted} {args}\n\
             # Unloaded or on NOSCRIPT (restart, flush), EVAL the file: keys , arguments\n\
             redis-cli --eval {name}.lua{quoted} , {args}\n\
             # Reply: allowed (1/0); wait, retry-after, reset (numerator, denominator: ms);\n\
             # remaining; ms to rest (TTL); time used; state numbers kept.\n",
            name = self.script().name,
            n = keys.len(),
            params = self.params_names(),
        )
    }

    /// The `redis-cli` line that decides one request of cost 1 for `key` on the
    /// server's clock through the function library ([`crate::library`], loaded
    /// with `redis-cli -x FUNCTION LOAD REPLACE < ratelab.lua`): the same keys and
    /// arguments as [`LuaLane::example_call`]'s EVALSHA, the function's name in place
    /// of the SHA1.
    pub fn example_fcall(&self, space: &KeySpace, lane: &str, key: &str) -> String {
        let mut line = format!(
            "redis-cli FCALL {}",
            crate::library::function(self.algorithm()).unwrap_or_default()
        );
        let keys = self.keys(space, lane, key);
        line.push_str(&format!(" {}", keys.len()));
        for k in &keys {
            line.push(' ');
            line.push_str(&shell_quote(k));
        }
        line.push_str(" TIME 1 0");
        for a in self.params_args() {
            line.push(' ');
            line.push_str(&a);
        }
        line
    }

    fn params_names(&self) -> &'static str {
        use ratelab_core::Algorithm::*;
        match self.algorithm() {
            TokenBucket | Gcra => "limit, period_ms, burst",
            LeakyQueue => "limit, period_ms, capacity",
            Nginx => "limit, period_ms, burst, delay (or nodelay)",
            _ => "limit, period_ms",
        }
    }
}

/// `s` in single quotes for a POSIX shell (one word, whatever it holds).
pub fn shell_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}
