//! Embeds every variant file of the repository's `variants/` in the binary: adding a game is
//! adding a file there, with no code to change.

use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("../../variants");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("the variants/ folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        // The folder's README documents the format; it is not a game.
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// The variant files of `variants/`: (file stem, contents).\npub static CATALOGUE: &[(&str, &str)] = &[\n",
    );
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("variant file names are UTF-8");
        out.push_str(&format!(
            "    ({stem:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    fs::write(
        Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogue.rs"),
        out,
    )
    .expect("OUT_DIR is writable");
}
