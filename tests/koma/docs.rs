//! The book's Markdown (issue 43): `README.md`, every `docs/**/*.md` and
//! `variants/README.md`.
//!
//! - Every relative link, `[text](path)`, `[text](path#anchor)`, `[text](#anchor)`,
//!   `![alt](path)` and `[label]: path`, names a file or folder of the
//!   repository (relative to the page's folder; `/path` from the root), and
//!   every anchor of a Markdown page names one of its headings, slugged as
//!   GitHub does. Links in code (fenced blocks, inline code) and absolute
//!   URLs (`https:`, `mailto:`, ...) are not checked: the test has no network.
//! - Every ```` ```rust ```` block of `docs/` is on a page that `src/lib.rs`
//!   includes for `cargo test --doc`, so no example goes unchecked; on such a
//!   page every fence names its language (rustdoc compiles a bare one as Rust).
//! - `README.md` has at most [`README_WORDS`] words, counted as the
//!   whitespace-separated tokens outside fenced code blocks, and its first
//!   fenced block, within its first [`README_FIRST_BLOCK_LINE`] lines, holds
//!   exactly two commands: one that plays, one that tests.
//!
//! Each test collects every problem, each as `page:line: what is wrong`,
//! before it fails.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The most words `README.md` may have (outside fenced code blocks).
const README_WORDS: usize = 1_200;
/// The line by which `README.md`'s first fenced block must open.
const README_FIRST_BLOCK_LINE: usize = 15;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages checked, relative to the root, `/`-separated, sorted.
fn pages() -> Vec<String> {
    let mut out = vec!["README.md".to_string(), "variants/README.md".to_string()];
    let mut docs = Vec::new();
    markdown_files(&root().join("docs"), &mut docs);
    docs.sort();
    out.extend(docs);
    out
}

fn markdown_files(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(relative(&path));
        }
    }
}

fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).expect("a page under the root");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn read_page(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("cannot read {page}: {e}"))
}

/// A fenced code block: the line of its opening fence (1-based), its info
/// string, its lines.
struct Fence {
    line: usize,
    info: String,
    body: Vec<String>,
}

/// A page split into its lines outside fenced blocks (with their numbers)
/// and its fenced blocks.
struct Markdown {
    prose: Vec<(usize, String)>,
    fences: Vec<Fence>,
}

/// The fence a line opens (its character and length, up to three spaces
/// of indent), with the info string after it.
fn fence_open(line: &str) -> Option<(char, usize, &str)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let c = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = trimmed.chars().take_while(|x| *x == c).count();
    let info = trimmed[len..].trim();
    // A backtick fence's info string has no backtick (else it is inline code).
    (len >= 3 && !(c == '`' && info.contains('`'))).then_some((c, len, info))
}

fn fence_closes(line: &str, c: char, len: usize) -> bool {
    let trimmed = line.trim();
    trimmed.chars().count() >= len && trimmed.chars().all(|x| x == c)
}

fn parse_markdown(text: &str) -> Markdown {
    let mut md = Markdown {
        prose: Vec::new(),
        fences: Vec::new(),
    };
    let mut open: Option<(char, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        match open {
            Some((c, len)) if fence_closes(line, c, len) => open = None,
            Some(_) => {
                let fence = md.fences.last_mut().expect("an open fence was pushed");
                fence.body.push(line.to_string());
            }
            None => match fence_open(line) {
                Some((c, len, info)) => {
                    open = Some((c, len));
                    md.fences.push(Fence {
                        line: n,
                        info: info.to_string(),
                        body: Vec::new(),
                    });
                }
                None => md.prose.push((n, line.to_string())),
            },
        }
    }
    md
}

/// The line with its inline code spans blanked out (a span opens and
/// closes with backtick runs of one length).
fn without_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|c| **c == '`').count();
        match closing_run(&chars, i + run, run) {
            Some(end) => {
                out.push(' ');
                i = end + run;
            }
            None => {
                out.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    out
}

/// Where the next run of exactly `run` backticks from `from` starts.
fn closing_run(chars: &[char], from: usize, run: usize) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        if chars[j] == '`' {
            let len = chars[j..].iter().take_while(|c| **c == '`').count();
            if len == run {
                return Some(j);
            }
            j += len;
        } else {
            j += 1;
        }
    }
    None
}

/// The destinations of a line's inline links and images (`](dest)`) and of
/// a reference definition (`[label]: dest`), as written.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    if let Some(dest) = reference_definition(&line) {
        out.push(dest);
    }
    let mut rest = line.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let (dest, after) = destination(rest);
        out.push(dest);
        rest = after;
    }
    out
}

fn reference_definition(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix('[')?;
    let (label, after) = rest.split_once("]:")?;
    let dest = after.split_whitespace().next()?;
    (!label.is_empty()).then(|| dest.trim_matches(['<', '>']).to_string())
}

/// An inline link's destination (up to its `)`, nested parentheses
/// allowed, without a title) and the text after it.
fn destination(text: &str) -> (String, &str) {
    if let Some(inner) = text.strip_prefix('<')
        && let Some(end) = inner.find('>')
    {
        let after = inner[end..].find(')').map_or("", |c| &inner[end + c + 1..]);
        return (inner[..end].to_string(), after);
    }
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                let dest = text[..i].split_whitespace().next().unwrap_or_default();
                return (dest.to_string(), &text[i + 1..]);
            }
            ')' => depth -= 1,
            _ => {}
        }
    }
    (
        text.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string(),
        "",
    )
}

/// Whether a destination is an absolute URL (`https:`, `mailto:`, ...).
fn is_absolute_url(dest: &str) -> bool {
    let scheme = dest.split(':').next().unwrap_or_default();
    dest.contains(':')
        && scheme.len() > 1
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// A heading's text as GitHub renders it before slugging: code spans keep
/// their text, links keep theirs, tags and emphasis marks go.
fn heading_plain_text(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`'
            && let Some(end) = closing_run(&chars, i + 1, 1)
        {
            out.extend(&chars[i + 1..end]);
            i = end + 1;
            continue;
        }
        if c == '<'
            && let Some(len) = chars[i..].iter().position(|x| *x == '>')
        {
            i += len + 1;
            continue;
        }
        if c == ']' && chars.get(i + 1) == Some(&'(') {
            let rest: String = chars[i + 1..].iter().collect();
            let close = rest.find(')').unwrap_or(rest.len());
            i += 1 + rest[..close].chars().count() + 1;
            continue;
        }
        let word_edge = |j: Option<&char>| j.is_none_or(|x| !x.is_alphanumeric());
        let before = i.checked_sub(1).and_then(|j| chars.get(j));
        let emphasis = c == '_' && (word_edge(before) || word_edge(chars.get(i + 1)));
        if !(c == '[' || c == '*' || emphasis || c == '!' && chars.get(i + 1) == Some(&'[')) {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// GitHub's slug of a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces turned to `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading_plain_text(heading)
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The text of an ATX heading (`## Text ##`), if the line is one.
fn heading_text(line: &str) -> Option<&str> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let level = trimmed.chars().take_while(|c| *c == '#').count();
    let rest = &trimmed[level..];
    if !(1..=6).contains(&level) || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let rest = rest.trim();
    let closed = rest.trim_end_matches('#');
    Some(if closed.is_empty() || closed.ends_with(' ') {
        closed.trim_end()
    } else {
        rest
    })
}

/// The anchors of a page: its headings' slugs (a repeated slug gets `-1`,
/// `-2`, ... as on GitHub) and the `id`/`name` of its HTML anchors.
fn anchors(md: &Markdown) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, line) in &md.prose {
        out.extend(html_anchors(line));
        let Some(text) = heading_text(line) else {
            continue;
        };
        let base = slug(text);
        let count = seen.entry(base.clone()).or_insert(0);
        out.push(match *count {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        });
        *count += 1;
    }
    out
}

fn html_anchors(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in [" id=\"", " name=\""] {
        let mut rest = line;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

/// `%XX` escapes decoded (a link to a file with a space in its name).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = text
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The repository path (`/`-separated, from the root) a link's path names
/// from `page`, or why it leaves the repository.
fn resolve(page: &str, path: &str) -> Result<String, String> {
    let base = match path.strip_prefix('/') {
        Some(_) => PathBuf::new(),
        None => Path::new(page)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    };
    let mut parts: Vec<String> = Vec::new();
    for c in base
        .join(percent_decoded(path.trim_start_matches('/')))
        .components()
    {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::ParentDir if parts.pop().is_none() => {
                return Err("it leaves the repository".to_string());
            }
            _ => {}
        }
    }
    Ok(parts.join("/"))
}

/// The Markdown page whose headings an anchor on `target` names: the file,
/// or a folder's `README.md` (which GitHub shows under its listing).
fn anchor_page(target: &str) -> Option<String> {
    let path = root().join(target);
    if path.is_dir() {
        let readme = if target.is_empty() {
            "README.md".to_string()
        } else {
            format!("{target}/README.md")
        };
        return root().join(&readme).is_file().then_some(readme);
    }
    target.ends_with(".md").then(|| target.to_string())
}

/// A GitHub line anchor of a source file: `L12` or `L12-L20`.
fn is_line_anchor(anchor: &str) -> bool {
    let line = |s: &str| {
        s.strip_prefix('L')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match anchor.split_once('-') {
        Some((a, b)) => line(a) && line(b),
        None => line(anchor),
    }
}

/// Caches each page's anchors.
struct Anchors(HashMap<String, Vec<String>>);

impl Anchors {
    fn of(&mut self, page: &str) -> &[String] {
        self.0
            .entry(page.to_string())
            .or_insert_with(|| anchors(&parse_markdown(&read_page(page))))
    }
}

/// What is wrong with one link of `page`, if anything.
fn link_problem(page: &str, dest: &str, cache: &mut Anchors) -> Option<String> {
    if dest.is_empty() || is_absolute_url(dest) {
        return None;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (dest, None),
    };
    let path = path.split('?').next().unwrap_or_default();
    let target = if path.is_empty() {
        page.to_string()
    } else {
        match resolve(page, path) {
            Ok(t) => t,
            Err(why) => return Some(why),
        }
    };
    if !root().join(&target).exists() {
        return Some(format!("no file or folder {target}"));
    }
    let anchor = anchor.filter(|a| !a.is_empty())?;
    anchor_problem(&target, &percent_decoded(anchor), cache)
}

fn anchor_problem(target: &str, anchor: &str, cache: &mut Anchors) -> Option<String> {
    let Some(md) = anchor_page(target) else {
        return (!is_line_anchor(anchor))
            .then(|| format!("{target} is not a Markdown page: no heading '{anchor}' to link to"));
    };
    if cache.of(&md).iter().any(|a| a == anchor) {
        return None;
    }
    Some(format!("no heading '{anchor}' in {md}"))
}

/// Every problem with the links of one page.
fn page_link_problems(page: &str, cache: &mut Anchors) -> Vec<String> {
    let md = parse_markdown(&read_page(page));
    let mut out = Vec::new();
    for (n, line) in &md.prose {
        for dest in link_targets(line) {
            if let Some(why) = link_problem(page, &dest, cache) {
                out.push(format!("{page}:{n}: link '{dest}': {why}"));
            }
        }
    }
    out
}

fn fail_on(problems: &[String], what: &str) {
    assert!(
        problems.is_empty(),
        "{} {what}:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut cache = Anchors(HashMap::new());
    let problems: Vec<String> = pages()
        .iter()
        .flat_map(|p| page_link_problems(p, &mut cache))
        .collect();
    fail_on(&problems, "broken links");
}

/// The pages `src/lib.rs` includes as doctests (`"../docs/NAME.md"`), from the root.
fn doctest_pages() -> Vec<String> {
    let lib = read_page("src/lib.rs");
    lib.split('"')
        .filter(|s| s.starts_with("../docs/") && s.ends_with(".md"))
        .map(|s| s.trim_start_matches("../").to_string())
        .collect()
}

/// Whether a fence's info string makes rustdoc compile it (none, or `rust`
/// with attributes), and whether it then runs it too.
fn rustdoc_block(info: &str) -> Option<bool> {
    let words: Vec<&str> = info
        .split([',', ' ', '\t'])
        .filter(|w| !w.is_empty())
        .collect();
    match words.first() {
        None => Some(true),
        Some(&"rust") => Some(!words.contains(&"ignore")),
        Some(_) => None,
    }
}

/// What keeps one fenced block of a docs page from being checked, if anything.
fn fence_problem(fence: &Fence, included: bool) -> Option<String> {
    match (rustdoc_block(&fence.info), included) {
        (None, _) => None,
        (Some(_), false) => Some(format!(
            "a ```{} block on a page src/lib.rs does not include: add the page to its `book` module",
            fence.info
        )),
        (Some(_), true) if fence.info.is_empty() => Some(
            "a fence without a language, which rustdoc compiles as Rust: name its language"
                .to_string(),
        ),
        (Some(false), true) => Some(format!(
            "a ```{} block is never run: drop 'ignore'",
            fence.info
        )),
        (Some(true), true) => None,
    }
}

#[test]
fn every_rust_example_in_docs_is_a_doctest() {
    let included = doctest_pages();
    let mut problems = Vec::new();
    for page in pages().iter().filter(|p| p.starts_with("docs/")) {
        let md = parse_markdown(&read_page(page));
        let is_included = included.contains(page);
        for fence in &md.fences {
            if let Some(why) = fence_problem(fence, is_included) {
                problems.push(format!("{page}:{}: {why}", fence.line));
            }
        }
    }
    for page in included.iter().filter(|p| !root().join(p).is_file()) {
        problems.push(format!("src/lib.rs: includes {page}, which does not exist"));
    }
    fail_on(&problems, "unchecked examples");
}

/// Words: whitespace-separated tokens outside fenced code blocks.
fn word_count(md: &Markdown) -> usize {
    md.prose
        .iter()
        .map(|(_, l)| l.split_whitespace().count())
        .sum()
}

#[test]
fn readme_is_short() {
    let words = word_count(&parse_markdown(&read_page("README.md")));
    assert!(
        words <= README_WORDS,
        "README.md: {words} words; the limit is {README_WORDS} \
         (words: whitespace-separated tokens outside fenced code blocks)"
    );
}

/// A block's commands: its lines that are neither blank nor `#` comments,
/// a line ending in `\` joined to the next, a `$ ` prompt dropped.
fn commands(body: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut continued = false;
    for line in body.iter().map(|l| l.trim()) {
        if !continued && (line.is_empty() || line.starts_with('#')) {
            continue;
        }
        let text = line.strip_prefix("$ ").unwrap_or(line);
        match out.last_mut() {
            Some(last) if continued => last.push_str(text),
            _ => out.push(text.to_string()),
        }
        continued = line.ends_with('\\');
    }
    out
}

/// Whether a command runs `word` (as one of its words before any `#` comment).
fn runs(command: &str, word: &str) -> bool {
    let code = command.split(" #").next().unwrap_or_default();
    code.split_whitespace().any(|w| w == word)
}

fn first_block_problems(md: &Markdown) -> Vec<String> {
    let Some(fence) = md
        .fences
        .first()
        .filter(|f| f.line <= README_FIRST_BLOCK_LINE)
    else {
        return vec![format!(
            "README.md: no fenced block opens within the first {README_FIRST_BLOCK_LINE} lines"
        )];
    };
    let cmds = commands(&fence.body);
    let mut out = Vec::new();
    let at = format!("README.md:{}", fence.line);
    if cmds.len() != 2 {
        out.push(format!(
            "{at}: the first block has {} commands, not 2: {cmds:?}",
            cmds.len()
        ));
    }
    if !cmds.iter().any(|c| runs(c, "play")) {
        out.push(format!(
            "{at}: the first block has no command that runs 'play': {cmds:?}"
        ));
    }
    if !cmds.iter().any(|c| runs(c, "test")) {
        out.push(format!(
            "{at}: the first block has no command that runs 'test': {cmds:?}"
        ));
    }
    out
}

#[test]
fn readme_starts_with_the_commands_to_play_and_to_test() {
    let problems = first_block_problems(&parse_markdown(&read_page("README.md")));
    fail_on(&problems, "problems with README.md's first block");
}

#[test]
fn slugs_follow_github() {
    let cases = [
        ("Loading a variant", "loading-a-variant"),
        ("Walkthrough: add a variant", "walkthrough-add-a-variant"),
        ("`koma play` and `cargo test`", "koma-play-and-cargo-test"),
        ("The [engine](engine.md)'s search", "the-engines-search"),
        ("_Emphasis_ and snake_case", "emphasis-and-snake_case"),
        (
            "Dōbutsu shogi (どうぶつしょうぎ)",
            "dōbutsu-shogi-どうぶつしょうぎ",
        ),
        ("Perft — counting moves", "perft--counting-moves"),
        ("Closed heading ##", "closed-heading"),
    ];
    for (heading, expected) in cases {
        let line = format!("## {heading}");
        let text = heading_text(&line).expect("a heading");
        assert_eq!(slug(text), expected, "the slug of '{heading}'");
    }
    let md = parse_markdown("# A\n\n```\n# not a heading\n```\n## A\n## A\n");
    assert_eq!(anchors(&md), ["a", "a-1", "a-2"]);
}

#[test]
fn links_in_code_are_not_links() {
    let md = parse_markdown("[a](one.md) `[b](two.md)`\n```\n[c](three.md)\n```\n");
    let links: Vec<String> = md.prose.iter().flat_map(|(_, l)| link_targets(l)).collect();
    assert_eq!(links, ["one.md"]);
    assert_eq!(
        link_targets("![x](a.png \"title\") [y](<b c.md>)"),
        ["a.png", "b c.md"]
    );
    assert_eq!(link_targets("[z]: d.md \"title\""), ["d.md"]);
}

#[test]
fn words_outside_fenced_blocks_count() {
    let md = parse_markdown("# Two words\n\n```sh\ncargo test --release\n```\nthree more words\n");
    assert_eq!(word_count(&md), 6);
}
