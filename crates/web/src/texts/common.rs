//! Words several parts of the page share: what became of a request, a lane's
//! parameters.

use ratelab_core::Algorithm;

use super::Tr;
use crate::model::Decision;

/// Shared words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Common {
    pub request: &'static str,
    pub allow: &'static str,
    pub deny: &'static str,
    pub delay_for: &'static str,
    pub pending: &'static str,
    pub wrong_on_purpose: &'static str,
    pub limit: &'static str,
    pub per: &'static str,
    pub capacity: &'static str,
    pub burst: &'static str,
    pub nginx_burst: &'static str,
    pub delay: &'static str,
    pub nodelay: &'static str,
}

impl Common {
    /// What became of a request (`delayed` is followed by the wait).
    pub fn decision(&self, d: Decision) -> &'static str {
        match d {
            Decision::Allow => self.allow,
            Decision::Deny => self.deny,
            Decision::Delay => self.delay_for,
        }
    }

    /// What the `burst` parameter means for `a`.
    pub fn burst_label(&self, a: Algorithm) -> &'static str {
        match a {
            Algorithm::Nginx => self.nginx_burst,
            Algorithm::Gcra => self.burst,
            _ => self.capacity,
        }
    }
}

/// Shared words in every language.
pub static COMMON: Tr<Common> = Tr {
    en: Common {
        request: "Request",
        allow: "allowed",
        deny: "denied (429)",
        delay_for: "delayed",
        pending: "not yet",
        wrong_on_purpose: "wrong on purpose",
        limit: "limit N",
        per: "per W",
        capacity: "capacity",
        burst: "burst",
        nginx_burst: "extra admitted at once (burst)",
        delay: "delay after",
        nodelay: "nodelay",
    },
    vi: Common {
        request: "Yêu cầu",
        allow: "cho qua",
        deny: "từ chối (429)",
        delay_for: "bị hoãn",
        pending: "chưa đến",
        wrong_on_purpose: "cố ý sai",
        limit: "giới hạn N",
        per: "mỗi W",
        capacity: "sức chứa",
        burst: "burst",
        nginx_burst: "số yêu cầu thêm được nhận cùng lúc (burst)",
        delay: "hoãn sau",
        nodelay: "nodelay",
    },
};
