//! Each component in a real browser: what it shows, what a click or a typed value
//! does, and that elements keep their identity (focus, open boxes, marks) while the
//! state around them changes.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{Element, HtmlElement, HtmlInputElement};

use super::{all, attr, change, click, find, fresh_root, lanes, marks, mount_with, settle, sleep};

fn active(root: &HtmlElement) -> Option<Element> {
    root.owner_document().and_then(|d| d.active_element())
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_field_keeps_focus_and_what_was_typed_through_an_error() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    let input: HtmlInputElement = find(&root, "input[name=\"limit\"]").unchecked_into();
    input.focus().unwrap();
    change(&root, "limit", "0").await;
    // The same element, still focused, still showing what was typed, with the
    // engine's message under it.
    let again: HtmlInputElement = find(&root, "input[name=\"limit\"]").unchecked_into();
    assert!(again.is_same_node(Some(&input)));
    assert_eq!(active(&root), Some(input.clone().unchecked_into()));
    assert_eq!(input.value(), "0");
    assert_eq!(attr(&input, "aria-invalid"), "true");
    // Said under the field it is about, without the JSON format's path.
    assert_eq!(
        text(&root, "[name=\"limit\"] + .error"),
        "must be more than 0"
    );
    change(&root, "limit", "3").await;
    assert_eq!(attr(&input, "aria-invalid"), "false");
    assert_eq!(text(&root, "[name=\"limit\"] + .error"), "");
    // Every lane took the new budget; the field shows the engine's value.
    assert_eq!(input.value(), "3");
    let lane_limit: HtmlInputElement = find(&root, "input[name=\"lane1.limit\"]").unchecked_into();
    assert_eq!(lane_limit.value(), "3");
}

#[wasm_bindgen_test]
async fn the_language_switch_translates_the_page() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("t", "11.2s")]);
    settle().await;
    assert_eq!(text(&root, "button.play"), "Play");
    let select: web_sys::HtmlSelectElement = find(&root, ".masthead select").unchecked_into();
    select.set_value("vi");
    select
        .dispatch_event(
            &web_sys::Event::new_with_event_init_dict("change", &{
                let i = web_sys::EventInit::new();
                i.set_bubbles(true);
                i
            })
            .unwrap(),
        )
        .unwrap();
    settle().await;
    assert_eq!(attr(&find(&root, ".ratelab"), "lang"), "vi");
    assert_eq!(text(&root, "button.play"), "Chạy");
    assert_eq!(text(&root, ".yardstick h2"), "Thước đo, tính đến lúc này");
    assert!(text(&root, ".trace .which").starts_with("Yêu cầu #10"));
    // Scenario texts are translated too.
    assert!(text(&root, ".describe").starts_with("Mười hai yêu cầu"));
}

#[wasm_bindgen_test]
async fn lanes_keep_their_elements_while_the_setup_changes() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    let first = find(&root, "article.lane[data-lane=\"0\"]");
    let details = find(&root, "article.lane[data-lane=\"0\"] details.about");
    details.set_attribute("open", "").unwrap();
    change(&root, "lane0.limit", "4").await;
    click(&root, "button.next").await;
    change(&root, "add", "gcra").await;
    // Same lane element, its "about" box still open: nothing was redrawn but what
    // changed.
    assert!(find(&root, "article.lane[data-lane=\"0\"]").is_same_node(Some(&first)));
    assert!(details.has_attribute("open"));
    assert_eq!(lanes(&root).len(), 4);
    assert!(text(&root, "article[data-lane=\"0\"] .params").starts_with("4 / 10 s"));
}

#[wasm_bindgen_test]
async fn marks_flip_as_requests_arrive_without_being_redrawn() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    let mark = find(&root, "article[data-lane=\"0\"] .mark[data-index=\"0\"]");
    let title = |m: &Element| m.first_element_child().and_then(|t| t.text_content());
    assert_eq!(attr(&mark, "data-decision"), "pending");
    assert_eq!(title(&mark).as_deref(), Some("#1 · 2 s · not yet"));
    click(&root, "button.next").await;
    // The same element: flipped, not drawn again; and it is the selected one.
    let now = find(&root, "article[data-lane=\"0\"] .mark[data-index=\"0\"]");
    assert!(now.is_same_node(Some(&mark)));
    assert_eq!(attr(&mark, "data-decision"), "allow");
    assert_eq!(title(&mark).as_deref(), Some("#1 · 2 s · allowed"));
    assert!(mark.class_list().contains("selected"));
    click(&root, "button.next").await;
    assert!(!mark.class_list().contains("selected"));
    click(&root, "button.prev").await;
    click(&root, "button.prev").await;
    assert_eq!(attr(&mark, "data-decision"), "pending");
    assert_eq!(marks(&root, 0), "············");
}

#[wasm_bindgen_test]
async fn the_clock_bar_plays_pauses_and_sets_the_speed() {
    let root = fresh_root();
    let p = mount_with(&root, &[]);
    settle().await;
    let play = find(&root, "button.play");
    assert_eq!(attr(&play, "aria-pressed"), "false");
    click(&root, "button.play").await;
    assert_eq!(attr(&play, "aria-pressed"), "true");
    assert_eq!(play.text_content().unwrap(), "Pause");
    click(&root, "button.play").await;
    assert_eq!(play.text_content().unwrap(), "Play");
    change(&root, "speed", "4").await;
    assert!(p.query().contains("speed=4"), "{}", p.query());
    // The scrubber seeks.
    let range: HtmlInputElement = find(&root, "input[name=\"clock\"]").unchecked_into();
    range.set_value("9800");
    range
        .dispatch_event(
            &web_sys::Event::new_with_event_init_dict("input", &{
                let i = web_sys::EventInit::new();
                i.set_bubbles(true);
                i
            })
            .unwrap(),
        )
        .unwrap();
    settle().await;
    assert_eq!(text(&root, "output.now"), "9.8 s");
    assert_eq!(marks(&root, 0), "✓✓✓✓✓✗······");
}

#[wasm_bindgen_test]
async fn highlighting_draws_each_lanes_busiest_window() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("t", "19.5s")]);
    settle().await;
    assert!(all(&root, ".busiest").is_empty());
    // The yardstick's number is the switch too.
    click(&root, "tr[data-lane=\"0\"] .hl-toggle").await;
    let busiest = find(&root, "article[data-lane=\"0\"] .busiest");
    assert_eq!(attr(&busiest, "data-count"), "9");
    assert_eq!(all(&root, "article[data-lane=\"0\"] .mark.in-max").len(), 9);
    let checkbox: HtmlInputElement = find(&root, "input[name=\"highlight\"]").unchecked_into();
    assert!(checkbox.checked());
    checkbox.click();
    settle().await;
    assert!(all(&root, ".busiest").is_empty());
}

#[wasm_bindgen_test]
async fn the_side_panel_answers_429_when_a_request_would_be_refused() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("t", "19.5s")]);
    settle().await;
    let http = find(&root, "article[data-lane=\"0\"] .http");
    assert_eq!(attr(&http, "data-status"), "429");
    assert!(http
        .text_content()
        .unwrap()
        .starts_with("HTTP/1.1 429 Too Many Requests\nRetry-After: 1"));
    assert_eq!(
        text(&root, "article[data-lane=\"0\"] .gauge-text"),
        "count 5 / 5"
    );
    assert_eq!(
        all(&root, "article[data-lane=\"0\"] .gauge .fill.refusing").len(),
        1
    );
    // A full token bucket is good news: not red.
    assert_eq!(
        attr(
            &find(&root, "article[data-lane=\"2\"] .http"),
            "data-status"
        ),
        "200"
    );
}

#[wasm_bindgen_test]
async fn the_json_box_exports_imports_and_keeps_keys_as_text() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    let details = find(&root, "details.json");
    assert!(!details.has_attribute("open"));
    click(&root, "button.export").await;
    let area: web_sys::HtmlTextAreaElement =
        find(&root, "textarea[name=\"json\"]").unchecked_into();
    assert!(area.value().starts_with("{\"requests\":[2000,7000"));
    assert!(details
        .unchecked_ref::<web_sys::HtmlDetailsElement>()
        .open());
    area.set_value(r#"{"requests": [{"t": 0, "key": "<img src=x onerror=alert(1)>"}], "limiters": [{"algorithm": "gcra", "limit": 1, "period_ms": 1000}]}"#);
    click(&root, "button.import").await;
    assert_eq!(lanes(&root), ["gcra"]);
    click(&root, "button.next").await;
    // The trace shows a new run at its last step.
    super::drawn(&root).await;
    // The key is shown, as text.
    assert!(text(&root, ".trace .which").contains(r#"key "<img src=x onerror=alert(1)>""#));
    assert!(root.query_selector("img").unwrap().is_none());
    // A refused import says why and keeps the lanes.
    area.set_value("{\"requests\": [0]");
    click(&root, "button.import").await;
    assert!(text(&root, ".json .error").starts_with("invalid JSON"));
    assert_eq!(lanes(&root), ["gcra"]);
}

#[wasm_bindgen_test]
async fn the_custom_stream_applies_or_says_why() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "custom"), ("requests", "0,1s")]);
    settle().await;
    let area: web_sys::HtmlTextAreaElement =
        find(&root, "textarea[name=\"requests\"]").unchecked_into();
    assert_eq!(area.value(), "0s 1s");
    area.set_value("5s 1s");
    click(&root, "button.apply").await;
    assert!(text(&root, ".custom .error").contains("sorted"));
    assert_eq!(area.value(), "5s 1s");
    area.set_value("1s 2s 3s");
    click(&root, "button.apply").await;
    assert_eq!(text(&root, ".custom .error"), "");
    assert_eq!(marks(&root, 0).chars().count(), 3);
}

#[wasm_bindgen_test]
async fn the_live_region_and_the_compact_variant() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("compact", ""), ("t", "2s")]);
    settle().await;
    assert!(root.query_selector(".setup").unwrap().is_none());
    assert!(root.query_selector(".trace").unwrap().is_none());
    assert!(root.query_selector(".masthead").unwrap().is_none());
    assert!(text(&root, "[aria-live]").starts_with("Request #1 2 s: Fixed window (clock) allowed"));
    assert_eq!(lanes(&root).len(), 3);
}

#[wasm_bindgen_test]
async fn each_lane_draws_its_state_over_time_and_the_clock_moves_over_it() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    for j in 0..lanes(&root).len() {
        let line = find(
            &root,
            &format!("article[data-lane=\"{j}\"] .level .level-line"),
        );
        // At least the moment before and the moment of each of the 12 requests.
        let points = attr(&line, "points").split(' ').count();
        assert!(points >= 24, "lane {j}: {points} points");
    }
    let line = find(&root, "article[data-lane=\"0\"] .level .level-line");
    let clock = || {
        attr(
            &find(&root, "article[data-lane=\"0\"] .level + .clock .veil"),
            "style",
        )
    };
    let before = clock();
    click(&root, "button.next").await;
    // The clock line moved (by transform) with the timeline's; the drawing itself
    // was kept.
    assert_ne!(clock(), before);
    assert!(clock().contains("translateX("), "{}", clock());
    assert_eq!(
        clock(),
        attr(
            &find(&root, "article[data-lane=\"0\"] .timeline + .clock .veil"),
            "style"
        )
    );
    let again = find(&root, "article[data-lane=\"0\"] .level .level-line");
    assert!(again.is_same_node(Some(&line)));
}

#[wasm_bindgen_test]
async fn the_query_follows_the_view_but_not_the_moving_clock() {
    let root = fresh_root();
    let p = mount_with(&root, &[("scenario", "golden")]);
    settle().await;
    click(&root, "button.next").await;
    assert!(p.query().contains("t=2s"), "{}", p.query());
    click(&root, "button.play").await;
    // A change while playing is in the link at once, with the clock where the
    // change found it.
    change(&root, "speed", "4").await;
    let q = p.query();
    assert!(q.contains("speed=4") && q.contains("t=2s"), "{q}");
    let before = text(&root, "output.now");
    sleep(400).await;
    assert_ne!(text(&root, "output.now"), before, "the clock did not move");
    assert_eq!(p.query(), q, "the moving clock rewrote the query");
    click(&root, "button.play").await;
    // Stopped, the clock is in the link again, where it stopped.
    let q = p.query();
    assert!(q.contains("t=") && !q.contains("t=2s&"), "{q}");
}

#[wasm_bindgen_test]
async fn a_lanes_production_box_shows_the_engines_text_for_its_parameters() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[
            ("scenario", "golden"),
            ("limiters", "gcra,nginx,sliding_log_logs_blocked"),
        ],
    );
    settle().await;
    // The page fetches the scripts; this runner serves no files of ours.
    let teaching = ratelab_scripts::teaching::TEACHING.iter();
    for s in ratelab_scripts::SCRIPTS
        .into_iter()
        .chain(teaching.filter_map(|t| t.script))
    {
        ratelab_web::view::lanes::production::provide_script(s.file, s.text().to_string());
    }
    let boxes = all(&root, "details.production");
    assert_eq!(boxes.len(), 3);
    // Nothing is made until a box is opened.
    assert!(all(&root, "details.production pre.code").is_empty());
    for b in &boxes {
        b.set_attribute("open", "").unwrap();
    }
    // `toggle` is dispatched as a task of its own, after the attribute changes.
    sleep(50).await;
    settle().await;
    let params = ratelab_core::Params::new(5, 10_000);
    for (j, a) in [
        ratelab_core::Algorithm::Gcra,
        ratelab_core::Algorithm::Nginx,
        ratelab_core::Algorithm::SlidingLogLogsBlocked,
    ]
    .into_iter()
    .enumerate()
    {
        let want = ratelab_scripts::production::production(a, &params, a.id()).unwrap();
        let code = text(
            &root,
            &format!("article.lane[data-lane=\"{j}\"] details.production pre.code"),
        );
        assert_eq!(code, want.text, "lane {j}");
    }
    let versions = [
        format!("Redis {}", ratelab_scripts::REDIS_VERSION),
        format!("nginx {}", ratelab_scripts::NGINX_VERSION),
    ];
    for (j, version) in versions.iter().enumerate() {
        let shown = text(
            &root,
            &format!("article.lane[data-lane=\"{j}\"] details.production"),
        );
        assert!(shown.contains(version.as_str()), "lane {j}: {shown}");
    }
    assert!(text(&root, "article.lane[data-lane=\"2\"] pre.code").contains("WRONG ON PURPOSE"));
}

#[wasm_bindgen_test]
async fn a_dense_lane_hides_its_future_instead_of_tinting_it() {
    // Lab B's 600 requests are columns, drawn with every outcome at once: at 0 s
    // the veil must hide them (not arrived yet), not show them under a tint.
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "lab-b")]);
    settle().await;
    assert!(!all(&root, "article.lane .lane-track.blind").is_empty());
    // The golden dozen flip one by one: their future is only tinted.
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    assert!(all(&root, "article.lane .lane-track.blind").is_empty());
}

#[wasm_bindgen_test]
async fn field_errors_speak_the_pages_language_without_json_paths() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[
            ("limiters", "fixed_window,sliding_log,token_bucket"),
            ("lang", "vi"),
        ],
    );
    settle().await;
    change(&root, "lane2.burst", "0").await;
    let said = text(&root, "[name=\"lane2.burst\"] + .error");
    assert_eq!(said, "phải lớn hơn 0");
    change(&root, "lane2.burst", "").await;
    change(&root, "lane1.period", "x").await;
    let said = text(&root, "[name=\"lane1.period\"] + .error");
    assert!(
        said.starts_with("phải là khoảng thời gian") && !said.contains("limiters["),
        "{said}"
    );
}

#[wasm_bindgen_test]
async fn removing_a_lane_keeps_focus_in_the_lane_list() {
    let root = fresh_root();
    let _p = mount_with(
        &root,
        &[(
            "limiters",
            "fixed_window,sliding_log,token_bucket,gcra,nginx",
        )],
    );
    settle().await;
    let remove: HtmlElement = find(&root, ".lane-fields[data-lane=\"1\"] .remove");
    remove.focus().unwrap();
    remove.click();
    settle().await;
    sleep(50).await;
    let focused = active(&root).expect("nothing focused");
    assert!(
        focused.closest(".lanes-setup").unwrap().is_some(),
        "focus left the list"
    );
    // The lane now second has the focus on its remove button.
    assert_eq!(
        attr(
            &focused.closest(".lane-fields").unwrap().unwrap(),
            "data-lane"
        ),
        "1"
    );
    assert_eq!(
        lanes(&root),
        ["fixed_window", "token_bucket", "gcra", "nginx"]
    );
}

#[wasm_bindgen_test]
async fn the_legend_names_the_states_marks_and_the_panels_explain_theirs() {
    let root = fresh_root();
    let _p = mount_with(&root, &[("limiters", "fixed_window,sliding_log,gcra")]);
    settle().await;
    // The stylesheet shows a legend item when the list's `data-has` names it.
    let has = attr(&find(&root, ".legend"), "data-has");
    assert_eq!(has, "log edge gcra");
    assert!(!all(&root, ".legend li.has-log .key.logged").is_empty());
    assert!(!all(&root, ".legend li.has-gcra .line.tau").is_empty());
    // GCRA says what τ is, with the engine's value (5 / 10 s, burst 5: τ = 8 s).
    let note = text(&root, "article[data-algorithm=\"gcra\"] .gauge-note");
    assert!(note.contains("τ = 8 s"), "{note}");
    assert!(text(&root, "article[data-algorithm=\"gcra\"] .gauge-text").starts_with("room now"));
    // A 429 panel says what q, w, r and t are; a 200 panel does not repeat it.
    let key = find(&root, "article[data-lane=\"0\"] .fields-key");
    assert!(key.class_list().contains("hidden"));
    let root = fresh_root();
    let _p = mount_with(&root, &[("t", "19.5s")]);
    settle().await;
    let key = find(&root, "article[data-lane=\"0\"] .fields-key");
    assert!(!key.class_list().contains("hidden"));
    assert!(key.text_content().unwrap().contains("r: how many are left"));
}

#[wasm_bindgen_test]
async fn zooming_in_turns_a_band_of_columns_back_into_marks() {
    // Lab B's 600 requests over three minutes are columns at 1×; at 8× the span
    // is 22.5 s around the clock, and each request is a mark again.
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "lab-b")]);
    settle().await;
    assert!(all(&root, "article[data-lane=\"0\"] .mark").is_empty());
    assert!(!all(&root, "article[data-lane=\"0\"] .col").is_empty());
    for _ in 0..3 {
        click(&root, "button.zoom-in").await;
    }
    assert_eq!(text(&root, ".zoom-level"), "8×");
    assert!(!all(&root, "article[data-lane=\"0\"] .mark").is_empty());
    // And back out.
    for _ in 0..3 {
        click(&root, "button.zoom-out").await;
    }
    assert!(all(&root, "article[data-lane=\"0\"] .mark").is_empty());
    assert_eq!(text(&root, ".zoom-level"), "1×");
    // 1× shows three minutes around the clock; one more step out, the whole run.
    click(&root, "button.zoom-out").await;
    assert_eq!(text(&root, ".zoom-level"), "½× · whole run");
    assert!(find(&root, "button.zoom-out").has_attribute("disabled"));
}

#[wasm_bindgen_test]
async fn zooming_out_shows_the_whole_run_or_says_why_1x_already_does() {
    // The golden stream's 1× is already the whole run: the control says so.
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    let out = find(&root, "button.zoom-out");
    assert!(out.has_attribute("disabled"));
    assert_eq!(text(&root, ".zoom-level"), "1× · whole run");
    assert!(attr(&out, "aria-label").starts_with("1× already shows the whole run"));
    root.remove();
    // A minute of one request a second at 5 per 10 s: 1× shows 30 s of the 60.
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "per-second"), ("lang", "vi")]);
    settle().await;
    assert_eq!(text(&root, ".zoom-level"), "1×");
    assert!(!find(&root, "button.zoom-out").has_attribute("disabled"));
    click(&root, "button.zoom-out").await;
    assert_eq!(text(&root, ".zoom-level"), "½× · toàn bộ");
    assert!(find(&root, "button.zoom-out").has_attribute("disabled"));
    // And back in.
    click(&root, "button.zoom-in").await;
    assert_eq!(text(&root, ".zoom-level"), "1×");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_tagline_names_the_first_lanes_limit() {
    let root = fresh_root();
    let _p = mount_with(&root, &[]);
    settle().await;
    assert!(text(&root, ".tagline").starts_with("“5 requests per 10 s”"));
    let root = fresh_root();
    let _p = mount_with(&root, &[("scenario", "lab-b"), ("lang", "vi")]);
    settle().await;
    assert!(
        text(&root, ".tagline").starts_with("“100 yêu cầu mỗi 60 s”"),
        "{}",
        text(&root, ".tagline")
    );
}
