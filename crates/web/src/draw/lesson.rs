//! The lessons panel's texts and lists as escaped HTML (see [`crate::view::learn`]).
//!
//! Why markup: the panel shows a few paragraphs and lists that change only when a
//! step opens, a run finishes or the language changes. As Leptos elements each
//! distinct element shape costs tachys' render code again (about 40 KB gzipped for
//! the panel); as markup it costs this file. Every text and value goes through
//! [`Writer`], which escapes it, so a lesson text or a value can only become text.
//! Buttons carry no handler: each names where it goes in `data-go`, and the panel
//! has one click handler.

use ratelab_learn::judge::Judged;
use ratelab_learn::lesson::{FactValue, Lang};
use ratelab_learn::texts::Part;
use ratelab_sim::share::format_duration;

use super::markup::{Html, Writer};

/// One catalog entry: where its button goes, its id, its title, whether open.
pub struct Entry<'a> {
    /// `data-go` (the lesson's first step, [`crate::learn::OpenLesson::key`]).
    pub go: String,
    /// The lesson's id (`data-lesson`).
    pub id: &'static str,
    /// Its title.
    pub title: &'a str,
    /// Whether it is the open lesson (`aria-current`).
    pub current: bool,
}

fn catalog_items(w: &mut Writer, groups: &[(String, Vec<Entry<'_>>)]) {
    for (title, entries) in groups {
        w.el("li").children(|w| {
            w.el("h3").text(title);
            w.el("ol").children(|w| {
                for e in entries {
                    w.el("li").children(|w| {
                        let b = w
                            .el("button")
                            .attr("type", "button")
                            .attr("data-lesson", e.id)
                            .attr("data-go", e.go.as_str());
                        let b = if e.current {
                            b.attr("aria-current", "true")
                        } else {
                            b
                        };
                        b.text(e.title);
                    });
                }
            });
        });
    }
}

/// The open step as the panel shows it: its place, its texts filled with the run's
/// numbers (empty until the run and the texts are there), and the way on.
pub struct OpenStep<'a> {
    /// `data-lesson`.
    pub id: &'static str,
    /// `data-step` (from 0).
    pub step: usize,
    /// "Step 1 of 2 · The edge burst".
    pub step_of: String,
    /// The step's title.
    pub title: String,
    /// What to watch, what it proved (empty until the run is there).
    pub watch: Vec<Part>,
    /// What it proved.
    pub proved: Vec<Part>,
    /// Lab D's judged table.
    pub judged: Option<&'a Judged>,
    /// Whether the setup is still the step's own (else the "changed" line shows).
    pub kept: bool,
    /// `data-go` of the previous and next steps, and of this one (reopen, replay).
    pub prev: Option<String>,
    /// See `prev`.
    pub next: Option<String>,
    /// See `prev`.
    pub this: String,
    /// The moment it plays to, as a time.
    pub moment: String,
}

/// The panel's words, in the page's language.
pub struct PanelWords<'a> {
    /// The panel's title, and the id its section is labelled by.
    pub lessons: &'a str,
    /// `id` of the title.
    pub title_id: String,
    /// "All lessons".
    pub all: &'a str,
    /// The "changed" line and its button.
    pub changed: &'a str,
    /// See `changed`.
    pub reopen: &'a str,
    /// The way on: previous, next, "play again to", close.
    pub way: [&'a str; 4],
    /// The step's labels.
    pub step: StepWords<'a>,
}

/// The whole panel: its title, a status line (the intro, loading, running, or an
/// error, `role="alert"`), the open step, the catalog (unfolded if `catalog_open`).
pub fn panel(
    words: &PanelWords<'_>,
    status: Option<(&str, bool)>,
    open: Option<&OpenStep<'_>>,
    groups: &[(String, Vec<Entry<'_>>)],
    catalog_open: bool,
    lang: Lang,
) -> Html {
    let mut w = Writer::with_capacity(8192);
    w.el("h2")
        .attr("id", words.title_id.as_str())
        .text(words.lessons);
    if let Some((text, error)) = status {
        let p = w.el("p");
        if error {
            p.attr("class", "status error")
                .attr("role", "alert")
                .text(text);
        } else {
            p.attr("class", "status").text(text);
        }
    }
    if let Some(o) = open {
        w.el("article")
            .attr("class", "lesson")
            .attr("data-lesson", o.id)
            .attr("data-step", o.step as u64)
            .children(|w| open_step(w, words, o, lang));
    }
    let d = w.el("details").attr("class", "catalog");
    let d = if catalog_open { d.attr("open", "") } else { d };
    d.children(|w| {
        w.el("summary").text(words.all);
        w.el("ul")
            .attr("class", "groups")
            .children(|w| catalog_items(w, groups));
    });
    w.finish_html()
}

fn open_step(w: &mut Writer, words: &PanelWords<'_>, o: &OpenStep<'_>, lang: Lang) {
    w.el("p").attr("class", "step-of").text(&o.step_of);
    // Focusable by script only: where focus goes when the button that opened the
    // step is gone (`view::learn::follow`).
    w.el("h3").attr("tabindex", "-1").text(&o.title);
    w.el("div").attr("class", "said").children(|w| {
        if !o.watch.is_empty() || !o.proved.is_empty() {
            said(w, &words.step, &o.watch, &o.proved, o.judged, lang);
        }
    });
    let class = if o.kept { "changed hidden" } else { "changed" };
    w.el("p").attr("class", class).children(|w| {
        w.text(words.changed);
        w.text(" ");
        button(w, "reopen", Some(&o.this), words.reopen);
    });
    let [prev, next, again, close] = words.way;
    w.el("nav").attr("class", "way").children(|w| {
        button(w, "prev", o.prev.as_deref(), prev);
        button(w, "next", o.next.as_deref(), next);
        button(w, "replay", Some(&o.this), &format!("{again} {}", o.moment));
        button(w, "close", Some("close"), close);
    });
}

/// A button that names where it goes, disabled when it goes nowhere.
fn button(w: &mut Writer, class: &'static str, go: Option<&str>, label: &str) {
    let b = w.el("button").attr("type", "button").attr("class", class);
    match go {
        Some(g) => b.attr("data-go", g).text(label),
        None => b.attr("disabled", "").text(label),
    }
}

/// The labels of a step's texts, in the page's language.
pub struct StepWords<'a> {
    /// "What to watch".
    pub watch: &'a str,
    /// "What it proved".
    pub proved: &'a str,
    /// Why the highlighted numbers can be trusted (the proved text's title).
    pub numbers: &'a str,
    /// Lab D's table: caption and column heads.
    pub judged: [&'a str; 7],
}

/// What to watch and what it proved, each slot's value a
/// `<strong class="fact" data-fact=…>`, and lab D's judged table if the step has
/// it.
fn said(
    w: &mut Writer,
    words: &StepWords<'_>,
    watch: &[Part],
    proved: &[Part],
    judged: Option<&Judged>,
    lang: Lang,
) {
    w.el("p")
        .attr("class", "watch")
        .attr("data-label", words.watch)
        .children(|w| parts(w, watch));
    w.el("p")
        .attr("class", "proved")
        .attr("data-label", words.proved)
        .attr("title", words.numbers)
        .children(|w| parts(w, proved));
    if let Some(j) = judged {
        judged_table(w, words, j, lang);
    }
}

fn parts(w: &mut Writer, parts: &[Part]) {
    for p in parts {
        match p {
            Part::Words(t) => w.text(t),
            Part::Value { name, text } => w
                .el("strong")
                .attr("class", "fact")
                .attr("data-fact", name.as_str())
                .text(text),
        }
    }
}

/// Lab D's first table: the sliding window counter judged on its own admitted
/// history, level by level. (The second, the counter next to an independent
/// sliding log, is the setup's sweep panel.)
fn judged_table(w: &mut Writer, words: &StepWords<'_>, j: &Judged, lang: Lang) {
    let [caption, heads @ ..] = words.judged;
    let caption = format!(
        "{caption} ({} × {}, N = {} / {}, seed {})",
        j.clients,
        format_duration(j.duration_ms),
        j.limit,
        format_duration(j.period_ms),
        j.seed
    );
    w.el("div").attr("class", "scroll").children(|w| {
        w.el("table").attr("class", "judged-table").children(|w| {
            w.el("caption").text(&caption);
            w.el("thead").children(|w| {
                w.el("tr").children(|w| {
                    for h in heads {
                        w.el("th").attr("scope", "col").text(h);
                    }
                });
            });
            w.el("tbody").children(|w| {
                for r in &j.rows {
                    w.el("tr").attr("data-load", r.load.as_str()).children(|w| {
                        w.el("th").attr("scope", "row").text(&r.load);
                        for v in [
                            FactValue::Share(r.allowed_share()),
                            FactValue::Share(r.wrong_allow_share()),
                            FactValue::Share(r.wrong_block_share()),
                            FactValue::ApproxShare(r.mean_error()),
                        ] {
                            w.el("td").text(&v.text(lang));
                        }
                        w.el("td").text(&r.worst_client_max.to_string());
                    });
                }
            });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> PanelWords<'static> {
        PanelWords {
            lessons: "Lessons",
            title_id: "lessons-1".into(),
            all: "All",
            changed: "Changed",
            reopen: "Reopen",
            way: ["Prev", "Next", "Again to", "Close"],
            step: StepWords {
                watch: "Watch \"this\"",
                proved: "Proved",
                numbers: "n",
                judged: [""; 7],
            },
        }
    }

    #[test]
    fn texts_and_values_are_escaped_and_values_marked() {
        let open = OpenStep {
            id: "edge",
            step: 0,
            step_of: "Step 1 of 2 · <i>".into(),
            title: "T".into(),
            watch: vec![Part::Words("<img src=x onerror=alert(1)> & ".into())],
            proved: vec![
                Part::Words("passed ".into()),
                Part::Value {
                    name: "fw\"".into(),
                    text: "<10>".into(),
                },
            ],
            judged: None,
            kept: true,
            prev: None,
            next: Some("edge.1".into()),
            this: "edge.0".into(),
            moment: "12 s".into(),
        };
        let groups = [(
            "Demo <b>".to_string(),
            vec![Entry {
                go: "edge.0".into(),
                id: "edge",
                title: "Edge & burst",
                current: true,
            }],
        )];
        let html = panel(
            &words(),
            Some(("<err>", true)),
            Some(&open),
            &groups,
            false,
            Lang::En,
        );
        assert_eq!(
            html.as_str(),
            "<h2 id=\"lessons-1\">Lessons</h2>\
             <p class=\"status error\" role=\"alert\">&lt;err&gt;</p>\
             <article class=\"lesson\" data-lesson=\"edge\" data-step=\"0\">\
             <p class=\"step-of\">Step 1 of 2 · &lt;i&gt;</p><h3 tabindex=\"-1\">T</h3><div class=\"said\">\
             <p class=\"watch\" data-label=\"Watch &quot;this&quot;\">&lt;img src=x onerror=alert(1)&gt; &amp; </p>\
             <p class=\"proved\" data-label=\"Proved\" title=\"n\">passed <strong class=\"fact\" data-fact=\"fw&quot;\">&lt;10&gt;</strong></p></div>\
             <p class=\"changed hidden\">Changed <button type=\"button\" class=\"reopen\" data-go=\"edge.0\">Reopen</button></p>\
             <nav class=\"way\"><button type=\"button\" class=\"prev\" disabled=\"\">Prev</button>\
             <button type=\"button\" class=\"next\" data-go=\"edge.1\">Next</button>\
             <button type=\"button\" class=\"replay\" data-go=\"edge.0\">Again to 12 s</button>\
             <button type=\"button\" class=\"close\" data-go=\"close\">Close</button></nav></article>\
             <details class=\"catalog\"><summary>All</summary><ul class=\"groups\">\
             <li><h3>Demo &lt;b&gt;</h3><ol><li><button type=\"button\" data-lesson=\"edge\" data-go=\"edge.0\" aria-current=\"true\">Edge &amp; burst</button></li></ol></li></ul></details>"
        );
        // No step open: no article, the catalog open, no status line.
        let html = panel(&words(), None, None, &groups, true, Lang::En);
        assert!(!html.as_str().contains("<article"));
        assert!(!html.as_str().contains("status"));
        assert!(html
            .as_str()
            .contains("<details class=\"catalog\" open=\"\">"));
        // A page opened on a service scenario: the catalog folded.
        let html = panel(&words(), None, None, &groups, false, Lang::En);
        assert!(html.as_str().contains("<details class=\"catalog\">"));
    }
}
