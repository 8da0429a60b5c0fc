//! `ratelab choose`: the flowchart asked and walked, the matrix, and bad answers.

use std::process::Output;

use serde_json::Value;

use crate::support;

fn ratelab(args: &[&str], stdin: &str) -> Output {
    support::ratelab(args, stdin.as_bytes())
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Every step of lesson `id`, as `ratelab lesson ID --json` runs it.
fn steps(id: &str) -> Vec<Value> {
    let run: Value =
        serde_json::from_str(&stdout(&ratelab(&["lesson", id, "--json"], ""))).unwrap();
    run["steps"].as_array().unwrap().clone()
}

#[test]
fn every_path_ends_on_a_limiter_and_a_lesson_step_the_cli_runs() {
    let paths = ratelab_learn::chooser::paths();
    assert_eq!(paths.len(), 5);
    let mut ends = Vec::new();
    for path in &paths {
        let answers = path.join(",");
        let w: Value = serde_json::from_str(&stdout(&ratelab(
            &["choose", "--answers", &answers, "--json"],
            "",
        )))
        .unwrap();
        assert_eq!(
            w["answers"].as_array().unwrap().len(),
            path.len(),
            "{answers}"
        );
        let pick = &w["pick"];
        let (lesson, step) = (
            pick["lesson"].as_str().unwrap(),
            pick["step"].as_u64().unwrap(),
        );
        assert_eq!(pick["query"], format!("lesson={lesson}&step={step}"));
        // The step exists, and it runs the chosen limiter with the parameters said.
        let steps = steps(lesson);
        let s = &steps[step as usize - 1];
        let lane = &pick["lane"];
        let algorithm = pick["algorithms"][0].as_str().unwrap();
        assert_eq!(lane["algorithm"], algorithm);
        let config = &s["report"]["results"];
        assert!(
            config
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["algorithm"] == algorithm),
            "{lesson} step {step} does not run {algorithm}"
        );
        // The text says the same, with the link under --base.
        let text = stdout(&ratelab(
            &[
                "choose",
                "--answers",
                &answers,
                "--base",
                "http://h:1/p/?x=1",
            ],
            "",
        ));
        assert!(
            text.contains(&format!("    http://h:1/p/?lesson={lesson}&step={step}\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                ": {algorithm}, {}\n",
                pick["params"].as_str().unwrap()
            )),
            "{text}"
        );
        assert!(!text.contains("after the playground's address"), "{text}");
        // Asked on standard input, the same answers end on the same pick.
        let asked = stdout(&ratelab(&["choose"], &(path.join("\n") + "\n")));
        let (_, end) = text.split_once("\n→ ").unwrap();
        let (end, _) = end.split_once("    http").unwrap();
        assert!(asked.contains(&format!("\n→ {end}    ?lesson=")), "{asked}");
        ends.push(pick["id"].as_str().unwrap().to_string());
    }
    ends.sort();
    assert_eq!(ends, ["bucket", "counter", "fixed", "log", "queue"]);
}

#[test]
fn asking_takes_letters_or_numbers_and_asks_again() {
    let out = stdout(&ratelab(&["choose"], "x\n2\nB\n a \n"));
    assert!(out.contains("(answer with a letter, a to b)"), "{out}");
    assert!(out.contains("→ Token bucket or GCRA\n"), "{out}");
    assert!(out.contains("?lesson=lab-c&step=1\n"), "{out}");
    // The input ends first: said, and no limiter.
    let short = stdout(&ratelab(&["choose"], "b\n"));
    assert!(short.contains("(not finished: "), "{short}");
    assert!(
        !short.contains("\n→ ") && !short.contains("?lesson="),
        "{short}"
    );
    let vi = stdout(&ratelab(&["choose", "--lang", "vi"], "a\n"));
    assert!(vi.starts_with("Chọn bộ giới hạn nào?"), "{vi}");
    assert!(vi.contains("5 mỗi 10 s"), "{vi}");
}

#[test]
fn the_matrix_links_every_column_and_the_tables() {
    let m = stdout(&ratelab(
        &["choose", "--matrix", "--base", "https://e.org/"],
        "",
    ));
    for (col, link) in [
        (
            "Fixed window (fixed_window, fixed_window_anchored)",
            "lab-a&step=1",
        ),
        ("Sliding log (sliding_log)", "golden&step=3"),
        (
            "Sliding window counter (sliding_window_counter)",
            "lab-e&step=1",
        ),
        ("Token bucket / GCRA (token_bucket, gcra)", "lab-c&step=1"),
        ("Leaky bucket (queue) (leaky_queue)", "golden&step=6"),
    ] {
        assert!(
            m.contains(&format!("\n{col}  https://e.org/?lesson={link}\n")),
            "{col}: {m}"
        );
    }
    for heading in [
        "The decision matrix",
        "By goal",
        "By situation",
        "  Who uses it:",
    ] {
        assert!(m.contains(heading), "{heading}: {m}");
    }
    let all: Value =
        serde_json::from_str(&stdout(&ratelab(&["choose", "--json", "--lang", "vi"], ""))).unwrap();
    assert_eq!(all["lang"], "vi");
    assert_eq!(all["matrix"]["columns"].as_array().unwrap().len(), 5);
    assert_eq!(
        all["matrix"]["rows"][0]["cells"].as_array().unwrap().len(),
        5
    );
    assert_eq!(all["situations"].as_array().unwrap().len(), 4);
}

#[test]
fn bad_answers_exit_2_with_one_line() {
    for (args, message) in [
        (&["choose", "--answers", "c"][..], "error: choose --answers: answer 1: not a choice of question \"strict\" (expected a to b)\n"),
        (&["choose", "--answers", "a,a"], "error: choose --answers: too many answers: the flowchart ends on a limiter after 1\n"),
        (&["choose", "--answers", "b"], "error: choose --answers: the answers end before a limiter: question \"outgoing\" is next\n"),
        (&["choose", "--answers"], "error: --answers: needs a list like a,b,a\n"),
        (&["choose", "--matrix", "--answers", "a"], "error: choose: --matrix prints the tables, --answers walks the flowchart; give one\n"),
        (&["choose", "--frob"], "error: choose: unexpected argument --frob\n"),
        (&["choose", "--lang", "fr"], "error: --lang: unknown language \"fr\" (expected en or vi)\n"),
    ] {
        let o = ratelab(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), message, "{args:?}");
    }
    let help = stdout(&ratelab(&["--help"], ""));
    assert!(
        help.contains("  ratelab choose [--answers a,b,...]"),
        "{help}"
    );
}
