// The speaker box's tablet page: join with a tap, keep the clock in step with the laptop,
// play the night and the day's lines at the laptop's times, show where the game is.
"use strict";

const token = new URLSearchParams(location.search).get("token");
const $ = (id) => document.getElementById(id);
const TEXT = JSON.parse($("texts").textContent);  // the page's words, in the game's language
const box = {            // what the page knows; tests read it as window.narratorBox
  offset: null,          // server clock minus this page's clock, in seconds
  rtt: null,             // the round trip the offset was measured with
  state: null,
  scheduledServerStart: null,  // the server time at which the night's first sample plays here
  scheduledEpochStart: null,   // the same moment on the wall clock every page shares (seconds)
  playing: false,
  nightId: null,         // the night whose audio this page holds: never play another one's
  errors: [],
  lines: [],             // day lines said: {key, at}
};
window.narratorBox = box;
box.send = (message) => send(message);  // for trying the server by hand (and the tests)

let ctx = null, night = null, source = null, socket = null, wakeLock = null;
const clips = {};
const now = () => performance.now() / 1000;           // this page's clock, seconds
const serverNow = () => now() + box.offset;

$("join").addEventListener("click", join);
document.querySelectorAll("#controls button").forEach((button) =>
  button.addEventListener("click", () => send({type: "control", token, action: button.dataset.action})));

async function join() {
  ctx = new (window.AudioContext || window.webkitAudioContext)();
  await ctx.resume();                                  // sound needs a tap: this is it
  $("join").hidden = true;
  $("box").hidden = false;
  $("controls").hidden = !token;
  setStatus(TEXT.connecting);
  keepAwake();
  connect();
  setInterval(render, 250);
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { if (box.nightId !== null) syncClock(); };  // else once the night has loaded
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => { setStatus(TEXT.reconnecting, true); stopNight(); setTimeout(connect, 1000); };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// NTP-style: several round trips; the one with the shortest trip gives the offset.
const samples = [];
const PINGS = 8;
let nextSync = null;
function syncClock() {
  samples.length = 0;
  for (let i = 0; i < PINGS; i++) setTimeout(() => send({type: "ping", sent: now()}), i * 60);
  clearTimeout(nextSync);
  nextSync = setTimeout(syncClock, 30000);             // clocks drift: measure again now and then
}

function receive(message) {
  if (message.type === "pong") {
    const back = now();
    samples.push({rtt: back - message.sent, offset: message.server - (message.sent + back) / 2});
    const best = samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    const first = box.offset === null;
    if (first && samples.length < PINGS) return;      // the first estimate is the best of a whole round
    box.offset = best.offset;
    box.rtt = best.rtt;
    setStatus(TEXT.in_step.replace("{ms}", Math.max(1, Math.round(best.rtt * 500))));
    if (first && box.state && box.state.night_id === box.nightId) apply(box.state);
    return;
  }
  if (message.type === "state") {
    box.state = message;
    if (message.night_id !== box.nightId) { loadNight(message.night_id); return; }
    if (box.offset !== null) apply(message);
    return;
  }
  if (message.type === "say") { say(message.key, message.at); return; }
  if (message.type === "error") { box.errors.push(message.message); return; }
}

// A night this page has not heard of (the first, or one the laptop started since): drop what it
// holds, fetch the new night's audio and lines, and only then follow the state again.
let loading = null;
async function loadNight(id) {
  stopNight();
  box.nightId = null;
  for (const key of Object.keys(clips)) delete clips[key];
  if (loading === id) return;
  loading = id;
  setStatus(TEXT.loading);
  const response = await fetch(`/night.wav?night=${encodeURIComponent(id)}`, {cache: "no-store"});
  const served = response.headers.get("X-Night-Id");
  const buffer = await ctx.decodeAudioData(await response.arrayBuffer());
  if (loading !== id) return;                         // a newer night came while this one loaded
  loading = null;
  if (served !== id) { loadNight(box.state.night_id); return; }   // the server changed under us: again
  night = buffer;
  box.nightId = id;
  box.nightLength = buffer.duration;
  syncClock();  // measured now, not while the night was downloading and decoding (that skews the samples)
  if (box.state && box.state.night_id === id && box.offset !== null) apply(box.state);
}

function apply(state) {
  const n = state.night;
  stopNight();
  if (!night || state.night_id !== box.nightId) return;
  if (state.stage === "night" && n.running) {
    // Where the buffer must be at AudioContext time `when`: the playhead's position then.
    const lead = 0.05;
    const [ctxNow, pageNow] = audioAndPageTime();
    let when = ctxNow + (n.anchor_time - box.offset - pageNow);
    let offset = n.anchor_offset;
    if (when < ctxNow + lead) {                        // joined or resumed late: start mid-night
      offset += ctxNow + lead - when;
      when = ctxNow + lead;
    }
    if (offset < night.duration) {
      source = ctx.createBufferSource();
      source.buffer = night;
      source.connect(ctx.destination);
      source.start(when, offset);
      box.playing = true;
      const startsAt = pageNow + (when - ctxNow) - offset;   // page time of the night's sample 0
      box.scheduledServerStart = startsAt + box.offset;
      box.scheduledEpochStart = performance.timeOrigin / 1000 + startsAt;
    }
  }
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

function stopNight() {
  if (source) { try { source.stop(); } catch (e) { /* already stopped */ } source = null; }
  box.playing = false;
}

async function say(key, at) {
  box.lines.push({key, at});
  if (!clips[key]) clips[key] = ctx.decodeAudioData(await (await fetch(`/clips/${key}.wav`)).arrayBuffer());
  const buffer = await clips[key];
  const clip = ctx.createBufferSource();
  clip.buffer = buffer;
  clip.connect(ctx.destination);
  clip.start(Math.max(ctx.currentTime, ctx.currentTime + (at - box.offset - now())));
}

function nightPosition(n) {
  return n.anchor_offset + (n.running ? serverNow() - n.anchor_time : 0);
}

function render() {
  const state = box.state;
  if (!state || box.offset === null) return;
  const clock = $("clock"), phase = $("phase"), result = $("result");
  result.hidden = state.stage !== "result";
  if (state.stage === "waiting") { phase.textContent = "…"; clock.textContent = ""; }
  if (state.stage === "night") {
    const position = nightPosition(state.night);
    const current = state.night.phases.filter((p) => p.start <= position).pop();
    phase.textContent = current ? current.label : "";
    clock.textContent = "";
    box.position = position;
  }
  if (state.stage === "day") {
    const day = state.day;
    const left = day.voting ? 0 : day.paused_left !== null ? day.paused_left : Math.max(0, day.deadline - serverNow());
    const whole = Math.ceil(left);
    clock.textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    phase.textContent = day.paused_left !== null && !day.voting ? "❚❚" : "";
  }
  if (state.stage === "result") {
    phase.textContent = "";
    clock.textContent = "";
    result.replaceChildren(...state.result.map((line) => Object.assign(document.createElement("li"), {textContent: line})));
  }
}

function setStatus(text, trouble = false) {
  $("status").textContent = text;
  $("status").classList.toggle("trouble", trouble);
}

async function keepAwake() {                          // the screen stays on while a game runs
  if (!("wakeLock" in navigator)) return;
  try { wakeLock = await navigator.wakeLock.request("screen"); } catch (e) { box.errors.push(String(e)); }
  document.addEventListener("visibilitychange", async () => {
    if (document.visibilityState === "visible" && (!wakeLock || wakeLock.released)) {
      try { wakeLock = await navigator.wakeLock.request("screen"); } catch (e) { /* not now */ }
    }
  });
}
