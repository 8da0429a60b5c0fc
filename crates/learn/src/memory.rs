//! Memory explained: why Redis reports 120 / 120 / 104 bytes for a fixed window, a
//! token bucket and a GCRA key (the memory lab, `ratelab_scripts::MEMORY`, measured
//! with `MEMORY USAGE ... SAMPLES 0` on [`REDIS_VERSION`]) where the long article
//! says 32 / 68 / 32 ([`ARTICLE`], measured on Redis 8.8.0), and what a learner's own
//! key count costs ([`capacity`]).
//!
//! The explanation is a model of what `MEMORY USAGE` adds up for a string key on
//! Redis 7.0 with jemalloc ([`string_key`]): the entry in the keyspace's table, the
//! key name's allocation, the value's object; each allocation rounded up to the
//! allocator's size class ([`size_class`]). A test holds the model to every
//! measured row, so the numbers in the text ([`explain`]) are the model's, checked
//! against the server, not typed in.
//!
//! ```
//! use ratelab_learn::memory::{capacity, string_key, Value};
//!
//! // `ratelab:v2:{gcra:client-42}` holding its state (a tag and two numbers
//! // packed in 17 bytes, `STATE_BYTES`): 24 + 32 + 48 bytes.
//! let gcra = string_key("ratelab:v2:{gcra:client-42}".len(), Value::Text(17));
//! assert_eq!((gcra.entry, gcra.name, gcra.value, gcra.total()), (24, 32, 48, 104));
//! // A million GCRA keys: 88 000 000 bytes.
//! assert_eq!(capacity(1_000_000, 88), 88_000_000);
//! ```

use ratelab_core::Algorithm;
use ratelab_scripts::{KeySpace, LOG_MEMORY, MEMORY, REDIS_VERSION};

use crate::lesson::{group, FactValue};
use crate::texts::{render, Lang};

/// The long article's bytes per key (section 3 and its table in section 4): what
/// it measured, on which server.
pub const ARTICLE: ArticleBytes = ArticleBytes {
    redis_version: "8.8.0",
    fixed_window: 32,
    token_bucket: 68,
    gcra: 32,
};

/// The article's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArticleBytes {
    /// The server it measured on.
    pub redis_version: &'static str,
    /// An INCR counter with a TTL.
    pub fixed_window: u64,
    /// A hash of two fields (tokens and the time).
    pub token_bucket: u64,
    /// One number, the TAT.
    pub gcra: u64,
}

/// The bytes of a limiter's state as the scripts store it: a one-byte tag and
/// two numbers packed as doubles (`struct.pack('<Bdd', …)`, crates/scripts/lua);
/// the sliding window counter's holds three numbers.
pub const STATE_BYTES: usize = 17;

/// The sliding window counter's state, in bytes (`'<Bddd'`).
pub const COUNTER_STATE_BYTES: usize = 25;

/// A string key's value as Redis stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A whole number that fits in 64 bits: the object alone (`int`).
    Int,
    /// Text of this many bytes (up to 44: `embstr`, object and text in one block).
    Text(usize),
}

/// What `MEMORY USAGE` counts for a string key, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyBytes {
    /// The key's entry in the keyspace's table (three pointers).
    pub entry: u64,
    /// The key name's allocation: a 1-byte header (names under 32 bytes) or a 3-byte
    /// one, the name, a terminating zero, rounded up to a size class.
    pub name: u64,
    /// The value: a 16-byte object for an integer; for short text, the object, a
    /// 3-byte header, the text and a zero in one block, rounded up.
    pub value: u64,
}

impl KeyBytes {
    /// The sum, what `MEMORY USAGE` reports.
    pub fn total(&self) -> u64 {
        self.entry + self.name + self.value
    }
}

/// The block jemalloc hands out for `n` bytes: 8, then multiples of 16 up to 128,
/// then four classes per doubling (160, 192, 224, 256, 320, …).
pub fn size_class(n: u64) -> u64 {
    if n <= 8 {
        return 8;
    }
    if n <= 128 {
        return n.div_ceil(16) * 16;
    }
    // The doubling n falls in: (2^k, 2^(k+1)], spaced by 2^(k−2).
    let k = 63 - (n - 1).leading_zeros();
    let step = 1u64 << (k - 2);
    n.div_ceil(step) * step
}

/// The size of a dictionary entry (key, value and next pointers) on a 64-bit server.
const ENTRY: u64 = 24;
/// The size of a Redis object header (type, encoding, LRU, refcount, pointer).
const OBJECT: u64 = 16;

/// The model of `MEMORY USAGE` for a string key of a `name_len`-byte name holding
/// `value`, on Redis 7.0 (64-bit, jemalloc). Names of 256 bytes or more and text
/// over 44 bytes are stored with other headers or encodings that the model does not
/// cover (every limiter key is far below both).
pub fn string_key(name_len: usize, value: Value) -> KeyBytes {
    let n = name_len as u64;
    let header = if n < 32 { 1 } else { 3 };
    KeyBytes {
        entry: ENTRY,
        name: size_class(header + n + 1),
        value: match value {
            Value::Int => OBJECT,
            Value::Text(len) => size_class(OBJECT + 3 + len as u64 + 1),
        },
    }
}

/// The memory lab's client name's main key for `algorithm` under the default
/// prefix: `ratelab:v1:{gcra:client-42}`.
pub fn lab_key(algorithm: Algorithm) -> String {
    KeySpace::default().key(algorithm.id(), "client-42")
}

/// `keys × bytes_per_key`, exactly.
pub fn capacity(keys: u64, bytes_per_key: u64) -> u128 {
    u128::from(keys) * u128::from(bytes_per_key)
}

/// Bytes as people read them: `88 000 000 bytes ≈ 83.9 MiB` (binary units, rounded
/// down to a tenth, "≈" unless exact), grouped and with the decimal mark of `lang`.
pub fn size_text(bytes: u128, lang: Lang) -> String {
    let whole = group(bytes);
    let unit_word = match lang {
        Lang::En => "bytes",
        Lang::Vi => "byte",
    };
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut scale: u128 = 1;
    let mut unit = None;
    for u in units {
        if bytes >= scale * 1024 {
            scale *= 1024;
            unit = Some(u);
        }
    }
    let Some(unit) = unit else {
        return format!("{whole} {unit_word}");
    };
    let tenths = bytes * 10 / scale;
    let exact = bytes * 10 % scale == 0;
    format!(
        "{whole} {unit_word} {} {}{}{} {unit}",
        if exact { "=" } else { "≈" },
        group(tenths / 10),
        lang.decimal(),
        tenths % 10
    )
}

/// One row of a capacity sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapacityRow {
    /// What is stored: an algorithm id, or `sliding_log, N entries`.
    pub what: String,
    /// Bytes per key, as measured.
    pub bytes_per_key: u64,
    /// `keys × bytes_per_key`.
    pub total: u128,
}

/// `keys` limiter keys of every algorithm at the bytes the memory lab measured on
/// [`REDIS_VERSION`] (the committed `data/checked.json`), then the sliding log at
/// each measured length.
pub fn committed_capacity(keys: u64) -> Vec<CapacityRow> {
    let mut rows: Vec<CapacityRow> = MEMORY
        .iter()
        .map(|m| CapacityRow {
            what: if m.keys > 1 {
                format!("{} ({} keys)", m.algorithm, m.keys)
            } else {
                m.algorithm.to_string()
            },
            bytes_per_key: m.bytes,
            total: capacity(keys, m.bytes),
        })
        .collect();
    rows.extend(LOG_MEMORY.iter().map(|l| CapacityRow {
        what: format!("sliding_log, {} entries", l.entries),
        bytes_per_key: l.bytes,
        total: capacity(keys, l.bytes),
    }));
    rows
}

/// The line above [`committed_capacity`]'s table: `1 000 000 keys at the bytes per
/// key measured on Redis 7.0.15 (…):` (texts: `memory.sum`).
pub fn sum_heading(keys: u64, lang: Lang) -> String {
    let t = lang.texts();
    render(&t.or_key("memory.sum"), |slot| match slot {
        "keys" => Some(FactValue::Count(keys).text(lang)),
        "version" => Some(REDIS_VERSION.to_string()),
        _ => None,
    })
    .unwrap_or_else(|e| format!("[memory.sum: {e}]"))
}

/// The measured bytes of `algorithm`'s key (0 if the lab did not measure it).
fn measured(algorithm: Algorithm) -> u64 {
    ratelab_scripts::memory(algorithm).map_or(0, |m| m.bytes)
}

/// The text keys of [`explain`], in order.
pub const PARTS: &[&str] = &[
    "title",
    "measured",
    "parts",
    "name",
    "encoding",
    "ttl",
    "allocator",
    "version",
    "plan",
];

/// The explanation in `lang`: one paragraph per [`PARTS`] entry (texts:
/// `memory.<part>`), every number filled from the memory lab's measurements, the
/// article's and the model.
pub fn explain(lang: Lang) -> Vec<String> {
    let t = lang.texts();
    let gcra_key = lab_key(Algorithm::Gcra);
    let bucket_key = lab_key(Algorithm::TokenBucket);
    // The states the lab left: a tag and two numbers, packed.
    let gcra = string_key(gcra_key.len(), Value::Text(STATE_BYTES));
    let bucket = string_key(bucket_key.len(), Value::Text(STATE_BYTES));
    let short_name = "rl:42";
    let short = string_key(short_name.len(), Value::Text(STATE_BYTES));
    let smallest = string_key(1, Value::Int);
    let classes: Vec<String> = [1u64, 9, 17, 33, 49, 65]
        .iter()
        .map(|&n| size_class(n).to_string())
        .collect();
    let n = |v: u64| FactValue::Count(v).text(lang);
    let slot = |name: &str| -> Option<String> {
        Some(match name {
            "version" => REDIS_VERSION.to_string(),
            "article_version" => ARTICLE.redis_version.to_string(),
            "fixed" => n(measured(Algorithm::FixedWindow)),
            "bucket" => n(measured(Algorithm::TokenBucket)),
            "gcra" => n(measured(Algorithm::Gcra)),
            "article_fixed" => n(ARTICLE.fixed_window),
            "article_bucket" => n(ARTICLE.token_bucket),
            "article_gcra" => n(ARTICLE.gcra),
            "entry" => n(bucket.entry),
            "bucket_name" => format!("`{bucket_key}`"),
            "bucket_name_len" => n(bucket_key.len() as u64),
            "bucket_name_bytes" => n(bucket.name),
            "value" => n(bucket.value),
            "bucket_total" => n(bucket.total()),
            "gcra_name" => format!("`{gcra_key}`"),
            "gcra_name_bytes" => n(gcra.name),
            "gcra_total" => n(gcra.total()),
            "short_name" => format!("`{short_name}`"),
            "short_name_bytes" => n(short.name),
            "short_total" => n(short.total()),
            "object" => n(OBJECT),
            "smallest" => n(smallest.total()),
            "classes" => classes.join(", "),
            _ => return None,
        })
    };
    PARTS
        .iter()
        .map(|part| {
            let key = format!("memory.{part}");
            render(&t.or_key(&key), slot).unwrap_or_else(|e| format!("[{key}: {e}]"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_every_measured_string_key() {
        // The states the memory lab leaves: a tag and two numbers packed (the
        // counter: three), whatever their values.
        let states = [
            (Algorithm::FixedWindow, STATE_BYTES),
            (Algorithm::FixedWindowAnchored, STATE_BYTES),
            (Algorithm::SlidingWindowCounter, COUNTER_STATE_BYTES),
            (Algorithm::TokenBucket, STATE_BYTES),
            (Algorithm::LeakyQueue, STATE_BYTES),
            (Algorithm::Gcra, STATE_BYTES),
            (Algorithm::Nginx, STATE_BYTES),
        ];
        for (a, state) in states {
            let m = ratelab_scripts::memory(a).unwrap();
            assert_eq!(m.encoding, "embstr", "{}", a.id());
            let model = string_key(lab_key(a).len(), Value::Text(state));
            assert_eq!(model.total(), m.bytes, "{}: {model:?}", a.id());
        }
        // What was measured by hand on the same server: a one-letter name holding an
        // integer, with or without an expiry, is 48; `rl:45` holding `29:100` is 64.
        assert_eq!(string_key(1, Value::Int).total(), 48);
        assert_eq!(string_key(5, Value::Text(6)).total(), 64);
        assert_eq!(REDIS_VERSION, "7.0.15");
    }

    #[test]
    fn size_classes_and_sums() {
        let got: Vec<u64> = [1, 8, 9, 16, 17, 39, 49, 128, 129, 160, 161, 257, 300]
            .iter()
            .map(|&n| size_class(n))
            .collect();
        assert_eq!(
            got,
            [8, 8, 16, 16, 32, 48, 64, 128, 160, 160, 192, 320, 320]
        );
        assert_eq!(
            capacity(u64::MAX, u64::MAX),
            u128::from(u64::MAX) * u128::from(u64::MAX)
        );
        assert_eq!(size_text(104, Lang::En), "104 bytes");
        assert_eq!(size_text(2048, Lang::En), "2048 bytes = 2.0 KiB");
        assert_eq!(
            size_text(104_000_000, Lang::En),
            "104\u{a0}000\u{a0}000 bytes ≈ 99.1 MiB"
        );
        assert_eq!(
            size_text(104_000_000, Lang::Vi),
            "104\u{a0}000\u{a0}000 byte ≈ 99,1 MiB"
        );
        let rows = committed_capacity(1_000_000);
        let gcra = rows.iter().find(|r| r.what == "gcra").unwrap();
        assert_eq!((gcra.bytes_per_key, gcra.total), (104, 104_000_000));
        assert!(rows.iter().any(|r| r.what == "sliding_log, 1000 entries"));
    }

    #[test]
    fn the_explanation_is_filled_in_both_languages() {
        for lang in Lang::ALL {
            let parts = explain(lang);
            assert_eq!(parts.len(), PARTS.len());
            for p in &parts {
                assert!(!p.contains("[memory."), "{}: {p}", lang.id());
            }
            assert!(!sum_heading(5, lang).contains('['));
            let all = parts.join("\n");
            for must in [
                "120",
                "104",
                "32",
                "68",
                "7.0.15",
                "8.8.0",
                "48",
                "ratelab:v2:{token_bucket:client-42}",
            ] {
                assert!(all.contains(must), "{}: no {must} in {all}", lang.id());
            }
        }
    }
}
