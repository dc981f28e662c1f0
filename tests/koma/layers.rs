//! The law of `ARCHITECTURE.md`: each layer of `src/` knows only the layers
//! below it. Every `crate::NAME` path in a module's source is resolved to
//! the layer of `NAME` and must not be above the module's own layer.

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
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut wrong = Vec::new();
    let mut checked = 0;
    for path in all {
        let rel = path.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|s| s.trim_end_matches(".rs").to_string())
            .unwrap_or_default();
        // The crate root, the binary's entry point and its CLI sit on top.
        if ["lib", "main", "build", "cli"].contains(&top.as_str()) {
            continue;
        }
        let own = layer_of(&top).unwrap_or_else(|| {
            panic!(
                "src/{} is in no layer: add '{top}' to LAYERS",
                rel.display()
            )
        });
        let text = std::fs::read_to_string(&path).expect("readable source");
        for (line, name) in crate_paths(&text) {
            checked += 1;
            match layer_of(&name) {
                None => wrong.push(format!(
                    "src/{}:{line}: crate::{name} is in no layer",
                    rel.display()
                )),
                Some(l) if l > own => wrong.push(format!(
                    "src/{}:{line}: {top} uses crate::{name}, a layer above it",
                    rel.display()
                )),
                Some(_) => {}
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
