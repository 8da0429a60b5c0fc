//! The response a request now would get from the lane: 200, or 429 with
//! `Retry-After`, and the `RateLimit` fields.

use leptos::prelude::*;
use ratelab_core::Headers;

use super::LaneCtx;
use crate::texts::lanes::LANES;
use crate::view::text;

/// The response's text, as it would come over the wire.
pub fn response_text(h: &Headers) -> String {
    let mut out = format!("HTTP/1.1 {}", h.status_line());
    if let Some(r) = h.retry_after {
        out.push_str(&format!("\nRetry-After: {r}"));
    }
    out.push_str(&format!(
        "\nRateLimit-Policy: {}\nRateLimit: {}",
        h.policy, h.ratelimit
    ));
    out
}

/// The 429 panel of the lane in context.
#[component]
pub fn Response() -> impl IntoView {
    let lane = expect_context::<LaneCtx>();
    let status = Signal::derive(move || lane.headers.with(|h| h.as_ref().map(|h| h.status)));
    let body = Signal::derive(move || lane.headers.with(|h| h.as_ref().map(response_text)));
    view! {
        <Show when=move || status.with(Option::is_some)>
            <p class="response-title">{text(&LANES, |t| t.response)}</p>
            <pre class="http" data-status=status>{body}</pre>
            <p class="fields-key" class:hidden=Signal::derive(move || status.get() != Some(429))>
                {text(&LANES, |t| t.fields_key)}
            </p>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Sim;
    use ratelab_sim::share::parse;

    #[test]
    fn a_refusal_says_429_with_its_headers() {
        let sim = Sim::new(&parse("limiters=fixed_window,leaky_queue").0.setup).unwrap();
        let h = sim.headers(0, "", 19_500).unwrap();
        assert_eq!(
            response_text(&h),
            "HTTP/1.1 429 Too Many Requests\nRetry-After: 1\nRateLimit-Policy: \"default\";q=5;w=10\nRateLimit: \"default\";r=0;t=1"
        );
    }
}
