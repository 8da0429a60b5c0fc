//! The same replays on a three-node Redis Cluster, through the cluster client: the
//! same decisions, and each limiter key's Redis keys in one slot, spread over the
//! nodes.

use crate::support;

use ratelab_redis::replay::{replay, ReplayOptions};
use ratelab_redis::server::RedisCluster;
use redis::Value;

#[test]
fn a_cluster_decides_as_the_engine_with_every_key_in_its_slot() {
    let cluster = RedisCluster::start(3).expect("a three-node cluster");
    let mut redis = cluster.connect().unwrap();
    assert!(redis.is_cluster());
    let (requests, decisions) = support::replay_all(&mut redis);
    eprintln!("cluster: {requests} requests, {decisions} decisions, all identical");

    // Keep one keyed replay's keys and look at where they live.
    let config = support::keyed_poisson(60, 120_000, 11);
    let kept = ReplayOptions {
        keep: true,
        ..ReplayOptions::default()
    };
    let r = replay(&mut redis, &config, &kept).unwrap();
    assert!(r.same());
    let mut per_node = Vec::new();
    for node in cluster.nodes() {
        let mut direct = node.connect().unwrap();
        let keys = match direct
            .command(redis::cmd("KEYS").arg("ratelab:v2:*"))
            .unwrap()
        {
            Value::Array(v) => v,
            other => panic!("{other:?}"),
        };
        for k in &keys {
            let Value::BulkString(k) = k else {
                panic!("{k:?}")
            };
            let k = String::from_utf8_lossy(k).into_owned();
            // A sliding log's count sits beside its log: same hash tag, same node.
            if let Some(log) = k.strip_suffix(":n") {
                let exists = direct.command(redis::cmd("EXISTS").arg(log)).unwrap();
                assert_eq!(exists, Value::Int(1), "{log} is not beside {k}");
            }
        }
        per_node.push(keys.len());
    }
    eprintln!("keys per node: {per_node:?}");
    assert!(
        per_node.iter().all(|&n| n > 0),
        "keys spread over every node: {per_node:?}"
    );
}
