//! Three lists of the keys of a variant file are kept equal: the keys
//! `variants/README.md` documents in its reference tables, the keys of the
//! serde types of [`crate::variant::schema`], and the keys the validator
//! knows ([`super::keys`]).
//!
//! serde has no reflection, so its keys are asked of each type: a type's
//! derived `Deserialize` names its fields (after `rename`) when it calls
//! `deserialize_struct`, and its variants when it calls `deserialize_enum`;
//! a deserializer that only records them lists them exactly. (Deserializing
//! a document with every documented key would only catch keys serde lacks,
//! never a field that the README and the validator lack.) Which section a
//! type reads is written once, in `SERDE` below.

use std::collections::BTreeSet;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};

use super::keys::{PROMOTION_RULES, REPETITION_RESULTS, SECTIONS};
use crate::variant::schema::{
    BareRoyalSpec, DeclarationSpec, EngineSpec, EvalSpec, FriendSquareSpec, PieceSpec,
    PromotionRule, PromotionSpec, RecordsSpec, RenderSpec, RepetitionResult, RepetitionSpec,
    RulesSpec, TopologySpec, TradeLimitsSpec,
};

/// A deserializer that records the names a type asks for, then fails.
struct Probe<'a>(&'a mut Option<&'static [&'static str]>);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("only structs and enums name their keys"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(fields);
        Err(de::Error::custom("recorded"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(variants);
        Err(de::Error::custom("recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map identifier ignored_any
    }
}

/// The keys (a struct) or words (an enum) serde reads into `T`.
fn names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut names = None;
    let _ = T::deserialize(Probe(&mut names));
    names.unwrap_or_else(|| {
        panic!(
            "{} is read neither as a struct nor as an enum",
            std::any::type_name::<T>()
        )
    })
}

/// Which serde type reads which section (`NAME`: any piece).
fn serde_sections() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("engine", names::<EngineSpec>()),
        ("engine.topology", names::<TopologySpec>()),
        ("engine.render", names::<RenderSpec>()),
        ("engine.pieces.NAME", names::<PieceSpec>()),
        ("engine.pieces.NAME.promotion", names::<PromotionSpec>()),
        ("engine.rules", names::<RulesSpec>()),
        ("engine.rules.repetition", names::<RepetitionSpec>()),
        ("engine.rules.trade_limits", names::<TradeLimitsSpec>()),
        (
            "engine.rules.move_as_friend_at",
            names::<FriendSquareSpec>(),
        ),
        ("engine.rules.bare_royal", names::<BareRoyalSpec>()),
        ("engine.rules.declaration", names::<DeclarationSpec>()),
        ("engine.records", names::<RecordsSpec>()),
        ("engine.eval", names::<EvalSpec>()),
    ]
}

/// Every key of the sections, by its full path.
fn paths(sections: &[(&str, &[&str])]) -> BTreeSet<String> {
    sections
        .iter()
        .flat_map(|(section, keys)| keys.iter().map(move |k| format!("{section}.{k}")))
        .collect()
}

/// The keys of the README's reference tables (the first column of each
/// table under "Reference: every key", inside the section its `###` heading
/// names), by full path; a documented `topology.type` documents `topology`.
fn documented(readme: &str) -> BTreeSet<String> {
    let reference = readme
        .split("\n## ")
        .find(|s| s.starts_with("Reference"))
        .expect("variants/README.md has a section 'Reference: every key'");
    let mut section = "engine".to_string();
    let mut keys = BTreeSet::new();
    for line in reference.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            section = format!("engine.{}", heading.trim().trim_matches('`'));
            continue;
        }
        let Some(row) = line.strip_prefix('|') else {
            continue;
        };
        let key = row.split('|').next().unwrap_or_default().trim();
        if key == "key" || key.starts_with('-') {
            continue;
        }
        let path = format!("{section}.{}", key.trim_matches('`'));
        let mut p = path.as_str();
        while let Some((parent, _)) = p.rsplit_once('.') {
            if parent != "engine" && !parent.ends_with(".NAME") {
                keys.insert(parent.to_string());
            }
            p = parent;
        }
        keys.insert(path);
    }
    keys
}

#[test]
fn the_readme_the_serde_types_and_the_validator_know_the_same_keys() {
    let lists = [
        (
            "variants/README.md's reference tables",
            documented(include_str!("../../../../../variants/README.md")),
        ),
        (
            "the serde types (crates/koma-core/src/variant/schema.rs)",
            paths(&serde_sections()),
        ),
        (
            "the validator's key lists (crates/koma-core/src/variant/validate/keys.rs)",
            paths(SECTIONS),
        ),
    ];
    let every: BTreeSet<&String> = lists.iter().flat_map(|(_, keys)| keys).collect();
    let wrong: Vec<String> = every
        .into_iter()
        .filter_map(|key| {
            let (has, lacks): (Vec<_>, Vec<_>) =
                lists.iter().partition(|(_, keys)| keys.contains(key));
            let names = |l: Vec<&(&str, BTreeSet<String>)>| {
                l.iter()
                    .map(|(name, _)| *name)
                    .collect::<Vec<_>>()
                    .join(" and ")
            };
            (!lacks.is_empty()).then(|| {
                format!(
                    "'{key}' is missing from {} (it is in {})",
                    names(lacks),
                    names(has)
                )
            })
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "the lists of keys differ:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_validator_knows_the_words_serde_reads() {
    assert_eq!(PROMOTION_RULES, names::<PromotionRule>());
    assert_eq!(REPETITION_RESULTS, names::<RepetitionResult>());
}

#[test]
fn the_probe_and_the_readme_reader_find_what_is_written() {
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Two {
        one: u32,
        #[serde(rename = "twoKeys")]
        two: u32,
    }
    assert_eq!(names::<Two>(), ["one", "twoKeys"]);
    let readme = "# Title\n\n## Reference: every key\n\n| key | meaning |\n|-----|---------|\n| `a.b` | x |\n\n### `c`\n\n| key |\n|---|\n| `d` | y |\n\n## Other\n\n| `e` | z |\n";
    let found: Vec<String> = documented(readme).into_iter().collect();
    assert_eq!(found, ["engine.a", "engine.a.b", "engine.c", "engine.c.d"]);
}
