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
// a speaker's delay, kept to a tenth of a ms (a round of listening sets it so), as the game's language writes it
const milliseconds = new Intl.NumberFormat(document.documentElement.lang || "en",
                                          {maximumFractionDigits: 1, useGrouping: false});

const PING_EVERY = 0.25;     // seconds between clock samples while the game lasts
const WINDOW = 15;           // seconds of samples the offset is estimated from
const GLIDE = 0.0002;        // a new estimate the samples still allow is followed this fast (seconds a second)
const BURST = 60;            // samples taken quickly when the clock is not known (join, wake-up)...
const SETTLED = 40;          // ...and how many a fresh estimate needs (on a jittery Wi-Fi, fewer are off by ms)
const SILENCE = 5;           // seconds without a word from the laptop: the connection is in trouble
const PACE = JSON.parse($("pace").textContent);  // how fast the page moves (narrator/shell/speakerbox/pace.py)
const SLEW = PACE.slew;      // at most 0.4 % faster or slower while catching up: not heard
const JUMP = PACE.jump;      // further off than this (a tablet that slept, a glitch), cross-fade instead...
const DELAY_SLEW = PACE.delay_slew;  // a new speaker delay set while the night plays moves this fast (seconds a second)...
const QUIET_AHEAD = 0.5;     // ...unless the voice is silent this long from here: then it is taken at once
const FADE = 0.008;          // ...over this long
const FEEDBACK = 6;          // seconds a press's outcome stays on the controls page
const CONFIRM = 4;           // seconds a first tap on Next waits for the second that confirms it
const IN_STEP = 0.005;       // within this of the laptop's playhead, a tablet says it is in step
const HUSH = 0.6;            // a page that comes in mid-night stays silent at least this long...
const AGREE = 3;             // ...and until this many steering checks in a row find it...
const AGREED = 0.001;        // ...this close to the laptop's playhead: only then is it heard
const HUSH_AT_MOST = 2;      // (a page that never settles that close is heard after this long all the same,
                             // counted from its first check on timestamps it believes, on a check that finds it
                             // within AGREED: it comes in where its timestamps say, never off by what they said)
const LATENCY_HINT = "playback";  // larger output buffers: fewer underruns, and the latency costs nothing (all is scheduled ahead)
const GLITCH = 0.02;         // the audio clock and the page's part by this over one steering check: the output glitched
const LEAP = 0.002;          // an output timestamp this far from the recent ones is not believed...
const SETTLE = 5;            // ...until this many readings in a row agree again: meanwhile the page holds its course
const RAMP = 0.0006;         // nor timestamps that drift from the page's clock faster than this (seconds a second)...
const SPAN = 0.8;            // ...over at least this long (and at most DRIFT_SPAN) of readings
const DRIFT_SPAN = 2;
const FRESH = 1.6;           // after a glitch, the timestamps are believed only once they have agreed this long
const COARSE = 0.05;         // while they are not believed, only an error over this is corrected (a glitch's: lies were under 30 ms)
const HUSH_LONGEST = 20;     // a page that comes in mid-night and whose timestamps never settle is heard after this long
const UNHEARD_LONGEST = 60;  // (--listen) a page the laptop has not heard plays the night silent at most this long
const PLACE_AHEAD = 0.4;     // (--listen) each play of a code is placed this long before it sounds...
const DOUBT_SPREAD = 0.005;  // ...and played while the timestamps are in doubt if the last readings lie within this...
const DOUBT_CREEP = 0.0012;  // ...and creep no faster than this (seconds a second)
const STILL = 0.001;         // (--listen) after a code played in doubt, once the readings lie within this of each other...
const STILL_FOR = 3;         // ...trusted for this long, the page tells the laptop they hold still (it listens again)
const CALM = 1.0;            // seconds at least between two jumps of one run (a jump is heard)
const EVENTS = 300;          // how many steering events the page keeps (narratorBox.events)
const KNOCK = 5;             // seconds between a turned-away tablet's tries to join again
const WRONG_TOKEN = 4403;    // the laptop's close code for a page whose token is not this game's

const box = {                // what the page knows; tests read it as window.narratorBox
  controlling,
  offset: null,              // server clock minus this page's clock, in seconds
  rtt: null,                 // the round trip the offset estimate rests on
  settling: true,            // gathering samples for a fresh estimate (the last one stays in use meanwhile)
  resyncs: [],               // why the clock was measured afresh: load, reconnect, visible, timers stood still
  state: null,
  scheduledEpochStart: null,   // the same moment on the wall clock every page shares (seconds)
  playing: false,
  hushed: false,             // playing, but unheard until it is in step (a page that came in mid-night)
  unheard: false,            // (--listen) the laptop has not heard this tablet yet: its night plays silent till then
  unheardFrom: null,         // ...since this audio-clock time
  unheardLongest: UNHEARD_LONGEST,  // ...and at most this long (seconds; a test shortens it)
  error: null,               // how far this tablet's playhead is from the laptop's (seconds, + ahead)
  nightId: null,             // the night whose audio this page holds: never play another one's
  errors: [],
  events: [],                // the last steering events, to look into a tablet that was off: [wall time, what, ms]
  agreed: false,             // the output timestamps have agreed since the last leap for long enough to correct a glitch...
  trusted: false,            // ...and they no longer drift either: the page steers by them
  creep: null,               // how fast the timestamps move against the page's clock (seconds a second; null: not known yet)
  lines: [],                 // day lines said: {key, at}
  feedback: null,            // the controls page: what became of the last press
  tablets: [],               // the controls page: every tablet's state, from the laptop
  refused: null,             // a tablet the laptop turned away: why, as its screen says it (it plays nothing)
  delay: 0,                  // how late this tablet's speaker sounds beyond what the page can see (seconds, the
                             // controls page's): it plays that much earlier, so it is heard with the others...
  delayTarget: 0,            // ...moving to this one, set while something played (moveDelay)
  speech: [],                // where the night's voice sounds: [[from, to], ...] in seconds of the night
  connection: "connecting",  // connecting, open, lost
  awake: null,               // the screen is kept on (Wake Lock); false: it may lock, and the sound with it
  ctx: null, out: null,      // the audio context, and the node everything plays into
};
window.narratorBox = box;
box.send = (message) => send(message);  // for trying the server by hand (and the tests)
box.press = (action) => press(action);

let ctx = null, night = null, play = null, lines = [], socket = null, wakeLock = null, lastHeard = 0, lostSince = null;
const clips = {};
const now = () => performance.now() / 1000;           // this page's clock, seconds
const serverNow = () => now() + box.offset;
// The server time at which what the page outputs at page time `pageTime` is heard: the clock's
// offset, and the speaker's own delay the page cannot see (set on the controls page).
const heardAt = (pageTime) => pageTime + box.offset + box.delay;
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
$("listen").addEventListener("click", () => {
  box.feedback = {action: "listen", text: TEXT.sending, refused: false, at: now()};
  render();
  send({type: "control", token, action: "listen"});
});
document.querySelectorAll("#controls button").forEach((button) =>
  button.addEventListener("click", () => tap(button.dataset.action)));

async function join() {
  // An iPhone's or iPad's silent switch mutes a page's Web Audio unless the page says it plays
  // media (Safari's Audio Session API; other browsers have none and need none).
  if (navigator.audioSession) navigator.audioSession.type = "playback";
  const Context = window.AudioContext || window.webkitAudioContext;
  try { ctx = new Context({latencyHint: LATENCY_HINT}); } catch (e) { ctx = new Context(); }
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
  ctx.onstatechange = soundCameBack;
  // Where the system stopped the sound and will not let a page start it again by itself (an iPad
  // after sleep), a tap anywhere does: the screen says so while it is off.
  for (const kind of ["click", "touchend"]) document.addEventListener(kind, resumeSound);
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
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") wokeUp("visible"); });
}

// --- the connection --------------------------------------------------------------------------

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => {
    box.connection = "open";
    lastHeard = now();
    lostSince = null;
    hello();
    if (controlling || box.nightId !== null) resync("reconnect");  // a tablet without its night: once it has loaded
  };
  socket.onmessage = (event) => { lastHeard = now(); receive(JSON.parse(event.data)); };
  socket.onclose = lost;
}

function hello() {
  send({type: "hello", role: controlling ? "control" : "tablet", id: pageId, ...(controlling ? {token} : {})});
}

// The laptop turned this tablet away (its list full, or the controls page took it off): the
// screen says why, nothing plays, and it asks again every few seconds; the laptop lets it in at
// once when the controls page frees a place.
let knocking = null;
function turnedAway(why) {
  box.refused = why;
  stopNight();
  render();
  if (knocking === null) knocking = setInterval(() => { if (box.refused) hello(); }, KNOCK * 1000);
}

function letIn() {
  box.refused = null;
  clearInterval(knocking);
  knocking = null;
  render();
}

function lost(event) {
  socket = null;
  if (event && event.code === WRONG_TOKEN) {  // a controls page of another game: trying again cannot help
    box.connection = "stale";
    stopNight();
    render();
    return;
  }
  if (box.connection !== "lost") lostSince = now();
  box.connection = "lost";
  stopNight();
  render();
  setTimeout(connect, 1000);
}

// A connection that went silent (the Wi-Fi died without a word) is left at once: closing it
// politely, the browser would wait a minute for the laptop's goodbye, and hold the page till then.
function abandon() {
  const dead = socket;
  dead.onopen = dead.onmessage = dead.onclose = null;
  dead.close();
  lost();
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// Next cannot be taken back (it ends the night, or calls the vote): a first tap says what a
// second will do, and only a second within CONFIRM seconds, at the same stage, does it. In the
// dark one stray tap does nothing. The other buttons act at once.
let armed = null;            // Next tapped once: {stage, at}

function tap(action) {
  const stage = box.state ? box.state.stage : null;
  if (action === "next" && !(nextArmed() && armed.stage === stage)) {
    armed = {stage, at: now()};
    render();
    setTimeout(render, CONFIRM * 1000 + 50);         // back to its plain label if no second tap comes
    return;
  }
  armed = null;
  press(action);
}

function nextArmed() {
  return armed !== null && now() - armed.at < CONFIRM;
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
//
// On a jittery network that estimate wanders as the fastest trips leave the window: behind 50 ms of
// jitter (benchmarks/audiopath.py, 2026-11-30) it moved 1-2 ms every 10-30 s, there and back, and
// the night followed each move (three of the six slews heard to take a page the wrong way, in
// twelve nights, came just as it moved). Yet the two clocks themselves part far more slowly than
// that (crystals: tens of parts per million, hundredths of a ms a second). So once the window is
// full of the regular samples, an estimate they still allow (the offset lies between minus the
// shortest trip back and the shortest trip out: no trip takes less than nothing) is followed at
// GLIDE, and one they rule out is taken at once. A young estimate (a join, a reconnection, a
// wake-up: a burst of quick samples, then a window filling) is taken at once as it improves
// (gliding from the join, late joiners were heard 2-3 ms off in four nights of six at 50 ms of
// jitter: likely set by the laptop, then gliding on).

const samples = [];
let ticks = 0, lastTick = null, burstLeft = 0;
let lastSample = 0, gliding = false;  // when the last sample came back; a glide over 1 ms under way
let settledAt = 0;            // when the estimate in use was last taken fresh

function resync(why) {                                // the clock is unknown or may have jumped
  box.resyncs.push(why);
  samples.length = 0;
  box.settling = true;                                // keep the last estimate until enough new samples
  burstLeft = BURST;
  burst();
}

function burst() {
  if (burstLeft <= 0) return;
  burstLeft -= 1;
  send({type: "ping", sent: now()});
  setTimeout(burst, 40);
}

function wokeUp(why) {                                // a tab that slept may hold a stale clock
  if (socket && socket.readyState === WebSocket.OPEN) resync(why);
  if (!wakeLock || wakeLock.released) keepAwake();
  resumeSound();
}

function resumeSound() {
  if (ctx && !soundOn()) ctx.resume().catch((error) => box.errors.push(String(error)));
}

// A tablet that slept may have had its sound stopped (the context suspended, or "interrupted" on
// an iPad) and its audio clock with it: when the sound comes back, what was scheduled on the old
// clock is wrong, so start again from the laptop's playhead, silent until in step.
let soundWasOff = false;
function soundCameBack() {
  render();
  report();                                           // the controls page shows a tablet gone quiet at once
  if (ctx.state !== "running") { soundWasOff = true; return; }
  if (!soundWasOff) return;
  soundWasOff = false;
  forgetClock("sound came back");
  stopNight();
  if (box.state && box.offset !== null && !box.refused) apply(box.state);
}

function tick() {
  const t = now();
  if (lastTick !== null && t - lastTick > 3 * PING_EVERY + 1) wokeUp("timers stood still");  // it slept
  lastTick = t;
  if (box.connection === "open" && t - lastHeard > SILENCE && socket) abandon();  // silent: try again
  if (burstLeft <= 0) send({type: "ping", sent: t});
  ticks += 1;
  // every two seconds, and at once (within a tick) when the page comes in or out of step: the laptop
  // listens to a tablet only once it has been in step a while, counted from the report that says so
  if (!controlling && (ticks % 8 === 0 || inStep() !== reported)) report();
}

let reported = null;          // what the last report said of being in step
// (as the laptop counts it: clock and sound; and whether it believes its output's timestamps, which the
// laptop's ear waits for before it moves the tablet: one that does not holds its course, moved by nothing)
function inStep() { return [box.offset !== null, soundOn(), box.trusted === true].join(); }

function clockSample(message) {
  const back = now();
  samples.push({at: back, out: message.server - message.sent, back: back - message.server});
  while (samples.length && samples[0].at < back - WINDOW) samples.shift();
  if (box.settling && samples.length < SETTLED) return;  // a fresh estimate rests on many samples
  const out = Math.min(...samples.map((s) => s.out));
  const ret = Math.min(...samples.map((s) => s.back));
  const estimate = (out - ret) / 2;
  if (box.settling) settledAt = back;
  if (back - settledAt < WINDOW || box.offset === null || box.offset > out || box.offset < -ret) {
    if (box.offset !== null && Math.abs(estimate - box.offset) > 0.001) note("clock moved", estimate - box.offset);
    box.offset = estimate;
    gliding = false;
  } else {                                            // still allowed: followed slowly
    const left = estimate - box.offset;
    if (Math.abs(left) > 0.001 && !gliding) note("clock gliding", left);
    gliding = Math.abs(left) > 0.001;
    box.offset += Math.sign(left) * Math.min(Math.abs(left), GLIDE * (back - lastSample));
  }
  lastSample = back;
  box.rtt = out + ret;
  if (box.settling) {                                 // the clock is known (again): follow the game
    box.settling = false;
    if (controlling) render();
    else if (box.state && box.state.night_id === box.nightId && !box.refused) apply(box.state);
  }
}

function report() {
  reported = inStep();
  send({type: "report", synced: box.offset !== null, rtt: box.rtt, playing: box.playing,
        error: box.error, trusted: box.trusted === true,
        loading: loading !== null, sound: soundOn(), awake: box.awake !== false});
}

function receive(message) {
  if (message.type === "pong") { clockSample(message); return; }
  if (message.type === "state") {
    if (message.language && message.language !== document.documentElement.lang) {
      location.reload();  // left open from a game in another language: this game's page, in its words
      return;
    }
    box.state = message;
    if (!controlling && message.night_id !== box.nightId) { loadNight(message.night_id); return; }
    if (!controlling) fetchClips(message.clips);
    if (box.offset !== null && !controlling && !box.refused) apply(message);
    render();
    return;
  }
  if (message.type === "delay" || message.type === "admitted") {  // its speaker's delay, as the controls page set it
    if (message.type === "admitted") letIn();
    if (box.unheard && message.unheard !== true) note("heard by the laptop", 0);
    box.unheard = message.unheard === true;
    if (message.seconds !== box.delayTarget) note("speaker delay set", message.seconds - box.delayTarget);
    box.delayTarget = message.seconds;
    if (!box.playing && !lines.length) box.delay = box.delayTarget;  // nothing sounds: at once
    if (message.code && ctx) decoded(codes, message.code, message.code).catch(() => {});  // ready for a round
    return;
  }
  if (message.type === "refused-tablet") { if (!controlling) turnedAway(message.message); return; }
  if (message.type === "say") { say(message.key, message.at); return; }
  if (message.type === "code") { playCode(message.url, message.at); return; }
  if (message.type === "heard") { heardOff(message.seconds); return; }
  if (message.type === "tablets") {
    box.tablets = message.tablets;
    box.listening = message.listening === true;
    render();
    return;
  }
  if (message.type === "done") {
    const opensDay = message.action === "start" && box.state && box.state.opens === "day";  // a game resumed in its day
    box.feedback = {action: message.action, text: opensDay ? TEXT.done_day : TEXT[`done_${message.action}`],
                    refused: false, at: now()};
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
  // (its page id: where the laptop listens, each tablet's night has a faint signature of its own under it)
  const response = await fetch(`/night.wav?night=${encodeURIComponent(id)}&page=${encodeURIComponent(pageId)}`,
                               {cache: "no-store"});
  const served = response.headers.get("X-Night-Id");
  const speech = JSON.parse(response.headers.get("X-Night-Speech") || "[]");
  const buffer = await ctx.decodeAudioData(await response.arrayBuffer());
  if (loading !== id) return;                         // a newer night came while this one loaded
  loading = null;
  if (served !== id) { loadNight(box.state.night_id); return; }   // the server changed under us: again
  night = buffer;
  box.speech = speech;
  box.nightId = id;
  box.nightLength = buffer.duration;
  resync("load");  // measured now, not while the night was downloading and decoding (that skews the samples)
  fetchClips(box.state.clips);
  render();
}

// The lines the day may say, fetched and decoded ahead (one fetched when it is due comes late).
function fetchClips(keys) {
  for (const key of keys || []) decoded(clips, key, `/clips/${encodeURIComponent(key)}.wav`);
}

// A sound fetched and decoded once into `cache[key]` (a promise), asked again next time if it failed.
function decoded(cache, key, url) {
  cache[key] = cache[key] || fetch(url, {cache: "no-store"}).then((response) => response.arrayBuffer())
    .then((data) => ctx.decodeAudioData(data)).catch((error) => { delete cache[key]; throw error; });
  return cache[key];
}

// The AudioContext's clock and the page's clock at one instant: the audio clock runs on the
// sound card's time, so map between them from timestamps the context itself gives. One timestamp
// can be off by several milliseconds on a busy machine (measured: a day line set from one came
// 10 ms late), and the two clocks drift apart only slowly: the median of the last five readings
// (half a second's: one every steering check) holds the mapping, and still follows a real step
// within a few checks.
//
// Measured through a real audio path (benchmarks/audiopath.py), the timestamps also lie for longer:
// after an output underrun, or when another program starts playing, they were off by 10-25 ms
// for seconds and a page steering by them moved the wrong way. So a reading that leaps from the
// recent ones (by LEAP) is not believed, nor the mapping, until SETTLE readings in a row agree
// again; meanwhile the page holds its course on the audio clock's own time (what it scheduled
// plays on, at its own speed: a slew under way stops, it was set by readings now in doubt), and
// corrects nothing smaller than a glitch's error (COARSE).
// Nor are they believed while they drift from the page's clock faster than any sound card's clock
// does (RAMP; probes here saw about 0.1 ms a second): PulseAudio's estimate of a new stream's
// latency was seen to creep by 1-9 ms a second for ten seconds after another program started. A glitch shows as the audio clock
// standing still (or leaping) against the page's between two checks: the readings from before
// it are dropped. After a glitch the timestamps were measured to step by 2-4 ms every 1.5 s for
// seconds, agreeing in between: a page that believed their first agreement moved 7.8 ms the wrong
// way, heard until the next steps took it back. So then they are believed only once they have
// agreed for FRESH. (Not after every doubt: a page's first seconds step alike, and waiting out
// each step there kept the pages from the laptop's first round for twice as long, 17 s.)
const stamps = [];
const STAMPS = 5;
let agreeing = 0;             // readings in a row that agree with the mapping
let readings = [];            // [page time, reading] over the last DRIFT_SPAN seconds, since the last leap
let lastRender = null;        // [audio clock, page clock] at the last check
let glitched = false;         // a glitch since the timestamps were last believed
let agreedAt = null;          // page time they have agreed (and not crept) since, or null
function audioAndPageTime() {
  const pageNow = now();
  const stamp = ctx.getOutputTimestamp ? ctx.getOutputTimestamp() : {performanceTime: 0};
  if (!(stamp.performanceTime > 0)) return [ctx.currentTime, pageNow];
  const reading = stamp.contextTime - stamp.performanceTime / 1000;
  const held = stamps.length ? median(stamps) : null;
  stamps.push(reading);
  if (stamps.length > STAMPS) stamps.shift();
  if (held !== null && Math.abs(reading - held) > LEAP) {
    note("timestamp leapt", reading - held);
    agreeing = 0;
    readings = [];
  } else {
    agreeing += 1;
  }
  readings.push([pageNow, reading]);
  while (readings[0][0] < pageNow - DRIFT_SPAN) readings.shift();
  const drift = box.creep = driftOf(readings);
  if (box.trusted && drift !== null && Math.abs(drift) > RAMP) note("timestamps drift (ms a second)", drift);
  box.agreed = agreeing >= STAMPS - (STAMPS >> 1);  // the median is theirs
  const agree = box.agreed && drift !== null && Math.abs(drift) <= RAMP;
  if (agree && glitched && agreedAt === null) note("timestamps agree after a glitch: believed if they hold", FRESH);
  agreedAt = agree ? agreedAt ?? pageNow : null;
  const trusted = agree && !(glitched && pageNow - agreedAt < FRESH);
  if (trusted && !box.trusted) note("timestamps agree", (reading - held) || 0);
  if (trusted) glitched = false;
  box.trusted = trusted;
  watchStillness(pageNow);
  return [pageNow + median(stamps), pageNow];
}

// How fast the readings move against the page's clock (a least-squares line), or null over too short a time.
function driftOf(points) {
  if (points.length < 3 || points[points.length - 1][0] - points[0][0] < SPAN) return null;
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxy = 0, sxx = 0;
  for (const [x, y] of points) { sxy += (x - mx) * (y - my); sxx += (x - mx) ** 2; }
  return sxy / sxx;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function forgetClock(why) {
  stamps.length = 0;
  agreeing = 0;
  readings = [];
  lastRender = null;
  if (why !== null && box.trusted) note(why, 0);
  agreedAt = null;
  box.trusted = box.agreed = false;
}

// Between two steering checks the audio clock moves as far as the page's (within a buffer or
// two); a glitch (an underrun, a machine too busy to feed the output) makes it stand still or leap.
function watchForGlitches(pageNow) {
  const render = [ctx.currentTime, pageNow];
  if (lastRender !== null) {
    const parted = (render[0] - lastRender[0]) - (render[1] - lastRender[1]);
    if (Math.abs(parted) > Math.max(GLITCH, 2 * (ctx.baseLatency || 0))) {  // (the clock moves a buffer at a time)
      note("glitch", parted);
      forgetClock(null);
      glitched = true;
    }
  }
  lastRender = render;
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
  const ctxAt = (serverTime) => ctxNow + (serverTime - heardAt(pageNow));
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
  let hushed = box.unheard;                            // (--listen) not heard by the laptop yet: silent
  if (when < earliest) {                               // joined or reloaded late: start mid-night...
    offset += earliest - when;
    when = earliest;
    hushed = true;                                     // ...unheard until it is known to be in step
  }
  const stopCtx = n.stop_time === null ? null : ctxAt(n.stop_time);
  if (offset >= night.duration || (stopCtx !== null && stopCtx <= when)) { render(); return; }
  play = sound(night, when, offset, stopCtx, (serverTime) => nightAt(box.state.night, serverTime), hushed);
  play.zero = zero;
  box.playing = true;
  box.hushed = hushed;
  box.error = 0;
  const startsAt = pageNow + (when - ctxNow) - offset;  // page time of the night's sample 0
  box.scheduledEpochStart = performance.timeOrigin / 1000 + startsAt;
  render();
}

// A run: `buffer` played from `offset` at AudioContext time `when` (until `stopCtx`), which should
// be at position `where(serverTime)` at every server time: the night follows the laptop's
// playhead, a day line runs from its moment. Faded in over a few milliseconds when it takes over
// from another run of the same sound, or silent while `hushed`.
//
// Why hush: a page that starts mid-night (a late join, a reload) was measured off by 10-15 ms for
// its first tenth of a second on a busy machine - its output timestamp steps just after it starts
// sounding - before steering brings it back. Played silent until a few checks agree, what is
// heard from it is in step from its first sample.
function sound(buffer, when, offset, stopCtx, where, hushed = false, fadeIn = false) {
  const source = ctx.createBufferSource();
  const gain = ctx.createGain();
  source.buffer = buffer;
  source.connect(gain);
  gain.connect(box.out);
  if (hushed) {
    gain.gain.value = 0;
  } else if (fadeIn) {
    gain.gain.setValueAtTime(0, when);
    gain.gain.linearRampToValueAtTime(1, when + FADE);
  }
  source.start(when, offset);
  if (stopCtx !== null) source.stop(stopCtx);
  const run = {buffer, source, gain, where, ctx0: when, pos0: offset, rate: 1, stopCtx, hushed, since: when,
               agreed: 0, error: 0, zero: null, doubt: null, jumped: -Infinity, believedFrom: null,
               heard: 0, heardAt: null, shifted: 0};
  source.onended = () => {
    gain.disconnect();
    if (play === run) { play = null; box.playing = box.hushed = false; }
    lines = lines.filter((line) => line !== run);
  };
  return run;
}

// Keep what plays on the laptop's time as the clock estimate improves (and as the sound card's
// clock drifts from the page's, or a busy machine makes it miss a beat): a touch faster or slower
// until it is back, never a jump one would hear, unless it is far off.
function steer() {
  if (!soundOn()) { lastRender = null; return; }     // its clock stands still: steered afresh when it runs
  if (box.playing) watchForGlitches(now()); else lastRender = null;
  const [ctxNow, pageNow] = audioAndPageTime();      // (read every time: it keeps the mapping fresh)
  if (!box.state || box.offset === null) return;
  moveDelay(pageNow);
  if (play) {
    play = steerRun(play, ctxNow, pageNow);
    box.error = play.error;
    box.hushed = play.hushed;
  }
  lines = lines.map((line) => steerRun(line, ctxNow, pageNow));
}

// A new speaker delay while something plays (issue 41, point 4): never a jump inside speech. It
// moves slowly, the runs following it by their speed alone (within a couple of ms), and what is
// left is taken at once where the night has no voice for a while (a cross-fade under the drums).
let delayMoved = null;       // page time of the last slow move
function moveDelay(pageNow) {
  if (box.delay === box.delayTarget) { delayMoved = null; return; }
  const left = box.delayTarget - box.delay;
  if (!box.playing && !lines.length) {
    box.delay = box.delayTarget;
    delayMoved = null;
    return;
  }
  if (play && !lines.length && box.trusted && quietAhead(play)) {
    box.delay = box.delayTarget;
    play.force = true;
    note("speaker delay taken in a quiet moment", left);
    delayMoved = null;
    return;
  }
  if (delayMoved === null) note("speaker delay moving slowly", left);
  const step = DELAY_SLEW * (delayMoved === null ? 0 : Math.max(0, pageNow - delayMoved));
  box.delay += Math.sign(left) * Math.min(Math.abs(left), step);
  delayMoved = pageNow;
}

// The night's voice is silent from where `run` plays now for QUIET_AHEAD (or the run is unheard).
function quietAhead(run) {
  if (run.hushed) return true;
  const here = run.pos0 + (ctx.currentTime - run.ctx0) * run.rate;
  return !box.speech.some(([from, to]) => from < here + QUIET_AHEAD && to > here - 0.05);
}

// One check of one run; returns the run that plays on (itself, or the one that took over).
function steerRun(run, ctxNow, pageNow) {
  const t = Math.max(ctxNow, ctx.currentTime) + 0.06;  // the moment a new speed takes effect (not yet rendered)
  if (t < run.ctx0 || (run.stopCtx !== null && t >= run.stopCtx)) return run;
  const here = run.pos0 + (t - run.ctx0) * run.rate;
  if (here >= run.buffer.duration) return run;
  const error = here - run.where(heardAt(pageNow + (t - ctxNow)));
  run.error = error;
  if (run.hushed && run === play && waitingToBeHeard(t)) {  // its hush counts from when it is heard
    run.since = t;
    run.believedFrom = null;
  }
  if (run.hushed && t - run.since >= HUSH_LONGEST) unhush(run, t, "heard, never settled", error);
  // The mapping in doubt: hold the course, unless it is far off (after a glitch, or a start set on a
  // mapping that was wrong: a lie was never seen that large, and a course that far off is heard)
  // and the median holds only readings taken since the last leap. Far off beyond what the laptop's
  // ear has moved it (run.shifted, less what is still to go): that much off by its timestamps is the
  // ear's doing, and taken back the ear would hear it off again and move it again, a jump every few
  // seconds.
  if (!box.trusted && !(box.agreed && Math.abs(error - (run.shifted - run.heard)) > COARSE)) {
    run.doubt = null;
    if (run.heard) return followHeard(run, t, here);   // (its course moved by what the laptop heard)
    if (run.rate !== 1) setRate(run, 1, t, here);
    return run;
  }
  if (run.heard) {                                     // its timestamps steer it again: they take it from here
    note(box.trusted ? "off as heard: left, timestamps believed" : "off as heard: left, far off by its timestamps",
         run.heard);
    run.heard = 0;
  }
  run.shifted = 0;
  if (run.hushed && box.trusted) {
    // Counted from the first check it could make: a page whose timestamps were in doubt for its
    // first seconds (a reload on a busy machine) was heard at the first check they were believed,
    // 1-15 ms off as they then said (benchmarks/README.md), before it could move unheard.
    if (run.believedFrom === null) run.believedFrom = t;
    run.agreed = Math.abs(error) <= AGREED ? run.agreed + 1 : 0;
    if (run.agreed >= AGREE && t - run.since >= HUSH) {  // in step: heard
      unhush(run, t, "heard", error);
    } else if (run.agreed > 0 && t - run.believedFrom >= HUSH_AT_MOST) {  // (close, if not for long)
      unhush(run, t, "heard, not settled", error);
    }
  }
  // A jump is heard: only on an error two checks in a row agree on, and not twice in CALM; but a
  // speaker delay taken in a quiet moment (run.force) is taken there and then.
  const forced = run.force === true && Math.abs(error) > IN_STEP;
  run.force = false;
  const far = forced || Math.abs(error) > (run.hushed ? AGREED : JUMP);
  const confirmed = run.hushed || forced || (run.doubt !== null && Math.abs(run.doubt - error) <= LEAP
                                             && t - run.jumped >= CALM);
  run.doubt = far ? error : null;
  if (far && confirmed) {  // far off (or unheard): cross-fade to where it should be
    note(run.hushed ? "moved unheard" : "cross-faded", error);
    return crossFade(run, t, here, error);
  }
  if (far || !box.trusted) return run;                 // (a jump waits for its confirmation)
  const rate = Math.abs(error) < 0.0003 ? 1 : 1 - Math.max(-SLEW, Math.min(SLEW, error / 1.0));
  if (rate === run.rate) return run;
  if (rate !== 1 && Math.sign(1 - rate) !== Math.sign(1 - run.rate)) note("slewed", error);
  setRate(run, rate, t, here);
  return run;
}

// The run `error` seconds ahead of where it should be (behind: negative) replaced at `t` by one
// where it should be, faded over FADE; returns it.
function crossFade(run, t, here, error) {
  if (!run.hushed) {
    run.gain.gain.setValueAtTime(1, t);
    run.gain.gain.linearRampToValueAtTime(0, t + FADE);
  }
  run.source.stop(t + FADE);
  const target = here - error;                         // (a line not due yet starts at its moment)
  const next = sound(run.buffer, t + Math.max(0, -target), Math.max(0, target), run.stopCtx, run.where,
                     run.hushed, true);
  Object.assign(next, {zero: run.zero, shifted: run.shifted, since: run.hushed ? run.since : next.since, jumped: t,
                       believedFrom: run.hushed ? run.believedFrom : null});
  if (run === play) play = next;                       // (the caller keeps it too; this keeps onended right)
  return next;
}

// --listen: the laptop heard this tablet `seconds` later than the others (earlier: negative), two
// reads agreeing, while its page held its course, its output's timestamps in doubt: what holds it
// there, the page cannot see (measured: a page in doubt for 14 s, 4-6 ms ahead, after a glitch; one
// 240 ms late for 11 s). Its course moves by it (followHeard) until its timestamps are believed
// again: from there they steer it, as ever. A page that believes them now leaves it to them (the
// laptop read it before they came back: they take it where they say, and the laptop reads it
// again there).
function heardOff(seconds) {
  if (controlling || !play || play.hushed) return;
  if (box.trusted) { note("off as heard: left to its timestamps", seconds); return; }
  note("off as heard", seconds);
  play.shifted += seconds - play.heard;                // (what was still to go of the last is replaced)
  play.heard = seconds;
  play.heardAt = null;
}

// One check of a run in doubt with a course to move by what the laptop heard (run.heard, seconds
// later than the others), as the page moves by its own timestamps: a touch faster or slower (SLEW;
// under SLEW × 1 s off, proportionally slower), or a cross-fade at once where it is heard JUMP or
// more off (two copies that far apart already sound doubled; not twice in CALM, unless COARSE) or
// where the voice is silent a while.
function followHeard(run, t, here) {
  if (run.heardAt !== null) run.heard -= (run.rate - 1) * (t - run.heardAt);  // (what its speed took since the last check)
  run.heardAt = t;
  if (Math.abs(run.heard) < 0.0003) {
    note("off as heard: done", run.heard);
    run.heard = 0;
    setRate(run, 1, t, here);
    return run;
  }
  const far = Math.abs(run.heard) >= COARSE || (Math.abs(run.heard) >= JUMP && t - run.jumped >= CALM);
  if (far || quietAhead(run)) {
    note(far ? "off as heard: taken at once" : "off as heard: taken in a quiet moment", run.heard);
    return crossFade(run, t, here, -run.heard);
  }
  const rate = 1 + Math.sign(run.heard) * Math.min(SLEW, Math.abs(run.heard));  // (the last 4 ms more slowly)
  if (rate !== run.rate) setRate(run, rate, t, here);
  return run;
}

function setRate(run, rate, t, here) {
  run.source.playbackRate.setValueAtTime(rate, t);
  Object.assign(run, {ctx0: t, pos0: here, rate});
}

// --listen: a tablet the laptop has not heard yet plays the night silent until a round of
// listening has set its speaker's delay (or the laptop says it could not hear it): what a page can
// see of its own latency was measured tens of ms off, and a late joiner would be heard that far
// from the others until its round. Its hush then ends as a late joiner's does, once in step.
// Never longer than UNHEARD_LONGEST (box.unheardLongest): a round that does not come leaves it playing as it is.
function waitingToBeHeard(t) {
  if (!box.unheard) { box.unheardFrom = null; return false; }
  if (box.unheardFrom === null) box.unheardFrom = t;
  if (t - box.unheardFrom < box.unheardLongest) return true;
  note("not heard by the laptop: plays as it is", 0);
  box.unheard = false;
  return false;
}

function unhush(run, t, why, error) {
  run.hushed = false;
  note(why, error);
  run.gain.gain.setValueAtTime(0, t);
  run.gain.gain.linearRampToValueAtTime(1, t + FADE);
}

function note(what, error) {
  box.events.push([performance.timeOrigin / 1000 + now(), what, Math.round(error * 1e4) / 10]);
  if (box.events.length > EVENTS) box.events.shift();
}

function stopNight() {
  if (play) { try { play.source.stop(); } catch (e) { /* already stopped */ } play.gain.disconnect(); play = null; }
  box.playing = box.hushed = false;
  box.error = null;
}

// A day line at server time `at`, steered like the night while it plays; one that comes late
// (fetched just now, a slow network) starts as far into the line as the others have got, so that
// it is said with them, not after them.
async function say(key, at) {
  box.lines.push({key, at});
  if (controlling || !ctx || box.offset === null) return;
  fetchClips([key]);
  let buffer;
  try { buffer = await clips[key]; } catch (error) { box.errors.push(String(error)); return; }
  const [ctxNow, pageNow] = audioAndPageTime();
  const when = ctxNow + (at - heardAt(pageNow));
  const earliest = Math.max(ctxNow, ctx.currentTime) + 0.02;  // what is already rendered cannot change
  const into = Math.max(0, earliest - when);
  if (into >= buffer.duration) return;
  lines.push(sound(buffer, when + into, into, null, (serverTime) => serverTime - at));
}

// The laptop listens (--listen): this tablet's code, heard at each server time in `at` as the
// night would be (its speaker's delay counted), unsteered: where the laptop hears it says how late
// this tablet really sounds.
const codes = {};
async function playCode(url, at) {
  for (const moment of at) playCodeAt(url, moment);
}

async function playCodeAt(url, at) {
  if (controlling || !ctx) return;
  let buffer;
  try { buffer = await decoded(codes, url, url); } catch (error) { box.errors.push(String(error)); return; }
  // Each play is placed a moment before it sounds, by the clock and timestamps as they are then:
  // a doubt that came and went since the laptop told this page costs it no play, and one that
  // comes meanwhile is seen.
  const wait = box.offset === null ? 0 : at - heardAt(now()) - PLACE_AHEAD;
  if (wait > 0) await new Promise((resolve) => { setTimeout(resolve, wait * 1000); });
  if (controlling || !ctx) return;
  // A code played on a mapping the page doubts would set its delay by the doubt: better unheard,
  // and the laptop told, so that it tries this tablet again rather than take its sound to be down.
  // But not for every doubt: a page's first seconds are full of small ones (timestamps that step
  // by 2-8 ms every second and a half, or creep under a ms a second: measured, for up to 13 s
  // after joining), and a page that waited each out kept the laptop's first round from it (17 s
  // to set every tablet where 8 s was usual). With the last readings within DOUBT_SPREAD of each
  // other (the mapping is their median) and creeping slowly, it is played: measured, such plays
  // set a tablet up to 16.5 ms off (the steps go one way and shrink: a play is off by those still
  // to come, not by the spread), where trusted ones set it within 2 ms, and every tablet was set
  // 8.3 s after joining in 21 of 24 nights. The laptop, told, listens to such a tablet again once
  // its readings hold still (watchStillness): every night then began within 2 ms
  // (benchmarks/README.md).
  if (box.offset === null) { leaveOutCode("code not played: clock not known", 0); return; }
  if (!soundOn()) { leaveOutCode("code not played: sound off", 0); return; }
  // (read before the doubt is judged: a reading that leaps here puts the page in doubt now, and a
  // code judged on the check before it was once played in a 10 ms doubt, on a fresh Debian 12 root)
  const [ctxNow, pageNow] = audioAndPageTime();
  if (!box.trusted && !smallDoubt()) { leaveOutCode("code not played: timestamps in doubt", 0); return; }
  const when = ctxNow + (at - heardAt(pageNow));
  if (when < Math.max(ctxNow, ctx.currentTime) + 0.02) { leaveOutCode("code came too late", when - ctxNow); return; }
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(box.out);
  source.start(when);
  if (box.trusted) { note("code played", 0); return; }
  note("code played in doubt (readings within, ms)", spread());
  playedInDoubt = true;  // (the laptop listens again once they hold still: watchStillness)
  send({type: "code in doubt"});
}

// Timestamps in doubt by a little: the last readings close together, creeping slowly, and not just
// after a glitch (then they step by ms for seconds).
function smallDoubt() {
  return !glitched && stamps.length >= 3 && spread() <= DOUBT_SPREAD &&
    (box.creep === null || Math.abs(box.creep) <= DOUBT_CREEP);
}

function spread() {
  return stamps.length ? Math.max(...stamps) - Math.min(...stamps) : Infinity;
}

// A tablet set by a code played in doubt may be a few ms off: the page's first seconds step one
// way in shrinking steps, and such a play is off by the steps still to come. Once its readings
// hold still (within STILL, trusted, for STILL_FOR: past those steps), the page says so, and
// the laptop listens to it again.
let playedInDoubt = false;    // a code played in doubt since the page last said its timestamps hold still
let stillSince = null;        // page time the readings have held still since, or null
function watchStillness(pageNow) {
  stillSince = box.trusted && spread() <= STILL ? stillSince ?? pageNow : null;
  if (!playedInDoubt || stillSince === null || pageNow - stillSince < STILL_FOR) return;
  playedInDoubt = false;
  note("timestamps hold still: the laptop may listen again", 0);
  send({type: "still"});
}

function leaveOutCode(why, error) {
  note(why, error);
  send({type: "code left out"});
}

// --- the screen ----------------------------------------------------------------------------------

function render() {
  const state = box.state;
  const stale = box.connection === "stale";
  const trouble = stale || box.connection === "lost" && !(state && state.stage === "result" && state.final);
  $("trouble").hidden = !trouble;
  $("box").hidden = trouble || (!controlling && !ctx);
  if (trouble) {
    $("trouble-title").textContent = stale ? TEXT.stale : TEXT.lost;
    $("trouble-hint").textContent = stale ? TEXT.stale_hint : TEXT.lost_hint;
    $("trouble-retry").textContent = stale ? "" : fill(TEXT.lost_retry, {seconds: Math.round(now() - (lostSince || now()))});
    return;
  }
  renderStatus();
  if (controlling) renderControls();
  document.body.classList.remove("paused", "vote", "silent");
  const screen = !controlling && box.refused ? {title: TEXT.refused, hint: `${box.refused}\n${TEXT.refused_hint}`, mood: "silent"}
    : !controlling && ctx && !soundOn() ? {title: TEXT.sound_off, hint: TEXT.sound_off_hint, mood: "silent"}
    : !state ? {title: "", hint: ""} : loading !== null && !controlling ? {title: TEXT.loading, hint: ""}
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
    if (controlling) {
      const hint = {deal: TEXT.waiting_deal, "go-on": TEXT.waiting_go_on}[state.waiting_for] || TEXT.waiting_control;
      return {title: TEXT.waiting, hint};
    }
    return {title: TEXT.waiting, hint: box.awake === false ? `${TEXT.waiting_hint}\n\n${TEXT.may_lock}` : TEXT.waiting_hint};
  }
  if (state.stage === "night") {
    const n = state.night;
    const position = known ? nightAt(n, serverNow()) : n.anchor_offset;
    box.position = position;
    const done = Math.max(0, Math.min(1, position / n.length));
    // played to its end (or skipped to it) is not paused: the night waits for what comes next
    const paused = position >= n.length ? false : n.running ? n.stop_time !== null && known && serverNow() >= n.stop_time
      : true;
    // A night played a turn at a time (a moderator's) has no share to show: each turn comes as a
    // night of its own, and its percentage would start again at every turn.
    const whole = !state.in_parts;
    const percent = whole ? fill(TEXT.night_done, {percent: Math.floor(done * 100)}) : "";
    const shown = whole ? done : undefined;
    if (paused) {
      return {title: TEXT.paused, big: "❚❚", hint: [percent, TEXT.paused_hint].filter(Boolean).join(" · "), done: shown,
              mood: "paused"};
    }
    const phase = controlling ? (n.phases.filter((p) => p.start <= position).pop() || {label: ""}).label : "";
    return {title: TEXT.night, hint: controlling ? [percent, phase].filter(Boolean).join(" · ")
      : [TEXT.night_hint, percent].filter(Boolean).join(" "), done: shown};
  }
  if (state.stage === "day") {
    const day = state.day;
    if (day.voting) return {title: TEXT.day, big: TEXT.vote, mood: "vote"};
    if (day.deadline === null && day.paused_left === null) return {title: TEXT.day, hint: TEXT.day_open};  // off the clock
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

function soundOn() {
  return ctx !== null && ctx.state === "running";
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function renderStatus() {
  if (box.connection === "lost") { setStatus(""); return; }  // the game is over and the laptop has closed
  if (!controlling && ctx && !soundOn()) { setStatus(""); return; }  // not "in step": it plays nothing
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
  $("listen").addEventListener("click", () => {
  box.feedback = {action: "listen", text: TEXT.sending, refused: false, at: now()};
  render();
  send({type: "control", token, action: "listen"});
});
document.querySelectorAll("#controls button").forEach((button) => {
    button.hidden = !actions.includes(button.dataset.action);
  });
  const next = document.querySelector("#controls button[data-action=next]");
  const stage = box.state ? box.state.stage : "night";
  const ready = nextArmed() && armed.stage === stage;
  next.textContent = ready ? TEXT[`confirm_next_${stage}`] : TEXT[`next_${stage}`] || TEXT.next_night;
  next.classList.toggle("armed", ready);
  $("controls").hidden = actions.length === 0;
  if (box.feedback && now() - box.feedback.at > FEEDBACK) box.feedback = null;  // said, and seen
  const feedback = box.feedback;
  $("feedback").hidden = !feedback;
  if (feedback) {
    $("feedback").textContent = feedback.text;
    $("feedback").classList.toggle("refused", feedback.refused);
  }
  $("listen").hidden = !box.listening;
  const list = $("tablets");
  if (!box.tablets.length) {
    listed.clear();
    list.replaceChildren(Object.assign(document.createElement("li"), {textContent: TEXT.no_tablets}));
    return;
  }
  const items = box.tablets.map((tablet) => {
    const [mood, text] = tabletLine(tablet);
    const item = listed.get(tablet.n) || tabletItem(tablet.n);
    item.className = mood;
    // The speaker delay is the moderator's own setting: shown whatever the tablet is doing, so a
    // step pressed while it connects is seen to have taken.
    const delay = (tablet.delay_ms ? ` · ${fill(TEXT.tablet_delay, {ms: milliseconds.format(tablet.delay_ms)})}` : "")
      + (tablet.missed ? ` · ${TEXT.tablet_missed}` : "");
    item.firstChild.textContent = `${fill(TEXT.tablet, {n: tablet.n})} · ${text}${delay}`;
    return item;
  });
  for (const n of [...listed.keys()]) if (!box.tablets.some((tablet) => tablet.n === n)) listed.delete(n);
  // Rows are changed in place, and put in again only when the list changed: a row made afresh
  // under a finger would lose the tap on its Remove button.
  const shown = [...list.children];
  if (items.length !== shown.length || items.some((item, i) => item !== shown[i])) list.replaceChildren(...items);
}

const listed = new Map();    // the controls page's rows, by tablet number
function tabletItem(n) {
  const item = document.createElement("li");
  const remove = Object.assign(document.createElement("button"), {type: "button", className: "remove",
                                                                  textContent: TEXT.remove});
  remove.addEventListener("click", () => {
    box.feedback = {action: "remove", text: TEXT.sending, refused: false, at: now()};
    render();
    send({type: "control", token, action: "remove", tablet: n});
  });
  const delays = [-100, -10, 10, 100].map((step) => {
    const button = Object.assign(document.createElement("button"), {type: "button", className: "delay",
                                                                    title: TEXT.delay_hint,
                                                                    textContent: `${step > 0 ? "+" : "−"}${Math.abs(step)} ms`});
    button.addEventListener("click", () => {
      const tablet = box.tablets.find((listed) => listed.n === n);
      box.feedback = {action: "delay", text: TEXT.sending, refused: false, at: now()};
      render();
      send({type: "control", token, action: "delay", tablet: n, ms: ((tablet && tablet.delay_ms) || 0) + step});
    });
    return button;
  });
  item.append(document.createElement("span"), ...delays, remove);
  listed.set(n, item);
  return item;
}

function tabletLine(tablet) {
  if (tablet.refused) return ["bad", fill(TEXT.tablet_refused, {seconds: tablet.waiting})];
  if (!tablet.connected) return ["bad", TEXT.tablet_gone];
  if (tablet.silent >= SILENCE) return ["bad", fill(TEXT.tablet_silent, {seconds: Math.round(tablet.silent)})];
  if (tablet.sound_off) return ["bad", TEXT.tablet_sound_off];
  if (tablet.loading) return ["poor", TEXT.tablet_loading];
  if (tablet.unheard && tablet.playing) return ["poor", TEXT.tablet_unheard];
  if (!tablet.synced) return ["poor", TEXT.connecting];
  if (tablet.playing && tablet.error !== null && Math.abs(tablet.error) > IN_STEP) {
    return ["poor", fill(TEXT.tablet_catching_up, {ms: Math.round(Math.abs(tablet.error) * 1000)})];
  }
  const lock = tablet.may_lock ? ` · ${TEXT.tablet_may_lock}` : "";
  if (tablet.playing) return ["good", fill(TEXT.tablet_in_step, {ms: Math.max(1, Math.round(tablet.rtt * 500))}) + lock];
  return ["good", TEXT.tablet_ready + lock];
}

function setStatus(text, trouble = false) {
  $("status").textContent = text;
  $("status").classList.toggle("trouble", trouble);
}

// The screen stays on while a game runs. Browsers keep it on only for a secure page (https, or the
// laptop itself), and the tablets open plain http on the local network: where they cannot, the
// page says to set the tablet's screen to stay on, as some (iPads) stop a locked tablet's sound.
async function keepAwake() {
  if (controlling) return;
  let awake = false;
  if ("wakeLock" in navigator) {
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      awake = true;
    } catch (e) { box.errors.push(String(e)); }
  }
  box.awake = awake;
  render();
  report();
}
