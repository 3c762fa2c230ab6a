/* The calculator page (/calculator): everything it offers is read from the service.
 *
 * The rule sets come from GET /v1/rulesets; the palette, the context fields and the options
 * from the chosen rule set's document (GET /v1/rulesets/{id}): a tile game's `tile_kinds`,
 * seats, flowers and wild indicator; a word-card game's `deck`, win types and the seats they
 * name, flags and cards. The answers (ANSWERS) are posted as JSON; the picture of each is the
 * same request sent with `Accept: image/svg+xml`. The discard analysis is offered for the tile
 * games (a document with `tile_kinds`; the word-card games have none, as the contract says). A problem document's messages are shown next
 * to the field its JSON pointer names. No library, no build step, nothing from another host.
 *
 * The match mode (MATCH below) scores a match hand by hand through POST .../match: each hand
 * posted with the state the last answer gave, the scoresheet (the same match drawn as SVG)
 * shown growing.
 */
"use strict";

const WINDS = ["E", "S", "W", "N"];
// The rule set the page opens on when the address names none (the first listed if the
// service does not serve it): the most widely played rules of competition.
const DEFAULT_RULESET = "mcr";
// The widths the picture operations draw (their `width` parameter; the service's
// app/service/pictures/layout.py, which a test holds this to).
const PICTURE_WIDTH = { min: 200, max: 4000 };
const $ = (id) => document.getElementById(id);
const state = { doc: null, family: "tiles", pending: [], history: [], mode: "hand", match: null };

/* Each kind of answer the page asks for: its button, the path, and how it is shown. A new
 * kind (such as a discard analysis) is one more entry, offered when its rule set takes it. */
const ANSWERS = [
  { kind: "score", label: "Score", primary: true, offered: () => true, render: renderScore },
  { kind: "waits", label: "Waits (one short)", offered: () => true, render: renderWaits },
  { kind: "analysis", label: "Analysis (13 or 14)", offered: (doc) => Boolean(doc.tile_kinds),
    extend: analysisBody, render: renderAnalysis },
];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "className") node.className = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function getJson(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

function setState(s) { document.body.dataset.state = s; }

/* --- rule set ---------------------------------------------------------------------------- */

async function loadRulesets() {
  const { rulesets } = await getJson("/v1/rulesets");
  const select = $("ruleset");
  for (const rs of rulesets) select.append(el("option", { value: rs.id, text: `${rs.name} · ${rs.name_en} (${rs.id})` }));
  const wanted = new URLSearchParams(location.search).get("ruleset");
  const served = (id) => Boolean(id) && rulesets.some((r) => r.id === id);
  if (served(wanted)) select.value = wanted;
  else if (served(DEFAULT_RULESET)) select.value = DEFAULT_RULESET;
  select.addEventListener("change", () => chooseRuleset(select.value));
  await chooseRuleset(select.value);
}

async function chooseRuleset(id) {
  setState("loading");
  const doc = await getJson(`/v1/rulesets/${encodeURIComponent(id)}`);
  state.doc = doc;
  state.family = doc.deck ? "cards" : "tiles";
  state.pending = [];
  state.history = [];
  state.match = newMatch();
  $("hand").value = "";
  $("ruleset-description").textContent = doc.description;
  const note = $("ruleset-note");
  note.hidden = true;
  if (state.family === "cards" && !(doc.deck.suits || []).length) {
    note.hidden = false;
    note.textContent = "This rule set's document lists no cards: type the hand in notation.";
  }
  $("hand-help").textContent = state.family === "tiles"
    ? "Codes 1m…9m 万, 1p…9p 筒, 1s…9s 条, E S W N, C F P (中 发 白); [ ] a declared meld, " +
      "{ } a concealed kong; the last standing tile is the winning tile."
    : "Cards such as 2x (小写 二) or 2d (大写 贰); [ ] an exposed table group, { } a concealed " +
      "one; the last loose card is the winning card.";
  buildPalette();
  buildTargets();
  buildContext();
  buildOptions();
  buildActions();
  const analyses = ANSWERS.some((a) => a.kind === "analysis" && a.offered(doc));
  $("visible-field").hidden = !analyses;
  $("visible").value = "";
  $("match-json").value = "";
  clearProblems();
  $("result").hidden = true;
  applyMode();
  setState("ready");
}

/* --- hand entry -------------------------------------------------------------------------- */

function paletteItems() {
  const doc = state.doc;
  if (state.family === "cards") {
    return (doc.deck.suits || []).map((suit) => ({
      label: `${suit.name} ${suit.name_en}`,
      items: suit.cards.map((c) => ({ code: c.code, name: c.name,
        color: c.attributes.includes("red") ? "red" : "", flower: false })),
    }));
  }
  const groups = new Map();
  const names = { m: "万", p: "筒", s: "条", z: "字", f: "花" };
  for (const k of doc.tile_kinds) {
    if (k.suit === "f" && !doc.max_flowers) continue;
    if (!groups.has(k.suit)) groups.set(k.suit, { label: names[k.suit] || k.suit, items: [] });
    const color = k.code === "C" ? "red" : k.code === "F" ? "green" : k.suit === "z" ? "blue" : "";
    groups.get(k.suit).items.push({ code: k.code, name: k.name, color, flower: k.suit === "f" });
  }
  return [...groups.values()];
}

function buildPalette() {
  const palette = $("palette");
  palette.replaceChildren();
  for (const group of paletteItems()) {
    const row = el("div", { className: "suit", role: "group", "aria-label": group.label });
    for (const item of group.items) {
      const button = el("button", {
        type: "button", className: item.color, "data-code": item.code,
        "aria-label": `${item.name} ${item.code}${item.flower ? " (flower)" : ""}`,
      }, el("span", { className: "zh", text: item.name }), el("span", { className: "code", text: item.code }));
      button.addEventListener("click", () => addPiece(item));
      row.append(button);
    }
    palette.append(row);
  }
}

function buildTargets() {
  const select = $("target");
  select.replaceChildren(el("option", { value: "hand", text: "the hand (standing tiles)" }));
  if (state.family === "tiles") {
    const kinds = state.doc.meld_kinds || [];
    if (kinds.length) select.append(el("option", { value: "[", text: `a declared meld [ ] (${kinds.join(", ")})` }));
    if (kinds.includes("kong")) select.append(el("option", { value: "{", text: "a concealed kong { }" }));
  } else {
    select.append(el("option", { value: "[", text: "an exposed table group [ ]" }));
    select.append(el("option", { value: "{", text: "a concealed table group { }" }));
  }
  select.onchange = () => { state.pending = []; showPending(); };
  showPending();
}

function showPending() {
  const target = $("target").value;
  const close = target === "[" ? "]" : "}";
  $("pending").textContent = target === "hand" || !state.pending.length ? "" : `${target}${state.pending.join("")}${close}`;
  $("close-meld").disabled = state.pending.length < 3;
}

function addPiece(item) {
  if (item.flower) {
    const flowers = $("ctx-flowers");
    if (flowers) { flowers.value = /^\d*$/.test(flowers.value) ? item.code : flowers.value + item.code; }
    return;
  }
  const target = $("target").value;
  if (target === "hand") {
    $("hand").value += item.code;
    state.history.push(item.code);
  } else {
    state.pending.push(item.code);
    if (state.pending.length === 4) closeMeld();
  }
  showPending();
}

function closeMeld() {
  const target = $("target").value;
  if (target === "hand" || state.pending.length < 3) return;
  const meld = `${target}${state.pending.join("")}${target === "[" ? "]" : "}"}`;
  // after the melds already declared, before the standing tiles
  const hand = $("hand").value;
  const melds = hand.match(/^(?:\s*(?:\[[^\]]*\]|\{[^}]*\}))*/u)[0];
  $("hand").value = melds + meld + hand.slice(melds.length);
  state.pending = [];
  state.history.push({ meld });
  $("target").value = "hand";
  showPending();
}

function undo() {
  if (state.pending.length) { state.pending.pop(); showPending(); return; }
  const hand = $("hand");
  const last = state.history.pop();
  if (last && last.meld !== undefined && hand.value.includes(last.meld)) {
    hand.value = hand.value.replace(last.meld, "");
  } else if (typeof last === "string" && hand.value.endsWith(last)) {
    hand.value = hand.value.slice(0, -last.length);
  } else {
    // typed by hand: the last tile or bracketed group written
    hand.value = hand.value.replace(/(\[[^\]]*\]|\{[^}]*\}|\d+[a-z]|.)$/u, "");
  }
}

/* --- context and options ----------------------------------------------------------------- */

function problemSlot(id) { return el("p", { className: "problem", id: `${id}-problem`, role: "alert" }); }

function field(id, label, control, pointer) {
  control.id = id;
  control.dataset.pointer = pointer;
  control.setAttribute("aria-describedby", `${id}-problem`);
  if (control.type === "checkbox") {
    return el("div", { className: "field" }, el("label", { className: "check", for: id }, control, label), problemSlot(id));
  }
  return el("div", { className: "field" }, el("label", { for: id, text: label }), control, problemSlot(id));
}

function select(choices, value) {
  const s = el("select");
  for (const [v, text] of choices) s.append(el("option", { value: v, text }));
  s.value = value;
  return s;
}

function players() {
  const doc = state.doc;
  const option = doc.players_option && $(`opt-${doc.players_option}`);
  return option ? Number(JSON.parse(option.value)) : doc.players;
}

function seatChoices(none) {
  const out = none ? [["", none]] : [];
  // In a match the form names players (numbered by their seat at the first hand).
  const who = state.mode === "match" ? "player" : "seat";
  for (let i = 0; i < players(); i += 1) out.push([String(i), `${who} ${i}`]);
  return out;
}

function buildContext() {
  const box = $("context-fields");
  const kept = {};
  for (const c of box.querySelectorAll("[data-pointer]")) kept[c.id] = c.type === "checkbox" ? c.checked : c.value;
  box.replaceChildren();
  const doc = state.doc;
  if (state.family === "tiles") {
    box.append(field("ctx-win_type", "Win", select([["self_draw", "self-drawn 自摸"], ["discard", "on a discard"]], "self_draw"), "/context/win_type"));
    box.append(field("ctx-discarder", "Discarder", select(seatChoices("—"), ""), "/context/discarder"));
    box.append(field("ctx-winner", "Winner", select(seatChoices(), "0"), "/context/winner"));
    box.append(field("ctx-dealer", "Dealer", select(seatChoices(), "0"), "/context/dealer"));
    const winds = WINDS.map((w, i) => [w, `${w} ${"东南西北"[i]}`]);
    box.append(field("ctx-seat_wind", "Seat wind", select(winds, "E"), "/context/seat_wind"));
    box.append(field("ctx-round_wind", "Round wind", select(winds, "E"), "/context/round_wind"));
    box.append(field("ctx-kong", "Kong", select([["", "—"], ["replacement", "replacement tile 杠上开花"], ["robbed", "robbed 抢杠"], ["after_kong_discard", "discard after a kong 杠上炮"]], ""), "/context/kong"));
    for (const [name, label] of [["last_tile", "last tile of the wall"], ["last_of_kind", "last of its kind 绝张"], ["first_turn", "first turn"]]) {
      box.append(field(`ctx-${name}`, label, el("input", { type: "checkbox" }), `/context/${name}`));
    }
    if (doc.max_flowers) box.append(field("ctx-flowers", `Flowers (a count or tiles such as 1f3f; at most ${doc.max_flowers})`, el("input", { autocomplete: "off" }), "/context/flowers"));
    if (doc.wild && doc.wild.indicator) {
      const kinds = doc.tile_kinds.filter((k) => k.suit !== "f").map((k) => [k.code, `${k.code} ${k.name}`]);
      box.append(field("ctx-wild_indicator", "Wild indicator 混", select([["", "—"], ...kinds], ""), "/context/wild_indicator"));
    }
  } else {
    box.append(field("ctx-win_type", "Win", select(doc.win_types.map((w) => [w.id, `${w.name} (${w.id})`]), doc.win_types[0].id), "/context/win_type"));
    for (const payer of [...new Set(doc.win_types.map((w) => w.payer).filter(Boolean))]) {
      box.append(field(`ctx-${payer}`, `${payer[0].toUpperCase()}${payer.slice(1)}`, select(seatChoices("—"), ""), `/context/${payer}`));
    }
    box.append(field("ctx-winner", "Winner", select(seatChoices(), "0"), "/context/winner"));
    box.append(field("ctx-dealer", "Dealer", select(seatChoices(), "0"), "/context/dealer"));
    for (const flag of doc.context_flags || []) box.append(field(`ctx-${flag}`, flag.replaceAll("_", " "), el("input", { type: "checkbox" }), `/context/${flag}`));
    const cards = (doc.deck.suits || []).flatMap((s) => s.cards.map((c) => [c.code, `${c.code} ${c.name}`]));
    for (const name of doc.context_cards || []) box.append(field(`ctx-${name}`, name.replaceAll("_", " "), select([["", "—"], ...cards], ""), `/context/${name}`));
  }
  for (const [id, v] of Object.entries(kept)) {
    const c = $(id);
    if (!c) continue;
    if (c.type === "checkbox") c.checked = v; else if ([...(c.options || [])].some((o) => o.value === v) || c.tagName === "INPUT") c.value = v;
  }
  const winType = $("ctx-win_type");
  winType.addEventListener("change", showPayers);
  showPayers();
  matchFields();
}

function showPayers() {
  // Only the seat field the chosen win type names is shown (a self-draw names none).
  const winType = $("ctx-win_type").value;
  const needed = state.family === "tiles" ? (winType === "discard" ? "discarder" : null)
    : (state.doc.win_types.find((w) => w.id === winType) || {}).payer;
  const payers = state.family === "tiles" ? ["discarder"] : state.doc.win_types.map((w) => w.payer).filter(Boolean);
  for (const p of new Set(payers)) {
    const c = $(`ctx-${p}`);
    if (!c) continue;
    c.closest(".field").hidden = p !== needed;
    if (p === needed && c.value === "") c.value = String((Number($("ctx-winner").value) + 1) % players());
  }
}

function buildOptions() {
  const box = $("option-fields");
  box.replaceChildren();
  const options = state.doc.options || [];
  $("options-section").hidden = !options.length;
  for (const o of options) {
    const id = `opt-${o.name}`;
    const pointer = `/context/options/${o.name}`;
    let control;
    if (o.type === "bool") {
      control = el("input", { type: "checkbox" });
      control.checked = Boolean(o.default);
    } else if (o.type === "int") {
      control = el("input", { type: "number", min: o.minimum, max: o.maximum, step: 1, value: o.default });
    } else if (o.type === "enum") {
      control = select(o.choices.map((c) => [JSON.stringify(c), String(c)]), JSON.stringify(o.default));
    } else if (o.type === "per_seat") {
      control = el("div", { className: "seats", role: "group", "aria-label": o.name });
      o.default.forEach((v, i) => {
        const attrs = { "aria-label": `${o.name}, seat ${i}`, "data-pointer": `${pointer}/${i}`, id: `${id}-${i}` };
        if (o.choices) {
          // One of the choices or null per seat (定缺: the suit declared void, or none).
          const entry = select([["null", "—"], ...o.choices.map((c) => [JSON.stringify(c), String(c)])], JSON.stringify(v));
          Object.entries(attrs).forEach(([k, a]) => entry.setAttribute(k, a));
          control.append(entry);
        } else {
          control.append(el("input", { type: "number", min: o.minimum, max: o.maximum, step: 1, value: v, ...attrs }));
        }
      });
    } else {
      continue;
    }
    const wrapper = field(id, o.name, control, pointer);
    wrapper.append(el("p", { className: "help", text: o.description }));
    box.append(wrapper);
    if (o.name === state.doc.players_option) control.addEventListener("change", buildContext);
  }
}

function optionValues() {
  const out = {};
  for (const o of state.doc.options || []) {
    const c = $(`opt-${o.name}`);
    if (!c) continue;
    let v;
    if (o.type === "bool") v = c.checked;
    else if (o.type === "int") v = c.value === "" ? o.default : Number(c.value);
    else if (o.type === "enum") v = JSON.parse(c.value);
    else if (o.choices) v = [...c.querySelectorAll("select")].map((i) => JSON.parse(i.value));
    else v = [...c.querySelectorAll("input")].map((i) => Number(i.value));
    if (JSON.stringify(v) !== JSON.stringify(o.default)) out[o.name] = v;
  }
  return out;
}

function contextValues() {
  const ctx = {};
  for (const c of $("context-fields").querySelectorAll("[data-pointer]")) {
    if (c.closest(".field").hidden) continue;
    const name = c.dataset.pointer.split("/").pop();
    if (c.type === "checkbox") { if (c.checked) ctx[name] = true; continue; }
    if (c.value === "") continue;
    if (["winner", "dealer", "discarder"].includes(name) || (state.doc.win_types || []).some((w) => w.payer === name)) ctx[name] = Number(c.value);
    else if (name === "flowers" && /^\d+$/.test(c.value)) ctx[name] = Number(c.value);
    else ctx[name] = c.value;
  }
  const options = optionValues();
  if (Object.keys(options).length) ctx.options = options;
  return ctx;
}

/* --- asking and showing ------------------------------------------------------------------ */

function buildActions() {
  const box = $("actions");
  box.replaceChildren();
  if (state.mode === "match") { buildMatchActions(box); return; }
  for (const answer of ANSWERS) {
    if (!answer.offered(state.doc)) continue;
    const b = el("button", { type: answer.primary ? "submit" : "button", id: `ask-${answer.kind}`, className: answer.primary ? "primary" : "", text: answer.label });
    if (!answer.primary) b.addEventListener("click", () => ask(answer));
    box.append(b);
  }
}

function clearProblems() {
  for (const p of document.querySelectorAll(".problem")) { p.textContent = ""; }
  $("form-problem").hidden = true;
  for (const c of document.querySelectorAll("[aria-invalid]")) c.removeAttribute("aria-invalid");
}

function fieldFor(pointer) {
  // The field whose pointer is the longest prefix of the problem's pointer.
  let best = null;
  for (const c of document.querySelectorAll("#calc [data-pointer]")) {
    const p = c.dataset.pointer;
    if ((pointer === p || pointer.startsWith(`${p}/`)) && (!best || p.length > best.dataset.pointer.length)) best = c;
  }
  if (best && best.closest(".field") && best.closest(".field").hidden) return null;
  return best;
}

function showProblem(problem) {
  const unplaced = [];
  const errors = problem.errors && problem.errors.length ? problem.errors : [{ message: problem.detail, pointer: problem.pointer }];
  for (const e of errors) {
    const target = e.pointer !== undefined && e.pointer !== null ? fieldFor(e.pointer) : null;
    if (!target) { unplaced.push(e.message); continue; }
    target.setAttribute("aria-invalid", "true");
    const owner = $(`${target.id.replace(/-\d+$/, "")}-problem`) || $(`${target.id}-problem`);
    const slot = owner || $("form-problem");
    slot.textContent = slot.textContent ? `${slot.textContent} ${e.message}` : e.message;
    slot.hidden = false;
  }
  if (unplaced.length) { $("form-problem").textContent = unplaced.join(" "); $("form-problem").hidden = false; }
  const first = document.querySelector("[aria-invalid=true]");
  if (first) first.focus();
}

/* The width the picture's frame has (the result laid out unseen when it is still hidden): the
 * picture is asked for at that width, so that it fits its frame at its own size, its rows and
 * lines wrapped by the service (`width` of the picture operations). */
function pictureWidth() {
  const result = $("result");
  const hidden = result.hidden;
  if (hidden) { result.style.visibility = "hidden"; result.hidden = false; }
  const width = $("picture").clientWidth;
  if (hidden) { result.hidden = true; result.style.visibility = ""; }
  return Math.min(Math.max(Math.floor(width), PICTURE_WIDTH.min), PICTURE_WIDTH.max);
}

async function ask(answer) {
  clearProblems();
  setState("busy");
  const body = { hand: $("hand").value, context: contextValues() };
  if (answer.extend) answer.extend(body);
  const url = `/v1/rulesets/${encodeURIComponent(state.doc.id)}/${answer.kind}`;
  const post = (path) => fetch(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
  try {
    const [json, picture] = await Promise.all([post(url), post(`${url}/picture?width=${pictureWidth()}`)]);
    const data = await json.json();
    if (!json.ok) { showProblem(data); $("result").hidden = true; setState("problem"); return; }
    const out = $("result-body");
    out.replaceChildren();
    answer.render(data, out);
    await showPicture(picture);
    setState("done");
  } catch (err) {
    $("form-problem").textContent = `The service could not be reached: ${err.message}`;
    $("form-problem").hidden = false;
    setState("problem");
  }
}

function table(head, rows, className) {
  const t = el("table", { className });
  t.append(el("thead", {}, el("tr", {}, ...head.map(([h, num]) => el("th", { className: num ? "num" : "", text: h })))));
  const b = el("tbody");
  for (const r of rows) b.append(el("tr", {}, ...r.map((v, i) => el("td", { className: head[i][1] ? "num" : "", text: v }))));
  t.append(b);
  return t;
}

function verdict(data) {
  return el("p", { className: `verdict ${data.winning ? "win" : "nowin"}`, id: "verdict",
    text: data.winning ? "A win" : `Not a win: ${data.reason ? data.reason.message : ""}` });
}

function fansTable(fans) {
  return table([["fan"], [""], ["value", true], ["count", true]], fans.map((f) => [f.name, f.name_en, String(f.value), String(f.count)]), "fans");
}

function totals(data) {
  const parts = [`total ${data.fan_total}`];
  if (data.huxi !== undefined) parts.unshift(`${(state.doc.names || {}).points || "points"} ${data.huxi}`, `${(state.doc.names || {}).units || "units"} ${data.tun}`);
  if (data.multiplier !== null && data.multiplier !== undefined) parts.push(`multiplier ${data.multiplier}`);
  if (data.value !== null && data.value !== undefined) parts.push(`value ${data.value}`);
  return el("p", { className: "totals", id: "totals", text: parts.join(" · ") });
}

function renderScore(data, out) {
  out.append(verdict(data));
  if (data.fans.length) out.append(fansTable(data.fans));
  out.append(totals(data));
  if (data.payments) {
    out.append(el("h3", { text: "Payments" }));
    out.append(table([["from"], ["to"], ["amount", true], ["reason"]], data.payments.transfers.map((t) => [`seat ${t.from}`, `seat ${t.to}`, String(t.amount), t.reason]), "transfers"));
    out.append(table([["seat"], ["net", true]], data.payments.net.map((n, i) => [`seat ${i}`, String(n)]), "net"));
  }
}

function renderWaits(data, out) {
  out.append(el("p", { className: `verdict ${data.ready ? "win" : "nowin"}`, id: "verdict",
    text: data.ready ? `Ready: ${data.waits.length} ${data.waits.length === 1 ? "wait" : "waits"}${data.can_win ? "" : " (none a legal win)"}` : "Not ready: no tile completes this hand" }));
  const key = state.family === "tiles" ? "tile" : "card";
  out.append(waitsTable(data.waits, key));
  if (data.best) out.append(el("p", { text: `Best: ${data.best[key]}, value ${data.best.value}` }));
}

/* Many waits (a hand of wild tiles waits on every tile): the table is folded away, the
 * picture's grid shows them at a glance. */
const FOLDED_WAITS = 12;

function waitsTable(waits, key) {
  const t = waitsRows(waits, key);
  if (waits.length <= FOLDED_WAITS) return t;
  return el("details", { className: "waits-all" }, el("summary", { text: `All ${waits.length} waits as a table` }), t);
}

function waitsRows(waits, key) {
  return table([[key], ["win"], ["total", true], ["value", true], ["fans"]], waits.map((w) => [
    w[key] + (w.win_type ? ` (${w.win_type})` : ""), w.winning ? "yes" : (w.reason ? w.reason.code : "no"),
    String(w.fan_total), w.value === null || w.value === undefined ? "—" : String(w.value),
    w.fans.map((f) => `${f.name} ${f.value}`).join(", ")]), "waits");
}

/* The analysis: the tiles seen elsewhere, when given. */
function analysisBody(body) {
  const visible = $("visible").value.trim();
  if (visible) body.visible = visible;
}

function shantenText(n) {
  if (n === null || n === undefined) return "no shape can be made";
  if (n === -1) return "a win already";
  if (n === 0) return "ready (听)";
  return `${n} from ready (向听 ${n})`;
}

const usefulText = (useful) => useful.map((u) => `${u.tile}×${u.left}`).join(" ") || "none";
const waitValue = (w) => (w.winning ? String(w.value ?? w.fan_total) : "no win");
const waitsText = (waits) => (waits ? waits.map((w) => `${w.tile} ${waitValue(w)}`).join(", ") : "—");

function renderAnalysis(data, out) {
  out.append(el("p", { className: `verdict ${data.shanten !== null && data.shanten <= 0 ? "win" : "nowin"}`, id: "verdict",
    text: `${data.tiles} tiles: ${shantenText(data.shanten)}` }));
  out.append(el("p", { className: "help", id: "shapes",
    text: `Shanten by shape: ${Object.entries(data.shapes).map(([s, n]) => `${s} ${n ?? "—"}`).join(", ")}` }));
  if (data.win) {
    out.append(el("h3", { text: `As it stands: ${data.win.winning ? "a win" : `not a win (${data.win.reason ? data.win.reason.message : ""})`}` }));
    if (data.win.fans.length) out.append(fansTable(data.win.fans));
    out.append(totals(data.win));
  }
  if (data.tiles === 13) {
    out.append(el("h3", { text: `Useful tiles: ${data.useful.length} kinds, ${data.useful_left} left` }));
    out.append(table([["tile"], ["left", true]], data.useful.map((u) => [u.tile, String(u.left)]), "useful"));
    if (data.waits) {
      out.append(el("h3", { text: `Waits${data.can_win ? "" : " (none a legal win)"}` }));
      out.append(waitsTable(data.waits, "tile"));
      if (data.best) out.append(el("p", { text: `Best: ${data.best.tile}, value ${data.best.value}` }));
    }
    return;
  }
  out.append(el("h3", { text: "Discards, best first" }));
  out.append(el("p", { className: "help", text: "Per discard: the shanten left, the useful tiles with their copies left (3p×4: four 3p to come), their sum, and a ready hand's waits with their values." }));
  const scroll = el("div", { className: "scroll" });
  scroll.append(table([["discard"], ["shanten", true], ["useful"], ["left", true], ["waits"]],
    data.discards.map((d) => [d.tile + (d.void ? " (void suit)" : ""), String(d.shanten ?? "—"), usefulText(d.useful),
      String(d.useful_left), waitsText(d.waits) + (d.waits && !d.can_win ? " — none wins" : "")]), "discards"));
  out.append(scroll);
}

/* --- a match, hand by hand ------------------------------------------------------------- */

/* POST .../match takes at most this many hands at once (the service's MAX_MATCH_HANDS): the
 * scoresheet of a longer match is drawn from the state before its last ones. */
const MATCH_HANDS = 64;
// The context fields a match fills in itself: the dealer and the winds of each hand's table.
const TABLE_FIELDS = ["ctx-dealer", "ctx-seat_wind", "ctx-round_wind"];

function newMatch() {
  // hands: those accepted so far; states[i]: the state before hands[i] (null: the start);
  // answered: each accepted hand's entry of its answer; last: the last answer.
  return { hands: [], states: [], answered: [], last: null };
}

function chooseMode(mode) {
  state.mode = mode;
  clearProblems();
  $("result").hidden = true;
  buildContext();
  applyMode();
  if (mode === "match" && state.match.last) showMatch();
}

function applyMode() {
  const match = state.mode === "match";
  document.body.dataset.mode = state.mode;
  $("match-section").hidden = !match;
  const analyses = ANSWERS.some((a) => a.kind === "analysis" && a.offered(state.doc));
  $("visible-field").hidden = match || !analyses;
  $("match-json-help").textContent = state.doc.settlement
    ? 'This rule set settles rounds: a round is {"round": {"events": [...]}} as POST .../settle takes it (the match fills in its dealer); also {"claims": ...}, or any hand with "false_wins" or "penalties".'
    : 'Such as {"claims": {"discarder": 2, "claims": [...]}} (截和), or any hand with "false_wins" or "penalties".';
  buildActions();
  showMatchStatus();
}

/* The fields of the match mode: the table's own context fields hidden, the players listed. */
function matchFields() {
  const match = state.mode === "match";
  for (const id of TABLE_FIELDS) { const c = $(id); if (c) c.closest(".field").hidden = match; }
  const drawer = $("match-last-drawer");
  const kept = drawer.value;
  drawer.replaceChildren(...seatChoices("—").map(([v, text]) => el("option", { value: v, text })));
  if ([...drawer.options].some((o) => o.value === kept)) drawer.value = kept;
}

function buildMatchActions(box) {
  const over = Boolean(state.match.last && state.match.last.ended);
  const button = (id, text, primary, onClick) => {
    const b = el("button", { type: primary ? "submit" : "button", id, className: primary ? "primary" : "", text, disabled: over && id !== "match-new" });
    if (onClick) b.addEventListener("click", onClick);
    box.append(b);
  };
  button("match-win", "Add the win", true);
  button("match-drawn", "Add a drawn hand", false, () => addHand(drawnHand(), null));
  button("match-add-json", "Add the JSON hand", false, addJsonHand);
  button("match-new", "New match", false, () => { state.match = newMatch(); $("result").hidden = true; clearProblems(); applyMode(); });
}

function showMatchStatus() {
  const m = state.match;
  const last = m.last;
  let text = "No hand yet: the first is dealt by player 0.";
  if (last && last.ended) text = `${m.hands.length} hands: the match is over.`;
  else if (last) {
    const n = last.next;
    text = `${m.hands.length} ${m.hands.length === 1 ? "hand" : "hands"} so far. Next: hand ${n.number}, player ${n.dealer} deals${n.round_wind ? `, round wind ${n.round_wind}` : ""}.`;
  }
  $("match-status").textContent = text;
}

function winHand() {
  const context = contextValues();
  delete context.options; // the match's options, for every hand
  return { win: { hand: $("hand").value, context } };
}

function drawnHand() {
  // Who drew the last tile: in a game where that player deals next, the hand must say.
  const drawer = $("match-last-drawer").value;
  return { drawn: drawer === "" ? {} : { last_drawer: Number(drawer) } };
}

function addJsonHand() {
  clearProblems();
  let hand;
  try { hand = JSON.parse($("match-json").value); } catch (err) { hand = null; }
  if (!hand || typeof hand !== "object" || Array.isArray(hand)) {
    showProblem({ errors: [{ pointer: "/hands/0", message: "Not a JSON object: a hand such as {\"drawn\": {}}." }] });
    return;
  }
  if (Array.isArray(hand.events)) hand = { round: hand }; // a round as settle takes it
  addHand(hand, "");
}

/* A problem of the hand posted, its pointers as the form's fields name them: a win's
 * `/hands/0/win/hand` is the hand field's `/hand` (the win itself, `/hands/0/win`, too: the
 * hand does not win), the match's options are the options'; a hand sent as JSON keeps its
 * pointers (the JSON box's); anything else is the form's. `strip`: the win's pointer, "" for
 * a hand sent as JSON, null for a drawn hand. */
function matchProblem(problem, strip) {
  const moved = (p) => {
    if (p === undefined || p === null) return p;
    if (p.startsWith("/options/")) return `/context${p}`;
    if (strip === "") return p;
    if (strip !== null && p === strip) return "/hand";
    if (strip !== null && p.startsWith(`${strip}/`)) return p.slice(strip.length);
    if (strip === null && p.startsWith("/hands/0/drawn/")) return p;
    return null;
  };
  // The request held this hand alone: its index in the message says nothing to the reader.
  const said = (m) => (typeof m === "string" ? m.replace(/^hands\[0\] \([a-z]+\): /, "") : m);
  const errors = (problem.errors || []).map((e) => ({ ...e, pointer: moved(e.pointer), message: said(e.message) }));
  return { ...problem, errors, detail: said(problem.detail), pointer: moved(problem.pointer) };
}

function matchBody(hands, from) {
  const body = { hands };
  if (from) body.state = from;
  const options = optionValues();
  if (Object.keys(options).length) body.options = options;
  return body;
}

async function addHand(hand, strip) {
  clearProblems();
  setState("busy");
  const m = state.match;
  const url = `/v1/rulesets/${encodeURIComponent(state.doc.id)}/match`;
  const before = m.last ? m.last.state : null;
  try {
    const r = await fetch(url, { method: "POST", body: JSON.stringify(matchBody([hand], before)), headers: { "Content-Type": "application/json" } });
    const data = await r.json();
    if (!r.ok) { showProblem(matchProblem(data, strip)); setState("problem"); return; }
    m.hands.push(hand);
    m.states.push(before);
    m.answered.push(...data.hands);
    m.last = data;
    if (strip === "") $("match-json").value = "";
    await showMatch();
    buildActions();
    setState("done");
  } catch (err) {
    $("form-problem").textContent = `The service could not be reached: ${err.message}`;
    $("form-problem").hidden = false;
    setState("problem");
  }
}

async function showMatch() {
  const m = state.match;
  showMatchStatus();
  const out = $("result-body");
  out.replaceChildren();
  renderMatch(m, out);
  const start = Math.max(0, m.hands.length - MATCH_HANDS);
  const url = `/v1/rulesets/${encodeURIComponent(state.doc.id)}/match/picture?width=${pictureWidth()}`;
  const picture = await fetch(url, { method: "POST", body: JSON.stringify(matchBody(m.hands.slice(start), m.states[start])), headers: { "Content-Type": "application/json" } });
  await showPicture(picture);
}

// A picture answer shown in the result's frame (nothing when it is not an SVG picture).
async function showPicture(picture) {
  const figure = $("picture");
  figure.replaceChildren();
  if (picture.ok && (picture.headers.get("Content-Type") || "").startsWith("image/svg+xml")) {
    const svg = new DOMParser().parseFromString(await picture.text(), "image/svg+xml").documentElement;
    figure.append(document.importNode(svg, true));
  }
  $("result").hidden = false;
  // drawn for its frame's width; kept at its own size to be read (calculator.css): were it
  // still wider (a frame narrower than the narrowest picture), it scrolls, saying so
  figure.toggleAttribute("data-wide", figure.scrollWidth > figure.clientWidth + 1);
  // One column (a phone): the result is under the form, brought into view.
  if (!matchMedia("(min-width: 900px)").matches) $("result").scrollIntoView({ block: "start" });
}

function renderMatch(m, out) {
  const last = m.last;
  const s = last.standings;
  const players = s.totals.map((_, p) => `P${p}`);
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  out.append(el("p", { className: "verdict win", id: "verdict",
    text: last.ended ? `The match is over after ${m.hands.length} hands` : `Hand ${m.answered[m.answered.length - 1].number} scored` }));
  out.append(table([["hand"], ["dealer"], ["kind"], ...players.map((p) => [p, true])],
    m.answered.map((h) => [`#${h.number}`, `P${h.dealer}`, h.kind, ...h.net.map((n, p) => signed(n - h.deducted[p]))]), "match-hands"));
  out.append(el("h3", { text: "Standings" }));
  const rows = [["total", ...s.totals.map(String)], ["points", ...s.points.map(String)], ["rank", ...s.ranks.map(String)]];
  if (s.table_points) rows.push(["table points 标准分", ...s.table_points.map(String)]);
  out.append(table([[""], ...players.map((p) => [p, true])], rows, "standings"));
}

/* --- start ------------------------------------------------------------------------------- */

document.addEventListener("DOMContentLoaded", () => {
  $("calc").addEventListener("submit", (e) => {
    e.preventDefault();
    if (state.mode === "match") addHand(winHand(), "/hands/0/win"); else ask(ANSWERS[0]);
  });
  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener("change", () => { if (radio.checked) chooseMode(radio.value); });
  }
  $("close-meld").addEventListener("click", closeMeld);
  $("undo").addEventListener("click", undo);
  $("clear").addEventListener("click", () => { $("hand").value = ""; state.pending = []; state.history = []; showPending(); });
  loadRulesets().catch((err) => {
    $("form-problem").textContent = `The rule sets could not be loaded: ${err.message}`;
    $("form-problem").hidden = false;
    setState("problem");
  });
});
