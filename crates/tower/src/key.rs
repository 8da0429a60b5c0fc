//! Whose requests count together.

use std::net::SocketAddr;
use std::sync::Arc;

use http::request::Parts;
use http::HeaderName;

/// How a request's key is found: the client's address, a header, one key for
/// everyone, or a function of the request's head.
#[derive(Clone)]
pub enum Key {
    /// The client's IP address (without the port): axum's `ConnectInfo<SocketAddr>`
    /// (serve with `into_make_service_with_connect_info::<SocketAddr>()`), or a plain
    /// `SocketAddr` extension another server put there. Without either, the key is
    /// `""`: every such request counts together.
    Peer,
    /// A header's value (an API key, a user id). A request without it, or with a
    /// value that is not visible ASCII, has the key `""`.
    Header(HeaderName),
    /// One key for every request: a global limit.
    Global,
    /// Any function of the request's head.
    Fn(Arc<dyn Fn(&Parts) -> String + Send + Sync>),
}

impl Key {
    /// [`Key::Header`] from a header name (refused at build if it is not one).
    pub fn header(name: &str) -> Result<Key, crate::BuildError> {
        HeaderName::try_from(name)
            .map(Key::Header)
            .map_err(|_| crate::BuildError::new(format!("key: {name:?} is not a header name")))
    }

    /// [`Key::Fn`] from a closure.
    pub fn from_fn(f: impl Fn(&Parts) -> String + Send + Sync + 'static) -> Key {
        Key::Fn(Arc::new(f))
    }

    /// The key of a request.
    pub fn of(&self, parts: &Parts) -> String {
        match self {
            Key::Peer => peer(parts).map(|a| a.ip().to_string()).unwrap_or_default(),
            Key::Header(name) => parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string(),
            Key::Global => String::new(),
            Key::Fn(f) => f(parts),
        }
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Peer => f.write_str("Peer"),
            Key::Header(h) => write!(f, "Header({h})"),
            Key::Global => f.write_str("Global"),
            Key::Fn(_) => f.write_str("Fn(..)"),
        }
    }
}

fn peer(parts: &Parts) -> Option<SocketAddr> {
    #[cfg(feature = "axum")]
    if let Some(axum::extract::ConnectInfo(a)) = parts
        .extensions
        .get::<axum::extract::ConnectInfo<SocketAddr>>()
    {
        return Some(*a);
    }
    parts.extensions.get::<SocketAddr>().copied()
}
