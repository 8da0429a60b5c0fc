//! Why? The selected request, limiter by limiter: state before, the updates, the
//! test with its numbers, the verdict and the state after, as the engine explains
//! them.

use leptos::prelude::*;
use ratelab_core::Algorithm;
use ratelab_sim::text::fields_in;

use super::{text, use_ctx};
use crate::model::{time_label, verdict_parts, Decision, Sim};
use crate::texts::common::COMMON;
use crate::texts::trace::TRACE;
use crate::texts::Lang;
use crate::view::lanes::lane::lane_name;

/// A sliding log longer than this many entries is shown as its first [`LOG_HEAD`]
/// and last [`LOG_TAIL`] and a count of the rest, as the CLI's trace does: at 100
/// per minute the log is 100 times long, listed before and after, and the table
/// squeezed its test column to a few characters a line.
const LOG_HEAD: usize = 3;
/// See [`LOG_HEAD`].
const LOG_TAIL: usize = 2;

/// The few words inside the engine's formulas (its explanations are notation,
/// written once, in English: `len := 100 − 1 expired (≤ 0 s) = 99`), in Vietnamese.
/// Names of state (`count`, `tokens`, `TAT`) stay as they are in both languages, as
/// a formula's letters do.
const WORDS_VI: [(&str, &str); 2] = [
    (" expired (≤ ", " hết hạn (≤ "),
    ("(more than one window passed)", "(đã qua hơn một cửa sổ)"),
];

/// An engine's formula with its words in `lang`.
fn say(formula: String, lang: Lang) -> String {
    match lang {
        Lang::En => formula,
        Lang::Vi => {
            WORDS_VI.iter().fold(
                formula,
                |f, (en, vi)| if f.contains(en) { f.replace(en, vi) } else { f },
            )
        }
    }
}

/// One lane's row of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceRow {
    /// The lane.
    pub j: usize,
    /// Its algorithm.
    pub algorithm: Algorithm,
    /// Its name ([`lane_name`]).
    pub name: String,
    /// State before, as `field=value` pairs.
    pub before: String,
    /// The updates, `;`-separated (`–` for none).
    pub steps: String,
    /// The comparison with its numbers.
    pub test: String,
    /// Whether it holds.
    pub holds: bool,
    /// The verdict.
    pub decision: Decision,
    /// A delay's length.
    pub wait: Option<String>,
    /// State after.
    pub after: String,
}

/// The selected request and each lane's explanation of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceView {
    /// The request's index.
    pub index: u64,
    /// Its time.
    pub t: u64,
    /// Its key, if not the default one.
    pub key: Option<String>,
    /// One row per lane.
    pub rows: Vec<TraceRow>,
}

/// What the engine says about request `index` (none before one has arrived), in
/// `lang` (the words around a long log's count of cut entries).
pub fn trace_of(sim: &Sim, index: Option<u64>, lang: Lang) -> Option<TraceView> {
    let more = TRACE.get(lang).more;
    let (i, r) = index.and_then(|i| sim.request(i).map(|r| (i, r)))?;
    let key = sim.key_of(Some(i));
    let rows = sim
        .lanes()
        .iter()
        .enumerate()
        .filter_map(|(j, lane)| {
            let e = sim.explain(j, i)?;
            let (decision, wait) = verdict_parts(&e.verdict);
            let steps = e.steps.iter().map(ToString::to_string).collect::<Vec<_>>();
            Some(TraceRow {
                j,
                algorithm: lane.algorithm,
                name: lane_name(sim.lanes(), j, lang),
                before: fields_in(&e.before, LOG_HEAD, LOG_TAIL, more),
                steps: if steps.is_empty() {
                    "–".into()
                } else {
                    say(steps.join("; "), lang)
                },
                test: say(e.test.to_string(), lang),
                holds: e.test.holds,
                decision,
                wait,
                after: fields_in(&e.after, LOG_HEAD, LOG_TAIL, more),
            })
        })
        .collect();
    Some(TraceView {
        index: i,
        t: r.t,
        key: (!key.is_empty()).then_some(key),
        rows,
    })
}

/// The trace table.
#[component]
pub fn Trace() -> impl IntoView {
    let ctx = use_ctx();
    // A new run's trace waits for its last step (`Ctx::panels_drawn`): meanwhile
    // the panel keeps what it showed (its rows name their own lanes), dimmed.
    let trace = Memo::new(move |prev: Option<&Option<TraceView>>| {
        let (selected, lang) = (ctx.panel_selected.get(), ctx.lang.get());
        if !ctx.panels_drawn() {
            return prev.cloned().flatten();
        }
        ctx.run.with(|s| trace_of(&s.sim, selected, lang))
    });
    let waiting = Signal::derive(move || !ctx.panels_drawn());
    let busy = Signal::derive(move || if waiting.get() { "true" } else { "false" });
    let body = move || match trace.get() {
        None => view! { <p class="empty">{text(&TRACE, |t| t.no_request)}</p> }.into_any(),
        Some(v) => {
            let lang = ctx.lang;
            // A key comes from the person's JSON or link: it is text.
            let key = v
                .key
                .map(|k| Signal::derive(move || format!(" · {} {k:?}", TRACE.get(lang.get()).key)));
            let which = Signal::derive(move || {
                format!(
                    "{} #{} · {}",
                    COMMON.get(lang.get()).request,
                    v.index + 1,
                    time_label(v.t)
                )
            });
            let rows = v
                .rows
                .into_iter()
                .map(|r| view! { <Row r /> })
                .collect_view();
            view! {
                <p class="which" data-index=v.index>{which}{key}</p>
                <div class="scroll">
                    <table>
                        <thead>
                            <tr>
                                <th scope="col">{text(&TRACE, |t| t.lane)}</th>
                                <th scope="col">{text(&TRACE, |t| t.before)}</th>
                                <th scope="col">{text(&TRACE, |t| t.steps)}</th>
                                <th scope="col">{text(&TRACE, |t| t.test)}</th>
                                <th scope="col">{text(&TRACE, |t| t.verdict)}</th>
                                <th scope="col">{text(&TRACE, |t| t.after)}</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
            .into_any()
        }
    };
    view! {
        <section class="trace" class:waiting=waiting aria-busy=busy>
            <h2>{text(&TRACE, |t| t.trace)}</h2>
            {body}
        </section>
    }
}

#[component]
fn Row(r: TraceRow) -> impl IntoView {
    let lang = use_ctx().lang;
    let wait = r.wait.map(|w| format!(" {w}")).unwrap_or_default();
    let verdict = Signal::derive(move || COMMON.get(lang.get()).decision(r.decision));
    view! {
        <tr data-lane=r.j>
            <th scope="row">{r.name}</th>
            <td class="before"><code>{r.before}</code></td>
            <td class="steps"><code>{r.steps}</code></td>
            <td class="test" class:holds=r.holds><code>{r.test}</code></td>
            <td class="verdict" data-verdict=r.decision.attr()>{verdict}{wait}</td>
            <td class="after"><code>{r.after}</code></td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_sim::share::parse;

    #[test]
    fn the_trace_is_the_engines_explanation() {
        let sim = Sim::new(&parse("limiters=fixed_window,leaky_queue,nginx").0.setup).unwrap();
        let v = trace_of(&sim, Some(9), Lang::En).unwrap();
        assert_eq!((v.index, v.t, v.key.as_deref()), (9, 11_200, None));
        let queue = &v.rows[1];
        assert_eq!(
            (queue.decision, queue.wait.as_deref()),
            (Decision::Delay, Some("9.8 s"))
        );
        assert_eq!(v.rows[0].decision, Decision::Allow);
        assert!(trace_of(&sim, None, Lang::En).is_none());
    }

    #[test]
    fn a_long_log_is_cut_to_its_ends_and_a_count() {
        let sim = Sim::new(&parse("scenario=lab-a&limiters=sliding_log").0.setup).unwrap();
        let last = sim.timeline.len().saturating_sub(1);
        let v = trace_of(&sim, Some(last), Lang::En).unwrap();
        let before = &v.rows[0].before;
        assert!(before.contains(" more, "), "{before}");
        assert!(before.len() < 120, "{before}");
        // On the Vietnamese page the count is in Vietnamese.
        let vi = trace_of(&sim, Some(last), Lang::Vi).unwrap();
        let before = &vi.rows[0].before;
        assert!(before.contains(" mục nữa, "), "{before}");
        assert!(!before.contains("more"), "{before}");
        // And so are the engine's words in its formulas.
        let at_60s = sim.timeline.visible(60_000, 60_000).start;
        let steps = &trace_of(&sim, Some(at_60s), Lang::Vi).unwrap().rows[0].steps;
        assert!(steps.contains(" hết hạn (≤ "), "{steps}");
        assert!(!steps.contains("expired"), "{steps}");
        assert_eq!(
            say("prev := 0 (more than one window passed)".into(), Lang::Vi),
            "prev := 0 (đã qua hơn một cửa sổ)"
        );
    }
}
