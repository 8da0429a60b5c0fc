//! The lessons panel's texts and lists as escaped HTML (see [`crate::view::learn`]).
//!
//! Why markup: the panel shows a few paragraphs and lists that change only when a
//! step opens, a run finishes or the language changes. As Leptos elements each
//! distinct element shape costs tachys' render code again (about 40 KB gzipped for
//! the panel); as markup it costs this file. Every text and value goes through
//! [`Writer`], which escapes it, so a lesson text or a value can only become text.
//! Buttons carry no handler: each names where it goes in `data-go`, and the panel
//! has one click handler.

use ratelab_sim::judge::Judged;
use ratelab_sim::lesson::{FactValue, Lang};
use ratelab_sim::share::format_duration;
use ratelab_sim::texts::Part;

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

/// The catalog's groups: each a heading and its lessons' buttons.
pub fn catalog(groups: &[(String, Vec<Entry<'_>>)]) -> Html {
    let mut w = Writer::with_capacity(4096);
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
    w.finish_html()
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
pub fn step_texts(
    words: &StepWords<'_>,
    watch: &[Part],
    proved: &[Part],
    judged: Option<&Judged>,
    lang: Lang,
) -> Html {
    let mut w = Writer::with_capacity(2048);
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
        judged_table(&mut w, words, j, lang);
    }
    w.finish_html()
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

    #[test]
    fn texts_and_values_are_escaped_and_values_marked() {
        let words = StepWords {
            watch: "Watch \"this\"",
            proved: "Proved",
            numbers: "n",
            judged: [""; 7],
        };
        let watch = [Part::Words("<img src=x onerror=alert(1)> & ".into())];
        let proved = [
            Part::Words("passed ".into()),
            Part::Value {
                name: "fw\"".into(),
                text: "<10>".into(),
            },
        ];
        let html = step_texts(&words, &watch, &proved, None, Lang::En);
        assert_eq!(
            html.as_str(),
            "<p class=\"watch\" data-label=\"Watch &quot;this&quot;\">&lt;img src=x onerror=alert(1)&gt; &amp; </p>\
             <p class=\"proved\" data-label=\"Proved\" title=\"n\">passed <strong class=\"fact\" data-fact=\"fw&quot;\">&lt;10&gt;</strong></p>"
        );
        let c = catalog(&[(
            "Demo <b>".into(),
            vec![Entry {
                go: "edge.0".into(),
                id: "edge",
                title: "Edge & burst",
                current: true,
            }],
        )]);
        assert_eq!(
            c.as_str(),
            "<li><h3>Demo &lt;b&gt;</h3><ol><li><button type=\"button\" data-lesson=\"edge\" data-go=\"edge.0\" aria-current=\"true\">Edge &amp; burst</button></li></ol></li>"
        );
    }
}
