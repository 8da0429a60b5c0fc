//! The memory lab on a fresh server equals the committed data file the playground
//! shows (`crates/scripts/data/checked.json`), for the Redis version it names.
//! `RATELAB_BLESS=1` writes the file instead. (A skiplist's size varies a little
//! between runs: its node levels are random.)

use ratelab_redis::labs::memory;
use ratelab_redis::server::RedisServer;
use ratelab_scripts::{KeySpace, LOG_MEMORY, MEMORY, NGINX_VERSION, REDIS_VERSION};

#[test]
fn the_memory_lab_matches_the_committed_data_file() {
    let server = RedisServer::start().unwrap();
    let mut redis = server.connect().unwrap();
    let m = memory(&mut redis, &KeySpace::default()).unwrap();
    for r in &m.rows {
        eprintln!(
            "{:24} {} key(s) {:6} bytes  {}",
            r.algorithm, r.keys, r.bytes, r.encoding
        );
    }
    for r in &m.log {
        eprintln!(
            "sliding log at {:6}: {:8} bytes  {}",
            r.entries, r.bytes, r.encoding
        );
    }
    // The sorted set leaves listpack past zset-max-listpack-entries (128).
    let encodings: Vec<&str> = m.log.iter().map(|r| r.encoding.as_str()).collect();
    assert_eq!(encodings, ["listpack", "skiplist", "skiplist"]);
    assert!(m.log.windows(2).all(|w| w[1].bytes > 5 * w[0].bytes));
    let version = RedisServer::version().unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/data/checked.json");
    if std::env::var_os("RATELAB_BLESS").is_some() {
        let nginx = ratelab_redis::nginx::version().unwrap();
        std::fs::write(path, m.data_file(&version, &nginx)).unwrap();
        return;
    }
    let hint = "rerun with RATELAB_BLESS=1 to record this server's numbers";
    assert_eq!(
        version, REDIS_VERSION,
        "the data file is for another Redis; {hint}"
    );
    let committed: Vec<(&str, u64, u64, &str)> = MEMORY
        .iter()
        .map(|r| (r.algorithm, r.keys, r.bytes, r.encoding))
        .collect();
    let measured: Vec<(&str, u64, u64, &str)> = m
        .rows
        .iter()
        .map(|r| (r.algorithm, r.keys, r.bytes, r.encoding.as_str()))
        .collect();
    assert_eq!(measured, committed, "{hint}");
    // A skiplist draws each node's level at random, so its size moves by a few
    // hundred bytes from run to run; listpacks and strings are exact.
    assert_eq!(m.log.len(), LOG_MEMORY.len(), "{hint}");
    for (got, want) in m.log.iter().zip(LOG_MEMORY) {
        assert_eq!(
            (got.entries, got.encoding.as_str()),
            (want.entries, want.encoding),
            "{hint}"
        );
        if want.encoding == "skiplist" {
            let off = got.bytes.abs_diff(want.bytes) as f64 / want.bytes as f64;
            assert!(
                off < 0.02,
                "{} entries: {} bytes, committed {}; {hint}",
                got.entries,
                got.bytes,
                want.bytes
            );
        } else {
            assert_eq!(got.bytes, want.bytes, "{} entries; {hint}", got.entries);
        }
    }
    assert!(!NGINX_VERSION.is_empty());
}
