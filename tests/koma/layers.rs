//! The law of `ARCHITECTURE.md`: each layer knows only the layers below it,
//! in every crate of the workspace (`crates/koma-core`, `crates/koma-engine`,
//! then this one: the lower crates' modules are imported at each crate's
//! root under their own names). Every `crate::NAME` path in a module's
//! source is resolved to the layer of `NAME` and must not be above the
//! module's own layer; each crate holds one run of layers.

use std::path::Path;

/// The layers, lowest first. A module may use any layer before its own.
const LAYERS: &[&[&str]] = &[
    &["text", "board"],
    &["dsl"],
    &["setup"],
    &["variant"],
    &["rules"],
    &["position"],
    &["notation"],
    &["error"],
    &["engine"],
    &["render"],
    &["export"],
    &["record"],
    &["protocol"],
    &["play"],
    &["server"],
];

/// Items of the crate root and the layer they belong to (re-exports and
/// exported macros).
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("Game", "position"),
    ("Error", "error"),
    ("with_rules", "position"),
    ("with_position", "position"),
];

fn layer_of(name: &str) -> Option<usize> {
    let module = ROOT_ITEMS
        .iter()
        .find(|(item, _)| *item == name)
        .map_or(name, |(_, m)| *m);
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every `crate::NAME` in the text (comments included: a doc link upward is
/// a dependency too), with its line.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            let before = rest[..i].chars().last();
            rest = &rest[i + "crate::".len()..];
            // `$crate::` in a macro resolves where the macro is used.
            if before == Some('$') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((n + 1, name));
            }
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("a source folder is readable")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The workspace's crates (source folder, relative to the repository) and
/// the layers each one holds: the lowest and the highest, by name.
const CRATES: &[(&str, &str, &str)] = &[
    ("crates/koma-core/src", "text", "error"),
    ("crates/koma-engine/src", "engine", "engine"),
    ("src", "render", "server"),
];

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (dir, lowest, highest) in CRATES {
        let src = root.join(dir);
        let range = layer_of(lowest).expect("a layer")..=layer_of(highest).expect("a layer");
        let mut all = Vec::new();
        files(&src, &mut all);
        assert!(
            !all.is_empty(),
            "{dir} holds no Rust files: is CRATES out of date?"
        );
        for path in all {
            let rel = path.strip_prefix(&src).expect("under the crate's src");
            let shown = format!("{dir}/{}", rel.display());
            let top = rel
                .components()
                .next()
                .and_then(|c| c.as_os_str().to_str())
                .map(|s| s.trim_end_matches(".rs").to_string())
                .unwrap_or_default();
            // The crate roots, the binary's entry point and its CLI sit on top.
            if ["lib", "main", "cli"].contains(&top.as_str()) {
                continue;
            }
            let own = layer_of(&top)
                .unwrap_or_else(|| panic!("{shown} is in no layer: add '{top}' to LAYERS"));
            if !range.contains(&own) {
                wrong.push(format!(
                    "{shown}: layer '{top}' belongs in another crate than {dir} (CRATES)"
                ));
            }
            let text = std::fs::read_to_string(&path).expect("readable source");
            for (line, name) in crate_paths(&text) {
                checked += 1;
                match layer_of(&name) {
                    None => wrong.push(format!("{shown}:{line}: crate::{name} is in no layer")),
                    Some(l) if l > own => wrong.push(format!(
                        "{shown}:{line}: {top} uses crate::{name}, a layer above it"
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} crate paths found: is the scan broken?"
    );
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

/// Every layer is in exactly one crate, in the order of the layers.
#[test]
fn the_crates_hold_the_layers_in_order() {
    let mut next = 0;
    for (dir, lowest, highest) in CRATES {
        let (lo, hi) = (
            layer_of(lowest).expect("a layer"),
            layer_of(highest).expect("a layer"),
        );
        assert_eq!(lo, next, "{dir} should start at layer {next}");
        assert!(hi >= lo, "{dir}: its layers are in the wrong order");
        next = hi + 1;
    }
    assert_eq!(
        next,
        LAYERS.len(),
        "the last crate should end at the top layer"
    );
}

#[test]
fn the_scan_finds_an_upward_import() {
    let text = "use crate::position::Position;\n// see [`crate::engine::Engine`]\nmatch g { $crate::Game::Narrow(r) => r }";
    let found = crate_paths(text);
    assert_eq!(
        found,
        vec![(1, "position".to_string()), (2, "engine".to_string())]
    );
    assert!(layer_of("engine") > layer_of("rules"));
    assert_eq!(layer_of("Game"), layer_of("position"));
}
