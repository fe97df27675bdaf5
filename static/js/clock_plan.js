// The tournament clock on the device: the one JavaScript copy of the clock's arithmetic, loaded by the TV clock
// (events/static/events/clock.js) and the night console (events/static/events/console.js) before their own file.
// Same rules as events/services/clock.py: from the "plan" (clock/plan/: the blind structure, the start time, the
// pauses and skips, the level at whose end absent players' chips come off) and the server's time now, the state
// the clock's JSON endpoint would send. Both pages use it when the server cannot be reached.
//
// window.ncpcClockPlan = {
//   compute(plan, last, nowMs): the clock's state (as the clock's JSON) at nowMs, or null without a structure;
//   change(plan, last, what, atMs): the plan after a clock change ("start", "pause", "resume", "skip", "back")
//     made at atMs, as the server's clock_command applies it (a change it would refuse leaves the plan as is);
//   starts(structure): the second of play at which each entry of the structure starts;
//   fetchPlan(url, done): ask the server for the plan; done(plan) with plan.offset (the server's clock minus
//     this device's) when it answers, nothing otherwise;
//   clockText(seconds): "12:05", "1:02:05", or "∞" for none; hhmmss(ms); thousands(n) }
(function () {
  "use strict";

  function starts(structure) {
    var out = [], t = 0;
    structure.forEach(function (level) { out.push(t); if (level.minutes !== null) t += level.minutes * 60; });
    return out;
  }

  function compute(plan, last, nowMs) {
    var s = plan.structure;
    if (!s || !s.length) return null;
    var started = plan.started_at !== null;
    var elapsed = 0;
    if (started) {
      var until = plan.paused_at !== null ? plan.paused_at : nowMs;
      elapsed = Math.max(0, (until - plan.started_at) / 1000 - plan.paused_seconds + plan.shift_seconds);
    }
    var at = starts(s), i;
    var index = 0;
    for (i = 0; i < s.length; i++) {
      if (elapsed >= at[i]) index = i;
      if (s[i].minutes === null && elapsed >= at[i]) break;  // an entry with no end swallows the rest
    }
    var cur = s[index];
    var exact = cur.minutes === null ? null : Math.max(0, at[index] + cur.minutes * 60 - elapsed);
    var levelNumber = null;
    if (cur.kind === "level") {
      levelNumber = 0;
      for (i = 0; i <= index; i++) if (s[i].kind === "level") levelNumber += 1;
    }
    var nextLevel = null, nextBreak = null, breakAt = null;
    for (i = index + 1; i < s.length; i++) {
      if (!nextLevel && s[i].kind === "level") nextLevel = s[i];
      if (breakAt === null && s[i].kind === "break") { breakAt = i; nextBreak = s[i]; }
    }
    var deadline = null, seen = 0;  // end of level late_arrival_levels: absent players' chips come off
    for (i = 0; i < s.length; i++) {
      if (s[i].kind !== "level") continue;
      seen += 1;
      if (seen === plan.late_arrival_levels) { deadline = s[i].minutes === null ? null : at[i] + s[i].minutes * 60; break; }
    }
    var absent = (last && last.absent) || [];
    return Object.assign({}, last || {}, {
      version: plan.version,
      started: started,
      running: started && plan.paused_at === null,
      paused: plan.paused_at !== null,
      index: index,
      kind: cur.kind,
      level_number: levelNumber,
      small_blind: cur.small_blind,
      big_blind: cur.big_blind,
      ante: cur.ante,
      note: cur.note,
      minutes: cur.minutes,
      seconds_left: exact === null ? null : Math.round(exact),
      seconds_left_exact: exact,
      next_level: nextLevel,
      next_break: nextBreak,
      seconds_to_next_break: breakAt === null ? null : Math.max(0, Math.round(at[breakAt] - elapsed)),
      absent: absent,
      late_arrival_levels: plan.late_arrival_levels,
      late_arrival_due: !!(absent.length && deadline !== null && started && elapsed >= deadline),
    });
  }

  function change(plan, last, what, atMs) {
    var p = Object.assign({}, plan);
    if (what === "start" && p.started_at === null) p.started_at = atMs;
    else if (what === "pause" && p.started_at !== null && p.paused_at === null) p.paused_at = atMs;
    else if (what === "resume" && p.paused_at !== null) {
      p.paused_seconds += Math.max(0, (atMs - p.paused_at) / 1000);
      p.paused_at = null;
    } else if (what === "skip" || what === "back") {
      var view = compute(p, last, atMs);
      if (!view || !view.started) return p;
      var s = starts(p.structure);
      var cur = p.structure[view.index];
      if (cur.minutes === null) return p;  // an entry with no end: the server keeps it too
      var elapsed = s[view.index] + cur.minutes * 60 - view.seconds_left_exact;
      if (what === "skip" && view.index + 1 < s.length) p.shift_seconds += s[view.index + 1] - elapsed;
      if (what === "back") p.shift_seconds += s[Math.max(0, view.index - 1)] - elapsed;
    }
    return p;
  }

  function fetchPlan(url, done) {
    if (!url) return;
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (plan) {
        plan.offset = plan.server_time - Date.now();  // the server's clock minus this device's
        done(plan);
      })
      .catch(function () { /* the kept plan, if any */ });
  }

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "∞";
    var total = Math.max(0, Math.ceil(seconds - 0.0005));
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), sec = total % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(sec).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  function hhmmss(ms) {
    var d = new Date(ms);
    return [d.getHours(), d.getMinutes(), d.getSeconds()].map(function (n) { return String(n).padStart(2, "0"); }).join(":");
  }

  function thousands(n) { return (n || 0).toLocaleString("en-US"); }

  window.ncpcClockPlan = {
    compute: compute,
    change: change,
    starts: starts,
    fetchPlan: fetchPlan,
    clockText: clockText,
    hhmmss: hhmmss,
    thousands: thousands,
  };
})();
