//! Reading the JSON box's text into a setup, and the compact form in which a
//! worker hands a big one back to the page (docs/bad-input.md, "Big
//! imports leave the page answering").
//!
//! [`read`] is the one reading: the page runs it on its own thread for a small
//! text, and `web/worker.js` runs it ([`read_checked`], which also checks the
//! setup against the playground's budget) for a big one, so the notices and the
//! errors are the same, byte for byte, wherever it ran. The worker's answer is
//! [`encode`]d into bytes (the times, keys and costs as fixed-size numbers, the
//! key table, and the lanes in the JSON format), which cross to the page as a
//! transferred buffer and are decoded there a part per task ([`Decoding`]),
//! without reading JSON.

use std::sync::{Arc, Mutex};

use ratelab_sim::share::{normalise_ids, Setup, MAX_PLAYGROUND_LANES};
use ratelab_sim::{Config, Request, ScenarioId, Stream, MAX_REQUESTS};

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

/// An import read, here ([`read`]: no config yet) or in a worker
/// ([`read_checked`]: with the config it runs), as the playground puts it in force.
pub struct Imported {
    /// As [`Read::notice`].
    pub notice: Option<String>,
    /// The setup and, if it was checked, its config; or the one-line error.
    pub result: Result<(Setup, Option<Config>), String>,
}

impl From<Read> for Imported {
    fn from(Read { notice, setup }: Read) -> Imported {
        Imported {
            notice,
            result: setup.map(|s| (s, None)),
        }
    }
}

impl From<Checked> for Imported {
    fn from(Checked { notice, result }: Checked) -> Imported {
        Imported {
            notice,
            result: result.map(|(s, c)| (s, Some(c))),
        }
    }
}

/// A read import as an action carries it ([`crate::state::Playground::import_json`],
/// [`crate::state::Playground::read`]): taken once by the playground. Equal only to
/// itself, and printed without its contents, so that the page's actions do not
/// compare or print configs (code the page would otherwise carry for nothing).
/// The page's first module never reads JSON: the JSON box (in the setup's chunk)
/// or a worker reads it and hands over the answer.
#[derive(Clone)]
pub struct Answer(Arc<Mutex<Option<Imported>>>);

impl Answer {
    /// The answer `read`.
    pub fn new(read: impl Into<Imported>) -> Answer {
        Answer(Arc::new(Mutex::new(Some(read.into()))))
    }

    /// What was read, the first time (`None` after).
    pub fn take(&self) -> Option<Imported> {
        self.0.lock().ok().and_then(|mut c| c.take())
    }
}

/// The JSON box's export: `setup` in the JSON format, or why it cannot be.
pub fn export(setup: &Setup) -> String {
    setup
        .to_config()
        .map(|c| c.to_json())
        .unwrap_or_else(|e| e.to_string())
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
/// not whole, or a setup that is not one, is an error (never a panic). The whole
/// of [`Decoding`], for the tests: the page decodes an answer a part per task.
#[cfg(test)]
pub(crate) fn decode(head: &str, bytes: &[u8]) -> Result<Checked, String> {
    match Decoding::start(head, bytes.len())? {
        Head::Read(checked) => Ok(checked),
        Head::Records(mut d) => {
            d.feed(bytes)?;
            d.finish()
        }
    }
}

/// What an answer's text says: an error read (with its notice), or the records
/// of a setup to decode. (One is made per import, and moved once: the sizes of
/// its variants do not matter.)
#[allow(clippy::large_enum_variant)]
pub enum Head {
    /// The import's error, as [`read_checked`] gave it: nothing more to decode.
    Read(Checked),
    /// The setup, its records still to [`Decoding::feed`].
    Records(Decoding),
}

/// An answer's records being decoded, a part at a time (so that no task of the
/// page's is long: 2 000 000 requests are 32 MB of records, about 150 ms of work
/// in one piece). Each record is checked as it is read, as [`Stream::validate`]
/// checks a stream ([`Request::check`]); the setup's budget was checked where it
/// was read (the same code on the same module).
pub struct Decoding {
    notice: Option<String>,
    /// The lanes, the window and the key table.
    rest: Config,
    /// How many records the answer has.
    n: usize,
    /// The setup's requests, and the config's own copy, made as they are read.
    requests: Vec<Request>,
    copy: Vec<Request>,
}

impl Decoding {
    /// Reads an answer's text, for records of `bytes` bytes in all. Their
    /// number is checked against the text's and the cap before any is kept.
    pub fn start(head: &str, bytes: usize) -> Result<Head, String> {
        let (n, head) = number(head)?;
        let (len, head) = number(head)?;
        let (notice, rest) = (head.get(..len).ok_or(BAD)?, head.get(len..).ok_or(BAD)?);
        let notice = Some(notice.to_string()).filter(|n| !n.is_empty());
        if let Some(e) = rest.strip_prefix('e') {
            return Ok(Head::Read(Checked {
                notice,
                result: Err(e.to_string()),
            }));
        }
        let rest = rest.strip_prefix('k').ok_or(BAD)?;
        let rest = Config::from_json(rest).map_err(|_| BAD.to_string())?;
        if n > MAX_REQUESTS || Some(bytes) != n.checked_mul(16) {
            return Err(BAD.into());
        }
        Ok(Head::Records(Decoding {
            notice,
            rest,
            n,
            requests: Vec::with_capacity(n),
            copy: Vec::with_capacity(n),
        }))
    }

    /// Decodes the next whole records.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), String> {
        let more = bytes.len() / 16;
        if bytes.len() % 16 != 0 || self.requests.len() + more > self.n {
            return Err(BAD.into());
        }
        let keys = self.rest.stream.keys.len();
        let word =
            |r: &[u8], at: usize| u32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]]);
        let mut previous = self.requests.last().map(|r| r.t);
        for r in bytes.chunks_exact(16) {
            let r = Request {
                t: u64::from(word(r, 0)) | u64::from(word(r, 4)) << 32,
                key: word(r, 8),
                cost: word(r, 12),
            };
            r.check(self.requests.len(), previous, keys)
                .map_err(|_| BAD.to_string())?;
            previous = Some(r.t);
            self.requests.push(r);
            self.copy.push(r);
        }
        Ok(())
    }

    /// The decoded answer, if every record came.
    pub fn finish(self) -> Result<Checked, String> {
        if self.requests.len() != self.n {
            return Err(BAD.into());
        }
        let keys = self.rest.stream.keys;
        let mut setup = Setup::for_scenario(ScenarioId::Custom);
        setup.window_ms = self.rest.window_ms;
        setup.requests = Stream {
            requests: self.requests,
            keys: keys.clone(),
        };
        let copy = Stream {
            requests: self.copy,
            keys,
        };
        setup.lanes = self.rest.lanes;
        let config = Config {
            scenario: Some(ScenarioId::Custom),
            ..Config::new(copy, setup.lanes.clone(), setup.window_ms)
        };
        Ok(Checked {
            notice: self.notice,
            result: Ok((setup, config)),
        })
    }
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

    /// Decodes `bytes` a part at a time, cut at each of `cuts` (byte offsets).
    fn in_parts(head: &str, bytes: &[u8], cuts: &[usize]) -> Result<Checked, String> {
        let Head::Records(mut d) = Decoding::start(head, bytes.len())? else {
            return decode(head, bytes);
        };
        let mut at = 0;
        for &cut in cuts.iter().chain([&bytes.len()]) {
            d.feed(&bytes[at..cut])?;
            at = cut;
        }
        d.finish()
    }

    #[test]
    fn an_answer_decoded_in_parts_is_the_same_and_checked_across_them() {
        let t = text(
            r#"[{"t":1,"key":"a"},{"t":2,"key":"b"},3,{"t":7,"key":"a","cost":4}]"#,
            2,
        );
        let (head, good) = encode(&read_checked(&t));
        let whole = decode(&head, &good);
        assert!(whole.is_ok());
        for cuts in [
            &[][..],
            &[0],
            &[16],
            &[16, 32],
            &[16, 32, 48],
            &[48, 48, 64],
        ] {
            assert_eq!(in_parts(&head, &good, cuts), whole, "cuts {cuts:?}");
        }
        let bad = Err(BAD.to_string());
        // A part that is not whole records, and a stop before the last one.
        assert_eq!(in_parts(&head, &good, &[8]), bad);
        let Ok(Head::Records(mut d)) = Decoding::start(&head, good.len()) else {
            panic!("records");
        };
        assert_eq!(d.feed(&good[..32]), Ok(()));
        assert_eq!(d.finish(), bad);
        // A time going back just where one part ends and the next begins: the
        // third record (t = 3, the next part's first) is made 1, before the
        // second (t = 2, the first part's last).
        let mut back = good.clone();
        back[32] = 1;
        assert_eq!(in_parts(&head, &back, &[32]), bad);
        assert_eq!(decode(&head, &back), bad);
        // More records than the text says.
        let Ok(Head::Records(mut d)) = Decoding::start(&head, good.len()) else {
            panic!("records");
        };
        assert_eq!(d.feed(&good), Ok(()));
        assert_eq!(d.feed(&good[..16]), Err(BAD.to_string()));
    }

    #[test]
    fn a_count_over_the_cap_is_refused_before_anything_is_kept() {
        let (head, _) = encode(&read_checked(&text("[1,2]", 2)));
        let over = MAX_REQUESTS + 1;
        let head = head.replacen("2:", &format!("{over}:"), 1);
        assert!(matches!(Decoding::start(&head, over * 16), Err(e) if e == BAD));
        let huge = format!("{}{}", usize::MAX, &head[head.find(':').unwrap_or(0)..]);
        assert!(matches!(Decoding::start(&huge, 0), Err(e) if e == BAD));
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
                part in 1usize..50,
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
                prop_assert_eq!(decode(&head, &bytes), Ok(checked.clone()));
                // Cut into parts of `part` records.
                let cuts: Vec<usize> = (1..).map(|i| i * part * 16).take_while(|&c| c < bytes.len()).collect();
                prop_assert_eq!(super::in_parts(&head, &bytes, &cuts), Ok(checked));
            }
        }
    }
}
