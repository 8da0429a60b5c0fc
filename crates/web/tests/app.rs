//! Component tests in a real browser (headless Chromium and Firefox, through
//! `cargo xtask test`): mount the app into a fresh element, click, let the reactive
//! system run, read the DOM.
#![cfg(target_arch = "wasm32")]

use leptos::mount::mount_to;
use leptos::task::tick;
use ratelab_web::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

/// A new, empty element attached to the page, so tests never see each other's DOM.
fn fresh_root() -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    root
}

fn find(root: &HtmlElement, selector: &str) -> HtmlElement {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .unchecked_into()
}

fn text(root: &HtmlElement, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

/// How many requests the log lists.
fn log_len(root: &HtmlElement) -> u32 {
    find(root, ".log").child_element_count()
}

#[wasm_bindgen_test]
async fn renders_the_bucket_before_any_request() {
    let root = fresh_root();
    let _app = mount_to(root.clone(), App);
    tick().await;

    assert_eq!(text(&root, "h1"), "ratelab");
    assert_eq!(text(&root, ".decision"), "no request yet");
    assert_eq!(text(&root, ".now"), "0 s");
    assert_eq!(log_len(&root), 0);
}

#[wasm_bindgen_test]
async fn a_click_sends_a_request_that_the_engine_allows_and_explains() {
    let root = fresh_root();
    let _app = mount_to(root.clone(), App);
    find(&root, "button.send").click();
    tick().await;

    assert_eq!(text(&root, ".decision"), "0 s \u{2192} allowed");
    assert_eq!(
        find(&root, ".decision")
            .get_attribute("data-outcome")
            .as_deref(),
        Some("allowed")
    );
    let explanation = text(&root, ".explanation");
    assert!(explanation.ends_with("allow"), "explanation: {explanation}");
    assert_eq!(log_len(&root), 1);
}

#[wasm_bindgen_test]
async fn the_sixth_request_at_once_is_denied_until_a_token_refills() {
    let root = fresh_root();
    let _app = mount_to(root.clone(), App);
    let send = find(&root, "button.send");
    for _ in 0..6 {
        send.click();
    }
    tick().await;
    assert_eq!(text(&root, ".decision"), "0 s \u{2192} denied");
    assert!(text(&root, ".explanation").ends_with("deny"));

    // 0.5 tokens per second: two seconds buy one request.
    let wait = find(&root, "button.wait");
    wait.click();
    wait.click();
    send.click();
    tick().await;
    assert_eq!(text(&root, ".now"), "2 s");
    assert_eq!(text(&root, ".decision"), "2 s \u{2192} allowed");
    assert_eq!(log_len(&root), 7);
}
