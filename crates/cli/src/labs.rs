//! `ratelab lab <a|b|c|d|e>` and `ratelab scenarios`: the labs' results as text.

use ratelab_learn::lesson::Lang;
use ratelab_sim::scenario::{scenario, Overrides, ScenarioId};
use ratelab_sim::{run, Config, Report, SCENARIOS};

use crate::table::{render as table, seconds, Align};
use crate::Failure;

/// The scenario registry as a table.
pub fn scenario_list() -> String {
    let rows: Vec<Vec<String>> = SCENARIOS
        .iter()
        .map(|s| {
            vec![
                s.id.to_string(),
                s.title.to_string(),
                s.description.to_string(),
            ]
        })
        .collect();
    table(&["id", "title", "description"], &[Align::Left; 3], &rows)
}

/// One lab's results.
pub fn render(which: &str) -> Result<String, Failure> {
    let id = match which.to_ascii_lowercase().as_str() {
        "a" | "lab-a" => ScenarioId::LabA,
        "b" | "lab-b" => ScenarioId::LabB,
        "c" | "lab-c" => ScenarioId::LabC,
        "d" | "lab-d" => ScenarioId::LabD,
        "e" | "lab-e" => ScenarioId::LabE,
        _ => {
            return Err(Failure(format!(
                "lab: unknown lab \"{which}\" (expected a, b, c, d or e)"
            )))
        }
    };
    let config = scenario(id, &Overrides::default())?;
    let report = run(&config)?;
    let mut out = String::new();
    let info = id.info();
    out.push_str(&format!("{}\n{}\n\n", info.title, info.description));
    match id {
        ScenarioId::LabA => {
            out.push_str(&summary(&report, Some((59_000, 61_000, &config))));
            if let Some(fixed) = report.lane("fixed_window") {
                let n = fixed.allowed_between(&config.stream, 59_000, 61_000);
                out.push_str(&format!(
                    "\nThe fixed window let {n} through between 59 s and 61 s: {} in one window of 60 s, against a limit of 100.\n",
                    fixed.yardstick.max_in_window
                ));
            }
        }
        ScenarioId::LabB => out.push_str(&histograms(&report)),
        ScenarioId::LabC => out.push_str(&waits(&report)),
        ScenarioId::LabD => {
            out.push_str(&summary(&report, None));
            if let Some(spec) = &config.sweep {
                out.push('\n');
                let judged = ratelab_learn::judge::judge(spec)?;
                out.push_str(&crate::lab_d::judged_table(&judged, Lang::En));
            }
            if let Some(sweep) = &report.sweep {
                out.push('\n');
                out.push_str(&crate::lab_d::sweep_table(sweep));
            }
        }
        _ => {
            out.push_str(&summary(&report, None));
            if let (Some(fixed), Some(log)) =
                (report.lane("fixed_window"), report.lane("sliding_log"))
            {
                out.push_str(&format!(
                    "\nFixed window: {} passed, up to {} in one minute. Sliding log: {} passed, never more than {}.\n",
                    fixed.yardstick.passed, fixed.yardstick.max_in_window, log.yardstick.passed, log.yardstick.max_in_window
                ));
            }
        }
    }
    Ok(out)
}

/// passed / blocked / maxima per lane; `span` adds "allowed in [from, to)".
/// The yardstick of each limiter lane (and, for lab A, what it allowed in `span`).
pub fn summary(report: &Report, span: Option<(u64, u64, &Config)>) -> String {
    let window = report.results.first().map_or(0, |l| l.yardstick.window_ms);
    let in_window = format!("max in {}", seconds(window));
    let mut header = vec![
        "limiter",
        "passed",
        "blocked",
        in_window.as_str(),
        "max in 1 s",
    ];
    let span_label = span.map(|(a, b, _)| format!("allowed {}–{}", seconds(a), seconds(b)));
    if let Some(l) = &span_label {
        header.push(l);
    }
    let mut align = vec![Align::Left];
    align.extend(std::iter::repeat_n(Align::Right, header.len() - 1));
    let rows: Vec<Vec<String>> = report
        .results
        .iter()
        .map(|l| {
            let mut row = vec![
                l.id.clone(),
                l.yardstick.passed.to_string(),
                l.yardstick.blocked.to_string(),
                l.yardstick.max_in_window.to_string(),
                l.yardstick.max_in_1s.to_string(),
            ];
            if let Some((from, to, config)) = span {
                row.push(l.allowed_between(&config.stream, from, to).to_string());
            }
            row
        })
        .collect();
    table(&header, &align, &rows)
}

/// Lab B: allowed per 10 s, a minute per column.
fn histograms(report: &Report) -> String {
    let minutes = report
        .results
        .iter()
        .map(|l| l.yardstick.histogram_10s.len().div_ceil(6))
        .max()
        .unwrap_or(0);
    let labels: Vec<String> = (0..minutes)
        .map(|m| format!("{}–{} s", 60 * m, 60 * (m + 1)))
        .collect();
    let mut header = vec!["allowed per 10 s"];
    header.extend(labels.iter().map(String::as_str));
    let rows: Vec<Vec<String>> = report
        .results
        .iter()
        .map(|l| {
            let mut row = vec![l.id.clone()];
            row.extend(
                l.yardstick
                    .histogram_10s
                    .chunks(6)
                    .map(|c| c.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")),
            );
            row
        })
        .collect();
    let align = vec![Align::Left; header.len()];
    table(&header, &align, &rows)
}

/// Lab C: what happened to each of the 12 requests.
fn waits(report: &Report) -> String {
    let rows: Vec<Vec<String>> = report
        .results
        .iter()
        .map(|l| {
            let burst = l.params.burst.map_or(String::new(), |b| b.to_string());
            let each: Vec<String> = l
                .waits
                .iter()
                .map(|w| w.map_or("✗".to_string(), |w| w.ceil_ms().to_string()))
                .collect();
            vec![
                l.id.clone(),
                burst,
                l.yardstick.passed.to_string(),
                l.yardstick.blocked.to_string(),
                l.yardstick.longest_wait_ms.to_string(),
                each.join(" "),
            ]
        })
        .collect();
    table(
        &[
            "limiter",
            "burst",
            "passed",
            "blocked",
            "longest wait (ms)",
            "wait of each request in ms (✗ = blocked)",
        ],
        &[
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Left,
        ],
        &rows,
    )
}
