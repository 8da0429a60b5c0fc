//! The page's WebAssembly: built, split into a first module and chunks, bound to
//! JavaScript, optimised. Trunk runs this as its `pre_build` hook (Trunk.toml), so
//! `trunk serve` and `trunk build` make the same files as `cargo xtask wasm`.
//!
//! Trunk's own Rust pipeline (cargo, wasm-bindgen, wasm-opt) has no step between
//! the compiler and wasm-bindgen, and that is where `wasm-split` must run: it reads
//! the linker's relocations (`--emit-relocs`) to cut every function reachable only
//! from a `#[wasm_split]` point (`crates/web/src/view/chunks.rs`) out of the first
//! module into a chunk that `__wasm_split.js` fetches the first time it is called.
//!
//! 1. `cargo rustc -p ratelab-web` for wasm32 (`-C link-args=--emit-relocs` on the
//!    final link only, so the dependencies' builds are the ones other commands use);
//! 2. `wasm-split-cli` (pinned, installed by `cargo xtask setup`): the first module,
//!    the chunks (`split_*.wasm`, `chunk_*.wasm` for code two splits share) and
//!    `__wasm_split.js`, their loader;
//! 3. `wasm-bindgen --target web` on the first module: `ratelab-web.js`,
//!    `ratelab-web_bg.wasm`, `ratelab-web.d.ts`;
//! 4. in release builds, `wasm-opt -Oz --converge` on every module.
//!
//! The loader is adjusted in one place ([`loader`]): a chunk is compiled from its
//! bytes when the server does not say `application/wasm`, and a failed fetch (404,
//! offline, blocked) is an error the page turns into a notice, not a trap.

use std::path::{Path, PathBuf};

use crate::util::{run, Ctx, Result};

/// The crate the page is built from, and the feature that marks its split points.
const CRATE: &str = "ratelab-web";
const FEATURES: &str = "split";
const TARGET: &str = "wasm32-unknown-unknown";
/// The name every page loads the glue and the first module by.
pub const OUT_NAME: &str = "ratelab-web";
/// What `wasm-split-cli` calls its loader.
pub const LOADER: &str = "__wasm_split.js";

/// `cargo xtask wasm [--release] [--out DIR]`; as Trunk's hook, the profile and the
/// directory come from `TRUNK_PROFILE` and `TRUNK_STAGING_DIR`.
pub fn wasm_command(ctx: &Ctx, rest: &[String]) -> Result {
    let mut release = std::env::var("TRUNK_PROFILE").is_ok_and(|p| p == "release");
    let mut out = std::env::var_os("TRUNK_STAGING_DIR").map(PathBuf::from);
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--release" => release = true,
            "--out" => out = Some(PathBuf::from(it.next().ok_or("--out needs a directory")?)),
            a => return Err(format!("wasm: unexpected argument `{a}`")),
        }
    }
    let out = out.ok_or("wasm: say where with --out DIR (Trunk's hook sets TRUNK_STAGING_DIR)")?;
    build(ctx, release, &out)
}

/// Builds the page's modules into `out`.
pub fn build(ctx: &Ctx, release: bool, out: &Path) -> Result {
    let profile = if release { "release" } else { "debug" };
    let mut cargo = ctx.cargo();
    cargo.args(["rustc", "-p", CRATE, "--lib", "--crate-type", "cdylib"]);
    cargo.args(["--target", TARGET, "--features", FEATURES]);
    if release {
        cargo.arg("--release");
    }
    // Trunk's hook inherits Trunk's environment; a nested build must not think it
    // is a build script of some other crate.
    run(cargo.args(["--", "-C", "link-args=--emit-relocs"]))?;

    let linked = ctx
        .root
        .join("target")
        .join(TARGET)
        .join(profile)
        .join("ratelab_web.wasm");
    let split = ctx.root.join("target").join("wasm-split").join(profile);
    let _ = std::fs::remove_dir_all(&split);
    std::fs::create_dir_all(&split)
        .map_err(|e| format!("cannot create {}: {e}", split.display()))?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    run(ctx
        .cmd("wasm-split-cli")
        .arg(&linked)
        .arg(&split)
        .args(["--out-name", OUT_NAME]))?;

    run(ctx
        .cmd("wasm-bindgen")
        // The chunks import the first module's function table (LLD's export).
        .args([
            "--target",
            "web",
            "--keep-lld-exports",
            "--out-name",
            OUT_NAME,
            "--out-dir",
        ])
        .arg(out)
        .arg(split.join(format!("{OUT_NAME}.wasm"))))?;

    let mut modules = vec![out.join(format!("{OUT_NAME}_bg.wasm"))];
    for entry in
        std::fs::read_dir(&split).map_err(|e| format!("cannot read {}: {e}", split.display()))?
    {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = file_name(&path);
        if name == format!("{OUT_NAME}.wasm") {
            continue;
        }
        if name == LOADER {
            let text = crate::util::read(&path)?;
            write(&out.join(LOADER), &loader(&text)?)?;
        } else if name.ends_with(".wasm") {
            let to = out.join(&name);
            std::fs::copy(&path, &to).map_err(|e| format!("cannot copy {name}: {e}"))?;
            modules.push(to);
        }
    }
    if release {
        for module in &modules {
            run(ctx
                .cmd("wasm-opt")
                .args(["-Oz", "--converge", "-o"])
                .arg(module)
                .arg(module))?;
        }
    }
    Ok(())
}

/// `wasm-split-cli`'s loader, with the one call it makes to compile a chunk
/// replaced by ours: the fetch's answer checked (a 404 is an error, not a module
/// that fails to compile later), and compiled from its bytes when the server does
/// not serve it as `application/wasm` (as `ratelab.js` does for the first module).
/// Fails if the loader no longer has that call (a new `wasm-split-cli`).
///
/// Each chunk's fetch goes through `fetchChunk`, which ratelab-files.js replaces
/// with the modules a caller gave (`load({ wasm, chunks })`, for Node and Workers,
/// where there is no URL to fetch): the loader's
/// `fetch(new URL("./NAME", import.meta.url))` becomes `fetchChunk("./NAME")`.
pub fn loader(text: &str) -> Result<String> {
    const CALL: &str = "WebAssembly.instantiateStreaming(src, imports)";
    const FETCH: &str = "fetch(new URL(\"./";
    const BASE: &str = "\", import.meta.url))";
    let calls = text.matches(CALL).count();
    if calls == 0 || text.matches(FETCH).count() != calls || text.matches(BASE).count() != calls {
        return Err(format!(
            "{LOADER} has no `{CALL}` after each `{FETCH}…{BASE}`: wasm-split-cli changed; update xtask/src/wasm.rs"
        ));
    }
    Ok(format!(
        "{}\n{CHUNK}",
        text.replace(CALL, "instantiateChunk(src, imports)")
            .replace(FETCH, "fetchChunk(\"./")
            .replace(BASE, "\")")
    ))
}

const CHUNK: &str = r#"let fetchChunk = (path) => fetch(new URL(path, import.meta.url));
/** Where the chunks come from instead (ratelab-files.js): `path` to a promise of a response. */
export function __ratelab_chunks(from) {
    fetchChunk = from;
}
async function instantiateChunk(src, imports) {
    const response = await src;
    if (!response.ok) throw new Error(`${response.url}: ${response.status} ${response.statusText}`);
    const type = response.headers.get('content-type') || '';
    if (type.split(';')[0].trim() === 'application/wasm') {
        return WebAssembly.instantiateStreaming(response, imports);
    }
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}
"#;

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn write(path: &Path, text: &str) -> Result {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loader_compiles_chunks_through_ours() {
        let text = "const f = () => { const src = fetch(new URL(\"./split_api.wasm\", import.meta.url)); return async (imports) => (WebAssembly.instantiateStreaming(src, imports)); };";
        let out = loader(text).unwrap();
        assert!(out.contains("(instantiateChunk(src, imports))"));
        assert!(out.contains("const src = fetchChunk(\"./split_api.wasm\");"));
        assert!(out.contains("async function instantiateChunk"));
        assert!(!out.contains("WebAssembly.instantiateStreaming(src, imports)"));
        assert!(loader("something else").is_err());
    }
}
