//! The size part: the playground as Trunk builds it for release, sized by the same
//! code as `cargo xtask test`'s budget step. The build it leaves in `work/dist` is
//! the one the frames part measures.

use std::path::Path;

use crate::test::{self, BundleFile};
use crate::util::{self, Ctx};

/// `trunk build --release` into a dist of our own, so that a `trunk serve` running
/// in the repository is not disturbed; then the sizes `cargo xtask test` checks. A
/// failed build is reported in the table rather than ending the run.
pub(super) fn run(ctx: &Ctx, work: &Path) -> std::result::Result<Vec<BundleFile>, String> {
    let dist = work.join("dist");
    util::run(
        ctx.cmd("trunk")
            .args(["build", "--release", "--dist"])
            .arg(&dist),
    )
    .map_err(|e| format!("the release build failed: {e}"))?;
    test::bundle_files(&dist)
}
