//! The import part: a big JSON import through the page's box, on the size part's
//! release build (`crates/bench/browser/import.mjs`: fills the box in the page,
//! clicks Import, times until the page shows the stream, then plays).

use std::path::Path;

use super::{page_harness, run_tee, NO_BUILD};
use crate::util::{Ctx, Result};

/// One size imported: the harness's fields as it printed them (ms, counts).
pub(super) struct ImportRow {
    pub requests: String,
    /// shown, settled, longest task, tasks ≥ 50 ms, frames meanwhile, longest
    /// frame meanwhile, frame median after, frame p95 after, the box's change
    /// event; or why not.
    pub result: std::result::Result<[String; 9], String>,
}

/// What the import part measured, or why nothing ran.
pub(super) enum Import {
    Measured(Vec<ImportRow>),
    Pending(String),
}

/// Imports 200 000 and 2 000 000 requests (200 000 only with `quick`).
pub(super) fn run(ctx: &Ctx, work: &Path, chromium: &Path, quick: bool) -> Result<Import> {
    let Some(mut cmd) = page_harness(ctx, work, chromium, "import.mjs") else {
        return Ok(Import::Pending(NO_BUILD.into()));
    };
    if quick {
        cmd.env("RATELAB_IMPORT_SIZES", "200000");
    }
    Ok(parse_import(&run_tee(&mut cmd)?))
}

fn parse_import(out: &str) -> Import {
    let mut rows = Vec::new();
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let ["bench", "import", n, rest @ ..] = f.as_slice() else {
            continue;
        };
        let result = match rest {
            ["pending", why] => Err(why.to_string()),
            [a, b, c, d, e, g, h, i, j] => Ok([a, b, c, d, e, g, h, i, j].map(|s| s.to_string())),
            _ => Err(format!("unreadable line: {line}")),
        };
        rows.push(ImportRow {
            requests: n.to_string(),
            result,
        });
    }
    if rows.is_empty() {
        Import::Pending("the import harness printed no result".into())
    } else {
        Import::Measured(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read() {
        let out = "x\nbench\timport\t200000\t582\t582\t236\t2\t11\t232\t16.7\t16.7\t3\n\
                   bench\timport\t2000000\tpending\tno page\nbench\timport\t3\t1\n";
        let Import::Measured(rows) = parse_import(out) else {
            panic!("no rows")
        };
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].result.as_ref().unwrap()[0], "582");
        assert_eq!(rows[1].result.as_ref().unwrap_err(), "no page");
        assert!(rows[2].result.is_err());
        assert!(matches!(parse_import(""), Import::Pending(_)));
    }
}
