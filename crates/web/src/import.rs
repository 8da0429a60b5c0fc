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

/// [`Checked`] as a short text and bytes. The text: the number of requests and
/// the notice's length, each followed by `:`, the notice, then `e` and the error,
/// or `k` and the lanes, window and key table in the JSON format (a request at 0
/// from each key after `""`, in the table's order, which is how the JSON reader
/// makes a table). The bytes: each request's time (8 bytes), key and cost (4 each),
/// little-endian. The config a `custom` setup runs is its own requests, lanes and
/// window, so only the setup is written.
pub fn encode(checked: &Checked) -> (String, Vec<u8>) {
    let notice = checked.notice.as_deref().unwrap_or("");
    let mut bytes = Vec::new();
    let (n, rest) = match &checked.result {
        Err(e) => (0, format!("e{e}")),
        Ok((setup, _)) => {
            let stream = &setup.requests;
            let keys = stream.keys.iter().enumerate().skip(1);
            let table = Stream {
                requests: keys.map(|(k, _)| Request::keyed(0, k as u32)).collect(),
                keys: stream.keys.clone(),
            };
            let rest = Config::new(table, setup.lanes.clone(), setup.window_ms);
            bytes.reserve(stream.requests.len() * 16);
            for r in &stream.requests {
                bytes.extend_from_slice(&r.t.to_le_bytes());
                bytes.extend_from_slice(&r.key.to_le_bytes());
                bytes.extend_from_slice(&r.cost.to_le_bytes());
            }
            (stream.requests.len(), format!("k{}", rest.to_json()))
        }
    };
    (format!("{n}:{}:{notice}{rest}", notice.len()), bytes)
}

/// The one line for an answer that cannot be read (no worker of ours writes one).
const BAD: &str = "the import's worker sent an unreadable answer";

/// A number and the text after its `:`.
fn number(text: &str) -> Result<(usize, &str), String> {
    let (n, rest) = text.split_once(':').ok_or(BAD)?;
    Ok((n.parse().map_err(|_| BAD)?, rest))
}

/// The [`Checked`] that [`encode`] wrote, without trusting it: an answer that is
/// not whole, or a setup that is not one, is an error (never a panic). The stream
/// is checked as every runner checks one ([`Stream::validate`]); the setup's
/// budget was checked where it was read (the same code on the same module).
pub fn decode(head: &str, bytes: &[u8]) -> Result<Checked, String> {
    let (n, head) = number(head)?;
    let (len, head) = number(head)?;
    let (notice, rest) = (head.get(..len).ok_or(BAD)?, head.get(len..).ok_or(BAD)?);
    let notice = Some(notice.to_string()).filter(|n| !n.is_empty());
    if let Some(e) = rest.strip_prefix('e') {
        return Ok(Checked {
            notice,
            result: Err(e.to_string()),
        });
    }
    let rest = rest.strip_prefix('k').ok_or(BAD)?;
    let rest = Config::from_json(rest).map_err(|_| BAD.to_string())?;
    if Some(bytes.len()) != n.checked_mul(16) {
        return Err(BAD.into());
    }
    let word = |r: &[u8], at: usize| u32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]]);
    let requests = bytes
        .chunks_exact(16)
        .map(|r| Request {
            t: u64::from(word(r, 0)) | u64::from(word(r, 4)) << 32,
            key: word(r, 8),
            cost: word(r, 12),
        })
        .collect();
    let stream = Stream {
        requests,
        keys: rest.stream.keys,
    };
    stream.validate().map_err(|_| BAD.to_string())?;
    let mut setup = Setup::for_scenario(ScenarioId::Custom);
    setup.lanes = rest.lanes;
    setup.window_ms = rest.window_ms;
    setup.requests = stream;
    let config = Config {
        scenario: Some(ScenarioId::Custom),
        ..Config::new(setup.requests.clone(), setup.lanes.clone(), setup.window_ms)
    };
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
            let (head, bytes) = encode(&checked);
            assert_eq!(decode(&head, &bytes), Ok(checked.clone()), "{t}");
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
        let (head, good) = encode(&read_checked(&text(
            r#"[{"t":1,"key":"a"},{"t":2,"key":"b"},3]"#,
            2,
        )));
        assert!(decode(&head, &good).is_ok());
        let bad = Err(BAD.to_string());
        for cut in 0..good.len() {
            assert_eq!(decode(&head, &good[..cut]), bad, "cut at {cut}");
        }
        for cut in 0..head.len() {
            assert_eq!(decode(&head[..cut], &good), bad, "head cut at {cut}");
        }
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(decode(&head, &longer), bad);
        // A key index out of the table, a time out of order, a cost of 0 (the
        // three records: t at 0, key at 8, cost at 12 of each 16 bytes).
        for (at, byte) in [(8 + 2, 9u8), (1, 99), (47 - 3, 0)] {
            let mut wrong = good.clone();
            wrong[at] = byte;
            assert_eq!(decode(&head, &wrong), bad, "byte {at} = {byte}");
        }
        assert_eq!(decode(&head.replacen('k', "x", 1), &good), bad);
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
                let (head, bytes) = encode(&checked);
                prop_assert_eq!(decode(&head, &bytes), Ok(checked));
            }
        }
    }
}
