//! Reading the JSON box's text into a setup, and the compact form in which a
//! worker hands a big one back to the page (README, "Big imports leave the page
//! answering").
//!
//! [`read`] is the one reading: the page runs it on its own thread for a small
//! text, and `web/worker.js` runs it ([`read_checked`], which also checks the
//! setup against the playground's budget) for a big one, so the notices and the
//! errors are the same, byte for byte, wherever it ran. The worker's answer is
//! [`encode`]d into bytes (the times, keys and costs as fixed-size numbers, the
//! key table, and the lanes in the JSON format), which cross to the page as a
//! transferred buffer and are [`decode`]d there in one pass, without reading JSON.

use std::sync::{Arc, Mutex};

use ratelab_sim::share::{normalise_ids, Setup, MAX_PLAYGROUND_LANES};
use ratelab_sim::{Config, Request, ScenarioId, Stream};

/// A text longer than this (in bytes) is read in a worker, where there is one
/// (a 200 000-request import is about 1.3 MB).
pub const WORKER_TEXT: usize = 1_000_000;

/// The JSON box's text read as an import: the setup it asks for, or the one-line
/// error; and a notice (limiters beyond the playground's six) either way.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    /// "limiters: 8 given, showing the first 6", if so.
    pub notice: Option<String>,
    /// The setup (scenario `custom`), or why not.
    pub setup: Result<Setup, String>,
}

/// Reads `text` (the JSON format) as the JSON box's import.
pub fn read(text: &str) -> Read {
    let mut notice = None;
    let setup = Config::from_json(text).map_err(String::from).map(|c| {
        let mut lanes = c.lanes;
        if lanes.len() > MAX_PLAYGROUND_LANES {
            notice = Some(format!(
                "limiters: {} given, showing the first {MAX_PLAYGROUND_LANES}",
                lanes.len()
            ));
            lanes.truncate(MAX_PLAYGROUND_LANES);
        }
        normalise_ids(&mut lanes);
        let mut next = Setup::for_scenario(ScenarioId::Custom);
        next.lanes = lanes;
        next.requests = c.stream;
        next.window_ms = c.window_ms;
        next
    });
    Read { notice, setup }
}

/// An import read and checked (in the worker): the setup with the config it runs
/// (within the playground's budget and key cap: [`Setup::playground_config`]), or
/// the error [`read`] or that check gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// As [`Read::notice`].
    pub notice: Option<String>,
    /// The setup and its checked config, or the one-line error.
    pub result: Result<(Setup, Config), String>,
}

/// [`read`], and the setup checked as the page checks one before it builds it.
pub fn read_checked(text: &str) -> Checked {
    let Read { notice, setup } = read(text);
    let result = setup.and_then(|s| match s.playground_config() {
        Ok(config) => Ok((s, config)),
        Err(e) => Err(String::from(e)),
    });
    Checked { notice, result }
}

/// A worker's answer as an action carries it ([`crate::state::Action::Read`]):
/// taken once by the playground. Equal only to itself, and printed without its
/// contents, so that the page's actions do not compare or print configs (code
/// the page would otherwise carry for nothing).
#[derive(Clone)]
pub struct Answer(Arc<Mutex<Option<Checked>>>);

impl Answer {
    /// The answer `checked`.
    pub fn new(checked: Checked) -> Answer {
        Answer(Arc::new(Mutex::new(Some(checked))))
    }

    /// What the worker read, the first time (`None` after).
    pub fn take(&self) -> Option<Checked> {
        self.0.lock().ok().and_then(|mut c| c.take())
    }
}

impl PartialEq for Answer {
    fn eq(&self, other: &Answer) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Answer")
    }
}

const MAGIC: &[u8; 4] = b"rli1";

fn put_u32(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(&n.to_le_bytes());
}

fn put_text(out: &mut Vec<u8>, s: &str) {
    // Every text here is far below 4 GB (the box takes at most 2^28 characters).
    put_u32(out, u32::try_from(s.len()).unwrap_or(u32::MAX));
    out.extend_from_slice(s.as_bytes());
}

/// The lanes and window of `config` in the JSON format (with no requests).
fn rest_json(config: &Config) -> String {
    Config::new(Stream::new(), config.lanes.clone(), config.window_ms).to_json()
}

/// [`Checked`] as bytes: the notice, then either the error or the setup's lanes
/// and window (JSON), the config's (JSON), the key table, and each request's time
/// (8 bytes), key and cost (4 bytes each), little-endian. The setup's requests are
/// the config's stream (a `custom` setup runs its own requests), so they are
/// written once.
pub fn encode(checked: &Checked) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    put_text(&mut out, checked.notice.as_deref().unwrap_or(""));
    match &checked.result {
        Err(e) => {
            out.push(0);
            put_text(&mut out, e);
        }
        Ok((setup, config)) => {
            out.push(1);
            let of_setup = Config::new(Stream::new(), setup.lanes.clone(), setup.window_ms);
            put_text(&mut out, &rest_json(&of_setup));
            put_text(&mut out, &rest_json(config));
            let stream = &config.stream;
            let n = stream.requests.len();
            out.reserve(n * 16 + 16);
            put_u32(
                &mut out,
                u32::try_from(stream.keys.len()).unwrap_or(u32::MAX),
            );
            for k in &stream.keys {
                put_text(&mut out, k);
            }
            put_u32(&mut out, u32::try_from(n).unwrap_or(u32::MAX));
            for r in &stream.requests {
                out.extend_from_slice(&r.t.to_le_bytes());
            }
            for r in &stream.requests {
                put_u32(&mut out, r.key);
            }
            for r in &stream.requests {
                put_u32(&mut out, r.cost);
            }
        }
    }
    out
}

/// Reads what [`encode`] wrote, without trusting it: bytes that are not a whole
/// answer, or a setup that is not one, are an error (never a panic).
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.0.len() {
            return Err(BAD.into());
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn text(&mut self) -> Result<&'a str, String> {
        let n = self.u32()? as usize;
        std::str::from_utf8(self.take(n)?).map_err(|_| BAD.into())
    }

    /// `n` numbers of `W` bytes each.
    fn array<const W: usize>(&mut self, n: usize) -> Result<&'a [u8], String> {
        self.take(n.checked_mul(W).ok_or(BAD)?)
    }
}

/// The one line for an answer that cannot be read (no worker of ours writes one).
const BAD: &str = "the import's worker sent an unreadable answer";

/// The lanes and window written by [`rest_json`].
fn rest_from(json: &str) -> Result<Config, String> {
    Config::from_json(json).map_err(|_| BAD.to_string())
}

/// The [`Checked`] that [`encode`] wrote. The stream is checked as every runner
/// checks one ([`Stream::validate`]); the setup's budget was checked where it was
/// read (the same code on the same module).
pub fn decode(bytes: &[u8]) -> Result<Checked, String> {
    let mut b = Bytes(bytes);
    if b.take(4)? != MAGIC {
        return Err(BAD.into());
    }
    let notice = Some(b.text()?.to_string()).filter(|n| !n.is_empty());
    let ok = b.take(1)?[0];
    if ok == 0 {
        let e = b.text()?.to_string();
        return Ok(Checked {
            notice,
            result: Err(e),
        });
    }
    if ok != 1 {
        return Err(BAD.into());
    }
    let of_setup = rest_from(b.text()?)?;
    let mut config = rest_from(b.text()?)?;
    let keys = b.u32()? as usize;
    // Each key takes at least its 4-byte length: a count beyond the bytes is a lie.
    if keys > b.0.len() / 4 {
        return Err(BAD.into());
    }
    let mut table = Vec::with_capacity(keys);
    for _ in 0..keys {
        table.push(b.text()?.to_string());
    }
    let n = b.u32()? as usize;
    let times = b.array::<8>(n)?;
    let key_ids = b.array::<4>(n)?;
    let costs = b.array::<4>(n)?;
    if !b.0.is_empty() {
        return Err(BAD.into());
    }
    let requests: Vec<Request> = times
        .chunks_exact(8)
        .zip(key_ids.chunks_exact(4))
        .zip(costs.chunks_exact(4))
        .map(|((t, k), c)| Request {
            t: u64::from_le_bytes([t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]]),
            key: u32::from_le_bytes([k[0], k[1], k[2], k[3]]),
            cost: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
        })
        .collect();
    let stream = Stream {
        requests,
        keys: table,
    };
    stream.validate().map_err(|_| BAD.to_string())?;
    let mut setup = Setup::for_scenario(ScenarioId::Custom);
    setup.lanes = of_setup.lanes;
    setup.window_ms = of_setup.window_ms;
    setup.requests = stream.clone();
    config.scenario = Some(ScenarioId::Custom);
    config.stream = stream;
    Ok(Checked {
        notice,
        result: Ok((setup, config)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(requests: &str, limiters: usize) -> String {
        let lanes = vec![r#"{"algorithm":"token_bucket","limit":5,"period_ms":1000}"#; limiters];
        format!(
            r#"{{"requests":{requests},"limiters":[{}],"window_ms":2000}}"#,
            lanes.join(",")
        )
    }

    #[test]
    fn an_import_crosses_as_bytes_and_comes_back_equal() {
        let texts = [
            text("[0,5,5,10]", 2),
            text(
                r#"[{"t":1,"key":"a","cost":2},{"t":3,"key":"b"},4,{"t":9,"key":"a"}]"#,
                9,
            ),
            text("[]", 3),
            // Errors, and the notice with one.
            text("[3,1]", 2),
            text("[3,1]", 10),
            "{".to_string(),
            text("[1]", 0),
        ];
        for t in &texts {
            let checked = read_checked(t);
            assert_eq!(decode(&encode(&checked)), Ok(checked.clone()), "{t}");
            // What the page would have read and checked on its own thread.
            let Read { notice, setup } = read(t);
            assert_eq!(checked.notice, notice);
            match (setup, &checked.result) {
                (Ok(s), Ok((s2, c))) => {
                    assert_eq!(&s, s2);
                    assert_eq!(s.playground_config().as_ref(), Ok(c));
                }
                (Ok(s), Err(e)) => {
                    assert_eq!(s.playground_config().map_err(String::from), Err(e.clone()))
                }
                (Err(e), r) => assert_eq!(r.as_ref().err(), Some(&e)),
            }
        }
        assert!(read_checked(&texts[1]).notice.is_some());
        assert!(read_checked(&texts[3]).result.is_err());
    }

    #[test]
    fn unreadable_bytes_are_an_error() {
        let good = encode(&read_checked(&text(
            r#"[{"t":1,"key":"a"},{"t":2,"key":"b"},3]"#,
            2,
        )));
        assert!(decode(&good).is_ok());
        for cut in 0..good.len() {
            assert_eq!(decode(&good[..cut]), Err(BAD.to_string()), "cut at {cut}");
        }
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(decode(&longer), Err(BAD.to_string()));
        // A key index out of the table, a time out of order, a cost of 0.
        let n = good.len();
        for (at, byte) in [
            (n - 4 * 3 - 4 * 3 + 2, 9u8),
            (n - 16 * 3 + 1, 99),
            (n - 4, 0),
        ] {
            let mut bad = good.clone();
            bad[at] = byte;
            assert_eq!(decode(&bad), Err(BAD.to_string()), "byte {at} = {byte}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_stream_round_trips(
                gaps in proptest::collection::vec((0u64..1000, 0usize..4, 1u32..4), 0..200),
                lanes in 1usize..9,
                window in proptest::option::of(1u64..100_000),
            ) {
                let mut t = 0;
                let items: Vec<String> = gaps.iter().map(|&(g, k, c)| {
                    t += g;
                    if k == 0 && c == 1 {
                        t.to_string()
                    } else {
                        format!(r#"{{"t":{t},"key":"k{k}","cost":{c}}}"#)
                    }
                }).collect();
                let algorithms = ["token_bucket", "fixed_window", "sliding_log", "gcra"];
                let lanes: Vec<String> = (0..lanes).map(|j| format!(
                    r#"{{"algorithm":"{}","limit":{},"period_ms":1000}}"#,
                    algorithms[j % algorithms.len()], 3 + j
                )).collect();
                let window = window.map(|w| format!(r#","window_ms":{w}"#)).unwrap_or_default();
                let text = format!(r#"{{"requests":[{}],"limiters":[{}]{window}}}"#, items.join(","), lanes.join(","));
                let checked = read_checked(&text);
                prop_assert!(checked.result.is_ok(), "{:?}", checked.result);
                prop_assert_eq!(decode(&encode(&checked)), Ok(checked));
            }
        }
    }
}
