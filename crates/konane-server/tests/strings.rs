//! The page's words: every language file has every key, with the same `{placeholders}`;
//! every key the scripts ask for exists; the tutorial's steps all have their texts; and the
//! Hawaiian words keep their diacritics.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn language(code: &str) -> BTreeMap<String, String> {
    let path = web().join(format!("i18n/{code}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let map: BTreeMap<String, Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    map.into_iter()
        .map(|(k, v)| match v {
            Value::String(s) => (k, s),
            other => panic!("{code}.json: {k} is not a string but {other}"),
        })
        .collect()
}

fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect()
}

const LANGUAGES: [&str; 3] = ["en", "de", "cs"];

#[test]
fn every_language_has_every_key_with_the_same_placeholders() {
    let english = language("en");
    for code in LANGUAGES {
        let other = language(code);
        let missing: Vec<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{code}.json lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{code}.json has keys English lacks: {extra:?}"
        );
        for (key, text) in &other {
            assert!(!text.trim().is_empty(), "{code}.json: {key} is empty");
            assert_eq!(
                placeholders(text),
                placeholders(&english[key]),
                "{code}.json: {key} has other placeholders than English"
            );
        }
    }
}

/// Every `t("key")` written out in the scripts.
fn keys_in_scripts() -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    for entry in std::fs::read_dir(web()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("js") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (i, _) in text.match_indices("t(\"") {
            let before = text[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let rest = &text[i + 3..];
            if let Some(end) = rest.find('"') {
                found.insert((name.clone(), rest[..end].to_string()));
            }
        }
    }
    found
}

#[test]
fn every_key_the_scripts_use_exists() {
    let english = language("en");
    let used = keys_in_scripts();
    assert!(
        used.len() > 100,
        "only {} keys found in the scripts",
        used.len()
    );
    let missing: Vec<_> = used
        .iter()
        .filter(|(_, k)| !english.contains_key(k))
        .collect();
    assert!(
        missing.is_empty(),
        "keys used but not in en.json: {missing:?}"
    );
}

#[test]
fn every_tutorial_step_has_its_texts() {
    let english = language("en");
    let text = std::fs::read_to_string(web().join("lessons.json")).unwrap();
    let lessons: Value = serde_json::from_str(&text).unwrap();
    let steps = lessons["steps"].as_array().expect("a list of steps");
    for step in steps {
        let id = step["id"].as_str().expect("an id");
        let mut wanted = vec!["title", "text"];
        if !["board", "first-game"].contains(&id) {
            wanted.push("done");
        }
        if step["goal"].is_array() || id.ends_with("removal") {
            wanted.push("wrong");
        }
        for part in wanted {
            let key = format!("learn.{id}.{part}");
            assert!(english.contains_key(&key), "en.json lacks {key}");
        }
    }
}

#[test]
fn hawaiian_words_keep_their_diacritics() {
    for code in LANGUAGES {
        for (key, text) in language(code) {
            let lower = text.to_lowercase();
            for bare in ["konane", "papamu"] {
                assert!(
                    !lower.contains(bare),
                    "{code}.json: {key} writes {bare} without its macron: {text}"
                );
            }
        }
    }
}

/// Every code the server sends for a refused move, an ending or an error has its words,
/// so no player ever reads the server's English.
#[test]
fn every_code_the_server_sends_is_worded() {
    use konane_core::IllegalReason;
    use konane_server::error::ApiError;
    use konane_server::games::game::EndReason;

    let english = language("en");
    let mut keys: Vec<String> = Vec::new();
    for code in IllegalReason::CODES {
        match code {
            "not_your_stone" => keys
                .extend(["empty", "stone"].map(|found| format!("illegal.not_your_stone.{found}"))),
            "first_removal_square" => keys.extend(
                ["center-or-corner", "center"]
                    .map(|opening| format!("illegal.first_removal_square.{opening}")),
            ),
            code => keys.push(format!("illegal.{code}")),
        }
    }
    keys.extend(ApiError::NOTATION_REASONS.map(|code| format!("notation.{code}")));
    keys.extend(EndReason::ALL.map(|r| format!("end.{}", r.code())));
    keys.extend(ApiError::CODES.map(|code| format!("error.{code}")));
    keys.extend(konane_server::players::name::NameError::CODES.map(|code| format!("name.{code}")));
    keys.extend(
        konane_server::players::secrets::PasswordError::CODES
            .map(|code| format!("password.{code}")),
    );
    let missing: Vec<_> = keys.iter().filter(|k| !english.contains_key(*k)).collect();
    assert!(missing.is_empty(), "en.json lacks {missing:?}");
}
