// koma's page: talks to the JSON API of `koma serve`, draws any board size
// from the position it is sent, and edits variant files with live checks.
"use strict";

const $ = (id) => document.getElementById(id);

let game = null;      // the last state from the server
let view = null;      // the state at an earlier ply being looked at, or null
let drag = null;      // a piece being dragged: {ghost, from, moved}
let roles = [];       // the game's roles: name, letter, svg
let flipped = false;
let selected = null;  // {from: "7g"} or {drop: roleIndex}
let thinking = null;  // AbortController of a running search
let pendingPromotion = null;
let editorTimer = null;
let editorTextInGame = null; // variant text the current game was made from

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.body = JSON.stringify(body);
    opts.headers["Content-Type"] = "application/json";
  }
  const res = await fetch(path, opts);
  const type = res.headers.get("Content-Type") || "";
  if (!res.ok) {
    let message = res.status + " " + res.statusText;
    if (type.startsWith("application/json")) {
      message = (await res.json()).error || message;
    }
    throw new Error(message);
  }
  if (type.startsWith("application/json")) return res.json();
  return res.text();
}

function showError(e) {
  $("error").textContent = e ? (e.message || String(e)) : "";
}

function svgUrl(svg) {
  return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
}

function pieceImage(role) {
  const img = document.createElement("img");
  const r = roles[role];
  img.src = svgUrl(r.svg);
  img.alt = r.name;
  img.title = r.name;
  return img;
}

// ---- the board -----------------------------------------------------------

function setState(state) {
  if (state.roles) roles = state.roles;
  game = state;
  view = null;
  selected = null;
  draw();
}

// The ply shown: the game's own, or the one being looked at.
function shownPly() {
  return view ? view.ply : game.history.length;
}

async function viewPly(ply) {
  if (!game) return;
  const n = game.history.length;
  ply = Math.max(0, Math.min(n, ply));
  showError(null);
  if (ply === n) {
    view = null;
  } else {
    try {
      view = await api("GET", `/api/games/${game.id}/at?ply=${ply}`);
    } catch (e) {
      showError(e);
      return;
    }
  }
  selected = null;
  draw();
}

function draw() {
  if (!game) return;
  const shown = view || game;
  const board = $("board");
  const size = Math.max(26, Math.min(64, Math.floor(560 / Math.max(game.files, game.ranks))));
  document.documentElement.style.setProperty("--cell", size + "px");
  // Square names around the board: file numbers above, rank letters on the
  // right, read from the squares themselves so any size and either side up.
  board.style.gridTemplateColumns = `repeat(${game.files}, var(--cell)) calc(var(--cell) * 0.5)`;
  board.style.gridTemplateRows = `calc(var(--cell) * 0.5) repeat(${game.ranks}, var(--cell))`;
  board.parentElement.classList.toggle("flipped", flipped);
  board.classList.toggle("viewing", !!view);
  board.replaceChildren();
  const targets = new Map();
  for (const m of view ? [] : game.moves) {
    if (selected && ((selected.from !== undefined && m.from === selected.from) ||
                     (selected.drop !== undefined && m.drop === selected.drop))) {
      targets.set(m.to, true);
    }
  }
  const last = shown.last_move;
  for (const c of shown.board) {
    const cell = document.createElement("div");
    cell.className = "cell";
    cell.dataset.sq = c.sq;
    const x = flipped ? game.files - 1 - c.x : c.x;
    const y = flipped ? game.ranks - 1 - c.y : c.y;
    cell.style.gridColumn = x + 1;
    cell.style.gridRow = y + 2;
    if (y === 0) label(board, c.sq.match(/^\d+/)[0], 1, x + 1);
    if (x === 0) label(board, c.sq.match(/[a-z]+$/)[0], y + 2, game.files + 1);
    if (c.hole) {
      cell.classList.add("hole");
      board.appendChild(cell);
      continue;
    }
    if (c.piece) {
      cell.classList.add(c.piece.color, "occupied");
      cell.dataset.piece = roles[c.piece.role].name;
      cell.appendChild(pieceImage(c.piece.role));
    }
    if (last && (last.from === c.sq || last.to === c.sq)) cell.classList.add("last");
    if (shown.check.includes(c.sq)) cell.classList.add("check");
    if (selected && selected.from === c.sq) cell.classList.add("selected");
    if (targets.has(c.sq)) cell.classList.add("target");
    cell.addEventListener("pointerdown", (e) => pressSquare(e, c));
    board.appendChild(cell);
  }
  drawHand($("hand-top"), flipped ? "sente" : "gote", shown);
  drawHand($("hand-bottom"), flipped ? "gote" : "sente", shown);
  $("title").textContent = game.variant.title;
  let status = `${shown.turn} to move`;
  if (shown.in_check && !shown.outcome) status += " — check";
  if (thinking) status += " (engine thinking…)";
  $("status").textContent = status;
  const result = $("result");
  result.hidden = !shown.outcome;
  result.textContent = shown.outcome ? shown.outcome.text : "";
  const list = $("moves");
  list.replaceChildren();
  const ply = shownPly();
  game.history.forEach((m, i) => {
    const li = document.createElement("li");
    const usi = document.createElement("span");
    usi.className = "usi";
    usi.textContent = m;
    const ja = document.createElement("span");
    ja.className = "ja";
    ja.textContent = game.history_japanese[i] || "";
    li.append(usi, ja);
    if (i + 1 === ply) li.classList.add("current");
    li.addEventListener("click", () => viewPly(i + 1));
    list.appendChild(li);
  });
  if (!view) list.scrollTop = list.scrollHeight;
  const n = game.history.length;
  $("viewing").textContent = view ? `looking at move ${ply} of ${n}` : "";
  $("step-first").disabled = ply === 0;
  $("step-back").disabled = ply === 0;
  $("step-forward").disabled = ply === n;
  $("step-last").disabled = ply === n;
  $("sfen").value = shown.sfen;
  $("download").href = `/api/games/${game.id}/record?format=${$("record-format").value}`;
}

function label(board, text, row, column) {
  const el = document.createElement("div");
  el.className = "coord";
  el.textContent = text;
  el.style.gridRow = row;
  el.style.gridColumn = column;
  board.appendChild(el);
}

function drawHand(el, color, shown) {
  el.replaceChildren();
  el.dataset.color = color;
  for (const h of shown.hands[color]) {
    const div = document.createElement("div");
    div.className = "in-hand " + color;
    div.dataset.role = roles[h.role].name;
    div.dataset.letter = roles[h.role].letter;
    div.dataset.color = color;
    div.appendChild(pieceImage(h.role));
    if (h.count > 1) {
      const n = document.createElement("span");
      n.className = "count";
      n.textContent = h.count;
      div.appendChild(n);
    }
    if (selected && selected.drop === h.role && color === game.turn) div.classList.add("selected");
    div.addEventListener("pointerdown", (e) => pressHand(e, color, h.role));
    el.appendChild(div);
  }
}

function humanToMove() {
  if (!game || view || game.outcome || thinking) return false;
  return engineSide() !== game.turn;
}

function engineSide() {
  const mode = $("mode").value;
  if (mode === "engine-gote") return "gote";
  if (mode === "engine-sente") return "sente";
  return null;
}

// Moves by mouse, pen or finger: press a piece (on the board or in hand)
// and release it on a target square (drag), or press it and then press the
// target (click, click). Pressing the selected piece again lets it go.

function pressHand(e, color, role) {
  if (!humanToMove() || color !== game.turn) return;
  const again = selected && selected.drop === role;
  selected = { drop: role };
  draw();
  startDrag(e, role, color, again);
}

function pressSquare(e, c) {
  if (!humanToMove()) return;
  if (selected && tryMoveTo(c.sq)) return;
  if (c.piece && c.piece.color === game.turn && game.moves.some((m) => m.from === c.sq)) {
    const again = selected && selected.from === c.sq;
    selected = { from: c.sq };
    draw();
    startDrag(e, c.piece.role, c.piece.color, again);
  } else {
    selected = null;
    draw();
  }
}

// Plays the selected piece's move to `sq` if it has one (asking about
// promotion where that is a choice); whether it had.
function tryMoveTo(sq) {
  const choices = game.moves.filter((m) => m.to === sq &&
    (selected.from !== undefined ? m.from === selected.from : m.drop === selected.drop));
  if (choices.length === 1) play(choices[0].usi);
  else if (choices.length > 1) askPromotion(choices);
  return choices.length > 0;
}

function startDrag(e, role, color, again) {
  if (e.button !== undefined && e.button !== 0) return;
  e.preventDefault();
  const size = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--cell")) || 48;
  const ghost = document.createElement("div");
  ghost.className = "ghost " + color;
  ghost.style.width = ghost.style.height = size + "px";
  ghost.appendChild(pieceImage(role));
  ghost.hidden = true;
  document.body.appendChild(ghost);
  drag = { ghost, size, again, x: e.clientX, y: e.clientY, moved: false };
}

function moveDrag(e) {
  if (!drag) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 4) return;
  drag.moved = true;
  drag.ghost.hidden = false;
  drag.ghost.style.left = e.clientX - drag.size / 2 + "px";
  drag.ghost.style.top = e.clientY - drag.size / 2 + "px";
}

function endDrag(e) {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.ghost.remove();
  if (!selected) return;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const cell = under && under.closest(".cell");
  if (d.moved) {
    if (!(cell && tryMoveTo(cell.dataset.sq))) { selected = null; draw(); }
  } else if (d.again) {
    selected = null;
    draw();
  }
}

// ---- records ---------------------------------------------------------------

async function download(e) {
  e.preventDefault();
  if (!game) return;
  showError(null);
  try {
    const res = await fetch($("download").href);
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error || res.statusText);
    const disposition = res.headers.get("Content-Disposition") || "";
    const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || "game.txt";
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) {
    showError(err);
  }
}

// Opens a record file (sent as its bytes: the server tells UTF-8 from
// Shift_JIS) as a game of two people, at its last position, to step through.
async function openRecord() {
  const file = $("open-record").files[0];
  if (!file) return;
  showError(null);
  if (thinking) thinking.abort();
  try {
    // The variant chosen is the one meant where the record names none.
    const v = $("variant").value;
    const query = v === "(editor)" ? "" : `?variant=${encodeURIComponent(v)}`;
    const res = await fetch(`/api/records${query}`,
      { method: "POST", body: await file.arrayBuffer(),
        headers: { "Content-Type": "application/octet-stream" } });
    const state = await res.json();
    if (!res.ok) throw new Error(state.error || res.statusText);
    $("mode").value = "people";
    if ([...$("variant").options].some((o) => o.value === state.variant.slug)) {
      $("variant").value = state.variant.slug;
    }
    const h = state.headers || {};
    const who = [h.sente && `☗ ${h.sente}`, h.gote && `☖ ${h.gote}`, h.event, h.date,
      state.record_result].filter(Boolean);
    setState(state);
    $("headers").textContent = `${file.name}: ${state.history.length} moves` +
      (who.length ? " — " + who.join(", ") : "");
    $("info").textContent = "";
  } catch (err) {
    showError(new Error(`${file.name}: ${err.message}`));
  } finally {
    $("open-record").value = "";
  }
}

function askPromotion(choices) {
  const yes = choices.find((m) => m.promote);
  const no = choices.find((m) => !m.promote);
  if (!yes || !no) return play(choices[0].usi);
  pendingPromotion = { yes: yes.usi, no: no.usi };
  $("promote-yes").textContent = "Promote (" + yes.usi + ")";
  $("promote-no").textContent = "Don't promote (" + no.usi + ")";
  $("promotion").hidden = false;
}

function choosePromotion(promote) {
  const p = pendingPromotion;
  pendingPromotion = null;
  $("promotion").hidden = true;
  if (p && promote !== null) play(promote ? p.yes : p.no);
  else { selected = null; draw(); }
}

async function play(usi) {
  showError(null);
  try {
    setState(await api("POST", `/api/games/${game.id}/move`, { move: usi }));
    maybeEngine();
  } catch (e) {
    showError(e);
  }
}

function maybeEngine() {
  if (game && !game.outcome && engineSide() === game.turn) think(true);
}

// ---- the engine: server-sent events read from a streamed response --------

async function think(playIt) {
  if (!game || game.outcome || thinking) return;
  const time = parseInt($("think-time").value, 10) || 1000;
  const depth = parseInt($("think-depth").value, 10);
  let url = `/api/games/${game.id}/think?time=${time}&play=${playIt ? 1 : 0}`;
  if (depth > 0) url += `&depth=${depth}`;
  thinking = new AbortController();
  draw();
  $("info").textContent = "";
  try {
    const res = await fetch(url, { signal: thinking.signal });
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      throw new Error(body.error || res.statusText);
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let i;
      while ((i = buffer.indexOf("\n\n")) >= 0) {
        onEvent(buffer.slice(0, i));
        buffer = buffer.slice(i + 2);
      }
    }
  } catch (e) {
    showError(e);
  } finally {
    thinking = null;
    draw();
  }
}

function onEvent(block) {
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  const value = data ? JSON.parse(data) : null;
  if (event === "info") {
    const score = value.mate !== null ? `mate ${value.mate}` : `${value.score}`;
    $("info").textContent = `depth ${value.depth}  score ${score}  nodes ${value.nodes}  ${value.ms} ms\n` +
      value.pv.join(" ");
  } else if (event === "bestmove") {
    $("info").textContent += `\nbest: ${value.move ? value.move.usi : "none"}`;
  } else if (event === "state") {
    game = value;
    view = null;
    selected = null;
  }
}

// ---- games ---------------------------------------------------------------

async function newGame(body) {
  showError(null);
  $("headers").textContent = "";
  if (thinking) thinking.abort();
  const setup = $("setup").value.trim();
  if (setup) {
    // An SFEN names the side to move with b/w after the board; a FEN with w/b too,
    // but its board has '[' hands or more fields: let the server tell them apart.
    if (/^\S+ [bw] \S+ \d+$/.test(setup)) body.sfen = setup;
    else body.fen = setup;
  }
  try {
    setState(await api("POST", "/api/games", body));
    $("info").textContent = "";
    maybeEngine();
  } catch (e) {
    showError(e);
  }
}

function newGameFromControls() {
  const v = $("variant").value;
  if (v === "(editor)" && editorTextInGame) newGame({ text: editorTextInGame });
  else newGame({ variant: v });
}

async function undo() {
  if (!game || thinking) return;
  showError(null);
  try {
    let state = await api("POST", `/api/games/${game.id}/undo`);
    if (engineSide() === state.turn && state.history.length > 0) {
      state = await api("POST", `/api/games/${game.id}/undo`);
    }
    state.roles = roles;
    setState(state);
  } catch (e) {
    showError(e);
  }
}

// ---- the editor ----------------------------------------------------------

function editorChanged() {
  clearTimeout(editorTimer);
  editorTimer = setTimeout(checkVariant, 300);
}

async function checkVariant() {
  const text = $("editor-text").value;
  const list = $("diagnostics");
  try {
    const r = await api("POST", "/api/validate", { text });
    // Everything is built first and shown at once, so that the list, the
    // diagram and the piece buttons always speak of the same text.
    const items = [];
    if (r.ok) {
      const li = document.createElement("li");
      li.className = "ok";
      li.textContent = `ok: ${r.title} (${r.files}×${r.ranks}, ${r.roles.length} roles)`;
      items.push(li);
      const svg = await api("POST", "/api/diagram", { text });
      const img = document.createElement("img");
      img.src = svgUrl(svg);
      img.alt = "start position";
      const buttons = r.roles.map((role) => {
        const b = document.createElement("button");
        b.textContent = (role.promoted ? "+" : "") + role.letter + " " + role.name;
        b.title = role.betza;
        b.addEventListener("click", () => showMovement(text, role.name));
        return b;
      });
      if ($("editor-text").value !== text) return; // a newer check is coming
      $("diagram").replaceChildren(img);
      $("pieces").replaceChildren(...buttons);
    } else {
      for (const d of r.diagnostics) {
        const li = document.createElement("li");
        li.className = "diagnostic";
        li.dataset.line = d.line;
        li.dataset.column = d.column;
        const caret = " ".repeat(Math.max(0, d.column - 1)) + "^".repeat(Math.max(1, d.len));
        li.textContent = d.line > 0
          ? `line ${d.line}, column ${d.column}: ${d.message}\n${d.source_line}\n${caret}`
          : d.message;
        li.addEventListener("click", () => goTo(d.line, d.column));
        items.push(li);
      }
      if ($("editor-text").value !== text) return;
    }
    list.replaceChildren(...items);
  } catch (e) {
    list.replaceChildren();
    const li = document.createElement("li");
    li.textContent = e.message;
    list.appendChild(li);
  }
}

function goTo(line, column) {
  const ta = $("editor-text");
  const lines = ta.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  ta.focus();
  ta.setSelectionRange(offset, offset + 1);
}

async function showMovement(text, name) {
  try {
    const svg = await api("POST", "/api/piece", { text, piece: name });
    const img = document.createElement("img");
    img.src = svgUrl(svg);
    img.alt = name + " movement";
    $("movement").replaceChildren(img);
  } catch (e) {
    $("movement").textContent = e.message;
  }
}

async function perft() {
  const depth = parseInt($("perft-depth").value, 10) || 3;
  $("perft-result").textContent = "counting…";
  try {
    const r = await api("POST", "/api/perft", { text: $("editor-text").value, depth });
    $("perft-result").textContent = r.nodes.map((n, i) => `${i + 1}: ${n}`).join("  ") +
      (r.stopped ? ` (stopped: ${r.stopped})` : "");
  } catch (e) {
    $("perft-result").textContent = e.message;
  }
}

async function loadIntoEditor() {
  try {
    $("editor-text").value = await api("GET", `/api/variants/${$("editor-base").value}`);
    checkVariant();
  } catch (e) {
    $("diagnostics").textContent = e.message;
  }
}

// A variant file from this computer into the editor (checked as typed text is).
async function openVariantFile() {
  const file = $("editor-file").files[0];
  if (!file) return;
  if (file.size > 4 << 20) {
    $("diagnostics").textContent = `${file.name}: larger than 4 MiB, the server's limit`;
  } else {
    $("editor-text").value = await file.text();
    checkVariant();
  }
  $("editor-file").value = "";
}

function playEditorVariant() {
  editorTextInGame = $("editor-text").value;
  const select = $("variant");
  if (![...select.options].some((o) => o.value === "(editor)")) {
    const o = document.createElement("option");
    o.value = "(editor)";
    o.textContent = "(from the editor)";
    select.appendChild(o);
  }
  select.value = "(editor)";
  showPanel("play");
  newGame({ text: editorTextInGame });
}

function showPanel(name) {
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === name);
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.panel === name);
}

// ---- start ---------------------------------------------------------------

async function start() {
  for (const t of document.querySelectorAll(".tab")) {
    t.addEventListener("click", () => showPanel(t.dataset.panel));
  }
  $("new-game").addEventListener("click", newGameFromControls);
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { flipped = !flipped; draw(); });
  $("engine-move").addEventListener("click", () => think(true));
  $("analyse").addEventListener("click", () => think(false));
  $("promote-yes").addEventListener("click", () => choosePromotion(true));
  $("promote-no").addEventListener("click", () => choosePromotion(false));
  $("promote-cancel").addEventListener("click", () => choosePromotion(null));
  $("step-first").addEventListener("click", () => viewPly(0));
  $("step-back").addEventListener("click", () => viewPly(shownPly() - 1));
  $("step-forward").addEventListener("click", () => viewPly(shownPly() + 1));
  $("step-last").addEventListener("click", () => viewPly(Infinity));
  $("record-format").addEventListener("change", draw);
  $("download").addEventListener("click", download);
  $("open-record").addEventListener("change", openRecord);
  document.addEventListener("pointermove", moveDrag);
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", () => { if (drag) { drag.ghost.remove(); drag = null; } });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && pendingPromotion) choosePromotion(null);
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (typing || !game || pendingPromotion) return;
    const go = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (go) viewPly(shownPly() + go);
    else if (e.key === "Home") viewPly(0);
    else if (e.key === "End") viewPly(Infinity);
  });
  $("editor-text").addEventListener("input", editorChanged);
  $("editor-load").addEventListener("click", loadIntoEditor);
  $("editor-file").addEventListener("change", openVariantFile);
  $("editor-play").addEventListener("click", playEditorVariant);
  $("perft").addEventListener("click", perft);
  try {
    const variants = await api("GET", "/api/variants");
    for (const v of variants) {
      for (const select of [$("variant"), $("editor-base")]) {
        const o = document.createElement("option");
        o.value = v.slug;
        o.textContent = `${v.title} (${v.files}×${v.ranks})`;
        select.appendChild(o);
      }
    }
    const first = (variants.find((v) => v.default) ?? variants[0]).slug;
    $("variant").value = first;
    $("editor-base").value = first;
    await newGame({ variant: first });
    await loadIntoEditor();
  } catch (e) {
    showError(e);
  }
}

start();
