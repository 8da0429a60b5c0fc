//! How to call a script, as a person would type it.

use alloc::format;
use alloc::string::String;

use crate::{KeySpace, LuaLane};

impl LuaLane {
    /// The `redis-cli` lines that load the script and decide one request of cost 1
    /// for `key` on the server's clock, with a reading of the reply.
    pub fn example_call(&self, space: &KeySpace, lane: &str, key: &str) -> String {
        let keys = self.keys(space, lane, key);
        let mut call = format!("redis-cli EVALSHA {} {}", self.script().sha1, keys.len());
        for k in &keys {
            call.push(' ');
            call.push_str(&shell_quote(k));
        }
        call.push_str(" TIME 1 0");
        for a in self.params_args() {
            call.push(' ');
            call.push_str(&a);
        }
        format!(
            "# Once per server (prints {sha}, the name EVALSHA uses):\n\
             redis-cli SCRIPT LOAD \"$(cat {name}.lua)\"\n\
             # Per request: {n} key(s), the server's clock (TIME), cost 1, slack 0, then {params}:\n\
             {call}\n\
             # On NOSCRIPT (a restarted or flushed server), load it again or send EVAL with the text.\n\
             # The reply: allowed (1/0); wait, retry-after and reset as numerator, denominator\n\
             # in ms; requests remaining; ms until the key is at rest (its TTL); the time used;\n\
             # numbers of state kept.\n",
            sha = self.script().sha1,
            name = self.script().name,
            n = keys.len(),
            params = self.params_names(),
        )
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

/// `s` in single quotes for a POSIX shell.
fn shell_quote(s: &str) -> String {
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
