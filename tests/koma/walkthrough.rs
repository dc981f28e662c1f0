//! Keeps the "add a variant" walkthrough of `variants/README.md` true: its
//! YAML pieces put together are the front matter of the walkthrough's file,
//! and every `$ koma ...` command prints what the text says.

use std::process::Command;

use crate::common::tests_dir;

fn walkthrough() -> String {
    let readme = std::fs::read_to_string(tests_dir().join("../variants/README.md"))
        .expect("variants/README.md");
    let start = readme
        .find("## Walkthrough")
        .expect("a walkthrough section");
    readme[start..].to_string()
}

/// The fenced blocks of a language, in order.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(l)) if l == lang => current = Some(String::new()),
            (Some(_), Some("")) => out.push(current.take().unwrap_or_default()),
            (Some(block), None) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_yaml_steps_make_the_walkthrough_file() {
    let yaml: String = blocks(&walkthrough(), "yaml").concat();
    let file = std::fs::read_to_string(tests_dir().join("walkthrough/lance-shogi.md"))
        .expect("the walkthrough's file");
    let front_end = file[4..].find("\n---\n").expect("front matter") + 4 + 5;
    assert_eq!(
        yaml,
        file[..front_end],
        "the walkthrough's YAML and tests/walkthrough/lance-shogi.md differ"
    );
}

#[test]
fn the_commands_print_what_the_walkthrough_says() {
    let mut checked = 0;
    for block in blocks(&walkthrough(), "console") {
        let lines: Vec<&str> = block.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(command) = line.strip_prefix("$ koma ") else {
                continue;
            };
            if command.contains('#') {
                continue;
            }
            let (command, count_lines) = match command.split_once(" | wc -l") {
                Some((c, _)) => (c, true),
                None => (command, false),
            };
            let expected: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with('$'))
                .copied()
                .collect();
            let out = Command::new(env!("CARGO_BIN_EXE_koma"))
                .current_dir(tests_dir().join(".."))
                .args(command.split_whitespace())
                .output()
                .expect("koma runs");
            assert!(
                out.status.success(),
                "koma {command}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let stdout = String::from_utf8_lossy(&out.stdout);
            let got = if count_lines {
                stdout.lines().count().to_string()
            } else {
                stdout.trim_end().to_string()
            };
            assert_eq!(got, expected.join("\n"), "koma {command}");
            checked += 1;
        }
    }
    assert!(checked >= 2, "the walkthrough runs koma");
}

#[test]
fn the_error_shown_is_the_error_koma_gives() {
    let shown = blocks(&walkthrough(), "text").concat();
    let file =
        std::fs::read_to_string(tests_dir().join("walkthrough/lance-shogi.md")).expect("file");
    let broken = file.replace(
        "    bishop: ~\n",
        "    bishop: ~\n    pawn: { betza: fX }\n",
    );
    let dir = std::env::temp_dir().join(format!("koma-walkthrough-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("lance-shogi.md"), broken).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .current_dir(&dir)
        .args(["validate", "lance-shogi.md"])
        .output()
        .expect("koma runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&shown),
        "koma says:\n{stderr}\nthe walkthrough shows:\n{shown}"
    );
}
