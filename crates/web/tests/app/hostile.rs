//! Markup in every parameter of a link or an embed's options becomes text or a
//! notice: no element is inserted and no script runs.

use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use super::{find, fresh_root, mount_with, settle};

/// Every parameter a link takes (docs/playground.md, "The URL is the view").
const KEYS: &[&str] = &[
    "scenario",
    "limiters",
    "limit",
    "period",
    "limit.0",
    "period.0",
    "burst.0",
    "delay.0",
    "nodelay.0",
    "window",
    "requests",
    "seed",
    "load",
    "clients",
    "duration",
    "t",
    "speed",
    "lang",
    "sel",
    "hl",
    "<b>key</b>",
];

const MARKUP: &str = r#"<img src=x onerror="window.__ratelab_pwned=1"><script>window.__ratelab_pwned=2</script><svg onload="window.__ratelab_pwned=3"></svg>"#;

#[wasm_bindgen_test]
async fn markup_in_every_parameter_inserts_nothing() {
    for scenario in ["golden", "custom", "manual"] {
        let root = fresh_root();
        let mut pairs: Vec<(&str, &str)> = KEYS.iter().map(|k| (*k, MARKUP)).collect();
        // Once with a scenario that takes every option, so that the others are read.
        pairs.retain(|(k, _)| *k != "scenario");
        pairs.insert(0, ("scenario", scenario));
        let _p = mount_with(&root, &pairs);
        settle().await;
        // Give an `onerror` time to fire, were there an image.
        for _ in 0..5 {
            settle().await;
        }
        for tag in ["img", "script", "b", "foreignObject"] {
            assert!(
                root.query_selector(tag).unwrap().is_none(),
                "a <{tag}> was inserted"
            );
        }
        // The only <svg> elements are the page's own drawings.
        let svgs = root.query_selector_all("svg").unwrap();
        for i in 0..svgs.length() {
            let class = svgs
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
                .and_then(|e| e.get_attribute("class"));
            assert!(
                matches!(class.as_deref(), Some("timeline" | "gauge" | "level")),
                "{class:?}"
            );
        }
        let pwned = js_sys::Reflect::get(&js_sys::global(), &"__ratelab_pwned".into()).unwrap();
        assert_eq!(pwned, JsValue::UNDEFINED);
        // The markup shows as the text of a notice.
        let notices = find(&root, ".notices").text_content().unwrap();
        assert!(notices.contains("<img src=x"), "{notices}");
    }
}
