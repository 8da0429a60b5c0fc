//! A connection to one server or to a cluster, and the pipelined script calls.

use std::time::Duration;

use redis::cluster::{ClusterClient, ClusterConnection};
use redis::{Cmd, ConnectionLike, ServerErrorKind, Value};

use ratelab_scripts::Script;

use crate::error::{one_line, Error};

/// How long to wait for a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long to wait for any reply (a pipeline of hundreds of script calls is far
/// quicker; a server that stops answering is reported rather than waited for).
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection to one Redis server or to a Redis Cluster.
pub struct Redis {
    url: String,
    /// Every node given, for a cluster (to open another connection like this one).
    nodes: Vec<String>,
    inner: Inner,
    /// Scripts loaded with `SCRIPT LOAD` through this connection.
    loaded: Vec<&'static str>,
    /// Whether the function library was loaded through this connection.
    library: bool,
    /// How long it waits for a reply.
    reply_timeout: Duration,
}

enum Inner {
    Single(redis::Connection),
    // Boxed: a cluster connection is four times the size of a single one.
    Cluster(Box<ClusterConnection>),
}

/// One script call: EVALSHA, or EVAL with the text when the server lost it; or
/// FCALL of the script's function in the library. The arguments are the call's own
/// (`head`) followed by ones shared by many calls (`tail`, a lane's parameters).
pub(crate) struct Call<'a> {
    pub script: &'static Script,
    /// The library's function to call instead (`ratelab_gcra`).
    pub function: Option<&'static str>,
    pub keys: &'a [String],
    pub head: Vec<String>,
    pub tail: &'a [String],
}

impl Call<'_> {
    fn cmd(&self, eval: bool) -> Cmd {
        let mut c = if let Some(f) = self.function {
            let mut c = redis::cmd("FCALL");
            c.arg(f);
            c
        } else if eval {
            let mut c = redis::cmd("EVAL");
            c.arg(self.script.text());
            c
        } else {
            let mut c = redis::cmd("EVALSHA");
            c.arg(self.script.sha1);
            c
        };
        c.arg(self.keys.len())
            .arg(self.keys)
            .arg(&self.head)
            .arg(self.tail);
        c
    }
}

impl Redis {
    /// Connects to one server, e.g. `redis://127.0.0.1:6379`.
    pub fn connect(url: &str) -> Result<Redis, Error> {
        Redis::connect_with(url, CONNECT_TIMEOUT, REPLY_TIMEOUT)
    }

    /// The same with other timeouts: a request path (ratelab-tower) waits a fraction
    /// of a second, not the 3 s and 30 s a replay or a lab waits.
    pub fn connect_with(url: &str, connect: Duration, reply: Duration) -> Result<Redis, Error> {
        let fail = |what: &str, e: redis::RedisError| Error::Redis {
            url: url.to_string(),
            what: format!("{what}: {}", one_line(&e)),
        };
        let client = redis::Client::open(url).map_err(|e| fail("not a Redis URL", e))?;
        let con = client
            .get_connection_with_timeout(connect)
            .map_err(|e| fail("cannot connect", e))?;
        con.set_read_timeout(Some(reply))
            .and_then(|()| con.set_write_timeout(Some(reply)))
            .map_err(|e| fail("cannot set timeouts", e))?;
        Ok(Redis {
            url: url.to_string(),
            nodes: Vec::new(),
            inner: Inner::Single(con),
            loaded: Vec::new(),
            library: false,
            reply_timeout: reply,
        })
    }

    /// Another connection to the same server or cluster.
    pub fn reopen(&self) -> Result<Redis, Error> {
        match self.inner {
            Inner::Single(_) => Redis::connect(&self.url),
            Inner::Cluster(_) => Redis::connect_cluster(&self.nodes),
        }
    }

    /// Connects to a Redis Cluster through any of its nodes; every key is then sent
    /// to the node that serves its slot.
    pub fn connect_cluster(urls: &[String]) -> Result<Redis, Error> {
        Redis::connect_cluster_with(urls, CONNECT_TIMEOUT, REPLY_TIMEOUT)
    }

    /// The same with other timeouts (see [`Redis::connect_with`]).
    pub fn connect_cluster_with(
        urls: &[String],
        connect: Duration,
        reply: Duration,
    ) -> Result<Redis, Error> {
        let url = urls.first().cloned().unwrap_or_default();
        let fail = |what: &str, e: redis::RedisError| Error::Redis {
            url: url.clone(),
            what: format!("{what}: {}", one_line(&e)),
        };
        let client = ClusterClient::builder(urls.to_vec())
            .connection_timeout(connect)
            .response_timeout(reply)
            .build()
            .map_err(|e| fail("not a cluster", e))?;
        let con = client
            .get_connection()
            .map_err(|e| fail("cannot connect to the cluster", e))?;
        Ok(Redis {
            url: url.clone(),
            nodes: urls.to_vec(),
            inner: Inner::Cluster(Box::new(con)),
            loaded: Vec::new(),
            library: false,
            reply_timeout: reply,
        })
    }

    /// The URL it was opened with (the first node's, for a cluster).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether this is a cluster connection.
    pub fn is_cluster(&self) -> bool {
        matches!(self.inner, Inner::Cluster(_))
    }

    /// The underlying connection, for commands of your own.
    pub fn connection(&mut self) -> &mut dyn ConnectionLike {
        match &mut self.inner {
            Inner::Single(c) => c,
            Inner::Cluster(c) => c.as_mut(),
        }
    }

    /// Sends one command (routed by its key in a cluster) and returns the reply; an
    /// error reply or a lost connection is an error naming the URL.
    pub fn command(&mut self, cmd: &Cmd) -> Result<Value, Error> {
        let v = self
            .connection()
            .req_command(cmd)
            .map_err(|e| self.lost("a command failed", &e))?;
        match v {
            Value::ServerError(e) => Err(Error::Redis {
                url: self.url.clone(),
                what: format!("the server refused a command: {e}"),
            }),
            v => Ok(v),
        }
    }

    /// Loads `script` into the server's script cache (every node of a cluster), once
    /// per connection; calls then name it by its SHA1.
    pub fn load(&mut self, script: &'static Script) -> Result<(), Error> {
        if self.loaded.contains(&script.sha1) {
            return Ok(());
        }
        let mut cmd = redis::cmd("SCRIPT");
        cmd.arg("LOAD").arg(script.text());
        let v = self.command(&cmd)?;
        let sha = match &v {
            Value::BulkString(b) => String::from_utf8_lossy(b).into_owned(),
            Value::SimpleString(s) => s.clone(),
            // A cluster answers with every node's reply; each is the same SHA1.
            Value::Array(_) => script.sha1.to_string(),
            other => format!("{other:?}"),
        };
        if sha != script.sha1 {
            return Err(Error::Redis {
                url: self.url.clone(),
                what: format!(
                    "SCRIPT LOAD of {}.lua answered {sha}, not its SHA1 {}",
                    script.name, script.sha1
                ),
            });
        }
        self.loaded.push(script.sha1);
        Ok(())
    }

    /// Loads the function library ([`ratelab_scripts::library`]) with `FUNCTION LOAD
    /// REPLACE` (every primary of a cluster), once per connection: this ratelab's
    /// library takes the place of any older one. `FCALL` then calls each limiter by
    /// name.
    pub fn load_library(&mut self) -> Result<(), Error> {
        if self.library {
            return Ok(());
        }
        let mut cmd = redis::cmd("FUNCTION");
        cmd.arg("LOAD")
            .arg("REPLACE")
            .arg(ratelab_scripts::library::text());
        let name = match self.command(&cmd)? {
            Value::BulkString(b) => String::from_utf8_lossy(&b).into_owned(),
            Value::SimpleString(s) => s,
            // A cluster answers with every node's reply; each is the same name.
            Value::Array(_) => ratelab_scripts::library::NAME.to_string(),
            other => format!("{other:?}"),
        };
        if name != ratelab_scripts::library::NAME {
            return Err(Error::Redis {
                url: self.url.clone(),
                what: format!(
                    "FUNCTION LOAD of the ratelab library answered {name}, not its name {}",
                    ratelab_scripts::library::NAME
                ),
            });
        }
        self.library = true;
        Ok(())
    }

    fn lost(&self, context: &str, e: &redis::RedisError) -> Error {
        let what = if e.is_timeout() {
            format!(
                "{context}: no reply within {} ms",
                self.reply_timeout.as_millis()
            )
        } else if e.is_connection_dropped() || e.is_io_error() {
            format!("{context}: the connection was lost ({})", one_line(e))
        } else {
            format!("{context}: {}", one_line(e))
        };
        Error::Redis {
            url: self.url.clone(),
            what,
        }
    }

    /// Sends `cmds` in one pipeline; a server error in one reply stays in its place.
    fn pipeline(&mut self, cmds: impl Iterator<Item = Cmd>) -> Result<Vec<Value>, Error> {
        let result = match &mut self.inner {
            Inner::Single(con) => {
                let mut p = redis::pipe();
                p.ignore_errors();
                for c in cmds {
                    p.add_command(c);
                }
                p.query::<Vec<Value>>(con)
            }
            // The cluster pipeline has no way to keep the other replies when one is
            // an error, so a failed call fails the whole batch (scripts are loaded on
            // every node first, so NOSCRIPT only comes from a flush mid-run).
            Inner::Cluster(con) => {
                let mut p = redis::cluster::cluster_pipe();
                for c in cmds {
                    p.add_command(c);
                }
                p.query::<Vec<Value>>(con.as_mut())
            }
        };
        result.map_err(|e| self.lost("a pipeline of script calls failed", &e))
    }

    /// Calls the scripts, pipelined, in order, and returns their replies. A server
    /// that lost a script (restarted, `SCRIPT FLUSH`) answers NOSCRIPT: those calls
    /// are sent again, the first of each script as EVAL with its text (which also
    /// caches it again). One that lost the library (`FUNCTION FLUSH`, or started
    /// without its data) answers that the function is not found: the library is
    /// loaded again and those calls sent again. Any other error reply is an error
    /// naming the script.
    pub(crate) fn eval(&mut self, calls: &[Call<'_>]) -> Result<Vec<Value>, Error> {
        let mut out = self.pipeline(calls.iter().map(|c| c.cmd(false)))?;
        let lost = |v: &Value, c: &Call<'_>| match c.function {
            Some(_) => no_function(v),
            None => no_script(v),
        };
        let missing: Vec<usize> = (0..out.len())
            .filter(|&i| lost(&out[i], &calls[i]))
            .collect();
        if !missing.is_empty() {
            // Calls of one script after a NOSCRIPT all failed too, unless someone
            // loaded it in between; then the order of a key's calls would be broken.
            for &i in &missing {
                let (sha, function) = (calls[i].script.sha1, calls[i].function);
                if (i..out.len()).any(|j| {
                    calls[j].script.sha1 == sha
                        && calls[j].function == function
                        && !lost(&out[j], &calls[j])
                }) {
                    return Err(Error::Redis {
                        url: self.url.clone(),
                        what: format!(
                            "script {}.lua was loaded by someone else in the middle of a batch; the order of its calls is lost",
                            calls[i].script.name
                        ),
                    });
                }
            }
            if missing.iter().any(|&i| calls[i].function.is_some()) {
                self.library = false;
                self.load_library()?;
            }
            let mut evaluated: Vec<&str> = Vec::new();
            let again = self.pipeline(missing.iter().map(|&i| {
                let sha = calls[i].script.sha1;
                let first = !evaluated.contains(&sha);
                evaluated.push(sha);
                calls[i].cmd(first)
            }))?;
            for (&i, v) in missing.iter().zip(again) {
                out[i] = v;
            }
        }
        for (v, call) in out.iter().zip(calls) {
            if let Value::ServerError(e) = v {
                return Err(Error::ScriptFailed {
                    url: self.url.clone(),
                    script: call.script.name,
                    function: call.function.is_some(),
                    message: match e.details() {
                        Some(d) => format!("{} {d}", e.code()),
                        None => e.code().to_string(),
                    },
                });
            }
        }
        if out.len() != calls.len() {
            return Err(Error::Redis {
                url: self.url.clone(),
                what: format!("{} replies to {} calls", out.len(), calls.len()),
            });
        }
        Ok(out)
    }
}

/// `FCALL`'s answer for a function the server does not have.
fn no_function(v: &Value) -> bool {
    matches!(v, Value::ServerError(e) if e.details().is_some_and(|d| d.starts_with("Function not found")))
}

fn no_script(v: &Value) -> bool {
    matches!(v, Value::ServerError(e) if e.kind() == Some(ServerErrorKind::NoScript))
}
