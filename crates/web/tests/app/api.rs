//! The JS API refuses arguments of the wrong type and oversized input with a
//! one-line error, quickly, and keeps working afterwards.

use ratelab_web::api::{mount, simulate, simulate_json};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use super::{error_of, fresh_root, GOLDEN_INPUT, GOLDEN_REPORT};

fn js(expr: &str) -> JsValue {
    js_sys::eval(&format!("({expr})")).unwrap()
}

/// The error a call threw: its constructor's name and its message.
fn thrown(e: JsValue) -> (String, String) {
    let get = |v: &JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).unwrap();
    let name = get(&get(&e, "constructor"), "name").as_string().unwrap();
    let message = get(&e, "message").as_string().unwrap();
    (name, message)
}

#[wasm_bindgen_test]
fn wrong_argument_types_throw_a_type_error_naming_the_argument() {
    for (arg, got) in [
        ("{}", "an object"),
        ("12345", "a number"),
        ("Symbol('x')", "a symbol"),
        ("undefined", "undefined"),
        ("null", "null"),
        ("[1]", "an array"),
    ] {
        let (name, message) = thrown(simulate_json(js(arg)).unwrap_err());
        assert_eq!(name, "TypeError", "{arg}");
        assert_eq!(
            message,
            format!("simulateJson(text): text must be a string, got {got}")
        );
    }
    for (arg, got) in [
        ("12345", "a number"),
        ("'{}'", "a string"),
        ("Symbol()", "a symbol"),
        ("[]", "an array"),
        ("() => 1", "a function"),
    ] {
        let (name, message) = thrown(simulate(js(arg)).unwrap_err());
        assert_eq!(name, "TypeError", "{arg}");
        assert_eq!(
            message,
            format!("simulate(config): config must be an object, got {got}")
        );
    }
    let (name, message) = thrown(mount(js("12345"), JsValue::UNDEFINED).err().unwrap());
    assert_eq!(name, "TypeError");
    assert_eq!(
        message,
        "mount(element, options): element must be an HTML element, got a number"
    );
    // A text node is said as what it is, not "an object".
    let (name, message) = thrown(
        mount(js("document.createTextNode('x')"), JsValue::UNDEFINED)
            .err()
            .unwrap(),
    );
    assert_eq!(name, "TypeError");
    assert_eq!(
        message,
        "mount(element, options): element must be an HTML element, got a node that is not an element"
    );
    let (_, message) = thrown(mount(fresh_root().into(), js("5")).err().unwrap());
    assert_eq!(
        message,
        "mount(element, options): options must be an object, got a number"
    );
    // The module is still fine.
    assert_eq!(
        simulate_json(GOLDEN_INPUT.into()).unwrap(),
        GOLDEN_REPORT.trim_end()
    );
}

#[wasm_bindgen_test]
fn sizes_are_checked_before_anything_is_copied() {
    let lim = "limiters: [{algorithm: 'gcra', limit: 1, period_ms: 1000}]";
    // Copying 10^8 holes into JSON values would need gigabytes: the module would
    // run out of memory and trap instead of answering.
    assert_eq!(
        error_of(&format!("{{requests: new Array(1e8), {lim}}}")),
        "requests: 100000000 requests is too many (at most 2000000)"
    );
    assert_eq!(
        error_of("{requests: [0], limiters: new Array(1e6)}"),
        "limiters: 1000000 limiters is too many (at most 32)"
    );
    assert_eq!(
        error_of(&format!("{{requests: [0], {lim}, notes: new Array(1e8)}}")),
        "notes: the input is too large (more than 8100000 values in all)"
    );
    assert_eq!(
        error_of(&format!(
            "{{requests: [0], {lim}, x: Object.fromEntries(Array.from({{length: 5000}}, (_, i) => ['k' + i, i]))}}"
        )),
        "x: an object with 5000 keys is too large (at most 1000)"
    );
    assert_eq!(
        error_of(&format!(
            "{{requests: [0], {lim}, id: 'x'.repeat(1 << 21)}}"
        )),
        "id: a string of 2097152 characters is too long (at most 1048576)"
    );
}

#[wasm_bindgen_test]
fn values_json_cannot_hold_are_refused_with_their_path() {
    assert_eq!(
        error_of(
            "{requests: [0], limiters: [{algorithm: 'gcra', limit: 1, period_ms: -Infinity}]}"
        ),
        "limiters[0].period_ms: must be a finite number, got -Infinity"
    );
    assert_eq!(
        error_of("{requests: [0, Symbol()], limiters: []}"),
        "requests[1]: must be a JSON value, got a symbol"
    );
    // A cycle is named where it closes, not as 33 levels of the same name.
    assert_eq!(
        error_of("(() => { const a = {}; a.self = a; return a; })()"),
        "self: contains itself (a cycle: JSON cannot hold one)"
    );
    assert_eq!(
        error_of("(() => { const l = [{algorithm: 'gcra'}]; l[0].more = [l]; return {requests: [0], limiters: l}; })()"),
        "limiters[0].more[0]: contains itself (a cycle: JSON cannot hold one)"
    );
    // The same object twice, side by side, is no cycle.
    let twice = simulate(js(
        "(() => { const g = {algorithm: 'gcra', limit: 1, period_ms: 1000}; const r = {t: 0}; return {requests: [r, r], limiters: [g, {...g, id: 'b'}]}; })()",
    ));
    assert!(twice.is_ok(), "{twice:?}");
    // A Date as a time: what it is and what to give instead, not "required".
    assert_eq!(
        error_of("{requests: [new Date(0)], limiters: ['gcra']}"),
        "requests[0]: must be a number of ms, got a Date (give getTime() minus your start)"
    );
    assert_eq!(
        error_of("{requests: [{t: new Date(0)}], limiters: ['gcra']}"),
        "requests[0].t: must be a number of ms, got a Date (give getTime() minus your start)"
    );
    // `undefined` is no property (as JSON.stringify has it); BigInts are integers.
    let ok = simulate(js(
        "{requests: [0n, 1000], limiters: [{algorithm: 'gcra', limit: 5n, period_ms: 1000, burst: undefined}]}",
    ))
    .unwrap();
    let text = js_sys::JSON::stringify(&ok).unwrap().as_string().unwrap();
    assert!(text.contains(r#""passed":2"#), "{text}");
}

#[wasm_bindgen_test]
async fn mount_refuses_detached_and_occupied_elements_and_works_afterwards() {
    // mount(null) first: nothing is left half-done for the next call.
    assert_eq!(
        thrown(mount(JsValue::NULL, JsValue::UNDEFINED).err().unwrap()).0,
        "TypeError"
    );
    let document = web_sys::window().unwrap().document().unwrap();
    let detached = document.create_element("div").unwrap();
    let (name, message) = thrown(mount(detached.into(), JsValue::UNDEFINED).err().unwrap());
    assert_eq!(name, "Error");
    assert_eq!(
        message,
        "mount(element, options): element is not in the document; insert it first"
    );
    let root = fresh_root();
    let mut first = mount(root.clone().into(), JsValue::UNDEFINED).unwrap();
    let (name, message) = thrown(
        mount(root.clone().into(), JsValue::UNDEFINED)
            .err()
            .unwrap(),
    );
    assert_eq!(name, "Error");
    assert_eq!(
        message,
        "mount(element, options): element already holds a playground; unmount() it first"
    );
    super::settle().await;
    assert_eq!(super::lanes(&root).len(), 3);
    assert!(first.query().contains("scenario="), "{}", first.query());
    first.unmount();
    assert!(super::lanes(&root).is_empty());
    assert_eq!(first.query(), "");
    // The element is free again; an old handle's unmount() leaves the new one alone.
    let _second = mount(root.clone().into(), js("{scenario: 'lab-c'}")).unwrap();
    first.unmount();
    super::settle().await;
    // Lab C: two token buckets, GCRA, the leaky queue, nginx.
    assert_eq!(super::lanes(&root).len(), 5);
}

#[wasm_bindgen_test]
async fn a_dropped_handle_keeps_the_playground_and_bad_values_show_a_notice() {
    let root = fresh_root();
    drop(
        mount(
            root.clone().into(),
            js("{scenario: 'nope', theme: 'sepia'}"),
        )
        .unwrap(),
    );
    super::settle().await;
    assert_eq!(super::lanes(&root).len(), 3);
    let notices = super::find(&root, ".notices").text_content().unwrap();
    assert!(notices.contains("scenario=nope"), "{notices}");
    assert!(notices.contains("theme=sepia"), "{notices}");
    // Removed from the document, it is dropped (the document's observer runs
    // after the mutation).
    root.remove();
    super::settle().await;
    let document = web_sys::window().unwrap().document().unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let _again = mount(root.clone().into(), JsValue::UNDEFINED).unwrap();
}
