//! The built `ratelab` binary, end to end.

use std::process::Output;

use serde_json::Value;

use crate::support;

fn ratelab(args: &[&str], stdin: Option<&str>) -> Output {
    support::ratelab(args, stdin.unwrap_or("").as_bytes())
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden.json");

#[test]
fn simulate_reproduces_the_golden_table_from_a_file() {
    let out = stdout(&ratelab(&["simulate", GOLDEN], None));
    let report: Value = serde_json::from_str(&out).unwrap();
    let table = [
        ("✓✓✓✓✓✗✓✓✓✓✓✗", 10, 9),
        ("✓✓✓✓✓✗✗✗✗✗✓✓", 7, 5),
        ("✓✓✓✓✓✗✗✗✗✗✓✓", 7, 5),
        ("✓✓✓✓✓✗✓✗✗✗✓✓", 8, 6),
        ("✓✓✓✓✓✓✓✗✗✓✓✓", 10, 8),
        ("✓✓✓✓✓✓✓✓✗✓✓✓", 11, 9),
        ("✓✓✓✓✓✓✓✗✗✓✓✓", 10, 8),
    ];
    let results = report["results"].as_array().unwrap();
    for (r, (marks, passed, max)) in results.iter().zip(table) {
        let got: String = r["allowed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| if a == true { '✓' } else { '✗' })
            .collect();
        assert_eq!(
            (got.as_str(), &r["passed"], &r["max_in_window"]),
            (marks, &passed.into(), &max.into())
        );
    }
    assert_eq!(
        results[5]["wait_ms"].to_string(),
        "[0,0,1000,2000,3500,5200,6900,8600,null,9800,8000,5500]"
    );
    // Standard input reads the same, and the output is the library's, byte for byte.
    let text = std::fs::read_to_string(GOLDEN).unwrap();
    assert_eq!(stdout(&ratelab(&["simulate", "-"], Some(&text))), out);
    assert_eq!(out, ratelab_sim::simulate_json(&text).unwrap() + "\n");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let o = ratelab(
        &["simulate"],
        Some(
            r#"{"requests": [1], "limiters": [{"algorithm": "gcra", "limit": 5, "period_ms": 0}]}"#,
        ),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        "error: limiters[0].period_ms: must be > 0\n"
    );
    for args in [
        &["frobnicate"][..],
        &["simulate", "/nonexistent/x.json"],
        &["lab", "z"],
        &["lab"],
        &["trace", GOLDEN, "--limiter", "nope"],
        &["trace", GOLDEN, "--limiter"],
        &["simulate", "a.json", "b.json"],
    ] {
        let o = ratelab(args, Some("{}"));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    let o = ratelab(&["simulate"], Some("not json"));
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        "error: invalid JSON: expected ident at line 1 column 2\n"
    );
}

#[test]
fn trace_prints_a_table_per_limiter() {
    let out = stdout(&ratelab(
        &["trace", GOLDEN, "--limiter", "leaky_queue"],
        None,
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "leaky_queue (leaky_queue: 5 per 10 s, burst 5)");
    assert!(
        lines[1].trim_start().starts_with('#') && lines[1].contains("state before"),
        "{out}"
    );
    assert_eq!(lines.len(), 2 + 12);
    assert!(
        lines[11].contains("(out − t) / gap 4.9 < 5") && lines[11].contains("allow after 9.8 s"),
        "{out}"
    );
    assert!(lines[10].contains("deny"), "{out}");
    let all = stdout(&ratelab(&["trace", GOLDEN], None));
    assert_eq!(all.matches(" per 10 s").count(), 7);
}

#[test]
fn respond_prints_each_limiters_429_in_both_dialects() {
    let out = stdout(&ratelab(
        &[
            "respond",
            GOLDEN,
            "--at",
            "10.4s",
            "-l",
            "sliding_window_counter",
            "-l",
            "fixed_window",
        ],
        None,
    ));
    // The counter's t names the moment Retry-After names (it once sent its window's
    // end, t=10, next to Retry-After: 2). The fixed window still has room at 10.4 s.
    assert_eq!(
        out,
        "fixed_window (fixed_window: 5 per 10 s) at 10.4 s\n\
         HTTP/1.1 200 OK\n\
         RateLimit-Policy: \"default\";q=5;w=10\n\
         RateLimit: \"default\";r=2;t=10\n\
         X-RateLimit-Limit: 5\n\
         X-RateLimit-Remaining: 2\n\
         X-RateLimit-Reset: 10\n\
         \n\
         sliding_window_counter (sliding_window_counter: 5 per 10 s) at 10.4 s\n\
         HTTP/1.1 429 Too Many Requests\n\
         Retry-After: 2\n\
         RateLimit-Policy: \"default\";q=5;w=10\n\
         RateLimit: \"default\";r=0;t=2\n\
         X-RateLimit-Limit: 5\n\
         X-RateLimit-Remaining: 0\n\
         X-RateLimit-Reset: 2\n\
         Content-Type: application/json\n\
         \n\
         {\"error\": \"rate_limit_exceeded\", \"retry_after_seconds\": 2}\n\
         \n\
         Why 429 and not 503: 429 Too Many Requests says that this client sent too much and may come back when Retry-After says; 503 Service Unavailable says that the server cannot serve anyone just now, and clients and monitors treat it as an outage. A rate limiter refuses one client, so it answers 429 (ratelab-tower answers 503 only when its store is down and it is told to fail closed).\n\
         Retry-After is standard HTTP (RFC 9110) and 429 is RFC 6585; RateLimit-Policy and RateLimit come from an IETF draft that may still change; X-RateLimit-* is a common habit with no standard behind it, and servers disagree on what its Reset means (here: seconds to wait).\n"
    );
    for (args, message) in [
        (
            vec!["respond", GOLDEN],
            "error: respond: needs --at T (e.g. --at 10.4s)\n",
        ),
        (
            vec!["respond", GOLDEN, "--at"],
            "error: --at: needs a time\n",
        ),
        (
            vec!["respond", GOLDEN, "--at", "soon"],
            "error: --at: must be a duration like 10s, 500ms, 1.5s or 2m, got \"soon\"\n",
        ),
        (
            vec!["respond", GOLDEN, "--at", "1s", "-l", "nope"],
            "error: --limiter: no limiter with id \"nope\" (ids: fixed_window, \
             fixed_window_anchored, sliding_log, sliding_window_counter, token_bucket, \
             leaky_queue, gcra)\n",
        ),
        (
            vec!["respond", GOLDEN, "--at", "1s", "--colour"],
            "error: respond: unknown option --colour\n",
        ),
    ] {
        let o = ratelab(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err, message, "{args:?}");
    }
}

#[test]
fn scenarios_and_labs() {
    let list = stdout(&ratelab(&["scenarios"], None));
    for id in [
        "edge-burst",
        "golden",
        "lab-a",
        "lab-e",
        "poisson",
        "custom",
    ] {
        assert!(list.contains(id), "{list}");
    }
    let json: Value =
        serde_json::from_str(&stdout(&ratelab(&["scenarios", "--json"], None))).unwrap();
    assert_eq!(json[0]["id"], "edge-burst-demo");
    let a = stdout(&ratelab(&["lab", "a"], None));
    assert!(
        a.contains("The fixed window let 199 through between 59 s and 61 s"),
        "{a}"
    );
    let b = stdout(&ratelab(&["lab", "b"], None));
    assert!(
        b.contains("34 33 33 0 0 0     34 33 33 0 0 0     34 33 33 0 0 0"),
        "{b}"
    );
    let c = stdout(&ratelab(&["lab", "c"], None));
    assert!(
        c.lines()
            .any(|l| l.starts_with("token_bucket_b1 ") && l.contains(" 11 ")),
        "{c}"
    );
    let e = stdout(&ratelab(&["lab", "e"], None));
    assert!(e.contains("Fixed window: 300 passed, up to 200 in one minute. Sliding log: 201 passed, never more than 100."), "{e}");
}

#[test]
fn lab_d_prints_the_sweep() {
    let d = stdout(&ratelab(&["lab", "d"], None));
    assert!(d.contains("wrong allows"), "{d}");
    // The article's method first: judged on the counter's own history.
    assert!(d.contains("Judged on its own history"), "{d}");
    assert!(d.contains("mean estimate error"), "{d}");
    for load in ["0.5x", "0.9x", "1x", "1.25x", "2x", "4x"] {
        assert!(d.lines().any(|l| l.starts_with(&format!("{load} "))), "{d}");
    }
}

#[test]
fn lessons_print_the_engines_numbers() {
    let list = stdout(&ratelab(&["lessons"], None));
    for id in ["edge", "golden", "nginx", "float", "lab-a", "lab-e"] {
        assert!(list.lines().any(|l| l.starts_with(id)), "{list}");
    }
    let edge = stdout(&ratelab(&["lesson", "edge"], None));
    assert!(
        edge.contains("Of 10 requests the fixed window passed 10"),
        "{edge}"
    );
    let json: Value =
        serde_json::from_str(&stdout(&ratelab(&["lesson", "edge", "--json"], None))).unwrap();
    let facts = &json["steps"][0]["facts"];
    let fact = |name: &str| {
        facts
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap()["value"]
            .clone()
    };
    assert_eq!(
        (fact("fw"), fact("sl"), fact("tb")),
        (10.into(), 5.into(), 6.into())
    );
    assert!(json["steps"][0]["query"]
        .as_str()
        .unwrap()
        .starts_with("scenario=edge-burst-demo"));
    let vi = stdout(&ratelab(&["lesson", "golden", "--lang", "vi"], None));
    assert!(vi.contains("4,95"), "{vi}");
    let o = ratelab(&["lesson", "nope"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).starts_with("error: lesson: unknown lesson \"nope\"")
    );
}

#[test]
fn translate_reads_a_config_and_writes_it_back() {
    let out = stdout(&ratelab(
        &["translate", "--json"],
        Some("limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;\nlimit_req zone=api burst=5 nodelay;"),
    ));
    let t: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(t["tool"], "nginx");
    assert_eq!(t["at_once"]["accepted"], 6);
    assert_eq!(t["notes"][0], "Admits 6 at once.");
    let cell = t["exports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["tool"] == "redis_cell")
        .unwrap()
        .clone();
    assert_eq!(cell["config"], "CL.THROTTLE user123 5 10 1");
    let o = ratelab(&["translate"], Some("CL.THROTTLE user123 15 30"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: CL.THROTTLE: expected <key> <max_burst> <count per period> <period> [<quantity>], got 3 arguments\n"
    );
}

#[test]
fn the_quiz_is_answered_by_the_engine() {
    let q: Value = serde_json::from_str(&stdout(&ratelab(&["quiz", "--json"], None))).unwrap();
    assert_eq!(q.as_array().unwrap().len(), 4);
    assert_eq!(
        q[0]["choices"][q[0]["correct"].as_u64().unwrap() as usize],
        "10"
    );
}

#[test]
fn simulate_runs_the_service_scenarios_as_json_and_as_a_table() {
    // JSON: the library's bytes, with a lane per variant.
    let input = r#"{"scenario": "instances"}"#;
    let out = stdout(&ratelab(&["simulate"], Some(input)));
    assert_eq!(out, ratelab_sim::simulate_json(input).unwrap() + "\n");
    let report: Value = serde_json::from_str(&out).unwrap();
    let services = report["services"].as_array().unwrap();
    let real: Vec<&Value> = services
        .iter()
        .map(|s| &s["yardstick"]["max_in_window"])
        .collect();
    // Three instances counting alone let 30 through in a second; one store, 10.
    assert_eq!(real, [&Value::from(30), &Value::from(30), &Value::from(10)]);

    // The table: a row per variant, then each client's 429 rate per variant.
    let table = stdout(&ratelab(
        &["simulate", "--table"],
        Some(r#"{"scenario": "retry-storm"}"#),
    ));
    let rows: Vec<&str> = table.lines().collect();
    assert!(
        rows[0].starts_with("service") && rows[0].contains("amplification"),
        "{table}"
    );
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}: {table}"))
            .split("  ")
            .filter(|c| !c.is_empty())
            .map(str::trim)
            .collect::<Vec<_>>()
    };
    let (at_once, jitter) = (row("retry at once"), row("Retry-After + 0–5 s"));
    assert_eq!(at_once[1..4], ["547", "1351", "2.470x"], "{table}");
    assert_eq!(jitter[1..4], ["547", "748", "1.367x"], "{table}");
    assert!(table.contains("client: passed / attempts (429s)"));
    assert!(table.contains("38 more clients"));

    // A limiter run as a table is the yardstick of each lane.
    let golden = std::fs::read_to_string(GOLDEN).unwrap();
    let t = stdout(&ratelab(&["simulate", "-", "--table"], Some(&golden)));
    assert!(
        t.starts_with("limiter") && t.contains("fixed_window"),
        "{t}"
    );
    let o = ratelab(&["simulate", "--tabel"], Some(input));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: simulate: unknown option --tabel\n"
    );
}

#[test]
fn every_command_has_help() {
    for c in [
        "simulate",
        "trace",
        "respond",
        "scenarios",
        "lab",
        "redis",
        "lua",
        "lessons",
        "lesson",
        "translate",
        "quiz",
        "choose",
    ] {
        for flag in ["--help", "-h"] {
            let o = ratelab(&[c, flag], None);
            let text = stdout(&o);
            assert!(
                text.starts_with("usage:") && text.contains(&format!("ratelab {c} ")),
                "ratelab {c} {flag}: {text}"
            );
        }
    }
    // After the subcommand or other options too.
    let race = stdout(&ratelab(&["redis", "race", "--help"], None));
    assert!(race.contains("ratelab redis race [--url URL]"), "{race}");
    let lua = stdout(&ratelab(&["lua", "gcra", "--limit", "5", "--help"], None));
    assert!(lua.contains("redis-cli -x SCRIPT LOAD < gcra.lua"), "{lua}");
    let o = ratelab(&["nope", "--help"], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_quiz_asks_then_reveals_and_answers_only_when_asked_to() {
    let q: Value = serde_json::from_str(&stdout(&ratelab(&["quiz", "--json"], None))).unwrap();
    let first_answer = q[0]["answer"].as_str().unwrap();
    // Nothing typed: the questions, no mark on any choice, no answer.
    let asked = stdout(&ratelab(&["quiz"], Some("")));
    assert!(asked.contains("   a) 5\n   b) 6\n   c) 10\n"), "{asked}");
    assert!(
        !asked.contains('*') && !asked.contains(first_answer),
        "{asked}"
    );
    assert!(asked.contains("0/0 right; 4 not answered"), "{asked}");
    // Answers typed one a line: each revealed after it is given.
    let taken = stdout(&ratelab(&["quiz"], Some("c\nwhat\na\n")));
    let (one, rest) = taken.split_once("\n2. ").unwrap();
    assert!(
        one.ends_with(&format!("   ✓ right: {first_answer}\n")),
        "{one}"
    );
    assert!(rest.contains("(answer with a letter, a to d)"), "{rest}");
    assert!(rest.contains("   ✗ a) is not it; b) is: "), "{rest}");
    // The wrong choice says why it is wrong.
    let why = q[1]["why_not"][0].as_str().unwrap();
    assert!(rest.contains(&format!("\n     a) {why}\n")), "{rest}");
    assert!(taken.contains("1/2 right; 2 not answered"), "{taken}");
    // --answers: every answer, the right choice starred.
    let all = stdout(&ratelab(&["quiz", "--answers"], None));
    assert!(
        all.contains("   * 10\n") && all.contains(first_answer),
        "{all}"
    );
    let why = q[0]["why_not"][0].as_str().unwrap();
    assert!(all.contains(&format!("   5\n       {why}\n")), "{all}");
    assert!(q[0]["why_not"][2].is_null());
    assert!(q[0]["show"][0]["query"]
        .as_str()
        .unwrap()
        .starts_with("scenario=custom&"));
    let vi = stdout(&ratelab(&["quiz", "--lang", "vi"], Some("3\n")));
    assert!(
        vi.contains("✓ đúng: ") && vi.contains("1/1 câu đúng"),
        "{vi}"
    );
}

#[test]
fn translate_says_each_fit_once() {
    let out = stdout(&ratelab(
        &["translate"],
        Some("Ratelimit.tokenBucket(5, \"10 s\", 10)"),
    ));
    for (fit, word) in [("(exact)", "Exact"), ("(close)", "Close")] {
        assert!(!out.contains(&format!("{fit}: {word}")), "{out}");
    }
    assert!(out.contains("(close): "), "{out}");
}

#[test]
fn a_lesson_prints_whole_links_given_the_base_and_says_the_base_otherwise() {
    let alone = stdout(&ratelab(&["lesson", "golden"], None));
    assert!(
        alone.contains("after the playground's address") && alone.contains("--base URL"),
        "{alone}"
    );
    let whole = stdout(&ratelab(
        &["lesson", "golden", "--base", "https://example.org/ratelab/"],
        None,
    ));
    let links: Vec<&str> = whole
        .lines()
        .filter_map(|l| l.trim().strip_prefix("open:"))
        .map(str::trim)
        .collect();
    assert!(!links.is_empty());
    for l in links {
        assert!(
            l.starts_with("https://example.org/ratelab/?scenario=golden&"),
            "{l}"
        );
    }
}

/// The JS types name every scenario the registry has, so a scenario the runtime
/// runs always type-checks.
#[test]
fn the_js_types_list_the_registrys_scenarios() {
    let dts = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/ratelab.d.ts"
    ))
    .unwrap();
    let union = |name: &str| -> Vec<String> {
        let start = dts.find(&format!("export type {name} =")).unwrap();
        let body = &dts[start..];
        let body = &body[..body.find(';').unwrap()];
        body.split('\'')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let registry: Value =
        serde_json::from_str(&stdout(&ratelab(&["scenarios", "--json"], None))).unwrap();
    let mut all: Vec<String> = registry
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    // Every scenario, the service ones too: `simulate` runs them and the page
    // opens them in place (its service view is a chunk of the one page).
    let mut page = union("ScenarioId");
    page.sort();
    all.sort();
    assert_eq!(page, all);
}

#[test]
fn the_counters_trace_marks_its_wrong_allows_and_blocks() {
    // The golden stream (trace 3.3a): wrong allows at 10.1 s and 15 s, the true
    // count 5 beside the estimate 4.95 and 3.5.
    let out = stdout(&ratelab(
        &["trace", GOLDEN, "--limiter", "sliding_window_counter"],
        None,
    ));
    let header = out.lines().nth(1).unwrap();
    assert!(
        header.ends_with("estimate  true count in (t − W, t]  error"),
        "{header}"
    );
    let marked: Vec<(&str, &str, &str)> = out
        .lines()
        .filter(|l| l.ends_with("wrong allow") || l.ends_with("wrong block"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[1], w[w.len() - 4], w[w.len() - 3])
        })
        .collect();
    assert_eq!(marked, [("10.1", "4.95", "5"), ("15", "3.5", "5")], "{out}");
    assert!(
        out.contains("  4.95                         5  wrong allow\n"),
        "{out}"
    );
    // 3.3c's stream: two wrong blocks, 2 in the real window.
    let early = r#"{"requests": [200, 400, 600, 800, 1000, 12000, 12500, 13000, 14000, 16000],
        "limiters": [{"algorithm": "sliding_window_counter", "limit": 5, "period_ms": 10000},
                     {"algorithm": "sliding_log", "limit": 5, "period_ms": 10000}]}"#;
    let out = stdout(&ratelab(&["trace"], Some(early)));
    let (counter, log) = out.split_once("\nsliding_log").unwrap();
    assert_eq!(
        counter.matches("  2  wrong block\n").count(),
        2,
        "{counter}"
    );
    assert_eq!(counter.matches("wrong allow").count(), 0, "{counter}");
    // Other limiters' tables have no such columns.
    assert!(
        !log.contains("true count") && !log.contains("wrong"),
        "{log}"
    );
}

#[test]
fn redis_memory_keys_explains_and_sums_without_a_server() {
    // No --url: nothing is connected to (the default URL may have no server).
    let out = stdout(&ratelab(&["redis", "memory", "--keys", "1000000"], None));
    assert!(
        out.starts_with("Why Redis says 120 bytes where the article says 68\n"),
        "{out}"
    );
    // Grouped numbers are written with no-break spaces (`~` below).
    for must in [
        "24 + 48 + 48 = 120",
        "measured on Redis 8.8.0",
        "1~000~000 keys at the bytes per key measured on Redis 7.0.15",
        "\nfixed_window                          120  120~000~000 bytes ≈ 114.4 MiB\n",
        "\ngcra                                  104  104~000~000 bytes ≈ 99.1 MiB\n",
        "\nsliding_log, 1000 entries          101792  101~792~000~000 bytes ≈ 94.8 GiB\n",
    ] {
        let must = must.replace('~', "\u{a0}");
        assert!(out.contains(&must), "no {must:?} in {out}");
    }
    let vi = stdout(&ratelab(
        &["redis", "memory", "--keys", "1", "--lang", "vi"],
        None,
    ));
    assert!(vi.starts_with("Vì sao Redis báo 120 byte"), "{vi}");
    for (args, message) in [
        (
            &["redis", "memory", "--keys", "lots"][..],
            "error: --keys: ",
        ),
        (
            &["redis", "memory", "--keys"],
            "error: --keys: needs a value",
        ),
        (
            &["redis", "memory", "--keys", "5", "--lang", "fr"],
            "error: --lang: unknown language \"fr\" (expected en or vi)",
        ),
    ] {
        let o = ratelab(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(
            err.starts_with(message) && err.lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn respond_prints_the_engines_one_response_text_for_every_limiter() {
    // Every limiter of the golden scenario, at every request's time and between:
    // what `respond` prints is the heading and `Headers::response_text`, the text the
    // page's full response shows, and nothing of its own.
    let config = ratelab_sim::Config::from_json(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    let timeline = ratelab_sim::Timeline::from_config(&config).unwrap();
    let (mut seen_429, mut seen_200) = (false, false);
    for at in [0u64, 9_800, 10_400, 12_000, 19_500, 30_000] {
        let at_text = at.to_string();
        for (j, lane) in config.lanes.iter().enumerate() {
            let out = stdout(&ratelab(
                &["respond", GOLDEN, "--at", &at_text, "-l", &lane.id],
                None,
            ));
            let h = timeline.headers_at(j, "", at).unwrap();
            let (heading, rest) = out.split_once('\n').unwrap();
            assert!(heading.starts_with(&format!("{} (", lane.id)), "{heading}");
            let text = h.response_text();
            assert!(rest.starts_with(&text), "{} at {at}: {rest}", lane.id);
            let after = &rest[text.len()..];
            if h.status == 429 {
                seen_429 = true;
                assert!(
                    text.contains("\nContent-Type: application/json\n\n{"),
                    "{text}"
                );
                assert!(after.starts_with("\nWhy 429 and not 503: "), "{after}");
            } else {
                seen_200 = true;
                assert!(!text.contains("Content-Type") && after.is_empty(), "{out}");
            }
        }
    }
    assert!(seen_429 && seen_200);
    let vi = stdout(&ratelab(
        &["respond", GOLDEN, "--at", "10.4s", "--lang", "vi"],
        None,
    ));
    assert!(vi.contains("\nVì sao là 429 chứ không phải 503: "), "{vi}");
    assert_eq!(
        vi.matches("Vì sao là 429").count(),
        1,
        "the note once, after the lanes"
    );
}

#[test]
fn simulate_responses_are_what_respond_prints_before_each_request() {
    // `simulate --responses`: each request's response, written as JSON fields in
    // the order `respond` prints them: the response `respond` gives at the
    // request's time after only the requests before it (the golden times are
    // distinct), for every limiter.
    let out = stdout(&ratelab(&["simulate", GOLDEN, "--responses"], None));
    let report: Value = serde_json::from_str(&out).unwrap();
    let config = ratelab_sim::Config::from_json(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    let mut refused = 0;
    let mut rest = out.as_str();
    for (j, lane) in report["results"].as_array().unwrap().iter().enumerate() {
        let responses = lane["responses"].as_array().unwrap();
        assert_eq!(responses.len(), config.stream.len());
        for (i, (r, sent)) in config.stream.requests.iter().zip(responses).enumerate() {
            let mut before = config.clone();
            before.stream.requests.truncate(i);
            let timeline = ratelab_sim::Timeline::from_config(&before).unwrap();
            let expected = timeline.headers_at(j, "", r.t).unwrap().response_text();
            let status = sent["status"].as_u64().unwrap();
            let mut text = format!(
                "HTTP/1.1 {}\n",
                if status == 429 {
                    "429 Too Many Requests"
                } else {
                    "200 OK"
                }
            );
            // The fields in the order written (a `Value`'s map sorts them): this
            // response's object is the next one in the output.
            let start = rest.find("\"headers\":{").unwrap() + "\"headers\":".len();
            let end = start + rest[start..].find('}').unwrap() + 1;
            let written = &rest[start..end];
            rest = &rest[end..];
            let fields = sent["headers"].as_object().unwrap();
            assert_eq!(
                &serde_json::from_str::<Value>(written).unwrap(),
                &sent["headers"]
            );
            let mut names: Vec<&String> = fields.keys().collect();
            names.sort_by_key(|n| written.find(&format!("\"{n}\":")).unwrap());
            for name in names {
                text.push_str(&format!("{name}: {}\n", fields[name].as_str().unwrap()));
            }
            if let Some(body) = sent["body"].as_str() {
                text.push_str(&format!("\n{body}\n"));
                refused += 1;
            }
            assert_eq!(text, expected, "lane {j}, request {i}");
            assert_eq!(sent["status"] == 200, lane["allowed"][i] == true);
        }
    }
    assert!(refused > 0);
    // Without the flag, no responses; with a table or a service run, one line.
    assert!(!stdout(&ratelab(&["simulate", GOLDEN], None)).contains("\"responses\""));
    let table = ratelab(&["simulate", GOLDEN, "--table", "--responses"], None);
    assert_eq!(table.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&table.stderr).trim_end(),
        "error: simulate: --responses is JSON output; give it without --table"
    );
    let service = ratelab(
        &["simulate", "--responses"],
        Some(r#"{"scenario": "retry-storm"}"#),
    );
    assert_eq!(service.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&service.stderr).contains("responses: not used with a service run")
    );
}
