// Tournament clock (SPEC §4). The server keeps the state; this page polls it every couple of seconds and
// counts down locally in between from the server's exact seconds left, so every screen shows the same time.
// A beep (WebAudio) and a screen flash mark each level change. No inline script: CSP allows only our files.
// Offline (issue 20): the page keeps the blind structure, the start time, the pauses and skips (the "plan",
// from clock/plan/) in localStorage, and when the server cannot be reached it computes the level, the time
// left, the next break and the chip-removal notice itself. The clock's arithmetic, the plan's fetch and the
// time texts are static/js/clock_plan.js (window.ncpcClockPlan), shared with the night console.
(function () {
  "use strict";
  var root = document.getElementById("clock");
  var clockPlan = window.ncpcClockPlan;
  if (!root || !clockPlan) return;
  var stateUrl = root.dataset.stateUrl;
  var pollMs = parseInt(root.dataset.pollMs, 10) || 2000;
  var state = JSON.parse(document.getElementById("clock-state").textContent);
  var receivedAt = performance.now();
  var lastIndex = state.started ? state.index : null;
  var lastStarted = state.started;
  var endPolled = false;
  var audio = null;
  var soundOn = false;
  var failures = 0;
  var planUrl = root.dataset.planUrl;
  var storeKey = "ncpc-clock:" + stateUrl;
  var stored = load();  // {plan, last (the last state heard), heard (ms)}
  var offline = false;

  function field(name) { return root.querySelector('[data-field="' + name + '"]'); }
  function setText(name, text) { var el = field(name); if (el && el.textContent !== text) el.textContent = text; }
  var thousands = clockPlan.thousands;
  var clockText = clockPlan.clockText;
  var hhmmss = clockPlan.hhmmss;
  // "Last heard" in the club's time zone (data-time-zone), as the console shows it, whatever the phone's zone.
  var clubClock = null;
  try {
    clubClock = new Intl.DateTimeFormat("en-GB", {
      timeZone: root.dataset.timeZone || undefined, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
    });
  } catch (e) { clubClock = null; }
  function clubTime(ms) { return clubClock ? clubClock.format(new Date(ms)) : hhmmss(ms); }
  function blinds(level) { return thousands(level.small_blind) + " / " + thousands(level.big_blind); }

  function secondsLeft() {
    if (state.seconds_left_exact === null || state.seconds_left_exact === undefined) return null;
    var s = state.seconds_left_exact;
    if (state.running) s -= (performance.now() - receivedAt) / 1000;
    return Math.max(0, s);
  }

  // Time to the next break on the same count as the time left: the server rounds both to whole seconds and the
  // time left is shown from its exact value, so the break is counted from that value too.
  function breakExact(c) {
    var s = c.seconds_to_next_break;
    if (s === null || s === undefined) return null;
    if (typeof c.seconds_left_exact === "number" && typeof c.seconds_left === "number") s += c.seconds_left_exact - c.seconds_left;
    return Math.max(0, s);
  }

  function load() {
    try { return JSON.parse(window.localStorage.getItem(storeKey)) || {}; } catch (e) { return {}; }
  }
  function save() {
    try { window.localStorage.setItem(storeKey, JSON.stringify(stored)); } catch (e) { /* private mode: no offline clock */ }
  }
  function fetchPlan() {
    clockPlan.fetchPlan(planUrl, function (plan) {
      stored.plan = plan;
      save();
    });
  }

  function goOffline() {
    offline = !!(stored.plan && stored.plan.structure);
    setText("connection", (offline ? "Offline: the clock runs on this device" : "Offline: showing the last known time") +
      (stored.heard ? " · last heard " + clubTime(stored.heard) : ""));
    root.classList.toggle("is-offline", true);
  }

  function tick() {
    if (offline && stored.plan) {
      var next = clockPlan.compute(stored.plan, stored.last || state, Date.now() + (stored.plan.offset || 0));
      if (next) { apply(next); return; }
    }
    render();
  }

  function render() {
    var left = secondsLeft();
    setText("level", state.kind === "break" ? "Break" : "Level " + state.level_number);
    setText("time", clockText(left));
    setText("status", state.final ? "Results final" : !state.started ? "Not started" : state.paused ? "Paused" : "");
    root.classList.toggle("is-paused", !!state.paused);
    root.classList.toggle("is-break", state.kind === "break");
    setText("blinds", state.kind === "break" ? (state.note || "Break") : blinds(state));
    setText("ante", state.ante ? "Ante " + thousands(state.ante) : "");
    setText("next-level", state.next_level ? blinds(state.next_level) + (state.next_level.ante ? " ante " + thousands(state.next_level.ante) : "") : "–");
    if (state.next_break) {
      var toBreak = breakExact(state);
      if (state.running && toBreak !== null) toBreak = Math.max(0, toBreak - (performance.now() - receivedAt) / 1000);
      setText("next-break", "in " + clockText(toBreak));
      setText("next-break-note", state.next_break.minutes + " min" + (state.next_break.note ? " · " + state.next_break.note : ""));
    } else {
      setText("next-break", "–");
      setText("next-break-note", "");
    }
    setText("players", state.players_left + " / " + state.players_started);
    setText("average", state.average_stack ? thousands(state.average_stack) : "–");
    var prizes = state.prizes || { places: [] };
    var prizeBox = field("prizes");
    if (prizeBox) prizeBox.hidden = !prizes.places.length;
    setText("prize-pool", prizes.pool || "");
    setText("prize-places", prizes.places.map(function (line) { return line.place + ". " + line.amount; }).join(" · "));
    var absent = field("absent");
    if (absent) absent.hidden = !state.absent.length;
    setText("absent-names", state.absent.join(", "));
    var prompt = field("late-prompt");
    if (prompt) prompt.hidden = !state.late_arrival_due;
    root.querySelectorAll("input[name=version]").forEach(function (input) { input.value = state.version; });
    var show = {
      start: !state.started,
      pause: state.running,
      resume: state.paused,
      skip: state.started,
      back: state.started,
    };
    root.querySelectorAll("[data-clock-action]").forEach(function (button) {
      button.hidden = !show[button.dataset.clockAction] || state.final;
    });
    if (!offline && state.running && left !== null && left <= 0 && !endPolled) {
      endPolled = true;  // the level is over: ask the server at once for the next one
      poll();
    }
  }

  function beep() {
    if (!soundOn || !audio) return;
    [0, 0.35, 0.7].forEach(function (at) {
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, audio.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.4, audio.currentTime + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + at + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + at);
      osc.stop(audio.currentTime + at + 0.32);
    });
  }

  function signal() {
    root.classList.remove("flash");
    void root.offsetWidth;  // restart the animation
    root.classList.add("flash");
    beep();
  }

  function apply(next) {
    var levelChanged = lastIndex !== null && next.started && next.index !== lastIndex;
    state = next;
    receivedAt = performance.now();
    endPolled = false;
    if (levelChanged || (next.started && !lastStarted)) signal();
    lastIndex = next.started ? next.index : null;
    lastStarted = next.started;
    render();
  }

  // Every poll but these asks "since" the state shown and gets 204 (no body) while only the time has moved:
  // the first, the one at a level's end (endPolled), after the phone wakes or the network comes back, and one
  // in FULL_EVERY as a check on the local countdown.
  var FULL_EVERY = 15;
  var pollsSinceFull = 0;
  function poll(whole) {
    var full = whole === true || endPolled || failures > 0 || offline || !state.since || pollsSinceFull >= FULL_EVERY - 1;
    pollsSinceFull = full ? 0 : pollsSinceFull + 1;
    var url = full ? stateUrl : stateUrl + (stateUrl.indexOf("?") < 0 ? "?" : "&") + "since=" + encodeURIComponent(state.since);
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.status === 204 ? null : response.json();
      })
      .then(function (next) {
        failures = 0;
        offline = false;
        root.classList.toggle("is-offline", false);
        setText("connection", "");
        stored.heard = Date.now();
        if (next === null) { save(); return; }  // nothing changed: the page goes on counting down
        if (!stored.plan || stored.plan.version !== next.version) fetchPlan();
        stored.last = next;
        save();
        apply(next);
      })
      .catch(function () {
        failures += 1;
        goOffline();
      });
  }

  root.querySelectorAll("form[data-clock-form]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      // Asked here, before sending (ncpc.js's document-wide handler would ask after this one has sent).
      event.stopPropagation();
      var ask = event.submitter && event.submitter.getAttribute("data-confirm");
      if (ask && !window.confirm(ask)) return;
      var data = new FormData(form);
      if (event.submitter) data.set("action", event.submitter.value);
      setText("error", "");
      fetch(form.getAttribute("action"), {  // form.action would be the buttons named "action"
        method: "POST",
        body: data,
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      })
        .then(function (response) { return response.json(); })
        .then(function (answer) {
          if (answer.error) setText("error", answer.error);
          if (answer.state) apply(answer.state);
        })
        .catch(function () { setText("error", "The clock did not answer: try again."); });
    });
  });

  var soundButton = root.querySelector("[data-sound]");
  if (soundButton) {
    soundButton.addEventListener("click", function () {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!audio && Ctx) audio = new Ctx();
      if (audio && audio.state === "suspended") audio.resume();
      soundOn = !soundOn;
      soundButton.textContent = "Sound: " + (soundOn ? "on" : "off");
      if (soundOn) beep();
    });
  }
  var fullButton = root.querySelector("[data-fullscreen]");
  if (fullButton) {
    fullButton.addEventListener("click", function () {
      if (document.fullscreenElement) document.exitFullscreen();
      else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
    });
  }

  // Loaded from the device's copy (no network): what this device last heard is newer than the page.
  // (Both times are the server's.) Otherwise the page itself is the last word heard from the server.
  if (stored.last && stored.last.server_time > state.server_time) {
    state = stored.last;
    lastIndex = state.started ? state.index : null;
    lastStarted = state.started;
    poll(true);
  } else {
    stored.last = state;
    stored.heard = Date.now();
    save();
  }
  fetchPlan();
  render();
  setInterval(tick, 200);
  setInterval(poll, pollMs);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(true); });
})();
