// The page of `confluence-sim play`: it shows what the server sends and sends the
// person's choice. It decides nothing: every option it offers is one the engine listed.
"use strict";

let game = null;      // the last state the server sent
let config = null;
let selectedCard = null;
let estimates = null; // the advisor's estimates for the decision shown
let busy = false;

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// Replaces a node's children, leaving out the absent ones (null or undefined).
function put(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
}

async function api(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const v = await r.json().catch(() => ({ error: "the server sent no JSON" }));
  if (!r.ok) throw new Error(v.error || ("HTTP " + r.status));
  return v;
}

function setStatus(text) { $("status").textContent = text; }

async function newGame() {
  selectedCard = null; estimates = null;
  game = await api("POST", "/api/games");
  location.hash = "game=" + game.id;
  render();
}

async function load() {
  config = await api("GET", "/api/config");
  $("advise").hidden = !config.advisor;
  const m = location.hash.match(/game=(\d+)/);
  if (m) {
    try { game = await api("GET", "/api/games/" + m[1]); render(); return; }
    catch (e) { /* a game of an earlier server: start a new one */ }
  }
  await newGame();
}

async function choose(index) {
  if (busy || !game || !game.decision) return;
  busy = true;
  try {
    game = await api("POST", `/api/games/${game.id}/choose`, { decision: game.decision.n, index });
    selectedCard = null; estimates = null;
  } catch (e) {
    setStatus(e.message);
    try { game = await api("GET", "/api/games/" + game.id); } catch (_) { }
  } finally {
    busy = false;
  }
  render();
}

async function advise() {
  if (!game || !game.decision) return;
  const n = game.decision.n;
  $("advise").disabled = true;
  setStatus("The advisor is thinking...");
  try {
    let a = await api("POST", `/api/games/${game.id}/advice`);
    while (a.status === "running") {
      await new Promise((r) => setTimeout(r, 400));
      a = await api("GET", `/api/games/${game.id}/advice`);
    }
    if (a.status === "ready" && game.decision && game.decision.n === n) {
      estimates = a.options;
      setStatus(`Advice from ${estimates.advisor}: ${estimates.estimates[0].samples} samples per option`);
      render();
    }
  } catch (e) { setStatus(e.message); }
  $("advise").disabled = false;
}

async function abandon() {
  if (!game || game.result || game.unfinished) return;
  try { game = await api("POST", `/api/games/${game.id}/abandon`); } catch (e) { setStatus(e.message); }
  render();
}

// ---- rendering ----

function stats(s) { return `F${s.f} M${s.m} O${s.o}`; }

function optionsFor(pred) {
  if (!game || !game.decision) return [];
  return game.decision.options.filter(pred);
}

function cardEl(c, opts) {
  const classes = ["card"];
  if (c.kind === "hero") classes.push("hero");
  if (c.rarity === "rare" || c.rarity === "unique") classes.push("rare");
  if (c.statuses.includes("exhausted")) classes.push("exhausted");
  const mine = optionsFor((o) => o.card === c.id);
  if (mine.length) classes.push("choosable");
  if (selectedCard === c.id) classes.push("selected");
  const costs = c.kind === "hero" ? "" : `${c.hand_cost}/${c.reserve_cost}`;
  const hasStats = c.kind === "character" || c.kind === "token" || c.printed.f || c.printed.m || c.printed.o;
  const e = el("div", { class: classes.join(" "), "data-card": c.id, title: c.abilities.join("\n") },
    el("div", { class: "name" }, c.name),
    el("div", { class: "meta" }, `${c.kind} · ${c.rarity} · ${c.faction}` + (costs ? ` · cost ${costs}` : "")),
    hasStats ? el("div", { class: "stats" }, stats(c.stats) + (c.boosts ? ` (+${c.boosts} boost${c.boosts > 1 ? "s" : ""})` : "")) : null,
    c.statuses.length ? el("div", { class: "st" }, c.statuses.join(", ")) : null);
  e.addEventListener("mouseenter", () => showDetail(c));
  e.addEventListener("click", () => { showDetail(c); clickCard(c.id); });
  return e;
}

function showDetail(c) {
  const d = $("detail");
  put(d,
    el("b", {}, c.name), ` (${c.reference})`,
    el("div", {}, `${c.faction} ${c.rarity} ${c.kind}` + (c.kind === "hero" ? "" : `, hand cost ${c.hand_cost}, reserve cost ${c.reserve_cost}`)),
    el("div", {}, `Printed ${stats(c.printed)}; now ${stats(c.stats)}` + (c.boosts ? `, ${c.boosts} boost(s)` : "")),
    c.keywords.length ? el("div", {}, "Keywords: " + c.keywords.join(", ")) : null,
    c.statuses.length ? el("div", {}, "Statuses: " + c.statuses.join(", ")) : null,
    c.abilities.length ? el("ul", {}, c.abilities.map((l) => el("li", {}, l))) : el("div", {}, "No abilities."),
    c.text ? el("div", { class: "printed" }, "Printed: " + c.text) : null);
}

function clickCard(id) {
  const opts = optionsFor((o) => o.card === id);
  if (opts.length === 0) return;
  if (opts.length === 1) { choose(opts[0].index); return; }
  selectedCard = id;
  render();
}

function clickExpedition(name, opposing) {
  let opts = optionsFor((o) => o.expedition === name && !!o.opposing === opposing &&
    (selectedCard === null || o.card === selectedCard));
  if (opts.length === 1) choose(opts[0].index);
}

function zone(label, cards, extra) {
  return el("div", { class: "zone" }, el("div", { class: "label" }, label, extra ? ` ${extra}` : ""),
    el("div", { class: "cards" }, cards.map((c) => cardEl(c))));
}

function expeditionBox(side, name, opposing, label, threatened) {
  const x = side.expeditions[name];
  const can = optionsFor((o) => o.expedition === name && !!o.opposing === opposing &&
    (selectedCard === null || o.card === selectedCard)).length > 0;
  const cls = ["exp"];
  if (can) cls.push("choosable");
  if (threatened) cls.push("threatened");
  return el("div", { class: cls.join(" "), "data-expedition": name, onclick: () => clickExpedition(name, opposing) },
    el("div", { class: "label" }, `${label} expedition, region ${x.region}`),
    el("div", { class: "cards" }, x.cards.map((c) => cardEl(c))));
}

function sideEl(side, title, mine, t) {
  const other = mine ? "" : (game.mode === "matchup" ? "opponent's" : "Confluence's");
  const counts = `Hand ${side.hand_size} · Deck ${side.deck} · Discard ${side.discard.length} · Mana ${side.mana.ready} ready of ${side.mana.total}`;
  const exps = el("div", { class: "exps" },
    expeditionBox(side, "hero", !mine, mine ? "Your Hero" : `The ${other} Hero-side`, mine && t.threatened === "hero"),
    expeditionBox(side, "companion", !mine, mine ? "Your Companion" : `The ${other} Companion-side`, mine && t.threatened === "companion"));
  const zones = el("div", { class: "zones" },
    zone("Hero", side.hero ? [side.hero] : []),
    zone("Reserve", side.reserve, mine ? `(limit ${side.reserve_limit})` : ""),
    zone("Landmarks", side.landmarks, mine ? `(limit ${side.landmark_limit})` : ""),
    side.discard.length ? zone("Discard", side.discard.slice(-3), side.discard.length > 3 ? `(last 3 of ${side.discard.length})` : "") : null);
  const parts = [el("h2", {}, title, " ", el("span", { class: "counts" }, counts))];
  if (mine) {
    parts.push(exps, zones, zone("Your hand", side.hand));
  } else {
    parts.push(zones, exps);
  }
  return parts;
}

function trackEl(t) {
  return t.regions.map((r) => {
    const marks = [];
    const mine = game.table.me.expeditions, theirs = game.table.them.expeditions;
    for (const [name, label] of [["hero", "Your Hero exp."], ["companion", "Your Companion exp."]]) {
      if (mine[name].region === r.region) {
        const can = optionsFor((o) => o.expedition === name && !o.opposing &&
          (selectedCard === null || o.card === selectedCard)).length > 0;
        marks.push(el("span", { class: "marker mine" + (can ? " choosable" : ""), onclick: () => clickExpedition(name, false) }, label));
      }
    }
    if (t.darkness) {
      const dh = t.darkness.hero, dc = t.darkness.companion;
      if (dh === r.region || (dh < 0 && r.region === 0)) marks.push(el("span", { class: "marker dark" }, dh < 0 ? `Hero Darkness behind (at ${dh})` : "Hero Darkness"));
      if (dc === r.region || (dc > 7 && r.region === 7)) marks.push(el("span", { class: "marker dark" }, dc > 7 ? `Companion Darkness behind (at ${dc})` : "Companion Darkness"));
    } else {
      for (const [name, label] of [["hero", "Opp. Hero exp."], ["companion", "Opp. Companion exp."]]) {
        if (theirs[name].region === r.region) marks.push(el("span", { class: "marker theirs" }, label));
      }
    }
    const end = r.region === 0 ? " (Hero end)" : r.region === 7 ? " (Companion end)" : "";
    return el("div", { class: "region" + (r.terrain ? "" : " hidden") },
      el("div", {}, `Region ${r.region}${end}`),
      el("div", { class: "terrain" }, r.terrain ? `Terrain ${r.terrain}` : "Tumult, face down"),
      marks);
  });
}

function render() {
  if (!game) return;
  const t = game.table;
  document.body.dataset.state = game.result ? "over" : game.unfinished ? "unfinished" : "playing";
  $("deal").textContent = `${game.mode === "matchup" ? "Head to head" : "Solo"} · seed ${game.seed}, game ${game.game_index}`;
  const first = t.first_player === "you" ? "you" : `the ${t.first_player}`;
  if (!busy) setStatus(`Day ${t.day} of at most ${t.day_cap} · ${t.phase} · first player: ${first}` +
    (t.threatened ? ` · Threatened: your ${t.threatened} expedition` : "") +
    (t.midnight ? ` · Midnight card: ${t.midnight.name}` + (t.midnight_target ? ` (${t.midnight_target} Darkness)` : "") : ""));
  put($("them"), ...sideEl(t.them, game.mode === "matchup" ? "Opponent" : "The Confluence", false, t));
  put($("track"), ...trackEl(t));
  put($("me"), ...sideEl(t.me, "You", true, t));
  renderDecision();
  renderResult();
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
  put(log, ...game.log.map((l) => el("div", { class: /^- .* -$/.test(l) || /=== /.test(l) ? "phase" : "" }, l)));
  if (atEnd) log.scrollTop = log.scrollHeight;
  $("advise").disabled = !game.decision;
  $("abandon").disabled = !!(game.result || game.unfinished);
}

function renderDecision() {
  const d = $("decision");
  if (!game.decision) {
    put(d, el("h2", {}, game.result || game.unfinished ? "The game is over" : "Waiting..."));
    return;
  }
  const est = estimates && estimates.decision === game.decision.n ? estimates.estimates : null;
  const buttons = game.decision.options.map((o) => {
    const e = est && est[o.index];
    const cls = ["option"];
    if (selectedCard !== null && o.card === selectedCard) cls.push("highlight");
    return el("button", { class: cls.join(" "), "data-index": o.index, onclick: () => choose(o.index) },
      o.text,
      e ? el("span", { class: "estimate" }, `${(100 * e.p).toFixed(0)}% [${(100 * e.lo).toFixed(0)}-${(100 * e.hi).toFixed(0)}]`) : null);
  });
  put(d,
    el("h2", {}, `Decision ${game.decision.n}: ${words(game.decision.kind)}`),
    selectedCard !== null ? el("p", { class: "hint" }, "Choose the expedition, or one of the highlighted options.") : null,
    el("div", { class: "options" }, buttons));
}

function words(kind) { return kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase(); }

function renderResult() {
  const r = $("result");
  if (!game.result && !game.unfinished) { r.hidden = true; return; }
  r.hidden = false;
  const parts = [];
  if (game.result) {
    parts.push(el("h2", {}, `Result: ${game.result.words}, day ${game.result.days}`));
  } else {
    parts.push(el("h2", {}, `Unfinished: ${game.unfinished}`), el("p", {}, "An unfinished game is recorded as such, never as a loss."));
  }
  parts.push(el("p", {}, "Recorded in " + game.record));
  if (game.others) {
    const solo = game.mode !== "matchup";
    parts.push(el("p", {}, solo
      ? "The simulated players on this same deal (each from the start; the first game with the policy stream run gives it, the others with other policy streams):"
      : "The simulated players in your seat on this same deal, one game each against the same opponent policy:"));
    parts.push(el("table", {},
      el("tr", {}, el("th", {}, "player"), el("th", {}, "won"), el("th", {}, solo ? "first game" : "result")),
      game.others.players.map((p) => el("tr", { "data-policy": p.policy }, el("td", {}, p.policy),
        el("td", {}, `${p.won} of ${p.games}`), el("td", {}, p.first)))));
    if (!game.others.done) parts.push(el("p", { class: "hint" }, "More simulated players are playing..."));
  }
  put(r, ...parts);
}

// While the simulated players play the finished deal, look again now and then.
setInterval(async () => {
  if (game && game.result && (!game.others || !game.others.done) && !busy) {
    try { game = await api("GET", "/api/games/" + game.id); render(); } catch (_) { }
  }
}, 1500);

$("new").addEventListener("click", () => newGame().catch((e) => setStatus(e.message)));
$("advise").addEventListener("click", advise);
$("abandon").addEventListener("click", abandon);
load().catch((e) => setStatus(e.message));
