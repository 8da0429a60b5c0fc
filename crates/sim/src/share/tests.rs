//! Unit tests of the link format (the property tests are in `tests/share.rs`).

use ratelab_core::Algorithm;

use super::*;
use crate::stream::Request;

#[test]
fn durations() {
    assert_eq!(parse_duration("10s"), Ok(10_000));
    assert_eq!(parse_duration("1.5s"), Ok(1_500));
    assert_eq!(parse_duration("11.2s"), Ok(11_200));
    assert_eq!(parse_duration("2m"), Ok(120_000));
    assert_eq!(parse_duration("250"), Ok(250));
    assert_eq!(parse_duration("250ms"), Ok(250));
    assert!(parse_duration("1.0005s").is_err());
    assert!(parse_duration("").is_err());
    assert!(parse_duration(".").is_err());
    assert!(parse_duration("-1s").is_err());
    assert!(parse_duration("NaN").is_err());
    assert!(parse_duration("1e20").is_err());
    assert!(parse_duration("99999999999999999999h").is_err());
    for ms in [
        0, 1, 999, 1_000, 1_500, 11_200, 60_000, 90_000, 3_600_000, 3_600_001,
    ] {
        assert_eq!(parse_duration(&format_duration(ms)), Ok(ms), "{ms}");
    }
    assert_eq!(format_duration(11_200), "11.2s");
    assert_eq!(format_duration(60_000), "1m");
}

#[test]
fn speeds() {
    assert_eq!(parse_speed("0.25"), Ok(250));
    assert_eq!(parse_speed("16x"), Ok(16_000));
    assert!(parse_speed("3").is_err());
    assert!(parse_speed("").is_err());
    for s in SPEEDS_PERMILLE {
        assert_eq!(parse_speed(&format_speed(s)), Ok(s));
    }
}

#[test]
fn zooms_are_powers_of_two_from_1_over_2_to_the_32_to_16() {
    assert_eq!(parse_zoom("4"), Ok(2));
    assert_eq!(parse_zoom("1"), Ok(0));
    assert_eq!(parse_zoom(" 1/8 "), Ok(-3));
    assert_eq!(parse_zoom("1/4294967296"), Ok(MIN_ZOOM_EXP));
    for bad in [
        "3",
        "32",
        "0",
        "",
        "2/8",
        "1/3",
        "1/8589934592",
        "-4",
        "NaN",
        "1/",
        "x",
    ] {
        let e = parse_zoom(bad).unwrap_err();
        assert!(e.starts_with("must be a power of two"), "{bad}: {e}");
    }
    for e in MIN_ZOOM_EXP..=MAX_ZOOM_EXP {
        assert_eq!(parse_zoom(&format_zoom(e)), Ok(e));
    }
}

#[test]
fn the_default_is_the_golden_stream_with_three_lanes() {
    let (s, notices) = parse("");
    assert!(notices.is_empty());
    assert_eq!(s, Link::default());
    let ids: Vec<&str> = s.setup.lanes.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["fixed_window", "sliding_log", "token_bucket"]);
    assert_eq!(
        s.to_query(),
        "scenario=golden&limiters=fixed_window,sliding_log,token_bucket"
    );
}

#[test]
fn a_full_link_round_trips() {
    let q = "scenario=edge-burst&limiters=fixed_window,token_bucket,nginx&limit=4&period=2s\
             &burst.1=2&burst.2=3&delay.2=1&window=4s&t=2.1s&speed=0.25&lang=vi&sel=3&hl=1\
             &zoom=1/4&setup=folded&catalog=open";
    let (s, notices) = parse(q);
    assert_eq!(notices, []);
    assert_eq!(s.setup.budget(), (4, 2_000));
    assert_eq!(s.setup.lanes[1].params.burst, Some(2));
    assert_eq!(s.setup.lanes[2].params.delay, Some(1));
    assert_eq!(
        (s.view.t_ms, s.view.speed_permille, s.view.lang),
        (2_100, 250, "vi")
    );
    assert_eq!(
        (s.view.zoom, s.view.setup_open, s.view.catalog_open),
        (Some(-2), Some(false), Some(true))
    );
    assert_eq!(s.to_query(), q);
    assert_eq!(to_query(&s.setup, &s.view), q);
    assert_eq!(parse(&s.to_query()), (s, vec![]));
}

#[test]
fn lab_c_keeps_its_buckets() {
    let s = Setup::for_scenario(ScenarioId::LabC);
    let q = to_query(&s, &View::default());
    assert_eq!(
        q,
        "scenario=lab-c&limiters=token_bucket,token_bucket,gcra,leaky_queue,nginx"
    );
    assert_eq!(parse(&q).0.setup, s.clone());
    assert_eq!(parse(&q).1, []);
    assert_eq!(s.lanes[1].id, "token_bucket-2");
    assert_eq!(s.lanes[1].params.burst, Some(20));
}

#[test]
fn custom_requests_round_trip_with_keys_and_costs() {
    let q = "scenario=custom&limiters=gcra&requests=0s,1.5s,2s:alice,2s:a%2Cb%3Ac:3";
    let (s, notices) = parse(q);
    assert_eq!(notices, []);
    assert_eq!(s.setup.requests.keys, ["", "alice", "a,b:c"]);
    assert_eq!(
        s.setup.requests.requests[3],
        Request {
            t: 2_000,
            key: 2,
            cost: 3
        }
    );
    assert_eq!(s.to_query(), q);
}

#[test]
fn a_manual_links_carries_the_requests_sent_by_hand() {
    let q = "scenario=manual&limiters=token_bucket&requests=0s,0s,1.5s";
    let (s, notices) = parse(q);
    assert_eq!(notices, []);
    assert_eq!(s.setup.to_config().unwrap().stream.len(), 3);
    assert_eq!(s.to_query(), q);
    // Other scenarios still refuse them.
    let (_, notices) = parse("scenario=golden&requests=0");
    assert_eq!(notices.len(), 1);
}

#[test]
fn at_is_read_as_t_and_written_as_t() {
    let (s, notices) = parse("scenario=edge-burst&at=9.5s");
    assert!(notices.is_empty());
    assert_eq!(s.view.t_ms, 9_500);
    assert!(s.to_query().ends_with("&t=9.5s"), "{}", s.to_query());
    let (s, notices) = parse("scenario=edge-burst&at=soon");
    assert_eq!(s.view.t_ms, 0);
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0].to_string().starts_with("at=soon: "),
        "{}",
        notices[0]
    );
}

#[test]
fn every_bad_value_falls_back_with_a_notice() {
    let q = "scenario=nope&limiters=fixed_window,bogus&limit=0&period=NaN&t=-3&speed=3\
             &lang=fr&hl=maybe&burst.0=2&limit.9=1&zzz=1&seed=4&window=1e20\
             &zoom=3&setup=closed";
    let (s, notices) = parse(q);
    let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "scenario", "limiters", "limit", "period", "t", "speed", "lang", "hl", "limit.9",
            "zzz", "seed", "window", "zoom", "setup", "burst.0"
        ]
    );
    assert_eq!(s.setup.scenario, ScenarioId::Golden);
    assert_eq!(s.setup.lanes.len(), 1);
    assert_eq!(s.setup.budget(), (5, 10_000));
    assert_eq!(s.view, View::default());
    assert_eq!(
        notices[2].to_string(),
        "limit=0: must be > 0; using the default"
    );
    assert_eq!(
        notices[12].to_string(),
        "zoom=3: must be a power of two from 1/4294967296 to 16, like 4 or 1/8, got \"3\"; using the default"
    );
    assert_eq!(
        notices[13].to_string(),
        "setup=closed: must be open or folded, got \"closed\"; using the default"
    );
    assert_eq!(
        notices[14].to_string(),
        "burst.0=2: fixed_window takes no burst (only the buckets, GCRA, the queue and nginx); ignored"
    );
}

#[test]
fn the_engine_checks_lane_parameters() {
    let (s, notices) = parse("limiters=gcra,token_bucket&burst.0=0&limit.1=99999999999999999999");
    assert_eq!(s.setup.lanes[0].params.burst, None);
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert_eq!(notices[0].key, "limit.1");
    assert_eq!(
        notices[1].to_string(),
        "burst.0=0: burst: must be > 0 for gcra; using the default"
    );
}

#[test]
fn too_many_lanes_are_cut() {
    let all = Algorithm::ALL.map(Algorithm::id).join(",");
    let (s, notices) = parse(&format!("limiters={all}"));
    assert_eq!(s.setup.lanes.len(), MAX_PLAYGROUND_LANES);
    assert_eq!(notices.len(), 1);
}

#[test]
fn every_scenario_opens_with_one_to_six_valid_lanes() {
    for id in ScenarioId::ALL {
        let s = Link {
            setup: Setup::for_scenario(id),
            view: View::default(),
        };
        assert!(
            (1..=MAX_PLAYGROUND_LANES).contains(&s.setup.lanes.len()),
            "{id}"
        );
        s.setup.to_config().unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(parse(&s.to_query()), (s, vec![]), "{id}");
    }
}

#[test]
fn decoding_never_panics_on_broken_escapes() {
    assert_eq!(decode("%"), "%");
    assert_eq!(decode("%4"), "%4");
    assert_eq!(decode("%zz%41+b"), "%zzA b");
    assert_eq!(decode("%ff"), "\u{fffd}");
    assert_eq!(encode("a b,c"), "a%20b%2Cc");
}
