//! The lessons panel on the full page: opening a lesson, walking its steps, a
//! hostile `lesson=`, texts that cannot be fetched.

use leptos::prelude::*;
use ratelab_learn::lesson::{lesson, Lang as SimLang};
use ratelab_learn::texts::Texts;
use ratelab_web::texts::Lang;
use ratelab_web::view::learn::provide_texts;
use ratelab_web::{App, MountOptions};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{Element, HtmlElement};

use super::{all, attr, click, find, fresh_root, lanes, settle, sleep};

const EN: &str = include_str!("../../../learn/src/texts/en.txt");

/// The full page (lessons, URL, keys) for `query`, as `index.html` mounts it.
fn page(root: &HtmlElement, query: &str) {
    let options = MountOptions::page(query);
    std::mem::forget(leptos::mount::mount_to(root.clone(), move || {
        view! { <App options=options /> }
    }));
}

/// Waits (in real time: a lesson runs after a timeout) until `selector` matches.
async fn wait_for(root: &Element, selector: &str) -> HtmlElement {
    for _ in 0..400 {
        if let Some(e) = root.query_selector(selector).unwrap() {
            return wasm_bindgen::JsCast::unchecked_into(e);
        }
        sleep(25).await;
        settle().await;
    }
    panic!("nothing matches {selector}");
}

fn facts(root: &Element) -> Vec<(String, String)> {
    all(root, "article.lesson .proved strong.fact")
        .iter()
        .map(|f| (attr(f, "data-fact"), f.text_content().unwrap_or_default()))
        .collect()
}

#[wasm_bindgen_test]
async fn opening_a_lesson_sets_its_lanes_and_shows_the_engines_numbers() {
    provide_texts(Lang::En, Texts::parse(EN).unwrap());
    let root = fresh_root();
    page(&root, "lesson=edge");
    settle().await;
    // Its scenario and lanes, and the clock playing to its moment.
    assert_eq!(
        lanes(&root),
        ["fixed_window", "sliding_log", "token_bucket"]
    );
    assert_eq!(attr(&find(&root, "button.play"), "aria-pressed"), "true");
    wait_for(&root, "article.lesson[data-lesson=\"edge\"] .proved").await;
    // The numbers are the engine's, as the command line computes them.
    let run = lesson("edge")
        .unwrap()
        .run_in(&Texts::parse(EN).unwrap(), SimLang::En)
        .unwrap();
    let step = &run.steps[0];
    let shown = facts(&root);
    assert!(!shown.is_empty());
    for (name, text) in &shown {
        assert_eq!(Some(text), step.fact(name).map(|f| &f.text), "{name}");
    }
    assert!(shown.contains(&("fw".into(), "10".into())), "{shown:?}");
    assert_eq!(
        find(&root, "article.lesson .proved")
            .text_content()
            .unwrap(),
        step.proved
    );
    // Next: the second step opens the playground's own edge burst.
    click(&root, "article.lesson nav button.next").await;
    wait_for(&root, "article.lesson[data-step=\"1\"] .proved").await;
    assert_eq!(
        run.steps[1].fact("tb").map(|f| f.text.clone()),
        facts(&root)
            .into_iter()
            .find(|(n, _)| n == "tb")
            .map(|(_, t)| t)
    );
    // A lesson from the catalog; its lanes replace the step's.
    find(&root, "details.catalog")
        .set_attribute("open", "")
        .unwrap();
    click(&root, ".catalog button[data-lesson=\"nginx\"]").await;
    assert_eq!(
        lanes(&root),
        ["nginx", "nginx", "nginx", "leaky_queue", "gcra"]
    );
    wait_for(&root, "article.lesson[data-lesson=\"nginx\"] .proved").await;
    // Changing the setup says the numbers are the lesson's own; reopen restores it.
    assert!(find(&root, "article.lesson .changed")
        .class_list()
        .contains("hidden"));
    // (The setup form is fetched once its fold is open.)
    find(&root, "details.setup-fold")
        .set_attribute("open", "")
        .unwrap();
    wait_for(&root, "button.remove").await;
    click(&root, "button.remove").await;
    assert!(!find(&root, "article.lesson .changed")
        .class_list()
        .contains("hidden"));
    click(&root, "article.lesson button.reopen").await;
    assert_eq!(lanes(&root).len(), 5);
    // Closing leaves the setup and shows the catalog again.
    click(&root, "article.lesson button.close").await;
    assert!(root.query_selector("article.lesson").unwrap().is_none());
    assert_eq!(lanes(&root).len(), 5);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_hostile_lesson_is_a_notice_and_opens_nothing() {
    provide_texts(Lang::En, Texts::parse(EN).unwrap());
    let root = fresh_root();
    page(
        &root,
        "lesson=%3Cimg%20src%3Dx%20onerror%3D%22window.__ratelab_pwned%3D1%22%3E&step=%3Cb%3E2",
    );
    for _ in 0..5 {
        settle().await;
    }
    assert!(root.query_selector("img").unwrap().is_none());
    assert!(root.query_selector("b").unwrap().is_none());
    assert!(root.query_selector("article.lesson").unwrap().is_none());
    let notices: Vec<String> = all(&root, ".notices li")
        .iter()
        .map(|n| n.text_content().unwrap_or_default())
        .collect();
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(
        // The value as written, shortened to 40 characters, as every field's.
        notices[0].starts_with(
            "lesson=<img src=x onerror=\"window.__ratelab_pwn…: unknown lesson (expected one of edge,"
        ),
        "{notices:?}"
    );
    assert_eq!(notices[1], "step=<b>2: only with a lesson; ignored");
    let pwned = js_sys::Reflect::get(&js_sys::global(), &"__ratelab_pwned".into()).unwrap();
    assert_eq!(pwned, JsValue::UNDEFINED);
    // The page still works: the default scenario's lanes, the catalog.
    assert!(!lanes(&root).is_empty());
    wait_for(&root, ".catalog button[data-lesson=\"edge\"]").await;
    root.remove();
}

#[wasm_bindgen_test]
async fn texts_that_cannot_be_fetched_are_a_one_line_error() {
    // The test runner serves no `lessons/vi.txt` (and none is given).
    let root = fresh_root();
    page(&root, "lang=vi&lesson=float");
    let error = wait_for(&root, ".lessons .error").await;
    let text = error.text_content().unwrap();
    assert!(text.contains("lessons/vi.txt"), "{text}");
    assert!(!text.contains('\n'), "{text}");
    // The lesson's setup still opened.
    assert_eq!(lanes(&root), ["token_bucket_f64", "token_bucket", "gcra"]);
    root.remove();
}

/// Whether `el` starts inside the window (this runner has no stylesheet, so a
/// lane can be taller than the window).
fn on_screen(el: &Element) -> bool {
    let r = el.get_bounding_client_rect();
    let h = web_sys::window()
        .unwrap()
        .inner_height()
        .unwrap()
        .as_f64()
        .unwrap();
    r.top() >= 0.0 && r.top() < h
}

/// Whether `el` comes on screen within four seconds (a smooth scroll ends).
async fn scrolled_to(el: &Element) -> bool {
    for _ in 0..80 {
        if on_screen(el) {
            return true;
        }
        sleep(50).await;
    }
    false
}

/// The element that has focus, if any but `<body>`.
fn active() -> Option<Element> {
    let doc = web_sys::window().unwrap().document().unwrap();
    doc.active_element()
        .filter(|e| e.tag_name() != "BODY" && e.tag_name() != "HTML")
}

/// Focuses `selector` and clicks it, as a keyboard user pressing Enter does.
async fn press(root: &Element, selector: &str) {
    find(root, selector).focus().unwrap();
    click(root, selector).await;
}

#[wasm_bindgen_test]
async fn a_step_marks_its_lane_and_brings_it_into_view() {
    provide_texts(Lang::En, Texts::parse(EN).unwrap());
    let root = fresh_root();
    // Room above, so that the fourth of seven lanes starts well below the fold.
    root.style().set_property("padding-top", "1200px").unwrap();
    web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);
    page(&root, "lesson=golden&step=4");
    wait_for(&root, "article.lesson[data-step=\"3\"] .proved").await;
    let marked = || -> Vec<String> {
        all(&root, "article.lane.step-lane")
            .iter()
            .map(|a| attr(a, "data-lane"))
            .collect()
    };
    assert_eq!(marked(), ["3"]);
    let lane = |j: usize| find(&root, &format!("article.lane[data-lane=\"{j}\"]"));
    assert!(!find(&lane(3), ".step-badge")
        .class_list()
        .contains("hidden"));
    assert!(find(&lane(2), ".step-badge")
        .class_list()
        .contains("hidden"));
    // Brought into view (smoothly: wait for the scroll to end).
    assert!(
        scrolled_to(&lane(3)).await,
        "lane 4 of 7 not scrolled into view"
    );
    // Next: the following step's lane.
    press(&root, "article.lesson nav button.next").await;
    wait_for(&root, "article.lesson[data-step=\"4\"] .proved").await;
    assert_eq!(marked(), ["4"]);
    assert!(
        scrolled_to(&lane(4)).await,
        "lane 5 of 7 not scrolled into view"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn focus_stays_on_the_button_pressed_or_moves_to_the_new_steps_heading() {
    provide_texts(Lang::En, Texts::parse(EN).unwrap());
    let root = fresh_root();
    page(&root, "lesson=golden&step=2");
    wait_for(&root, "article.lesson[data-step=\"1\"] .proved").await;
    // Next → keeps focus on Next → of the new step.
    press(&root, "article.lesson nav button.next").await;
    wait_for(&root, "article.lesson[data-step=\"2\"] .proved").await;
    let a = active().expect("focus fell to <body> after Next");
    assert_eq!(attr(&a, "class"), "next");
    assert!(a
        .closest("article.lesson[data-step=\"2\"]")
        .unwrap()
        .is_some());
    // ← Previous likewise.
    press(&root, "article.lesson nav button.prev").await;
    wait_for(&root, "article.lesson[data-step=\"1\"] .proved").await;
    let a = active().expect("focus fell to <body> after Previous");
    assert_eq!(attr(&a, "class"), "prev");
    assert!(a
        .closest("article.lesson[data-step=\"1\"]")
        .unwrap()
        .is_some());
    // A lesson from the catalog (which folds away): the new step's heading.
    find(&root, "details.catalog")
        .set_attribute("open", "")
        .unwrap();
    press(&root, ".catalog button[data-lesson=\"float\"]").await;
    wait_for(&root, "article.lesson[data-lesson=\"float\"] .proved").await;
    let a = active().expect("focus fell to <body> after a catalog entry");
    assert_eq!(a.tag_name(), "H3");
    assert!(a.closest("article.lesson").unwrap().is_some());
    root.remove();
}

#[wasm_bindgen_test]
async fn a_lesson_folds_the_setup_and_lab_ds_second_table_is_under_the_lanes() {
    // In Vietnamese, whose texts this runner cannot fetch: the step's setup opens,
    // and lab D's long judged run is not started.
    let root = fresh_root();
    page(&root, "lesson=lab-d&lang=vi");
    settle().await;
    wait_for(&root, ".lessons .error").await;
    assert_eq!(
        lanes(&root),
        ["sliding_window_counter", "sliding_log", "fixed_window"]
    );
    let fold: web_sys::HtmlDetailsElement =
        wasm_bindgen::JsCast::unchecked_into(find(&root, "details.setup-fold"));
    assert!(!fold.open(), "the setup form is open above lab D's lanes");
    let sweep = find(&root, ".sweep");
    assert!(sweep.closest("details.setup-fold").unwrap().is_none());
    let last = all(&root, "article.lane").pop().unwrap();
    let after = last.compare_document_position(&sweep);
    assert_ne!(after & web_sys::Node::DOCUMENT_POSITION_FOLLOWING, 0);
    // Closing the lesson unfolds the setup again; the sweep stays under the lanes.
    click(&root, "article.lesson button.close").await;
    assert!(fold.open());
    assert!(root.query_selector(".sweep").unwrap().is_some());
    root.remove();
}
