//! The etcd view: the key tree under `/registry` with counts, the global revision, and for the
//! selected key its value at the selected revision, its revision history, and the diff from
//! the version before.

use crate::state::derive::{diff, key_history, key_tree, value_at};
use crate::state::playground::Playground;
use kubeplay_core::trace::clock;
use leptos::prelude::*;
use std::collections::BTreeSet;

#[component]
pub fn EtcdView() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let state = Memo::new(move |_| pg.state_key());
    let revision = Memo::new(move |_| state.get().1);
    let tree = Memo::new(move |_| {
        let (_, rev) = state.get();
        pg.with_untracked(|p| key_tree(p, rev)).unwrap_or_default()
    });
    let open = RwSignal::new(BTreeSet::<String>::new());
    // The revision picked in the history (none: the revision shown).
    let picked = RwSignal::new(None::<i64>);
    Effect::new(move |_| {
        // A new key selected: show it at the current revision, its group open.
        if let Some(k) = pg.selected_key.get() {
            picked.set(None);
            if let Some(g) = k
                .strip_prefix("/registry/")
                .and_then(|r| r.split('/').next())
            {
                let g = g.to_string();
                open.update(|o| {
                    o.insert(g);
                });
            }
        }
    });
    let at = move || {
        picked
            .get()
            .unwrap_or_else(|| revision.get())
            .min(revision.get())
    };
    let history = Memo::new(move |_| {
        let (_, rev) = state.get();
        match pg.selected_key.get() {
            Some(k) => pg
                .with_untracked(|p| key_history(p, &k, rev))
                .unwrap_or_default(),
            None => Vec::new(),
        }
    });
    let value = move || {
        let k = pg.selected_key.get()?;
        let rev = at();
        pg.with_untracked(|p| value_at(p, &k, rev)).flatten()
    };
    let changes = move || {
        let k = pg.selected_key.get()?;
        let rev = at();
        let h = history.get();
        let i = h.iter().rposition(|v| v.mod_revision <= rev)?;
        let prev = i.checked_sub(1).map(|j| h[j].mod_revision)?;
        pg.with_untracked(|p| {
            let old = value_at(p, &k, prev).unwrap_or_default();
            let new = value_at(p, &k, h[i].mod_revision).unwrap_or_default();
            (prev, h[i].mod_revision, diff(&old, &new))
        })
    };
    let i18n = crate::state::i18n::i18n();
    view! {
        <div data-testid="etcd" class="view etcd-view" role="region" aria-label="etcd">
            <div class="etcd-tree" aria-label=move || i18n.t("etcdview-tree-label")>
                <p class="revision" data-testid="etcd-revision">"revision "{move || revision.get()}</p>
                <ul class="tree" role="tree">
                    {move || tree.get().into_iter().map(|g| {
                        let name = g.name.clone();
                        let is_open = {
                            let name = name.clone();
                            move || open.with(|o| o.contains(&name))
                        };
                        let toggle = {
                            let name = name.clone();
                            move |_| open.update(|o| if !o.remove(&name) { o.insert(name.clone()); })
                        };
                        let prefix = format!("/registry/{}/", g.name);
                        let keys = g.keys.clone();
                        let is_open2 = is_open.clone();
                        let is_open3 = is_open.clone();
                        view! {
                            <li role="treeitem" aria-expanded=move || is_open3().to_string()>
                                <button class="group" data-group=name.clone() on:click=toggle>
                                    {move || if is_open2() { "▾ " } else { "▸ " }}{name.clone()}
                                    <span class="count">{g.keys.len()}</span>
                                </button>
                                {move || is_open().then(|| view! {
                                    <ul role="group">
                                        {keys.iter().map(|k| {
                                            let key = k.clone();
                                            let short = k.strip_prefix(&prefix).unwrap_or(k).to_string();
                                            let selected = {
                                                let key = key.clone();
                                                move || pg.selected_key.with(|s| s.as_deref() == Some(key.as_str()))
                                            };
                                            let key2 = key.clone();
                                            view! {
                                                <li role="treeitem">
                                                    <button class="key" class:selected=selected data-key=key.clone()
                                                        title=key.clone()
                                                        on:click=move |_| pg.selected_key.set(Some(key2.clone()))>
                                                        {short}
                                                    </button>
                                                </li>
                                            }
                                        }).collect_view()}
                                    </ul>
                                })}
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </div>
            <div class="etcd-value">
                {move || match pg.selected_key.get() {
                    None => view! { <p class="hint">{i18n.t("etcdview-hint")}</p> }.into_any(),
                    Some(k) => view! {
                        <h3 class="key-title" data-testid="etcd-key">{k.clone()}</h3>
                        <div class="history" role="list" aria-label=i18n.t("etcdview-history")>
                            {move || history.get().into_iter().map(|v| {
                                let rev = v.mod_revision;
                                let class = move || if at() == rev { "rev selected" } else { "rev" };
                                let args = [("revision", rev.to_string()), ("version", v.version.to_string())];
                                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                                let text = format!("{}{}", i18n.ta(if v.deleted { "etcdview-deleted" } else { "etcdview-rev" }, &args),
                                    v.t_ms.map(|t| format!(" @{}", clock(t))).unwrap_or_default());
                                view! {
                                    <button role="listitem" class=class data-rev=rev.to_string()
                                        on:click=move |_| picked.set(Some(rev))>{text}</button>
                                }
                            }).collect_view()}
                        </div>
                        <p class="muted small">{move || i18n.ta("etcdview-value-at", &[("revision", &at().to_string())])}</p>
                        <pre class="value" data-testid="etcd-value">{move || value().unwrap_or_else(|| i18n.t("etcdview-no-value").to_string())}</pre>
                        {move || changes().map(|(old, new, lines)| view! {
                            <details class="diff">
                                <summary>{i18n.ta("etcdview-changes", &[("old", &old.to_string()), ("new", &new.to_string())])}</summary>
                                <pre>{lines.into_iter().filter(|(c, _)| *c != ' ').map(|(c, l)| {
                                    let class = if c == '+' { "add" } else { "del" };
                                    view! { <span class=class>{format!("{c} {l}\n")}</span> }
                                }).collect_view()}</pre>
                            </details>
                        })}
                    }.into_any(),
                }}
            </div>
        </div>
    }
}
