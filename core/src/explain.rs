//! What each kind of trace record means, for someone who knows what a container is but not
//! how Kubernetes works inside, in English, Simplified Chinese and Traditional Chinese. Every
//! record's `explain` key names one of these.
//!
//! The text is not here: it lives in Fluent message files (<https://projectfluent.org>) at
//! the repository root, one folder per language, so that the app can use the same files:
//!
//! - `locales/<lang>/explain.ftl`: the explanations;
//! - `locales/<lang>/ui.ftl`: the playground's own text (buttons, view names, hints).
//!
//! **Message ids.** Fluent ids cannot contain `.`, so a record kind's id is its `explain` key
//! with every `.` replaced by `-` ([`message_id`]); underscores stay. Each kind has three
//! messages: `etcd.txn` has `etcd-txn-title`, `etcd-txn-body` and `etcd-txn-docs`, and
//! `runtime.stop_sandbox` has `runtime-stop_sandbox-title` and so on. Record kinds never
//! contain `-`, so the rule can be read back ([`kind_of`]).
//!
//! `-docs` is a kubernetes.io path: `/docs/...` in English, `/zh-cn/docs/...` in both Chinese
//! files (kubernetes.io has no Traditional Chinese site). A line break inside a message joins
//! with a space, or with nothing when it touches a Chinese character.
//!
//! The files are compiled in (without their comment lines, [`crate::include_ftl`]) and
//! formatted once, on first use; the page's wasm compiles in only English and adds the others
//! when they are chosen ([`add_language`]).

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::collections::HashMap;
use std::sync::{LazyLock, RwLock};

/// The languages there are message files for, the default first.
pub const LANGUAGES: [&str; 3] = ["en", "zh-CN", "zh-TW"];

/// The language used when none of [`LANGUAGES`] is asked for, and for any missing message.
pub const DEFAULT_LANGUAGE: &str = "en";

/// Where the `-docs` paths lead.
pub const DOCS_SITE: &str = "https://kubernetes.io";

/// The message files compiled in: `(language, explain.ftl, ui.ftl)`. The page's wasm carries
/// only English (what it shows first, and the fallback); it fetches the other languages'
/// files when they are chosen and hands them to [`add_language`]. Native builds carry all.
const SOURCES: &[(&str, &str, &str)] = &[
    (
        "en",
        crate::include_ftl!("../../locales/en/explain.ftl"),
        crate::include_ftl!("../../locales/en/ui.ftl"),
    ),
    #[cfg(not(target_arch = "wasm32"))]
    (
        "zh-CN",
        crate::include_ftl!("../../locales/zh-CN/explain.ftl"),
        crate::include_ftl!("../../locales/zh-CN/ui.ftl"),
    ),
    #[cfg(not(target_arch = "wasm32"))]
    (
        "zh-TW",
        crate::include_ftl!("../../locales/zh-TW/explain.ftl"),
        crate::include_ftl!("../../locales/zh-TW/ui.ftl"),
    ),
];

/// One explanation in one language: a title, two to four sentences, and the documentation
/// page to read next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The record kind (`etcd.txn`).
    pub key: &'static str,
    /// One of [`LANGUAGES`].
    pub lang: &'static str,
    pub title: &'static str,
    /// What happened, why, and what would make it fail.
    pub body: &'static str,
    /// The same as `body` (its name before there were languages).
    pub text: &'static str,
    /// The kubernetes.io path, `/docs/...` or `/zh-cn/docs/...`.
    pub docs: &'static str,
    /// The documentation page: [`DOCS_SITE`] and `docs`.
    pub docs_url: &'static str,
}

/// The Fluent id of a record kind's message: `message_id("etcd.txn", "title")` is
/// `etcd-txn-title`.
pub fn message_id(key: &str, part: &str) -> String {
    format!("{}-{part}", key.replace('.', "-"))
}

/// The record kind of a `-title` message id: `kind_of("etcd-txn-title")` is `etcd.txn`.
pub fn kind_of(title_id: &str) -> Option<String> {
    title_id
        .strip_suffix("-title")
        .map(|stem| stem.replace('-', "."))
}

/// The language of [`LANGUAGES`] for a language tag as browsers send them (`zh-CN`,
/// `zh-Hant-HK`, `en-GB`, case-insensitive): Simplified Chinese for `zh`, `zh-Hans`, `zh-CN`
/// and `zh-SG`, Traditional Chinese for `zh-Hant`, `zh-TW`, `zh-HK` and `zh-MO`, English for
/// `en`; `None` for any other language.
pub fn language(tag: &str) -> Option<&'static str> {
    let tag = tag.trim().replace('_', "-").to_ascii_lowercase();
    let mut parts = tag.split('-');
    match parts.next()? {
        "en" => Some("en"),
        "zh" => {
            let rest: Vec<&str> = parts.collect();
            let traditional = rest
                .iter()
                .any(|p| matches!(*p, "hant" | "tw" | "hk" | "mo"));
            let simplified = rest.iter().any(|p| matches!(*p, "hans" | "cn" | "sg"));
            // A script beats a region: zh-Hans-HK is written in simplified characters.
            if rest.contains(&"hans") || (simplified && !rest.contains(&"hant")) {
                Some("zh-CN")
            } else if traditional {
                Some("zh-TW")
            } else {
                Some("zh-CN")
            }
        }
        _ => None,
    }
}

/// The first of the preferred language tags (`navigator.languages`, a `lang=` parameter) that
/// there are messages for, or [`DEFAULT_LANGUAGE`].
pub fn negotiate<S: AsRef<str>>(preferred: &[S]) -> &'static str {
    preferred
        .iter()
        .find_map(|t| language(t.as_ref()))
        .unwrap_or(DEFAULT_LANGUAGE)
}

/// The text of a message file: `file` is `"explain"` or `"ui"`, `lang` one of [`LANGUAGES`].
pub fn ftl(lang: &str, file: &str) -> Option<&'static str> {
    let (_, explain, ui) = SOURCES.iter().find(|(l, _, _)| *l == lang)?;
    match file {
        "explain" => Some(explain),
        "ui" => Some(ui),
        _ => None,
    }
}

/// The ids of a file's messages, in the file's order.
pub fn message_ids(source: &str) -> Vec<&str> {
    let resource = match fluent_syntax::parser::parse(source) {
        Ok(r) => r,
        Err((r, _)) => r,
    };
    resource
        .body
        .into_iter()
        .filter_map(|e| match e {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name),
            _ => None,
        })
        .collect()
}

/// Joins the lines of a multiline message: with a space, or with nothing next to a Chinese
/// character or full-width punctuation (a space there would show between two characters).
fn join_lines(s: &str) -> String {
    fn wide(c: char) -> bool {
        matches!(c as u32, 0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF)
            || matches!(c, '…' | '“' | '”' | '‘' | '’')
    }
    let mut out = String::with_capacity(s.len());
    let mut lines = s.split('\n').peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        if let Some(next) = lines.peek() {
            let before = line.chars().last();
            let after = next.chars().next();
            if !(before.is_some_and(wide) || after.is_some_and(wide)) {
                out.push(' ');
            }
        }
    }
    out
}

/// One language's files, parsed, and every message formatted without arguments.
struct Catalog {
    explain: HashMap<String, String>,
    ui: HashMap<String, String>,
    ui_bundle: FluentBundle<FluentResource>,
}

fn bundle(lang: &str, source: &str) -> FluentBundle<FluentResource> {
    let locale = lang.parse().unwrap_or_default();
    let mut b = FluentBundle::new_concurrent(vec![locale]);
    // The text goes into HTML as it is: no Unicode isolation marks around arguments.
    b.set_use_isolating(false);
    // A file that does not parse keeps what could be read (the tests check that all of it can).
    let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
    let _ = b.add_resource(resource);
    b
}

fn format(b: &FluentBundle<FluentResource>, id: &str, args: Option<&FluentArgs>) -> Option<String> {
    let pattern = b.get_message(id)?.value()?;
    let mut errors = Vec::new();
    let text = b.format_pattern(pattern, args, &mut errors);
    Some(join_lines(&text))
}

fn format_all(b: &FluentBundle<FluentResource>, source: &str) -> HashMap<String, String> {
    message_ids(source)
        .into_iter()
        .filter_map(|id| Some((id.to_string(), format(b, id, None)?)))
        .collect()
}

/// The explanations' own strings.
struct Owned {
    key: String,
    title: String,
    body: String,
    docs: String,
    docs_url: String,
}

/// One language, parsed and formatted once and kept for the life of the program (so its
/// strings can be handed out as `&'static str`).
struct Language {
    catalog: Catalog,
    explanations: Vec<Explanation>,
}

/// The languages ready so far: the compiled-in ones as they are first asked for, the others
/// once [`add_language`] has been given their files.
static READY: RwLock<Vec<(&'static str, &'static Language)>> = RwLock::new(Vec::new());

/// The English kinds, in the file's order: every language lists the same explanations.
static KINDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    message_ids(SOURCES[0].1)
        .into_iter()
        .filter_map(kind_of)
        .collect()
});

fn build(lang: &'static str, explain: &str, ui: &str) -> &'static Language {
    let ui_bundle = bundle(lang, ui);
    let catalog = Catalog {
        explain: format_all(&bundle(lang, explain), explain),
        ui: format_all(&ui_bundle, ui),
        ui_bundle,
    };
    let en = (lang != DEFAULT_LANGUAGE).then(|| language_data(DEFAULT_LANGUAGE));
    let owned: &'static [Owned] = Vec::leak(
        KINDS
            .iter()
            .map(|key| {
                let get = |part: &str| {
                    let id = message_id(key, part);
                    catalog
                        .explain
                        .get(&id)
                        .or_else(|| en.and_then(|en| en.catalog.explain.get(&id)))
                        .cloned()
                        .unwrap_or_default()
                };
                let docs = get("docs");
                Owned {
                    key: key.clone(),
                    title: get("title"),
                    body: get("body"),
                    docs_url: format!("{DOCS_SITE}{docs}"),
                    docs,
                }
            })
            .collect(),
    );
    let explanations = owned
        .iter()
        .map(|o| Explanation {
            key: &o.key,
            lang,
            title: &o.title,
            body: &o.body,
            text: &o.body,
            docs: &o.docs,
            docs_url: &o.docs_url,
        })
        .collect();
    Box::leak(Box::new(Language {
        catalog,
        explanations,
    }))
}

fn ready(lang: &str) -> Option<&'static Language> {
    let ready = READY.read().unwrap_or_else(|e| e.into_inner());
    ready.iter().find(|(l, _)| *l == lang).map(|(_, d)| *d)
}

fn insert(lang: &'static str, data: &'static Language) -> &'static Language {
    let mut ready = READY.write().unwrap_or_else(|e| e.into_inner());
    match ready.iter().find(|(l, _)| *l == lang) {
        Some((_, d)) => d,
        None => {
            ready.push((lang, data));
            data
        }
    }
}

/// A language's messages: its files if they are here, English otherwise.
fn language_data(lang: &str) -> &'static Language {
    let lang = language(lang).unwrap_or(DEFAULT_LANGUAGE);
    if let Some(d) = ready(lang) {
        return d;
    }
    match SOURCES.iter().find(|(l, _, _)| *l == lang) {
        Some(&(l, explain, ui)) => insert(l, build(l, explain, ui)),
        None if lang != DEFAULT_LANGUAGE => language_data(DEFAULT_LANGUAGE),
        None => unreachable!("English is compiled in"),
    }
}

/// Whether a language's messages are here (compiled in, or given to [`add_language`]).
pub fn has_language(lang: &str) -> bool {
    let Some(lang) = language(lang) else {
        return false;
    };
    ready(lang).is_some() || SOURCES.iter().any(|(l, _, _)| *l == lang)
}

/// Adds a language from the text of its `explain.ftl` and `ui.ftl` (what the page fetched).
/// A language already here is kept as it is.
pub fn add_language(lang: &str, explain: &str, ui: &str) {
    let Some(lang) = LANGUAGES.iter().find(|l| **l == lang).copied() else {
        return;
    };
    if !has_language(lang) {
        insert(lang, build(lang, explain, ui));
    }
}

/// Every explanation in a language (English for a language there are no files for), in the
/// order a request meets them.
pub fn explanations(lang: &str) -> &'static [Explanation] {
    &language_data(lang).explanations
}

/// Every explanation in English, in the order a request meets them.
pub static EXPLANATIONS: LazyLock<&'static [Explanation]> =
    LazyLock::new(|| explanations(DEFAULT_LANGUAGE));

/// The explanation of a record's `explain` key in a language (a tag [`language`] understands;
/// English for any other). `None` for a key no file explains.
pub fn explanation(key: &str, lang: &str) -> Option<Explanation> {
    explanations(lang).iter().find(|e| e.key == key).copied()
}

/// The English explanation of a record's `explain` key.
pub fn explain(key: &str) -> Option<&'static Explanation> {
    EXPLANATIONS.iter().find(|e| e.key == key)
}

/// The documentation link of an explanation.
pub fn docs_url(e: &Explanation) -> String {
    e.docs_url.to_string()
}

/// A message of `ui.ftl` in a language (English when the language has no such message),
/// formatted without arguments; use [`ui_args`] for a message with variables.
pub fn ui(id: &str, lang: &str) -> Option<&'static str> {
    language_data(lang)
        .catalog
        .ui
        .get(id)
        .or_else(|| language_data(DEFAULT_LANGUAGE).catalog.ui.get(id))
        .map(String::as_str)
}

/// A message of `ui.ftl` with its variables filled in: `ui_args("controls-position", "en",
/// &[("position", "3"), ("total", "40")])` is `step 3 of 40`. A value that reads as a number
/// is passed as one, so that it selects the plural form.
pub fn ui_args(id: &str, lang: &str, args: &[(&str, &str)]) -> Option<String> {
    let mut fargs = FluentArgs::new();
    for (name, value) in args {
        fargs.set(*name, FluentValue::try_number(value));
    }
    format(&language_data(lang).catalog.ui_bundle, id, Some(&fargs)).or_else(|| {
        format(
            &language_data(DEFAULT_LANGUAGE).catalog.ui_bundle,
            id,
            Some(&fargs),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Parses a file strictly: every error names the file.
    fn parsed(lang: &str, file: &str) -> fluent_syntax::ast::Resource<&'static str> {
        let src = ftl(lang, file).unwrap();
        match fluent_syntax::parser::parse(src) {
            Ok(r) => r,
            Err((_, errors)) => panic!("locales/{lang}/{file}.ftl does not parse: {errors:?}"),
        }
    }

    #[test]
    fn the_catalogs_are_the_languages() {
        let files: Vec<&str> = SOURCES.iter().map(|(l, _, _)| *l).collect();
        assert_eq!(files, LANGUAGES.to_vec());
        assert_eq!(LANGUAGES[0], DEFAULT_LANGUAGE);
    }

    #[test]
    fn every_file_parses_and_has_no_duplicate_ids() {
        for lang in LANGUAGES {
            for file in ["explain", "ui"] {
                let r = parsed(lang, file);
                let mut seen = BTreeSet::new();
                for e in &r.body {
                    if let fluent_syntax::ast::Entry::Message(m) = e {
                        assert!(
                            seen.insert(m.id.name),
                            "locales/{lang}/{file}.ftl: {} twice",
                            m.id.name
                        );
                        assert!(
                            m.value.is_some(),
                            "locales/{lang}/{file}.ftl: {} has no value",
                            m.id.name
                        );
                    }
                }
                // The bundle agrees: nothing it would refuse.
                let mut b = FluentBundle::new_concurrent(vec![lang.parse().unwrap()]);
                let res = FluentResource::try_new(ftl(lang, file).unwrap().to_string())
                    .unwrap_or_else(|_| panic!("{lang}/{file}"));
                assert!(b.add_resource(res).is_ok(), "locales/{lang}/{file}.ftl");
            }
        }
    }

    #[test]
    fn every_key_of_every_file_is_in_all_three_languages() {
        let mut missing = Vec::new();
        for file in ["explain", "ui"] {
            let ids: Vec<BTreeSet<&str>> = LANGUAGES
                .iter()
                .map(|l| message_ids(ftl(l, file).unwrap()).into_iter().collect())
                .collect();
            let all: BTreeSet<&str> = ids.iter().flatten().copied().collect();
            for id in &all {
                for (lang, have) in LANGUAGES.iter().zip(&ids) {
                    if !have.contains(id) {
                        missing.push(format!("{id} is missing from locales/{lang}/{file}.ftl"));
                    }
                }
            }
        }
        assert!(missing.is_empty(), "{}", missing.join("\n"));
    }

    #[test]
    fn explanation_and_ui_ids_do_not_overlap() {
        let explain: BTreeSet<&str> = message_ids(ftl("en", "explain").unwrap())
            .into_iter()
            .collect();
        for id in message_ids(ftl("en", "ui").unwrap()) {
            assert!(!explain.contains(id), "{id} is in explain.ftl and ui.ftl");
        }
    }

    #[test]
    fn every_kind_has_a_title_a_body_and_docs_and_nothing_else() {
        for lang in LANGUAGES {
            let ids = message_ids(ftl(lang, "explain").unwrap());
            let kinds: BTreeSet<String> = ids.iter().filter_map(|id| kind_of(id)).collect();
            for id in &ids {
                let ok = ["-title", "-body", "-docs"].iter().any(|suffix| {
                    id.strip_suffix(suffix)
                        .is_some_and(|stem| kinds.contains(&stem.replace('-', ".")))
                });
                assert!(
                    ok,
                    "locales/{lang}/explain.ftl: {id} is no kind's -title, -body or -docs"
                );
            }
            for k in &kinds {
                for part in ["title", "body", "docs"] {
                    let id = message_id(k, part);
                    assert!(
                        ids.contains(&id.as_str()),
                        "locales/{lang}/explain.ftl: no {id}"
                    );
                }
            }
        }
    }

    #[test]
    fn ids_follow_the_dot_to_hyphen_rule_both_ways() {
        assert_eq!(message_id("etcd.txn", "title"), "etcd-txn-title");
        assert_eq!(
            message_id("runtime.stop_sandbox", "body"),
            "runtime-stop_sandbox-body"
        );
        assert_eq!(kind_of("etcd-txn-title").as_deref(), Some("etcd.txn"));
        assert_eq!(kind_of("etcd-txn-body"), None);
        for e in EXPLANATIONS.iter() {
            assert!(
                !e.key.contains('-'),
                "{}: a record kind with a hyphen",
                e.key
            );
            assert_eq!(kind_of(&message_id(e.key, "title")).as_deref(), Some(e.key));
        }
    }

    #[test]
    fn every_language_explains_the_same_kinds_in_the_same_order() {
        let en: Vec<&str> = explanations("en").iter().map(|e| e.key).collect();
        assert!(en.len() >= 50, "{} kinds", en.len());
        for lang in LANGUAGES {
            let keys: Vec<&str> = explanations(lang).iter().map(|e| e.key).collect();
            assert_eq!(keys, en, "{lang}");
            for e in explanations(lang) {
                assert_eq!(e.lang, lang);
                assert!(
                    !e.title.is_empty() && !e.body.is_empty(),
                    "{lang} {}",
                    e.key
                );
                assert_eq!(e.text, e.body);
            }
        }
    }

    #[test]
    fn keys_are_unique_and_texts_are_short() {
        let mut keys: Vec<&str> = EXPLANATIONS.iter().map(|e| e.key).collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "duplicate explanation keys");
        for lang in LANGUAGES {
            for e in explanations(lang) {
                let sentences = if lang == "en" {
                    e.body.matches(". ").count() + 1
                } else {
                    e.body.matches('。').count()
                };
                assert!(
                    (1..=4).contains(&sentences),
                    "{lang} {}: {sentences} sentences",
                    e.key
                );
                let chars = e.body.chars().count();
                assert!(chars <= 700, "{lang} {}: {chars} characters", e.key);
                assert!(
                    !e.title.ends_with('.') && !e.title.ends_with('。'),
                    "{lang} {}",
                    e.key
                );
            }
        }
    }

    #[test]
    fn docs_lead_to_kubernetes_io_in_the_right_language() {
        for e in explanations("en") {
            assert!(e.docs.starts_with("/docs/"), "en {}: {}", e.key, e.docs);
            assert!(
                e.docs_url.starts_with("https://kubernetes.io/docs/"),
                "{}",
                e.docs_url
            );
            assert_eq!(docs_url(e), e.docs_url);
        }
        for lang in ["zh-CN", "zh-TW"] {
            for (e, en) in explanations(lang).iter().zip(explanations("en")) {
                // The same page as in English, as kubernetes.io localizes it.
                assert_eq!(e.docs, format!("/zh-cn{}", en.docs), "{lang} {}", e.key);
                assert!(e.docs_url.starts_with("https://kubernetes.io/zh-cn/docs/"));
            }
        }
    }

    #[test]
    fn lines_join_with_a_space_except_next_to_chinese() {
        assert_eq!(join_lines("one\ntwo"), "one two");
        assert_eq!(join_lines("调度器，\n节点"), "调度器，节点");
        assert_eq!(join_lines("`--as`\n则"), "`--as`则");
        for lang in LANGUAGES {
            for e in explanations(lang) {
                assert!(!e.body.contains('\n'), "{lang} {}", e.key);
                assert!(!e.body.contains("  "), "{lang} {}: double space", e.key);
                assert!(
                    !e.body.contains('\u{2068}'),
                    "{lang} {}: isolation mark",
                    e.key
                );
            }
        }
        let cn = explanation("kubectl.kubeconfig", "zh-CN").unwrap().body;
        assert!(!cn.contains("组； `--as`"), "{cn}");
    }

    #[test]
    fn the_old_api_still_answers_in_english() {
        let e = explain("etcd.txn").expect("etcd.txn");
        assert_eq!(e.key, "etcd.txn");
        assert_eq!(e.lang, "en");
        assert_eq!(e.title, "Written to etcd");
        assert!(e.text.contains("resourceVersion"));
        assert_eq!(
            docs_url(e),
            "https://kubernetes.io/docs/concepts/overview/components/#etcd"
        );
        assert!(explain("no.such.kind").is_none());
        assert_eq!(Some(*e), explanation("etcd.txn", "en"));
        assert_eq!(EXPLANATIONS.len(), explanations("en").len());
    }

    #[test]
    fn the_new_api_answers_in_each_language() {
        let cn = explanation("schedule", "zh-CN").unwrap();
        assert_eq!(cn.lang, "zh-CN");
        assert!(cn.title.contains("调度器"), "{}", cn.title);
        assert!(cn.body.contains("调度器"), "{}", cn.body);
        assert_eq!(
            cn.docs_url,
            "https://kubernetes.io/zh-cn/docs/concepts/scheduling-eviction/kube-scheduler/"
        );
        let tw = explanation("schedule", "zh-TW").unwrap();
        assert!(tw.title.contains("排程器"), "{}", tw.title);
        assert!(tw.body.contains("排程器"), "{}", tw.body);
        assert_eq!(tw.docs, cn.docs);
        // Tags as browsers send them; anything else is English.
        assert_eq!(explanation("schedule", "zh-Hant-HK").unwrap().lang, "zh-TW");
        assert_eq!(explanation("schedule", "zh").unwrap().lang, "zh-CN");
        assert_eq!(explanation("schedule", "fr").unwrap().lang, "en");
        assert!(explanation("no.such.kind", "zh-CN").is_none());
    }

    #[test]
    fn language_tags_map_to_the_three_languages() {
        for (tag, want) in [
            ("en", Some("en")),
            ("en-US", Some("en")),
            ("EN_gb", Some("en")),
            ("zh", Some("zh-CN")),
            ("zh-CN", Some("zh-CN")),
            ("zh-cn", Some("zh-CN")),
            ("zh-Hans", Some("zh-CN")),
            ("zh-SG", Some("zh-CN")),
            ("zh-Hans-HK", Some("zh-CN")),
            ("zh-TW", Some("zh-TW")),
            ("zh-tw", Some("zh-TW")),
            ("zh-HK", Some("zh-TW")),
            ("zh-MO", Some("zh-TW")),
            ("zh-Hant", Some("zh-TW")),
            ("zh-Hant-CN", Some("zh-TW")),
            ("fr-FR", None),
            ("", None),
        ] {
            assert_eq!(language(tag), want, "{tag:?}");
        }
        assert_eq!(negotiate(&["fr", "zh-TW", "en"]), "zh-TW");
        assert_eq!(negotiate(&["de"]), "en");
        assert_eq!(negotiate::<&str>(&[]), "en");
        for l in LANGUAGES {
            assert_eq!(language(l), Some(l));
        }
    }

    #[test]
    fn ui_messages_format_in_each_language() {
        assert_eq!(ui("controls-apply", "en"), Some("Apply"));
        assert_eq!(ui("view-scheduler", "zh-CN"), Some("调度器"));
        assert_eq!(ui("view-scheduler", "zh-TW"), Some("排程器"));
        assert_eq!(ui("language-zh-TW", "en"), Some("繁體中文"));
        assert_eq!(ui("no-such-message", "en"), None);
        let args = [("position", "3"), ("total", "40")];
        assert_eq!(
            ui_args("controls-position", "en", &args).as_deref(),
            Some("step 3 of 40")
        );
        assert_eq!(
            ui_args("controls-position", "zh-CN", &args).as_deref(),
            Some("第 3 步，共 40 步")
        );
        assert_eq!(
            ui_args("editor-objects-found", "en", &[("count", "1")]).as_deref(),
            Some("1 object found")
        );
        assert_eq!(
            ui_args("editor-objects-found", "en", &[("count", "4")]).as_deref(),
            Some("4 objects found")
        );
        assert_eq!(
            ui_args("cluster-node", "zh-TW", &[("node", "node-1")]).as_deref(),
            Some("節點 node-1")
        );
    }

    /// The variables a pattern uses, selectors and variants included.
    fn variables<'s>(p: &fluent_syntax::ast::Pattern<&'s str>, out: &mut BTreeSet<&'s str>) {
        use fluent_syntax::ast::{Expression, InlineExpression, PatternElement};
        fn inline<'s>(e: &InlineExpression<&'s str>, out: &mut BTreeSet<&'s str>) {
            match e {
                InlineExpression::VariableReference { id } => {
                    out.insert(id.name);
                }
                InlineExpression::Placeable { expression } => expr(expression, out),
                _ => {}
            }
        }
        fn expr<'s>(e: &Expression<&'s str>, out: &mut BTreeSet<&'s str>) {
            match e {
                Expression::Inline(i) => inline(i, out),
                Expression::Select { selector, variants } => {
                    inline(selector, out);
                    for v in variants {
                        variables(&v.value, out);
                    }
                }
            }
        }
        for el in &p.elements {
            if let PatternElement::Placeable { expression } = el {
                expr(expression, out);
            }
        }
    }

    #[test]
    fn every_translation_uses_the_same_variables() {
        for file in ["explain", "ui"] {
            let per_lang: Vec<HashMap<&str, BTreeSet<&str>>> = LANGUAGES
                .iter()
                .map(|l| {
                    parsed(l, file)
                        .body
                        .iter()
                        .filter_map(|e| match e {
                            fluent_syntax::ast::Entry::Message(m) => {
                                let mut vars = BTreeSet::new();
                                if let Some(v) = &m.value {
                                    variables(v, &mut vars);
                                }
                                Some((m.id.name, vars))
                            }
                            _ => None,
                        })
                        .collect()
                })
                .collect();
            for (id, vars) in &per_lang[0] {
                for (lang, m) in LANGUAGES.iter().zip(&per_lang).skip(1) {
                    if let Some(v) = m.get(id) {
                        assert_eq!(v, vars, "{file}.ftl {id}: {lang} uses other variables");
                    }
                }
            }
        }
    }
}
