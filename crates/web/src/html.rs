//! The page's parts as HTML markup, in plain Rust (tested natively): the masthead,
//! the notices, the setup form, the lanes' frames, the yardstick and trace tables.
//!
//! The playground renders its read-only parts and its forms as markup handed to the
//! browser in one `innerHTML` per part (see [`crate::app`] for why: the wasm budget).
//! Interactive elements carry `data-action` (buttons) or a `name` (fields) that the
//! root's delegated listeners dispatch on. Every text is escaped ([`esc`]).

use std::fmt::Write as _;

use ratelab_core::{Algorithm, Explanation};
use ratelab_sim::share::{format_duration, format_requests, Setup, MAX_PLAYGROUND_LANES};
use ratelab_sim::sweep::Sweep;
use ratelab_sim::{ScenarioId, SCENARIOS};

use crate::draw::esc;
use crate::i18n::{title, Lang, Words};
use crate::model::{time_label, verdict_parts, Sim};
use crate::texts::algorithm_text;

/// The scenario names in the page's language.
pub fn scenario_title(id: ScenarioId, lang: Lang) -> &'static str {
    if lang == Lang::En {
        return id.info().title;
    }
    match id {
        ScenarioId::EdgeBurst => "Dồn ở ranh giới cửa sổ",
        ScenarioId::TwiceTheRate => "Gấp đôi tốc độ",
        ScenarioId::BurstThenDrip => "Dồn rồi nhỏ giọt",
        ScenarioId::Manual => "Thủ công",
        ScenarioId::Golden => "Luồng mẫu (golden)",
        ScenarioId::LabA => "Lab A: tấn công ranh giới",
        ScenarioId::LabB => "Lab B: quá tải kéo dài",
        ScenarioId::LabC => "Lab C: tải một trang",
        ScenarioId::LabD => "Lab D: ước lượng so với chính xác",
        ScenarioId::LabE => "Lab E: trường hợp xấu nhất",
        ScenarioId::Poisson => "Lưu lượng Poisson",
        ScenarioId::Custom => "Tự nhập",
    }
}

/// A scenario's one-line description in the page's language.
pub fn scenario_description(id: ScenarioId, lang: Lang) -> &'static str {
    if lang == Lang::En {
        return id.info().description;
    }
    match id {
        ScenarioId::EdgeBurst => "Một đợt dồn 2N chia đôi quanh ranh giới cửa sổ: N yêu cầu trong một phần mười cuối của cửa sổ đầu, N trong một phần mười đầu của cửa sổ sau.",
        ScenarioId::TwiceTheRate => "Một luồng đều với tốc độ gấp đôi mức cho phép trong ba cửa sổ.",
        ScenarioId::BurstThenDrip => "Một đợt dồn N yêu cầu cùng lúc, rồi cứ 2W/N lại một yêu cầu (nửa tốc độ) cho tới 4W.",
        ScenarioId::Manual => "Không có yêu cầu nào: tự gửi từng yêu cầu bằng nút bấm.",
        ScenarioId::Golden => "Mười hai yêu cầu của SPEC với hạn mức 5 mỗi 10 s, cùng các bộ giới hạn trong bảng mẫu.",
        ScenarioId::LabA => "100 mỗi phút: một yêu cầu lúc 0 s, 100 ngay trước 60 s, 100 ngay sau; cửa sổ cố định cho 199 yêu cầu qua trong 2 s.",
        ScenarioId::LabB => "100 mỗi phút, cứ 300 ms một yêu cầu trong 3 phút: các cửa sổ cho qua từng đợt rồi im lặng (34 33 33 0 0 0 mỗi 10 s).",
        ScenarioId::LabC => "12 yêu cầu cùng lúc với \"10 mỗi giây\": xô chứa 1 chặn 11, xô chứa 20 không chặn, hàng đợi thì hoãn chúng.",
        ScenarioId::LabD => "Lưu lượng Poisson có seed, 300 client × 10 phút ở mức 0,5x tới 4x của 100 mỗi phút: bộ đếm cửa sổ trượt cho qua sai hay chặn sai thường đến đâu.",
        ScenarioId::LabE => "100 mỗi phút: 100 yêu cầu trong 0,1 s cuối của phút đầu, rồi 10 mỗi giây trong hai phút.",
        ScenarioId::Poisson => "Lưu lượng ngẫu nhiên có seed từ nhiều client, mỗi client trung bình bằng mức tải × giới hạn.",
        ScenarioId::Custom => "Yêu cầu và bộ giới hạn của bạn (gõ, dán, hoặc nhập JSON).",
    }
}

/// The title, the tagline and the language switch.
pub fn masthead(lang: Lang) -> String {
    let w = lang.words();
    let opt = |code: &str, name: &str| {
        let sel = if code == lang.code() { " selected" } else { "" };
        format!(r#"<option value="{code}"{sel}>{name}</option>"#)
    };
    format!(
        r#"<header class="masthead"><div><h1>ratelab</h1><p class="tagline">{}</p></div><label class="lang"><span>{}</span><select name="lang" aria-label="Language / Ngôn ngữ">{}{}</select></label></header>"#,
        esc(w.tagline),
        esc(w.language),
        opt("en", "English"),
        opt("vi", "Tiếng Việt"),
    )
}

/// The notices about ignored settings (empty when there are none).
pub fn notices(notices: &[String], w: &Words, fills: &mut Fills) -> String {
    if notices.is_empty() {
        return String::new();
    }
    let mut out = format!(
        r#"<div class="notices" role="status"><p><strong>{}</strong><button type="button" class="dismiss" data-action="dismiss">{}</button></p><ul>"#,
        esc(w.notices),
        esc(w.dismiss)
    );
    // A notice quotes the link, which anyone can craft: text, not markup.
    for (i, n) in notices.iter().enumerate() {
        let slot = fills.slot(format!("notice:{i}"), n);
        let _ = write!(out, "<li><code {slot}></code></li>");
    }
    out.push_str("</ul></div>");
    out
}

/// The playground compares three to six limiters: removing stops at three. (A link
/// may still ask for fewer, as an embed in an article comparing two might.)
pub const MIN_LANES: usize = 3;

/// Everything the setup form shows besides the setup itself.
pub struct FormState<'a> {
    /// Inline errors by field name.
    pub errors: &'a [(String, String)],
    /// The custom stream as the user typed it, if it was not applied.
    pub requests_draft: Option<&'a str>,
    /// The JSON box's text.
    pub json: &'a str,
    /// Whether the JSON box is open.
    pub json_open: bool,
    /// Lab D's sweep: running, or its result and how long it took (ms).
    pub sweep_running: bool,
    /// The sweep's result.
    pub sweep: Option<&'a Result<(Sweep, f64), String>>,
    /// Whether the text was copied.
    pub copied: bool,
    /// A prefix making element ids unique on the page.
    pub uid: u32,
}

fn error_of<'a>(errors: &'a [(String, String)], name: &str) -> Option<&'a str> {
    errors
        .iter()
        .find(|(f, _)| f == name)
        .map(|(_, m)| m.as_str())
}

/// Text typed by the user, or quoting what they typed (an error message), that the
/// page puts into an element after writing the markup: as a textarea's `value` or
/// an element's text, never as markup. The element is the one with
/// `data-fill="{key}"`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fills(pub Vec<(String, String)>);

impl Fills {
    /// An empty element's attribute that marks it for `text`, which is kept.
    fn slot(&mut self, key: String, text: &str) -> String {
        let attr = format!(r#"data-fill="{}""#, esc(&key));
        if !text.is_empty() {
            self.0.push((key, text.to_string()));
        }
        attr
    }
}

/// A labelled text field with its inline error. The value is the engine's
/// normalised number; the error, which may quote input, is a [`Fills`] slot.
fn field(
    out: &mut String,
    fills: &mut Fills,
    f: &FormState<'_>,
    name: &str,
    label: &str,
    value: &str,
    hint: &str,
) {
    let err = error_of(f.errors, name);
    let id = format!("f{}-{}", f.uid, name.replace('.', "-"));
    let slot = fills.slot(format!("error:{name}"), err.unwrap_or(""));
    let _ = write!(
        out,
        r#"<label class="field{}" for="{id}"><span class="label">{}</span><input id="{id}" name="{}" type="text" inputmode="decimal" spellcheck="false" autocomplete="off" value="{}" placeholder="{}" aria-invalid="{}" aria-describedby="{id}-err"/><span class="error" id="{id}-err" role="alert" {slot}></span></label>"#,
        if err.is_some() { " invalid" } else { "" },
        esc(label),
        esc(name),
        esc(value),
        esc(hint),
        err.is_some(),
    );
}

/// The setup form: scenario, the shared budget, the lanes with their parameters, the
/// custom stream, lab D's sweep, the JSON box. User text (the drafts, the JSON, the
/// error messages) comes back as [`Fills`], not in the markup.
pub fn setup(s: &Setup, lang: Lang, f: &FormState<'_>, fills: &mut Fills) -> String {
    let w = lang.words();
    let mut out = String::with_capacity(8_000);
    let _ = write!(
        out,
        r#"<section class="setup"><h2 class="sr-only">{}</h2><div class="row"><label class="field scenario"><span class="label">{}</span><select name="scenario">"#,
        esc(w.setup),
        esc(w.scenario)
    );
    for sc in SCENARIOS {
        let sel = if sc.id == s.scenario { " selected" } else { "" };
        let _ = write!(
            out,
            r#"<option value="{}"{sel}>{}</option>"#,
            sc.id,
            esc(scenario_title(sc.id, lang))
        );
    }
    let _ = write!(
        out,
        r#"</select></label><fieldset class="budget"><legend>{}</legend>"#,
        esc(w.budget)
    );
    let (limit, period) = s.budget();
    field(
        &mut out,
        fills,
        f,
        "limit",
        w.limit,
        &limit.to_string(),
        "5",
    );
    field(
        &mut out,
        fills,
        f,
        "period",
        w.per,
        &format_duration(period),
        "10s",
    );
    let describe = scenario_description(s.scenario, lang);
    let _ = write!(
        out,
        r#"</fieldset></div><p class="describe">{}</p><fieldset class="lanes-setup"><legend>{} ({}/{MAX_PLAYGROUND_LANES})</legend><ol>"#,
        esc(describe),
        esc(w.limiters),
        s.lanes.len()
    );
    for (j, lane) in s.lanes.iter().enumerate() {
        let a = lane.algorithm;
        let badge = if a.is_teaching() {
            format!(r#" <span class="badge">{}</span>"#, esc(w.wrong_on_purpose))
        } else {
            String::new()
        };
        let _ = write!(
            out,
            r#"<li class="lane-fields" data-lane="{j}" data-algorithm="{}"><span class="name">{}{badge}</span>"#,
            a.id(),
            esc(title(a, lang))
        );
        let p = &lane.params;
        let r = lane.resolved();
        field(
            &mut out,
            fills,
            f,
            &format!("lane{j}.limit"),
            w.limit,
            &p.limit.to_string(),
            "5",
        );
        field(
            &mut out,
            fills,
            f,
            &format!("lane{j}.period"),
            w.per,
            &format_duration(p.period_ms),
            "10s",
        );
        if let Some(b) = r.burst {
            field(
                &mut out,
                fills,
                f,
                &format!("lane{j}.burst"),
                w.burst_label(a),
                &b.to_string(),
                "",
            );
        }
        if a == Algorithm::Nginx {
            field(
                &mut out,
                fills,
                f,
                &format!("lane{j}.delay"),
                w.delay,
                &r.delay.map(|d| d.to_string()).unwrap_or_default(),
                "0",
            );
            let _ = write!(
                out,
                r#"<label class="field check"><input type="checkbox" name="lane{j}.nodelay"{}/><span class="label">{}</span></label>"#,
                if p.nodelay { " checked" } else { "" },
                esc(w.nodelay)
            );
        }
        let _ = write!(
            out,
            r#"<button type="button" class="remove" data-action="remove" data-lane="{j}" aria-label="{} {}"{}>×</button></li>"#,
            esc(w.remove),
            esc(title(a, lang)),
            if s.lanes.len() <= MIN_LANES {
                " disabled"
            } else {
                ""
            }
        );
    }
    let _ = write!(
        out,
        r#"</ol><label class="field add"><span class="label">{}</span><select name="add"{}><option value="">+</option>"#,
        esc(w.add_limiter),
        if s.lanes.len() >= MAX_PLAYGROUND_LANES {
            " disabled"
        } else {
            ""
        }
    );
    for a in Algorithm::ALL {
        let label = if a.is_teaching() {
            format!("{} ({})", title(a, lang), w.wrong_on_purpose)
        } else {
            title(a, lang).to_string()
        };
        let _ = write!(
            out,
            r#"<option value="{}">{}</option>"#,
            a.id(),
            esc(&label)
        );
    }
    let slot = fills.slot("error:add".into(), error_of(f.errors, "add").unwrap_or(""));
    let _ = write!(
        out,
        r#"</select><span class="error" role="alert" {slot}></span></label></fieldset>"#,
    );
    if s.scenario == ScenarioId::Custom {
        let text = f
            .requests_draft
            .map(str::to_string)
            .unwrap_or_else(|| format_requests(&s.requests).replace(',', " "));
        let id = format!("f{}-requests", f.uid);
        let area = fills.slot("requests".into(), &text);
        let error = fills.slot(
            "error:requests".into(),
            error_of(f.errors, "requests").unwrap_or(""),
        );
        let _ = write!(
            out,
            r#"<div class="custom"><label class="field wide" for="{id}"><span class="label">{}</span><textarea id="{id}" name="requests" rows="3" spellcheck="false" {area}></textarea><span class="hint">{}</span><span class="error" role="alert" {error}></span></label><button type="button" class="apply" data-action="apply-requests">{}</button></div>"#,
            esc(w.custom_times),
            esc(w.custom_hint),
            esc(w.apply)
        );
    }
    if s.scenario == ScenarioId::LabD {
        sweep(&mut out, f, w);
    }
    let area = fills.slot("json".into(), f.json);
    let error = fills.slot(
        "error:json".into(),
        error_of(f.errors, "json").unwrap_or(""),
    );
    let _ = write!(
        out,
        r#"<details class="json" data-name="json"{}><summary data-action="toggle-json">{}</summary><textarea name="json" rows="6" spellcheck="false" aria-label="{}" {area}></textarea><span class="error" role="alert" {error}></span><div class="buttons"><button type="button" class="export" data-action="export">{}</button><button type="button" class="import" data-action="import">{}</button><button type="button" class="copy" data-action="copy">{}</button></div></details></section>"#,
        if f.json_open { " open" } else { "" },
        esc(w.json),
        esc(w.json),
        esc(w.export),
        esc(w.import),
        esc(if f.copied { w.copied } else { w.copy })
    );
    out
}

fn sweep(out: &mut String, f: &FormState<'_>, w: &Words) {
    let _ = write!(
        out,
        r#"<div class="sweep"><h3>{}</h3><button type="button" class="run-sweep" data-action="sweep"{}>{}</button>"#,
        esc(w.sweep),
        if f.sweep_running { " disabled" } else { "" },
        esc(if f.sweep_running {
            w.sweep_running
        } else {
            w.sweep_run
        })
    );
    match f.sweep {
        Some(Ok((s, took))) => {
            let _ = write!(
                out,
                r#"<div class="scroll"><table class="sweep-table"><thead><tr><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>"#,
                esc(w.load),
                esc(w.requests),
                esc(w.wrong_allows),
                esc(w.wrong_blocks)
            );
            for r in &s.rows {
                let _ = write!(
                    out,
                    r#"<tr data-load="{0}"><th scope="row">{0}</th><td>{1}</td><td>{2}</td><td>{3}</td></tr>"#,
                    esc(&r.load),
                    r.requests,
                    r.wrong_allows,
                    r.wrong_blocks
                );
            }
            let _ = write!(
                out,
                r#"</tbody></table></div><p class="took">{} {} ms (seed {}, {} × {})</p>"#,
                esc(w.took),
                took.round() as i64,
                s.seed,
                s.clients,
                format_duration(s.duration_ms)
            );
        }
        Some(Err(e)) => {
            let _ = write!(out, r#"<p class="error">{}</p>"#, esc(e));
        }
        None => {}
    }
    out.push_str("</div>");
}

/// The clock bar: previous, play, next, speed, the scrubber, the time, "send a
/// request" (manual only), the highlight switch. Its moving values (the scrubber, the
/// time, the play label) are set directly as the clock runs.
pub fn controls(lang: Lang, speed: u32, manual: bool, highlight: bool) -> String {
    let w = lang.words();
    let mut out = format!(
        r#"<div class="controls" role="group" aria-label="{clock}"><button type="button" class="step prev" data-action="prev" aria-label="{prev}" title="{prev}">{prev_short}</button><button type="button" class="play" data-action="play" aria-pressed="false">{play}</button><button type="button" class="step next" data-action="next" aria-label="{next}" title="{next}">{next_short}</button><label class="speed"><span>{speed_label}</span><select name="speed">"#,
        clock = esc(w.clock),
        prev = esc(w.prev),
        next = esc(w.next),
        prev_short = esc(w.prev_short),
        next_short = esc(w.next_short),
        play = esc(w.play),
        speed_label = esc(w.speed),
    );
    for p in ratelab_sim::share::SPEEDS_PERMILLE {
        let v = ratelab_sim::share::format_speed(p);
        let sel = if p == speed { " selected" } else { "" };
        let _ = write!(out, r#"<option value="{v}"{sel}>{v}×</option>"#);
    }
    let _ = write!(
        out,
        r#"</select></label><label class="scrub"><span class="sr-only">{clock}</span><input type="range" name="clock" min="0" max="0" step="1" value="0"/></label><output class="now">0 s</output><button type="button" class="send{}" data-action="send">{}</button><label class="hl"><input type="checkbox" name="highlight"{}/><span>{}</span></label></div><p class="hint">{}</p>"#,
        if manual { "" } else { " hidden" },
        esc(w.send),
        if highlight { " checked" } else { "" },
        esc(w.highlight),
        esc(w.keys_hint),
        clock = esc(w.clock),
    );
    out
}

/// The legend and one frame per lane (header, the three timeline layers, the side
/// panel, the algorithm's texts); the layers are filled by [`crate::draw`].
pub fn lanes(sim: &Sim, lang: Lang, compact: bool, width: f64) -> String {
    let width = width.round() as i64;
    let w = lang.words();
    let mut out = format!(
        r#"<ul class="legend" aria-hidden="true"><li><span class="key allow"></span>{}</li><li><span class="key deny"></span>{}</li><li><span class="key delay"></span>{}</li><li><span class="key pending"></span>{}</li></ul>"#,
        esc(w.legend_allow),
        esc(w.legend_deny),
        esc(w.legend_delay),
        esc(w.legend_pending)
    );
    for (j, lane) in sim.lanes().iter().enumerate() {
        let a = lane.algorithm;
        let badge = if a.is_teaching() {
            format!(r#"<span class="badge">{}</span>"#, esc(w.wrong_on_purpose))
        } else {
            String::new()
        };
        let _ = write!(
            out,
            r#"<article class="lane{}" data-lane="{j}" data-algorithm="{}"><header class="lane-head"><h3>{}</h3>{badge}<span class="params">{}</span></header><div class="lane-body"><svg class="timeline" width="{width}" height="{}" viewBox="-8 0 {} {}" role="img" aria-label="{}"><g class="under" data-layer="under"></g><g class="marks" data-layer="marks"></g><g class="over" data-layer="over"></g></svg><div class="side" data-layer="side"></div></div><p class="dense-note hidden" data-layer="dense">{}</p>"#,
            if a.is_teaching() { " teaching" } else { "" },
            a.id(),
            esc(title(a, lang)),
            esc(&params_text(lane, w)),
            crate::draw::HEIGHT,
            // 8 px of margin each side, so that a mark at the span's edge is whole.
            width + 16,
            crate::draw::HEIGHT,
            esc(title(a, lang)),
            esc(w.dense)
        );
        if !compact {
            let t = algorithm_text(a, lang);
            let _ = write!(
                out,
                r#"<details class="about" data-name="about{j}"><summary>{}</summary><dl><dt>{}</dt><dd>{}</dd><dt>{}</dt><dd>{}</dd><dt>{}</dt><dd>{}</dd></dl></details>"#,
                esc(w.about),
                esc(w.promise),
                esc(t.promise),
                esc(w.fits),
                esc(t.fits),
                esc(w.misleads),
                esc(t.misleads)
            );
        }
        out.push_str("</article>");
    }
    out
}

/// "5 / 10 s · capacity 5": a lane's parameters.
pub fn params_text(spec: &ratelab_sim::LaneSpec, w: &Words) -> String {
    let p = &spec.params;
    let mut s = format!("{} / {}", p.limit, time_label(p.period_ms));
    let r = spec.resolved();
    if let Some(b) = r.burst {
        let _ = write!(s, " · {} {b}", w.burst_label(spec.algorithm));
    }
    if spec.algorithm == Algorithm::Nginx {
        match r.delay {
            Some(d) => {
                let _ = write!(s, " · {} {d}", w.delay);
            }
            None => s.push_str(" · nodelay"),
        }
    }
    s
}

/// The yardstick so far: a row per lane, numbers in `data-value` for tests.
pub fn yardstick(sim: &Sim, now: u64, lang: Lang, highlight: bool) -> String {
    let w = lang.words();
    let mut out = format!(
        r#"<section class="yardstick"><h2>{}</h2><div class="scroll"><table><thead><tr><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{} W</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>"#,
        esc(w.yardstick),
        esc(w.lane),
        esc(w.passed),
        esc(w.blocked),
        esc(w.max_in),
        esc(w.max_in_1s),
        esc(w.longest_wait),
        esc(w.state_per_key)
    );
    for (j, lane) in sim.lanes().iter().enumerate() {
        let Some(y) = sim.yardstick(j, now) else {
            continue;
        };
        let a = lane.algorithm;
        let wait = if a.delays() {
            time_label(y.longest_wait_ms)
        } else {
            "–".to_string()
        };
        let dep = y
            .max_in_window_departures
            .map(|d| {
                format!(
                    r#" <span class="departures">({d} {})</span>"#,
                    esc(w.by_departure)
                )
            })
            .unwrap_or_default();
        let _ = write!(
            out,
            r#"<tr data-lane="{j}" data-algorithm="{}"><th scope="row">{}</th><td class="passed" data-value="{}">{}</td><td class="blocked" data-value="{}">{}</td><td class="max-window" data-value="{}"><button type="button" class="hl-toggle" data-action="highlight" aria-pressed="{highlight}">{}<span class="unit"> / {}</span></button>{dep}</td><td class="max-1s" data-value="{}">{}</td><td class="longest-wait" data-value="{}">{}</td><td class="state" data-value="{}">{} {}</td></tr>"#,
            a.id(),
            esc(title(a, lang)),
            y.passed,
            y.passed,
            y.blocked,
            y.blocked,
            y.max_in_window,
            y.max_in_window,
            esc(&time_label(y.window_ms)),
            y.max_in_1s,
            y.max_in_1s,
            y.longest_wait_ms,
            esc(&wait),
            y.state_numbers,
            y.state_numbers,
            esc(if y.state_numbers == 1 {
                w.number
            } else {
                w.numbers
            })
        );
    }
    out.push_str("</tbody></table></div></section>");
    out
}

/// The trace of request `index`: per lane, state before → updates → the test with
/// its numbers → verdict (translated) → state after.
pub fn trace(sim: &Sim, index: Option<u64>, lang: Lang, fills: &mut Fills) -> String {
    let w = lang.words();
    let mut out = format!(r#"<section class="trace"><h2>{}</h2>"#, esc(w.trace));
    let Some((i, r)) = index.and_then(|i| sim.request(i).map(|r| (i, r))) else {
        let _ = write!(
            out,
            r#"<p class="empty">{}</p></section>"#,
            esc(w.no_request)
        );
        return out;
    };
    // A key comes from the user's JSON: text, not markup.
    let key = sim.key_of(Some(i));
    let key = if key.is_empty() {
        String::new()
    } else {
        format!(
            " · key <span {}></span>",
            fills.slot("trace:key".into(), &format!("{key:?}"))
        )
    };
    let _ = write!(
        out,
        r#"<p class="which" data-index="{i}">{} #{} · {}{}</p><div class="scroll"><table><thead><tr><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>"#,
        esc(w.request),
        i + 1,
        esc(&time_label(r.t)),
        key,
        esc(w.lane),
        esc(w.before),
        esc(w.steps),
        esc(w.test),
        esc(w.verdict),
        esc(w.after)
    );
    for (j, lane) in sim.lanes().iter().enumerate() {
        let Some(e) = sim.explain(j, i) else { continue };
        let (word, wait) = verdict_parts(&e.verdict);
        let steps = e
            .steps
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        let _ = write!(
            out,
            r#"<tr data-lane="{j}"><th scope="row">{}</th><td class="before"><code>{}</code></td><td class="steps"><code>{}</code></td><td class="test{}"><code>{}</code></td><td class="verdict" data-verdict="{word}">{}{}</td><td class="after"><code>{}</code></td></tr>"#,
            esc(title(lane.algorithm, lang)),
            esc(&Explanation::fields(&e.before)),
            esc(if steps.is_empty() { "–" } else { &steps }),
            if e.test.holds { " holds" } else { "" },
            esc(&e.test.to_string()),
            esc(w.verdict(word)),
            esc(&wait.map(|w| format!(" {w}")).unwrap_or_default()),
            esc(&Explanation::fields(&e.after))
        );
    }
    out.push_str("</tbody></table></div></section>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratelab_sim::share::parse;

    fn golden() -> (Setup, Sim) {
        let s = parse("limiters=fixed_window,leaky_queue,nginx").0.setup;
        let sim = Sim::new(&s).unwrap();
        (s, sim)
    }

    #[test]
    fn the_trace_renders_the_engines_explanation_and_translates_the_verdict() {
        let (_, sim) = golden();
        let html = trace(&sim, Some(9), Lang::En, &mut Fills::default());
        assert!(
            html.contains(r#"data-verdict="delay">delayed 9.8 s"#),
            "{html}"
        );
        assert!(html.contains("Request #10 · 11.2 s"));
        let vi = trace(&sim, Some(5), Lang::Vi, &mut Fills::default());
        assert!(vi.contains("từ chối (429)"));
        assert!(trace(&sim, None, Lang::En, &mut Fills::default())
            .contains("No request has arrived yet."));
    }

    #[test]
    fn the_yardstick_carries_the_engines_numbers() {
        let (_, sim) = golden();
        let html = yardstick(&sim, sim.end(), Lang::En, false);
        assert!(html.contains(r#"<td class="passed" data-value="10">"#));
        assert!(html.contains(r#"<td class="longest-wait" data-value="9800">9.8 s"#));
    }

    #[test]
    fn the_form_shows_values_errors_and_escapes_drafts() {
        let (s, _) = golden();
        let errors = vec![("lane1.burst".to_string(), "burst: must be > 0".to_string())];
        let f = FormState {
            errors: &errors,
            requests_draft: None,
            json: "<script>",
            json_open: true,
            sweep_running: false,
            sweep: None,
            copied: false,
            uid: 7,
        };
        let mut fills = Fills::default();
        let html = setup(&s, Lang::En, &f, &mut fills);
        assert!(html.contains(r#"name="lane1.burst" type="text" inputmode="decimal" spellcheck="false" autocomplete="off" value="5""#));
        // What the user typed, and errors that may quote it, never become markup:
        // they are filled in as text after the markup is written.
        assert!(html.contains(r#"role="alert" data-fill="error:lane1.burst"></span>"#));
        assert!(html.contains(r#"data-fill="json"></textarea>"#));
        assert!(!html.contains("script"));
        assert_eq!(
            fills.0,
            vec![
                (
                    "error:lane1.burst".to_string(),
                    "burst: must be > 0".to_string()
                ),
                ("json".to_string(), "<script>".to_string()),
            ]
        );
        assert!(html.contains(r#"name="lane2.nodelay""#));
    }

    #[test]
    fn lanes_have_frames_for_every_layer() {
        let (_, sim) = golden();
        let html = lanes(&sim, Lang::En, false, 640.0);
        assert_eq!(html.matches(r#"data-layer="marks""#).count(), 3);
        assert!(html.contains("extra admitted at once (burst) 0"));
    }
}
