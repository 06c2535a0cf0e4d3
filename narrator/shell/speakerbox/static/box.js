// The speaker box's page. On a tablet: join with a tap, keep the clock in step with the laptop
// for as long as the game lasts, play the night and the day's lines at the laptop's times, show
// where the game is. With the laptop's token (the controls page): no sound and no tap, the
// buttons that apply at each stage, what became of every press, and how each tablet is doing.
"use strict";

const token = new URLSearchParams(location.search).get("token");
const controlling = token !== null;
const $ = (id) => document.getElementById(id);
const TEXT = JSON.parse($("texts").textContent);  // the page's words, in the game's language
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => values[name]);

const PING_EVERY = 0.25;     // seconds between clock samples while the game lasts
const WINDOW = 15;           // seconds of samples the offset is estimated from
const BURST = 60;            // samples taken quickly when the clock is not known (join, wake-up)...
const SETTLED = 40;          // ...and how many a fresh estimate needs (on a jittery Wi-Fi, fewer are off by ms)
const SILENCE = 5;           // seconds without a word from the laptop: the connection is in trouble
const SLEW = 0.004;          // at most 0.4 % faster or slower while catching up: not heard
const JUMP = 0.006;          // further off than this (a tablet that slept, a glitch), cross-fade instead...
const FADE = 0.008;          // ...over this long
const FEEDBACK = 6;          // seconds a press's outcome stays on the controls page
const IN_STEP = 0.005;       // within this of the laptop's playhead, a tablet says it is in step

const box = {                // what the page knows; tests read it as window.narratorBox
  controlling,
  offset: null,              // server clock minus this page's clock, in seconds
  rtt: null,                 // the round trip the offset estimate rests on
  state: null,
  scheduledEpochStart: null,   // the same moment on the wall clock every page shares (seconds)
  playing: false,
  error: null,               // how far this tablet's playhead is from the laptop's (seconds, + ahead)
  nightId: null,             // the night whose audio this page holds: never play another one's
  errors: [],
  lines: [],                 // day lines said: {key, at}
  feedback: null,            // the controls page: what became of the last press
  tablets: [],               // the controls page: every tablet's state, from the laptop
  connection: "connecting",  // connecting, open, lost
  ctx: null, out: null,      // the audio context, and the node everything plays into
};
window.narratorBox = box;
box.send = (message) => send(message);  // for trying the server by hand (and the tests)
box.press = (action) => press(action);

let ctx = null, night = null, play = null, socket = null, wakeLock = null, lastHeard = 0, lostSince = null;
const clips = {};
const now = () => performance.now() / 1000;           // this page's clock, seconds
const serverNow = () => now() + box.offset;
const pageId = sessionStorage.getItem("narrator-page") || Math.random().toString(36).slice(2, 12);
sessionStorage.setItem("narrator-page", pageId);      // a reload is the same tablet

document.body.classList.toggle("controlling", controlling);
if (controlling) {
  document.title = TEXT.control_title;
  $("box").hidden = false;
  $("controls").hidden = false;
  $("tablets").hidden = false;
  start();
} else {
  $("joining").hidden = false;
  $("join").addEventListener("click", join);
}
document.querySelectorAll("#controls button").forEach((button) =>
  button.addEventListener("click", () => press(button.dataset.action)));

async function join() {
  ctx = new (window.AudioContext || window.webkitAudioContext)();
  await ctx.resume();                                  // sound needs a tap: this is it
  box.ctx = ctx;
  box.out = ctx.createGain();
  box.out.connect(ctx.destination);
  // Browsers hand a silent page's sound to a stand-in output and switch back when it sounds again,
  // and the output clock steps by a buffer or so when they do: a level far below hearing keeps
  // the real output on, so the night's first sample comes when it was scheduled.
  const awake = ctx.createConstantSource();
  awake.offset.value = 1e-7;
  awake.connect(ctx.destination);
  awake.start();
  $("joining").hidden = true;
  $("box").hidden = false;
  keepAwake();
  start();
}

function start() {
  setStatus(TEXT.connecting);
  connect();
  setInterval(tick, PING_EVERY * 1000);
  if (!controlling) setInterval(steer, 100);
  setInterval(render, 200);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") wokeUp(); });
}

// --- the connection --------------------------------------------------------------------------

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => {
    box.connection = "open";
    lastHeard = now();
    lostSince = null;
    send({type: "hello", role: controlling ? "control" : "tablet", id: pageId, ...(controlling ? {token} : {})});
    if (controlling || box.nightId !== null) resync();  // a tablet without its night: once it has loaded
  };
  socket.onmessage = (event) => { lastHeard = now(); receive(JSON.parse(event.data)); };
  socket.onclose = () => {
    socket = null;
    if (box.connection !== "lost") lostSince = now();
    box.connection = "lost";
    stopNight();
    render();
    setTimeout(connect, 1000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function press(action) {
  box.feedback = {action, text: TEXT.sending, refused: false, at: now()};
  render();
  send({type: "control", token, action});
}

// --- the clock: NTP-style, for as long as the game lasts ----------------------------------------
//
// Each sample gives the trip out (server time on arrival minus the page's time on sending) and the
// trip back, each off by the same unknown offset in opposite directions. Over a window of recent
// samples, the shortest trip out and the shortest trip back each come close to the network's
// fastest, however much it jitters, and half their difference is the offset.

const samples = [];
let ticks = 0, lastTick = null, burstLeft = 0, settling = true;

function resync() {                                   // the clock is unknown or may have jumped
  samples.length = 0;
  settling = true;                                    // keep the last estimate until enough new samples
  burstLeft = BURST;
  burst();
}

function burst() {
  if (burstLeft <= 0) return;
  burstLeft -= 1;
  send({type: "ping", sent: now()});
  setTimeout(burst, 40);
}

function wokeUp() {                                   // a tab that slept may hold a stale clock
  if (socket && socket.readyState === WebSocket.OPEN) resync();
  if (!wakeLock || wakeLock.released) keepAwake();
}

function tick() {
  const t = now();
  if (lastTick !== null && t - lastTick > 3 * PING_EVERY + 1) wokeUp();  // timers stood still: it slept
  lastTick = t;
  if (box.connection === "open" && t - lastHeard > SILENCE && socket) socket.close();  // silent: try again
  if (burstLeft <= 0) send({type: "ping", sent: t});
  ticks += 1;
  if (!controlling && ticks % 8 === 0) report();
}

function clockSample(message) {
  const back = now();
  samples.push({at: back, out: message.server - message.sent, back: back - message.server});
  while (samples.length && samples[0].at < back - WINDOW) samples.shift();
  if (settling && samples.length < SETTLED) return;   // a fresh estimate rests on many samples
  const out = Math.min(...samples.map((s) => s.out));
  const ret = Math.min(...samples.map((s) => s.back));
  box.offset = (out - ret) / 2;
  box.rtt = out + ret;
  if (settling) {                                     // the clock is known (again): follow the game
    settling = false;
    if (controlling) render();
    else if (box.state && box.state.night_id === box.nightId) apply(box.state);
  }
}

function report() {
  send({type: "report", synced: box.offset !== null, rtt: box.rtt, playing: box.playing, error: box.error,
        loading: loading !== null});
}

function receive(message) {
  if (message.type === "pong") { clockSample(message); return; }
  if (message.type === "state") {
    box.state = message;
    if (!controlling && message.night_id !== box.nightId) { loadNight(message.night_id); return; }
    if (box.offset !== null && !controlling) apply(message);
    render();
    return;
  }
  if (message.type === "say") { say(message.key, message.at); return; }
  if (message.type === "tablets") { box.tablets = message.tablets; render(); return; }
  if (message.type === "done") {
    box.feedback = {action: message.action, text: TEXT[`done_${message.action}`], refused: false, at: now()};
    render();
    return;
  }
  if (message.type === "refused" || message.type === "error") {
    box.errors.push(message.message);
    if (controlling) {
      box.feedback = {action: message.action, text: message.message, refused: true, at: now()};
      render();
    }
  }
}

// --- the night's audio -------------------------------------------------------------------------

// A night this page has not heard of (the first, or one the laptop started since): drop what it
// holds, fetch the new night's audio, and only then follow the state again.
let loading = null;
async function loadNight(id) {
  stopNight();
  box.nightId = null;
  for (const key of Object.keys(clips)) delete clips[key];
  if (loading === id) return;
  loading = id;
  render();
  const response = await fetch(`/night.wav?night=${encodeURIComponent(id)}`, {cache: "no-store"});
  const served = response.headers.get("X-Night-Id");
  const buffer = await ctx.decodeAudioData(await response.arrayBuffer());
  if (loading !== id) return;                         // a newer night came while this one loaded
  loading = null;
  if (served !== id) { loadNight(box.state.night_id); return; }   // the server changed under us: again
  night = buffer;
  box.nightId = id;
  box.nightLength = buffer.duration;
  resync();  // measured now, not while the night was downloading and decoding (that skews the samples)
  render();
}

// The AudioContext's clock and the page's clock at one instant: the audio clock runs on the
// sound card's time, so map between them from a timestamp the context itself gives.
function audioAndPageTime() {
  if (ctx.getOutputTimestamp) {
    const stamp = ctx.getOutputTimestamp();
    if (stamp.performanceTime > 0) {
      const pageNow = now();
      return [stamp.contextTime + (pageNow - stamp.performanceTime / 1000), pageNow];
    }
  }
  return [ctx.currentTime, now()];
}

// Where the laptop's playhead is at a given server time.
function nightAt(n, serverTime) {
  if (!n.running) return n.anchor_offset;
  const t = n.stop_time === null ? serverTime : Math.min(serverTime, n.stop_time);
  return n.anchor_offset + t - n.anchor_time;
}

// Follow a new state: start the night where the playhead says, set a pause at its moment, or stop.
function apply(state) {
  const n = state.night;
  if (!night || state.night_id !== box.nightId || state.stage !== "night" || !n.running) { stopNight(); return; }
  const [ctxNow, pageNow] = audioAndPageTime();
  const ctxAt = (serverTime) => ctxNow + (serverTime - box.offset - pageNow);
  const zero = n.anchor_time - n.anchor_offset;       // the server time of the night's sample 0, this run
  const lead = 0.05;
  if (play && Math.abs(play.zero - zero) < 1e-6
      && (play.stopCtx === null || play.stopCtx > Math.max(ctxNow, ctx.currentTime) + lead)) {
    // The same run: only its pause changed (set, or taken back before it came).
    play.stopCtx = n.stop_time === null ? null : Math.max(ctxNow, ctxAt(n.stop_time));
    play.source.stop(play.stopCtx === null ? ctxNow + 1e6 : play.stopCtx);
    render();
    return;
  }
  stopNight();
  let when = ctxAt(n.anchor_time);
  let offset = n.anchor_offset;
  // The output clock (ctxNow) trails the rendering (currentTime) by the output's latency: a start
  // set before what is already rendered would play late, so the earliest is ahead of both.
  const earliest = Math.max(ctxNow, ctx.currentTime) + lead;
  if (when < earliest) {                               // joined or resumed late: start mid-night
    offset += earliest - when;
    when = earliest;
  }
  const stopCtx = n.stop_time === null ? null : ctxAt(n.stop_time);
  if (offset >= night.duration || (stopCtx !== null && stopCtx <= when)) { render(); return; }
  play = sound(when, offset, stopCtx, zero, false);
  box.playing = true;
  box.error = 0;
  const startsAt = pageNow + (when - ctxNow) - offset;  // page time of the night's sample 0
  box.scheduledEpochStart = performance.timeOrigin / 1000 + startsAt;
  render();
}

// The night from `offset` at AudioContext time `when` (until `stopCtx`), faded in over a few
// milliseconds when it takes over from another run of the same night.
function sound(when, offset, stopCtx, zero, fadeIn) {
  const source = ctx.createBufferSource();
  const gain = ctx.createGain();
  source.buffer = night;
  source.connect(gain);
  gain.connect(box.out);
  if (fadeIn) {
    gain.gain.setValueAtTime(0, when);
    gain.gain.linearRampToValueAtTime(1, when + FADE);
  }
  source.start(when, offset);
  if (stopCtx !== null) source.stop(stopCtx);
  source.onended = () => {
    gain.disconnect();
    if (play && play.source === source) { play = null; box.playing = false; }
  };
  return {source, gain, zero, ctx0: when, pos0: offset, rate: 1, stopCtx};
}

// Keep the playing night on the laptop's playhead as the clock estimate improves (and as the
// sound card's clock drifts from the page's): a touch faster or slower until it is back, never a
// jump one would hear, unless it is far off.
function steer() {
  if (!play || !box.state || box.offset === null) return;
  const n = box.state.night;
  const [ctxNow, pageNow] = audioAndPageTime();
  const t = Math.max(ctxNow, ctx.currentTime) + 0.06;  // the moment a new speed takes effect (not yet rendered)
  if (t < play.ctx0 || (play.stopCtx !== null && t >= play.stopCtx)) return;
  const here = play.pos0 + (t - play.ctx0) * play.rate;
  const error = here - nightAt(n, pageNow + (t - ctxNow) + box.offset);
  box.error = error;
  if (Math.abs(error) > JUMP) {                         // far off: cross-fade to where it should be
    const old = play;
    old.gain.gain.setValueAtTime(1, t);
    old.gain.gain.linearRampToValueAtTime(0, t + FADE);
    old.source.stop(t + FADE);
    play = sound(t, here - error, old.stopCtx, old.zero, true);
    return;
  }
  const rate = Math.abs(error) < 0.0003 ? 1 : 1 - Math.max(-SLEW, Math.min(SLEW, error / 1.0));
  if (rate === play.rate) return;
  play.source.playbackRate.setValueAtTime(rate, t);
  Object.assign(play, {ctx0: t, pos0: here, rate});
}

function stopNight() {
  if (play) { try { play.source.stop(); } catch (e) { /* already stopped */ } play.gain.disconnect(); play = null; }
  box.playing = false;
  box.error = null;
}

async function say(key, at) {
  box.lines.push({key, at});
  if (controlling || !ctx) return;
  if (!clips[key]) clips[key] = ctx.decodeAudioData(await (await fetch(`/clips/${key}.wav`)).arrayBuffer());
  const buffer = await clips[key];
  const clip = ctx.createBufferSource();
  clip.buffer = buffer;
  clip.connect(box.out);
  const [ctxNow, pageNow] = audioAndPageTime();
  clip.start(Math.max(ctxNow, ctxNow + (at - box.offset - pageNow)));
}

// --- the screen ----------------------------------------------------------------------------------

function render() {
  const state = box.state;
  const trouble = box.connection === "lost" && !(state && state.stage === "result" && state.final);
  $("trouble").hidden = !trouble;
  $("box").hidden = trouble || (!controlling && !ctx);
  if (trouble) {
    $("trouble-retry").textContent = fill(TEXT.lost_retry, {seconds: Math.round(now() - (lostSince || now()))});
    return;
  }
  renderStatus();
  if (controlling) renderControls();
  document.body.classList.remove("paused", "vote");
  const screen = !state ? {title: "", hint: ""} : loading !== null && !controlling ? {title: TEXT.loading, hint: ""}
    : screenFor(state);
  $("title").textContent = screen.title;
  $("big").textContent = screen.big || "";
  $("big").classList.toggle("word", screen.big === TEXT.vote);
  $("hint").textContent = screen.hint || "";
  $("progress").hidden = screen.done === undefined;
  if (screen.done !== undefined) $("progress-done").style.width = `${(100 * screen.done).toFixed(1)}%`;
  $("result").hidden = !screen.result;
  if (screen.result) {
    $("result").replaceChildren(...screen.result.map((line) =>
      Object.assign(document.createElement("li"), {textContent: line})));
  }
  if (screen.mood) document.body.classList.add(screen.mood);
}

// What the page shows at a stage: a title, maybe a big number or word, a hint, progress, a result.
function screenFor(state) {
  const known = box.offset !== null;
  if (state.stage === "waiting") {
    return {title: TEXT.waiting, hint: controlling ? TEXT.waiting_control : TEXT.waiting_hint};
  }
  if (state.stage === "night") {
    const n = state.night;
    const position = known ? nightAt(n, serverNow()) : n.anchor_offset;
    box.position = position;
    const done = Math.max(0, Math.min(1, position / n.length));
    const paused = n.running ? n.stop_time !== null && known && serverNow() >= n.stop_time : true;
    const percent = fill(TEXT.night_done, {percent: Math.floor(done * 100)});
    if (paused) return {title: TEXT.paused, big: "❚❚", hint: `${percent} · ${TEXT.paused_hint}`, done, mood: "paused"};
    const phase = controlling ? (n.phases.filter((p) => p.start <= position).pop() || {label: ""}).label : "";
    return {title: TEXT.night, hint: controlling ? [percent, phase].filter(Boolean).join(" · ")
      : `${TEXT.night_hint} ${percent}`, done};
  }
  if (state.stage === "day") {
    const day = state.day;
    if (day.voting) return {title: TEXT.day, big: TEXT.vote, mood: "vote"};
    const left = day.paused_left !== null ? day.paused_left : Math.max(0, day.deadline - (known ? serverNow() : 0));
    if (day.paused_left !== null) return {title: TEXT.day_paused, big: clockText(left), mood: "paused"};
    if (left <= 3.0) return {title: TEXT.day, big: left > 0 ? `${Math.ceil(left)}…` : TEXT.vote, mood: "vote"};
    return {title: TEXT.day, big: clockText(left)};
  }
  if (state.stage === "result") {
    return {title: state.final ? TEXT.game_over : TEXT.result, result: state.result || []};
  }
  return {title: ""};
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function renderStatus() {
  if (box.connection === "lost") { setStatus(""); return; }  // the game is over and the laptop has closed
  if (box.connection !== "open" || box.offset === null) { setStatus(TEXT.connecting); return; }
  const ms = Math.max(1, Math.round(box.rtt * 500));
  if (box.playing && box.error !== null && Math.abs(box.error) > IN_STEP) {
    setStatus(fill(TEXT.catching_up, {ms: Math.round(Math.abs(box.error) * 1000)}), true);
  } else {
    setStatus(fill(TEXT.in_step, {ms}));
  }
}

function renderControls() {
  const actions = box.state ? box.state.actions : [];
  document.querySelectorAll("#controls button").forEach((button) => {
    button.hidden = !actions.includes(button.dataset.action);
  });
  $("controls").hidden = actions.length === 0;
  if (box.feedback && now() - box.feedback.at > FEEDBACK) box.feedback = null;  // said, and seen
  const feedback = box.feedback;
  $("feedback").hidden = !feedback;
  if (feedback) {
    $("feedback").textContent = feedback.text;
    $("feedback").classList.toggle("refused", feedback.refused);
  }
  const list = $("tablets");
  if (!box.tablets.length) {
    list.replaceChildren(Object.assign(document.createElement("li"), {textContent: TEXT.no_tablets}));
    return;
  }
  list.replaceChildren(...box.tablets.map((tablet) => {
    const [mood, text] = tabletLine(tablet);
    const item = document.createElement("li");
    item.className = mood;
    item.textContent = `${fill(TEXT.tablet, {n: tablet.n})} · ${text}`;
    return item;
  }));
}

function tabletLine(tablet) {
  if (!tablet.connected) return ["bad", TEXT.tablet_gone];
  if (tablet.silent >= SILENCE) return ["bad", fill(TEXT.tablet_silent, {seconds: Math.round(tablet.silent)})];
  if (tablet.loading) return ["poor", TEXT.tablet_loading];
  if (!tablet.synced) return ["poor", TEXT.connecting];
  if (tablet.playing && tablet.error !== null && Math.abs(tablet.error) > IN_STEP) {
    return ["poor", fill(TEXT.tablet_catching_up, {ms: Math.round(Math.abs(tablet.error) * 1000)})];
  }
  if (tablet.playing) return ["good", fill(TEXT.tablet_in_step, {ms: Math.max(1, Math.round(tablet.rtt * 500))})];
  return ["good", TEXT.tablet_ready];
}

function setStatus(text, trouble = false) {
  $("status").textContent = text;
  $("status").classList.toggle("trouble", trouble);
}

async function keepAwake() {                          // the screen stays on while a game runs
  if (controlling || !("wakeLock" in navigator)) return;
  try { wakeLock = await navigator.wakeLock.request("screen"); } catch (e) { box.errors.push(String(e)); }
}
