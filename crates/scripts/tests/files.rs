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

/// What the playground's production box shows and copies for each Redis lane: the
/// script's text (its Copy copies exactly the block it shows), and under "How to
/// call it" the SHA1 of exactly those bytes, loaded from a file that holds them
/// the way that keeps them (`-x ... < file`; `"$(cat file)"` drops the last
/// newline, and with it the SHA1 EVALSHA is told).
#[test]
fn the_box_shows_the_sha1_of_the_bytes_it_copies_and_loads_them_intact() {
    use ratelab_core::{Algorithm, Params};
    use ratelab_scripts::production::{production, Kind};
    let mut n = 0;
    for a in Algorithm::ALL {
        let p = production(a, &Params::new(5, 10_000), a.id()).unwrap();
        if p.kind != Kind::Redis {
            continue;
        }
        let name = p.script.unwrap().name;
        let sha = sha1_smol::Sha1::from(p.text.as_bytes())
            .digest()
            .to_string();
        let call = p.call.unwrap();
        assert!(call.contains(&format!("(prints {sha}, ")), "{call}");
        assert!(
            call.contains(&format!("\nredis-cli -x SCRIPT LOAD < {name}.lua\n")),
            "{call}"
        );
        assert!(
            call.contains(&format!("\nredis-cli EVALSHA {sha} ")),
            "{call}"
        );
        assert!(
            call.contains(&format!("\nredis-cli --eval {name}.lua ")),
            "{call}"
        );
        assert!(!call.contains("$(cat"), "{call}");
        n += 1;
    }
    assert_eq!(
        n, 7,
        "every Redis lane but nginx's (its box shows limit_req lines)"
    );
}
