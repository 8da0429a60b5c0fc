//! The report: every part's results as one Markdown text (docs/benchmarks.md's benchmark
//! block), one section per part, each saying what was measured, how, and the target.

use std::fmt::Write as _;
use std::path::Path;

use super::browser::{self, Browser};
use super::frames::{self, Frames};
use super::import::Import;
use super::load::{self, Load};
use super::native::{self, Native};
use super::redis::{self, RedisBench};
use super::switch::{self, Switch};
use super::tower::TowerBench;
use super::Results;
use crate::test::{self, BundleFile};
use crate::util::{self, Result};

/// The document `cargo xtask bench --docs` writes the table into, from the root.
pub(super) const BENCH_DOC: &str = "docs/benchmarks.md";
const BEGIN: &str = "<!-- bench:begin -->";
const END: &str = "<!-- bench:end -->";

fn mark(ok: bool) -> &'static str {
    if ok {
        "✅ met"
    } else {
        "❌ missed"
    }
}

/// `1234567` → `1 234 567` (the docs' style).
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

fn count(s: &str) -> String {
    s.parse::<u64>()
        .map(thousands)
        .unwrap_or_else(|_| s.to_owned())
}

/// The whole table: the machine, then each part that ran, in the parts' order.
pub(super) fn markdown(r: &Results) -> String {
    let m = &r.machine;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Measured by `cargo xtask bench`{} at commit {} on {}, {} cores; {}; Chromium {}; Node.js {}.",
        if r.quick {
            " --quick (short runs: rough numbers)"
        } else {
            ""
        },
        m.commit,
        m.cpu,
        m.cores,
        m.rustc,
        m.chromium
            .trim_start_matches("Chromium ")
            .split(' ')
            .next()
            .unwrap_or("?"),
        m.node
    );
    let _ = writeln!(
        t,
        "The machine is shared: other engineers compile on the same 2 cores (load average \
         {} at the start, {} at the end), so absolute times move between runs by 10–30 %; \
         every number is a median, and each ratio compares two medians from the same run.",
        r.load_before, r.load_after
    );
    if let Some(n) = &r.native {
        native_section(&mut t, n);
    }
    if let Some(b) = &r.browser {
        browser_section(&mut t, b);
    }
    if let Some(size) = &r.size {
        size_section(&mut t, size);
    }
    if let Some(l) = &r.load {
        load_section(&mut t, l);
    }
    if let Some(f) = &r.frames {
        frames_section(&mut t, f);
    }
    if let Some(s) = &r.switch {
        switch_section(&mut t, s);
    }
    if let Some(i) = &r.import {
        import_section(&mut t, i);
    }
    if let Some(b) = &r.redis {
        redis_section(&mut t, b);
    }
    if let Some(b) = &r.tower {
        tower_section(&mut t, b);
    }
    t
}

fn tower_section(t: &mut String, b: &TowerBench) {
    let _ = writeln!(
        t,
        "\n**Requests per second through an axum handler with a rate-limit layer** \
        (`crates/tower/examples/throughput.rs`, release; server and clients in one process \
        on a two-thread tokio runtime; {} keep-alive HTTP/1.1 connections; {} requests per \
        server and round, every one allowed by a GCRA far above the load, keyed by the \
        client's address; median of {} rounds). Baseline: the same handler without a layer, \
        {} per s; each ratio is the median of the per-round ratios. ratelab sends its five \
        rate-limit fields on every response; tower-governor is measured bare and with its \
        headers. No target: the rows say what a layer costs a trivial handler.\n",
        b.connections,
        thousands(b.requests),
        b.rounds,
        thousands(b.axum_per_s as u64),
    );
    let _ = writeln!(t, "| layer | requests / s | × bare axum |");
    let _ = writeln!(t, "|---|---:|---:|");
    for row in &b.rows {
        let name = match row.id.as_str() {
            "ratelab_memory" => "ratelab-tower, in memory",
            "ratelab_redis" => "ratelab-tower, on Redis (loopback)",
            "tower_governor" => "tower-governor 0.8",
            "tower_governor_headers" => "tower-governor 0.8, with its headers",
            other => other,
        };
        let _ = writeln!(
            t,
            "| {name} | {} | {:.2}× |",
            thousands(row.per_s as u64),
            row.ratio
        );
    }
}

fn redis_section(t: &mut String, b: &RedisBench) {
    let _ = writeln!(
        t,
        "\n**Decisions per second through each Lua script, Redis {}** (a redis-server of the \
        benchmark's own on loopback; one connection, pipelines of {} calls, from Rust in \
        release; {} requests of lab D's 1x traffic, 300 clients at 100/min, per script and \
        round; median of {} rounds). Each limiter runs three times: through `RedisLimiter` on \
        lab D's virtual times (the requests checked, the replies read into decisions; \
        mostly allowed, so every call writes), as a bare `EVALSHA` pipeline on the \
        server's clock (`TIME 1 0 ...`, as a deployment calls it; the same calls in about \
        a second, so mostly denied), sent exactly as the yardstick is and right after \
        it, and as the same calls by `FCALL` of its function in the library \
        (`ratelab lua --library`), right after that. Baseline: plain \
        `INCR` on 300 keys through the same client in the same round, {} per s. Floors, \
        for scale: `EVALSHA` of `return 1` (the least any script call costs) and a script \
        that only GETs and SETs its key (the least a read-modify-write costs). \
        Yardstick: a minimal float GCRA written the way the common open-source scripts \
        are (TIME, GET, float arithmetic, SET EX; not exact), on the server's clock, run \
        before each limiter's bare script; × float GCRA is to that neighbour. Each ratio \
        is the median of the per-round ratios. Target: the O(1) scripts on the server's \
        clock ≥ {}× the yardstick.\n",
        b.version,
        b.batch,
        thousands(b.calls),
        b.rounds,
        thousands(b.incr_per_s as u64),
        redis::TARGET_RATIO,
    );
    let _ = writeln!(
        t,
        "| script | clock | decisions / s | × INCR | × float GCRA | target ≥ {}× float GCRA |",
        redis::TARGET_RATIO
    );
    let _ = writeln!(t, "|---|---|---:|---:|---:|---|");
    for (row, vs) in b.rows.iter().zip(&b.vs_yardstick) {
        let fcall = row.id.strip_suffix("@FCALL");
        let (id, clock) = match row.id.strip_suffix("@TIME").or(fcall) {
            Some(id) => (id, "server"),
            None if row.id == redis::YARDSTICK => (row.id.as_str(), "server"),
            None if row.id.starts_with("eval_") => (row.id.as_str(), ""),
            None => (row.id.as_str(), "virtual"),
        };
        let name = if row.id == redis::YARDSTICK {
            "*float GCRA (yardstick)*".to_string()
        } else if id.starts_with("eval_") {
            format!("*{}*", id.replace('_', " "))
        } else if fcall.is_some() {
            format!("FCALL ratelab_{id}")
        } else {
            format!("{id}.lua")
        };
        let _ = writeln!(
            t,
            "| {name} | {clock} | {} | {:.2}× | {} | {} |",
            thousands(row.per_s as u64),
            row.ratio,
            vs.map_or(String::new(), |v| format!("{v:.2}×")),
            match (row.targeted(), vs) {
                (true, Some(v)) => mark(*v >= redis::TARGET_RATIO),
                _ => "",
            }
        );
    }
    let float = b
        .instructions
        .iter()
        .find(|(id, _)| id == redis::YARDSTICK)
        .map(|x| x.1);
    if let Some(float) = float {
        let _ = writeln!(
            t,
            "\n**Instructions per call inside Redis** (callgrind over `evalShaCommand`, \
            `fcallCommand` for FCALL; each script, or the library, alone on a \
            redis-server of its own under valgrind, 6 000 calls on the \
            server's clock over 30 keys, about half allowed). They do not move with the \
            machine's load, unlike the times above: the profile the scripts are tuned \
            against. Speed = the float GCRA's instructions ÷ the script's.\n"
        );
        let _ = writeln!(t, "| script | instructions / call | speed vs float GCRA |");
        let _ = writeln!(t, "|---|---:|---:|");
        for (id, n) in &b.instructions {
            let fcall = id.strip_suffix("@FCALL");
            let id = id.strip_suffix("@TIME").or(fcall).unwrap_or(id);
            let name = if id == redis::YARDSTICK {
                "*float GCRA (yardstick)*".to_string()
            } else if id.starts_with("eval_") {
                format!("*{}*", id.replace('_', " "))
            } else if fcall.is_some() {
                format!("FCALL ratelab_{id}")
            } else {
                format!("{id}.lua")
            };
            let _ = writeln!(
                t,
                "| {name} | {} | {:.2}× |",
                thousands(*n),
                float as f64 / (*n).max(1) as f64
            );
        }
    }
}

fn native_section(t: &mut String, n: &Native) {
    let _ = writeln!(
        t,
        "\n**`check` per limiter, native** (criterion, `--profile bench`: opt-level 3, LTO). \
        One pass = {} requests: 300 clients × 10 min of seeded Poisson traffic at 100/min, \
        one fresh limiter per client, each decision consumed as a server consumes it (the \
        verdict, an allowed request's wait, a denied one's retry-after). Yardstick: governor 0.10's \
        GCRA, 100/min burst 100, one limiter per client on a fake clock advanced to each \
        request (same decisions as ours, tested), measured again just before each limiter; \
        the ratio is to that neighbour. Targets: each O(1) limiter ≤ {}× governor's time per \
        check (goal {}×), the sliding logs ≤ {}×.\n",
        thousands(n.decisions),
        native::TARGET_RATIO,
        native::GOAL_RATIO,
        native::LOG_TARGET_RATIO,
    );
    let _ = writeln!(
        t,
        "| limiter | ns / check | governor ns / check (neighbour) | × governor | target | allowed |"
    );
    let _ = writeln!(t, "|---|---:|---:|---:|---|---:|");
    for row in &n.rows {
        let ratio = row.ns / row.governor_ns;
        let target = row.target_ratio();
        let _ = writeln!(
            t,
            "| {} | {:.1} | {:.1} | {:.2}× | ≤ {}×: {} | {} |",
            row.id,
            row.ns,
            row.governor_ns,
            ratio,
            target,
            mark(ratio <= target),
            row.allowed.map_or("?".into(), thousands)
        );
    }
    let _ = writeln!(
        t,
        "| *governor GCRA* (median of its {} runs) | | {:.1} | 1× | | {} |",
        n.rows.len(),
        n.governor_ns,
        n.governor_allowed.map_or("?".into(), thousands)
    );
}

fn browser_section(t: &mut String, b: &Browser) {
    let per = |ms: f64| ms * 1e6 / b.decisions.max(1) as f64;
    let _ = writeln!(
        t,
        "\n**wasm against plain JavaScript, headless Chromium {}** (one page; \
        the same {} requests through the engine compiled as the playground ships it \
        — release profile, opt-level \"z\", `wasm-opt -Oz` — and through the JavaScript \
        closures of `crates/bench/browser/reference.mjs`; median of {} alternating rounds \
        after a warm-up round; `performance.now()`{}). Target: wasm ≥ {}× faster.\n",
        b.version,
        thousands(b.decisions),
        b.rounds,
        if b.isolated {
            " at 5 µs resolution (cross-origin isolated)"
        } else {
            " at 100 µs resolution"
        },
        browser::TARGET_SPEEDUP,
    );
    let _ = writeln!(
        t,
        "| limiter | wasm ms | JS ms | wasm ns / check | JS ns / check | JS ÷ wasm | target ≥ {}× | allowed wasm / JS |",
        browser::TARGET_SPEEDUP
    );
    let _ = writeln!(t, "|---|---:|---:|---:|---:|---:|---|---|");
    for row in &b.rows {
        let speedup = row.js_ms / row.wasm_ms;
        let _ = writeln!(
            t,
            "| {} | {:.2} | {:.2} | {:.1} | {:.1} | {:.2}× | {} | {} / {} |",
            row.id,
            row.wasm_ms,
            row.js_ms,
            per(row.wasm_ms),
            per(row.js_ms),
            speedup,
            mark(speedup >= browser::TARGET_SPEEDUP),
            count(&row.wasm_allowed),
            count(&row.js_allowed)
        );
    }
    if let Some(s) = &b.sweep {
        let _ = writeln!(
            t,
            "\n**Lab D's sweep in the browser** (six load levels, 300 clients × 10 min each, \
            traffic generated in wasm, sliding log and sliding window counter per client; same wasm build).\n"
        );
        let _ = writeln!(
            t,
            "| requests | median of {} | first run | target < 1 s |",
            s.runs
        );
        let _ = writeln!(t, "|---:|---:|---:|---|");
        let _ = writeln!(
            t,
            "| {} | {:.0} ms | {:.0} ms | {} |",
            thousands(s.requests),
            s.median_ms,
            s.first_ms,
            mark(s.median_ms < browser::SWEEP_TARGET_MS && s.first_ms < browser::SWEEP_TARGET_MS)
        );
    }
}

fn size_section(t: &mut String, size: &std::result::Result<Vec<BundleFile>, String>) {
    let _ = writeln!(
        t,
        "\n**Bundle** (`trunk build --release`, wasm + JS + CSS, `gzip -9`; the budget `cargo xtask test` enforces).\n"
    );
    let files = match size {
        Ok(files) => files,
        Err(e) => {
            let _ = writeln!(t, "Not measured: {e}");
            return;
        }
    };
    let _ = writeln!(t, "| file | raw | gzip |");
    let _ = writeln!(t, "|---|---:|---:|");
    let (mut raw, mut gz) = (0, 0);
    for f in files {
        raw += f.raw;
        gz += f.gzip;
        let _ = writeln!(
            t,
            "| {} | {} | {} |",
            f.name,
            test::kb(f.raw),
            test::kb(f.gzip)
        );
    }
    let _ = writeln!(
        t,
        "| **total** (target {} gzipped: {}; enforced budget {}: {}) | {} | {} |",
        test::kb(test::BUNDLE_TARGET_GZIP),
        mark(gz <= test::BUNDLE_TARGET_GZIP),
        test::kb(test::BUNDLE_BUDGET_GZIP),
        mark(gz <= test::BUNDLE_BUDGET_GZIP),
        test::kb(raw),
        test::kb(gz)
    );
}

fn load_section(t: &mut String, l: &Load) {
    let _ = writeln!(
        t,
        "\n**The first frame** (the release build above, served from loopback with no \
        cache; a fresh browser context per round, headless Chromium without GPU; medians, \
        ms from the navigation's start). First paint is index.html's own frame (title, \
        a placeholder lane); the wasm's download as resource timing sees it; the first \
        lane: when `.lane[data-lane]` enters the document (MutationObserver) and the \
        frame after it (requestAnimationFrame). Targets: first lane drawn ≤ {} ms, \
        ≤ {} ms with the CPU throttled 4× (CDP `Emulation.setCPUThrottlingRate`).\n",
        load::TARGET_MS,
        load::TARGET_THROTTLED_MS
    );
    let _ = writeln!(
        t,
        "| CPU | rounds | first paint | wasm download | first lane in DOM | first lane drawn (worst) | target | wasm requests |"
    );
    let _ = writeln!(t, "|---|---:|---:|---:|---:|---:|---|---:|");
    match l {
        Load::Measured(rows) => {
            for r in rows {
                let _ = writeln!(
                    t,
                    "| {} | {} | {:.0} ms | {:.0} → {:.0} ms | {:.0} ms | {:.0} ms ({:.0}) | ≤ {} ms: {} | {} |",
                    if r.rate > 1 {
                        format!("{}× throttled", r.rate)
                    } else {
                        "normal".into()
                    },
                    r.rounds,
                    r.fcp_ms,
                    r.wasm_start_ms,
                    r.wasm_end_ms,
                    r.lane_ms,
                    r.drawn_ms,
                    r.drawn_worst_ms,
                    r.target_ms(),
                    mark(r.drawn_ms <= r.target_ms()),
                    r.wasm_fetches
                );
            }
        }
        Load::Pending(why) => {
            let _ = writeln!(t, "| – | – | – | – | – | – | ⏳ pending: {why} | – |");
        }
    }
}

fn frames_section(t: &mut String, f: &Frames) {
    let _ = writeln!(
        t,
        "\n**Frame cost** (the release build above, headless Chromium without GPU, each view \
        in a fresh browser context; after pressing play, every frame while the virtual clock \
        moves: main-thread work per frame = from the frame's start to a message posted from \
        `requestAnimationFrame`, which runs after its scripts, style, layout and paint). \
        Targets: p95 ≤ {} ms for six lanes at normal speed, ≤ {} ms for the rest (six \
        lanes with the CPU throttled 4× by CDP `Emulation.setCPUThrottlingRate`, labs E \
        and B).\n",
        frames::TARGET_SIX_P95_MS,
        frames::TARGET_P95_MS
    );
    let _ = writeln!(
        t,
        "| view | work median | work p95 | target | frames (clock) | rAF delta median / p95 | dropped | long tasks (longest) |"
    );
    let _ = writeln!(t, "|---|---:|---:|---|---|---:|---:|---:|");
    let rows = match f {
        Frames::Measured(rows) => rows,
        Frames::Pending(why) => {
            let _ = writeln!(
                t,
                "| every view | – | – | ⏳ pending: {why} | – | – | – | – |"
            );
            return;
        }
    };
    for row in rows {
        let target = row.target_ms();
        match &row.result {
            Ok(m) => {
                let _ = writeln!(
                    t,
                    "| {} (`{}`) | {:.1} ms | {:.1} ms | ≤ {target} ms: {} | {} ({}) | {:.1} / {:.1} ms | {} | {} ({:.0} ms) |",
                    row.describe(),
                    m.url,
                    m.work_median_ms,
                    m.work_p95_ms,
                    mark(m.work_p95_ms <= target),
                    m.frames,
                    m.clock,
                    m.delta_median_ms,
                    m.delta_p95_ms,
                    m.dropped,
                    m.long_tasks,
                    m.longest_ms
                );
            }
            Err(why) => {
                let _ = writeln!(
                    t,
                    "| {} | – | – | ⏳ pending: {why} | – | – | – | – |",
                    row.describe()
                );
            }
        }
    }
}

fn switch_section(t: &mut String, s: &Switch) {
    let _ = writeln!(
        t,
        "\n**Switching scenario** (the release build above, headless Chromium without GPU; \
        each round a fresh browser context opens the page, then sets the scenario picker \
        as a person does, while a Chromium trace records every main-thread task until the \
        page has been quiet for a second; medians over the rounds, the worst in brackets). \
        Busy: every main-thread task in that window, summed. Next frame: from the picker's \
        `change` event to the start of the first frame after it. Target: no task over {} ms.\n",
        switch::TARGET_MS
    );
    let _ = writeln!(
        t,
        "| from → to | rounds | longest task (worst) | target | tasks ≥ 50 ms | busy | next frame |"
    );
    let _ = writeln!(t, "|---|---:|---:|---|---:|---:|---:|");
    let rows = match s {
        Switch::Measured(rows) => rows,
        Switch::Pending(why) => {
            let _ = writeln!(t, "| – | – | – | ⏳ pending: {why} | – | – | – |");
            return;
        }
    };
    for row in rows {
        match &row.result {
            Ok(m) => {
                // The JS API's rows (lab D, no switch): what was called, on which page.
                let what = match row.to.strip_prefix("api:") {
                    Some("simulateAsync") => {
                        format!("`{}`, lab D: `await simulateAsync(…)`", m.from)
                    }
                    Some(call) => format!("`{}`, lab D: `{call}(…)`", m.from),
                    None => format!("`{}` → {}", m.from, row.to),
                };
                let _ = writeln!(
                    t,
                    "| {} | {} | {:.0} ms ({:.0}) | ≤ {} ms: {} | {} | {:.0} ms | {:.0} ms |",
                    what,
                    m.rounds,
                    m.longest_ms,
                    m.longest_worst_ms,
                    switch::TARGET_MS,
                    mark(m.longest_ms <= switch::TARGET_MS),
                    m.long_tasks,
                    m.busy_ms,
                    m.frame_ms
                );
            }
            Err(why) => {
                let _ = writeln!(
                    t,
                    "| → {} | – | – | ⏳ pending: {why} | – | – | – |",
                    row.to
                );
            }
        }
    }
}

fn import_section(t: &mut String, i: &Import) {
    let _ = writeln!(
        t,
        "\n**A big JSON import** (the release build above, headless Chromium without GPU; \
        the JSON box filled in the page with N requests on two lanes, then Import clicked, \
        as a person does). Shown: from the click to the first frame with the imported \
        stream; settled: to the end of the import's last long task; meanwhile: the frames \
        drawn before it was shown and the longest of them; after: frame intervals while \
        the clock plays, median / p95; change: the box's `change` event (when the text \
        was put in it, before the click).\n"
    );
    let _ = writeln!(
        t,
        "| requests | shown | settled | longest task | tasks ≥ 50 ms | frames meanwhile (longest) | after | change |"
    );
    let _ = writeln!(t, "|---:|---:|---:|---:|---:|---:|---:|---:|");
    let rows = match i {
        Import::Measured(rows) => rows,
        Import::Pending(why) => {
            let _ = writeln!(t, "| – | ⏳ pending: {why} | – | – | – | – | – | – |");
            return;
        }
    };
    for row in rows {
        match &row.result {
            Ok([shown, settled, longest, long, frames, worst, median, p95, change]) => {
                let _ = writeln!(
                    t,
                    "| {} | {shown} ms | {settled} ms | {longest} ms | {long} | {frames} ({worst} ms) | {median} / {p95} ms | {change} ms |",
                    row.requests
                );
            }
            Err(why) => {
                let _ = writeln!(
                    t,
                    "| {} | ⏳ pending: {why} | – | – | – | – | – | – |",
                    row.requests
                );
            }
        }
    }
}

/// Replaces what lies between `doc`'s bench markers with `table`.
pub(super) fn paste_between_markers(doc: &Path, table: &str) -> Result {
    let text = util::read(doc)?;
    let name = doc.display();
    let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        return Err(format!(
            "{name} has no `{BEGIN}` … `{END}` block to replace"
        ));
    };
    if end < begin {
        return Err(format!("{name}'s bench markers are in the wrong order"));
    }
    let mut out = String::with_capacity(text.len() + table.len());
    out.push_str(&text[..begin + BEGIN.len()]);
    out.push('\n');
    out.push_str(table.trim_end());
    out.push('\n');
    out.push_str(&text[end..]);
    std::fs::write(doc, out).map_err(|e| format!("cannot write {name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_marks_pending_steps_instead_of_inventing_numbers() {
        let r = Results {
            frames: Some(Frames::Pending("the UI has no lanes yet".into())),
            ..Results::default()
        };
        let t = markdown(&r);
        assert!(t.contains("⏳ pending: the UI has no lanes yet"), "{t}");
        assert_eq!(thousands(2_893_334), "2 893 334");
        assert_eq!(thousands(300), "300");
    }

    #[test]
    fn the_logs_are_held_to_their_own_target() {
        let row = |id: &str, ns: f64| native::NativeRow {
            id: id.into(),
            ns,
            governor_ns: 6.0,
            allowed: Some(1),
        };
        let n = Native {
            decisions: 300_947,
            rows: vec![row("gcra", 1.8), row("sliding_log", 8.4), row("nginx", 3.0)],
            governor_ns: 6.0,
            governor_allowed: Some(1),
        };
        let mut t = String::new();
        native_section(&mut t, &n);
        assert!(
            t.contains("| gcra | 1.8 | 6.0 | 0.30× | ≤ 0.35×: ✅ met |"),
            "{t}"
        );
        assert!(
            t.contains("| sliding_log | 8.4 | 6.0 | 1.40× | ≤ 1.5×: ✅ met |"),
            "{t}"
        );
        assert!(
            t.contains("| nginx | 3.0 | 6.0 | 0.50× | ≤ 0.35×: ❌ missed |"),
            "{t}"
        );
    }

    #[test]
    fn the_docs_block_is_replaced_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let doc = dir.join("benchmarks.md");
        std::fs::write(&doc, format!("# x\n{BEGIN}\nold\n{END}\ntail\n")).unwrap();
        paste_between_markers(&doc, "| new |\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&doc).unwrap(),
            format!("# x\n{BEGIN}\n| new |\n{END}\ntail\n")
        );
        std::fs::write(&doc, "no markers").unwrap();
        assert!(paste_between_markers(&doc, "x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_benchmarks_doc_holds_the_markers_once_in_order() {
        // `--docs` writes into this file: it must have one block to replace.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let text = std::fs::read_to_string(root.join(BENCH_DOC)).unwrap();
        let begin = text.find(BEGIN).expect("the begin marker");
        let end = text.find(END).expect("the end marker");
        assert!(begin < end);
        assert_eq!(text.matches(BEGIN).count(), 1);
        assert_eq!(text.matches(END).count(), 1);
    }
}
