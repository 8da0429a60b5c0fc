//! The playground fetches each script's file and splices its parts itself
//! (`ratelab_scripts::splice`), instead of carrying the texts in its bundle: that
//! must give exactly the text the build assembled and hashed.

use std::path::Path;

use ratelab_scripts::teaching::TEACHING;
use ratelab_scripts::{parts, splice, SCRIPTS};

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn each_file_spliced_is_the_scripts_text() {
    let teaching = TEACHING.iter().filter_map(|t| t.script);
    let mut n = 0;
    for script in SCRIPTS.into_iter().chain(teaching) {
        let body = read(script.file);
        let got: Vec<(String, String)> = parts(&body)
            .map(|p| (p.to_string(), read(&format!("lua/{p}.lua"))))
            .collect();
        let text = splice(&body, |p| {
            got.iter().find(|(n, _)| n == p).map(|(_, t)| t.as_str())
        });
        assert_eq!(text.as_deref(), Some(script.text()), "{}", script.file);
        assert!(!script.text().is_empty(), "{}", script.file);
        n += 1;
    }
    assert_eq!(n, 10);
}

#[test]
fn a_missing_part_is_no_text() {
    let body = read(SCRIPTS[0].file);
    assert!(parts(&body).any(|p| p == "prelude"));
    assert_eq!(splice(&body, |_| None), None);
}

#[test]
fn each_teaching_variant_has_its_text() {
    for t in TEACHING {
        assert!(!t.text().is_empty(), "{}", t.id);
        if let Some(s) = t.script {
            assert_eq!(t.text(), s.text());
        }
    }
}
