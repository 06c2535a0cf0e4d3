// The moderator's console: the game's secret table and its questions, answered by taps.
//
// The laptop asks one question at a time and sends it here as a view: a title, the lines its
// terminal printed, the cards, and a form (what kind of answer, and its options). Nothing here
// knows a game: every word and every option comes from the laptop, in the game's language. An
// answer names the question's version; one the laptop has already had is refused there, and the
// page shows what the game asks now. The box's own state (Start, Pause, the day's clock) comes
// as it comes to every tablet, and its buttons act as the laptop's controls page's do.
"use strict";

const TEXT = JSON.parse(document.getElementById("texts").textContent);
const token = new URLSearchParams(location.search).get("token") || "";
const LONG_WORD = 9;         // letters of a name's longest word past which its button's type is smaller
const CONFIRM = 4;           // seconds a first tap on Next waits for the second
const SILENCE = 5;           // seconds without a word from the laptop (it sends one every 2): the connection is dead
const WRONG_TOKEN = 4403;    // the laptop's close code for a page whose token is not this game's
let stale = false;           // the laptop said this console is not its game's: it stops trying
const $ = (id) => document.getElementById(id);

let socket = null;
let view = null;             // the laptop's step: {version, title, lines, told, table, notes, form}
let chosen = null;           // what has been tapped for the question shown, before Confirm
let state = null;            // the box's state, as the tablets get it
let offset = 0;              // the laptop's clock less this page's, in seconds
let armed = null;            // Next tapped once: {stage, at}
let undoArmed = null;        // when "take back the last answer" was tapped once
let feedback = null;         // {text, refused, at}
let lastHeard = 0;           // when the laptop was last heard from (this page's clock)
let lostSince = null;        // when the connection was lost (null: it is open)

const now = () => Date.now() / 1000;
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => {
    lastHeard = now();
    lostSince = null;
    renderLost();
    setStatus("");
    send({type: "hello", role: "moderator", token});
  };
  socket.onmessage = (event) => {
    lastHeard = now();
    receive(JSON.parse(event.data));
  };
  socket.onclose = lost;
}

function lost(event) {
  socket = null;
  if (view && view.over) { setStatus(TEXT.game_over); return; }  // the laptop has closed the box
  if (event && event.code === WRONG_TOKEN) {  // a console of another game: trying again cannot help
    stale = true;
    $("lost-title").textContent = TEXT.stale;
    $("lost-retry").textContent = "";
    $("lost-hint").textContent = TEXT.stale_hint;
    $("lost").hidden = false;
    return;
  }
  setStatus(TEXT.lost, true);
  if (lostSince === null) lostSince = now();
  renderLost();
  setTimeout(connect, 1000);
}

// A lost connection covers the whole page: what is on it may be past, and nothing tapped reaches
// the laptop until it is back.
function renderLost() {
  if (stale) return;  // said once, for good
  $("lost").hidden = lostSince === null;
  if (lostSince !== null) $("lost-retry").textContent = fill(TEXT.lost_retry, {seconds: Math.round(now() - lostSince)});
}

// A connection that went silent (the phone's Wi-Fi died without a word, or the phone slept) is
// left at once for a new one: closed politely, the browser would wait a minute for the laptop's
// goodbye, and the page would show a step that may be past.
function watch() {
  if (socket && socket.readyState === WebSocket.OPEN && now() - lastHeard > SILENCE) {
    const dead = socket;
    dead.onopen = dead.onmessage = dead.onclose = null;
    dead.close();
    lost();
  }
}

// What the page sends goes now or not at all (a tap is not kept for later: the game may have
// moved on by then), and the moderator is told when it did not go.
function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    say(TEXT.moderator_not_sent, true);
    return;
  }
  socket.send(JSON.stringify(message));
}

function setStatus(text, trouble = false) {
  $("status").textContent = text;
  $("status").classList.toggle("trouble", trouble);
}

function receive(message) {
  if (message.type === "step") {
    if (!view || view.version !== message.version || !sameForm(view.form, message.form)) {
      chosen = null;
      undoArmed = null;
    }
    view = message;
    renderStep();
    renderUndo();
  } else if (message.type === "state") {
    const waited = state && state.stage === "waiting";
    state = message;
    offset = message.now - now();
    renderBox();
    if (view && waited !== (state.stage === "waiting")) renderStep();  // the wait's words come or go
  } else if (message.type === "heartbeat") {
    offset = message.server - now();
  } else if (message.type === "taken") {
    say(TEXT.moderator_taken, false);
  } else if (message.type === "refused") {
    say(message.message, true);
  } else if (message.type === "not-taken") {
    say(message.reason === "answered" ? TEXT.moderator_answered
      : fill(TEXT.moderator_refused, {reason: message.message || ""}), true);
  } else if (message.type === "done") {
    say({start: state && state.opens === "day" ? TEXT.done_day : TEXT.done_start, pause: TEXT.done_pause, resume: TEXT.done_resume, next: TEXT.done_next}[message.action]
        || "", false);
  } else if (message.type === "error") {
    setStatus(message.message, true);
  }
}

function sameForm(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function say(text, refused) {
  feedback = {text, refused, at: now()};
  renderFeedback();
  setTimeout(renderFeedback, 6100);
}

function renderFeedback() {
  const shown = feedback && now() - feedback.at < 6;
  $("feedback").hidden = !shown;
  if (shown) {
    $("feedback").textContent = feedback.text;
    $("feedback").classList.toggle("refused", feedback.refused);
  }
}

// --- the step --------------------------------------------------------------------------------------

function renderStep() {
  $("before").replaceChildren(...(view.before || []).map(section));  // read on until the moderator moves on
  $("title").textContent = view.title;
  $("lines").replaceChildren(...view.lines.map((line) => element("li", line)));
  $("log-steps").replaceChildren(...[...(view.log || [])].reverse().map(section));  // the latest first
  $("log").hidden = !(view.log || []).length;
  $("told").textContent = view.told || "";
  $("told").hidden = !view.told;  // the answer to nod at, for the eyes that are open
  $("cards").replaceChildren(...view.table.map((row) => {
    const item = element("li", "");
    item.classList.toggle("dead", row.dead);
    item.append(element("span", row.name), element("span", row.dead ? `${row.card} · ${TEXT.moderator_dead}` : row.card, "card"));
    return item;
  }));
  $("notes").replaceChildren(...(view.notes || []).map((note) => element("li", note)));
  $("table").hidden = view.table.length === 0;
  $("undo").hidden = !view.form;
  $("question").replaceChildren(...question(view.form));
}

// A step's title and its lines, as kept above the step in hand and in the log.
function section(step) {
  const made = element("section", "", "earlier");
  made.append(element("h2", step.title), ...step.lines.map((line) => element("p", line)));
  return made;
}

function element(tag, text, className) {
  const made = document.createElement(tag);
  made.textContent = text;
  if (className) made.className = className;
  return made;
}

function button(text, onClick, className) {
  const made = element("button", text, className);
  made.type = "button";
  made.addEventListener("click", onClick);
  return made;
}

function answer(value) {
  send({type: "answer", token, version: view.version, value});
}

// Every kind of question the laptop asks: names to tap (one, several, one for each chooser), a
// choice of words, a number, a button that says the moment has come, a turn's named parts.
function question(form) {
  if (!form) return [element("p", waitingText() || TEXT.moderator_listen, "listen")];
  const parts = form.question ? [element("h2", form.question)] : [];
  if (form.count) parts.push(element("p", form.count, "how-many"));  // how many names it takes
  const kind = form.kind;
  if (kind === "go") return [...parts, button(form.label, () => answer(true), "go")];
  if (kind === "one" || kind === "pick") return [...parts, ...single(form)];
  if (kind === "several") return [...parts, ...several(form)];
  if (kind === "each") return [...parts, ...each(form)];
  if (kind === "count") return [...parts, ...count(form)];
  if (kind === "fields") return [...parts, ...fields(form)];
  return parts;
}

// Before Start, a step with nothing to enter says what the group is waited for (dealing, sitting down again).
function waitingText() {
  if (!state || state.stage !== "waiting") return null;
  return {deal: TEXT.waiting_deal, "go-on": TEXT.waiting_go_on}[state.waiting_for] || TEXT.waiting_control;
}

function grid(options, isChosen, tap, noneText) {
  const names = element("div", "", "names");
  options.forEach((option) => {
    const made = button(option.label, () => tap(option.value));
    made.classList.toggle("chosen", isChosen(option.value));
    made.classList.toggle("long", Math.max(...option.label.split(/\s+/).map((word) => word.length)) > LONG_WORD);
    names.append(made);
  });
  if (noneText) {
    const none = button(noneText, () => tap(null), "none");
    none.classList.toggle("chosen", isChosen(null));
    names.append(none);
  }
  return names;
}

function confirm(value, enabled = true) {
  const made = button(TEXT.moderator_confirm, () => answer(value()), "go");
  made.disabled = !enabled;
  return made;
}

function single(form) {
  const picked = chosen === null ? undefined : chosen.value;
  // nobody, or what the form says it means instead (the laptop draws one at random)
  const noneText = form.none ? (form.none_label || (form.kind === "one" ? TEXT.moderator_nobody : TEXT.moderator_none))
    : null;
  return [grid(form.options, (value) => picked !== undefined && JSON.stringify(value) === JSON.stringify(picked),
               (value) => { chosen = {value}; renderStep(); }, noneText),
          confirm(() => chosen.value, chosen !== null)];
}

function several(form) {
  const picked = chosen || {names: [], none: false};
  const tap = (value) => {
    if (value === null) { chosen = {names: [], none: !picked.none}; renderStep(); return; }
    const names = picked.names.includes(value) ? picked.names.filter((name) => name !== value) : [...picked.names, value];
    chosen = {names, none: false};
    renderStep();
  };
  const enough = picked.none ? form.none : picked.names.length > 0 && picked.names.length >= (form.least || 0)
    && (!form.most || picked.names.length <= form.most);
  const shown = [grid(form.options, (value) => (value === null ? picked.none : picked.names.includes(value)), tap,
                      form.none ? TEXT.moderator_nobody : null)];
  const count = picked.names.length;
  if (count) {  // how many are chosen, and why Confirm waits when it does
    const why = form.most && count > form.most ? fill(TEXT.moderator_too_many, {count, most: form.most})
      : count < (form.least || 0) ? fill(TEXT.moderator_too_few, {count, least: form.least})
        : fill(TEXT.moderator_chosen, {count});
    shown.push(element("p", why, enough ? "listen" : "listen wrong"));
  }
  shown.push(confirm(() => (picked.none ? null : picked.names), enough));
  return shown;
}

function each(form) {
  const picked = chosen || {};
  const shown = [];
  form.parts.forEach((part) => {
    shown.push(element("h3", part.label));
    shown.push(grid(part.options, (value) => picked[part.key] === value && (value !== null || part.key in picked),
                    (value) => { chosen = {...picked, [part.key]: value}; renderStep(); },
                    form.none ? TEXT.moderator_nobody : null));
  });
  const given = Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== null));
  const missing = form.parts.filter((part) => !(part.key in picked)).map((part) => part.name || part.label);
  if (missing.length && missing.length < form.parts.length) {  // why Confirm waits, once a choice is made
    shown.push(element("p", fill(TEXT.moderator_still, {names: missing.join(", ")}), "listen wrong"));
  }
  shown.push(confirm(() => (Object.keys(given).length ? given : null), missing.length === 0));
  return shown;
}

function count(form) {
  const value = chosen === null ? 0 : chosen.value;
  const set = (next) => { chosen = {value: Math.max(0, Math.min(form.most, next))}; renderStep(); };
  const row = element("div", "", "count");
  row.append(button("−", () => set(value - 1)), element("output", String(value)), button("+", () => set(value + 1)));
  return [row, confirm(() => value)];
}

function fields(form) {
  const picked = chosen || {};
  const shown = [];
  form.forms.forEach((shape, index) => {
    if (!shape.parts.length) {
      shown.push(grid([{label: TEXT.moderator_yes, value: index}], (value) => picked.form === value,
                      (value) => { chosen = {form: value}; renderStep(); }, null));  // "not this one": the form's, below
      return;
    }
    shape.parts.forEach((part) => {
      shown.push(element("h3", part.label));
      shown.push(grid(part.options, (value) => picked.form === index && picked[part.key] === value,
                      (value) => { chosen = {...(picked.form === index ? picked : {}), form: index, [part.key]: value};
                                   renderStep(); }, null));
    });
  });
  shown.push(button(TEXT.moderator_not_this, () => answer(null), "quiet"));
  const shape = picked.form === undefined || picked.form === null ? null : form.forms[picked.form];
  const complete = shape !== null && shape.parts.every((part) => part.key in picked);
  shown.push(confirm(() => {
    const value = {...shape.fixed};
    shape.parts.forEach((part) => { value[part.key] = picked[part.key]; });
    return value;
  }, complete));
  return shown;
}

// --- the box: Start, Pause, the day's clock ---------------------------------------------------------

function renderBox() {
  const actions = state ? state.actions : [];
  const stage = state ? state.stage : null;
  document.querySelectorAll("#controls button").forEach((made) => { made.hidden = !actions.includes(made.dataset.action); });
  const next = document.querySelector("#controls button[data-action=next]");
  const ready = armed !== null && now() - armed.at < CONFIRM && armed.stage === stage;
  next.textContent = ready ? TEXT[`confirm_next_${stage}`] || TEXT.confirm_next_night : TEXT[`next_${stage}`] || TEXT.next_night;
  next.classList.toggle("armed", ready);
  $("controls").hidden = actions.length === 0;
  $("stage").textContent = stageText();
}

function stageText() {
  if (!state) return "";
  if (state.stage === "waiting") return TEXT.waiting_control;
  if (state.stage === "night") return nightText(state.night);
  if (state.stage === "day" && state.day) {
    if (state.day.voting) return TEXT.vote;
    if (state.day.deadline === null && state.day.paused_left === null) return `${TEXT.day} · ${TEXT.day_open}`;
    const left = state.day.paused_left !== null ? state.day.paused_left : state.day.deadline - (now() + offset);
    const whole = Math.max(0, Math.ceil(left));
    const clock = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    return `${state.day.paused_left !== null ? TEXT.day_paused : TEXT.day} · ${clock}`;
  }
  return "";
}

// Where the night is, as every tablet works it out from the laptop's numbers: the part being
// called (its character) and, during its count, the seconds the count has left.
function nightText(night) {
  const server = now() + offset;
  const moving = night.running && (night.stop_time === null || server < night.stop_time);
  let position = night.anchor_offset;
  if (night.running) position += Math.max(0, Math.min(server, night.stop_time ?? server) - night.anchor_time);
  position = Math.min(position, night.length);
  const shown = [moving || position >= night.length ? TEXT.night : TEXT.paused];  // at its end: not paused
  const part = night.phases.filter((phase) => phase.start <= position).pop();
  if (part && part.label) shown.push(part.label);
  const counting = (night.counts || []).find((count) => count.start <= position && position < count.start + count.seconds);
  if (counting) shown.push(fill(TEXT.moderator_count, {seconds: Math.ceil(counting.start + counting.seconds - position)}));
  return shown.join(" · ");
}

document.querySelectorAll("#controls button").forEach((made) => made.addEventListener("click", () => {
  const action = made.dataset.action;
  const stage = state ? state.stage : null;
  if (action === "next" && !(armed !== null && now() - armed.at < CONFIRM && armed.stage === stage)) {
    armed = {stage, at: now()};
    renderBox();
    setTimeout(renderBox, CONFIRM * 1000 + 50);
    return;
  }
  armed = null;
  send({type: "control", token, action});
}));

// Taking back the last answer asks for a second tap, as ending the night does: one tap alone
// would undo what may have been a good answer.
function renderUndo() {
  const ready = undoArmed !== null && now() - undoArmed < CONFIRM;
  $("undo").textContent = ready ? TEXT.moderator_undo_again : TEXT.moderator_undo;
  $("undo").classList.toggle("armed", ready);
}
$("undo").addEventListener("click", () => {
  if (undoArmed !== null && now() - undoArmed < CONFIRM) {
    undoArmed = null;
    renderUndo();
    answer("undo");
    return;
  }
  undoArmed = now();
  renderUndo();
  setTimeout(renderUndo, CONFIRM * 1000 + 50);
});
setInterval(renderBox, 500);
setInterval(() => { watch(); renderLost(); }, 1000);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") watch(); });
connect();
