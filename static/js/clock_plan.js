// The tournament clock computed on the device (issue 20), with the same rules as events/services/clock.py:
// from the "plan" (clock/plan/: the blind structure, the start time, the pauses and skips, the level at whose
// end absent players' chips come off) and the server's time now, the state the clock's JSON endpoint would
// send. The clock page and the console use it when the server cannot be reached.
(function () {
  "use strict";

  function compute(plan, last, nowMs) {
    var s = plan.structure;
    if (!s || !s.length) return null;
    var started = plan.started_at !== null;
    var elapsed = 0;
    if (started) {
      var until = plan.paused_at !== null ? plan.paused_at : nowMs;
      elapsed = Math.max(0, (until - plan.started_at) / 1000 - plan.paused_seconds + plan.shift_seconds);
    }
    var starts = [], t = 0, i;
    for (i = 0; i < s.length; i++) { starts.push(t); if (s[i].minutes !== null) t += s[i].minutes * 60; }
    var index = 0;
    for (i = 0; i < s.length; i++) {
      if (elapsed >= starts[i]) index = i;
      if (s[i].minutes === null && elapsed >= starts[i]) break;  // an entry with no end swallows the rest
    }
    var cur = s[index];
    var exact = cur.minutes === null ? null : Math.max(0, starts[index] + cur.minutes * 60 - elapsed);
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
      if (seen === plan.late_arrival_levels) { deadline = s[i].minutes === null ? null : starts[i] + s[i].minutes * 60; break; }
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
      seconds_to_next_break: breakAt === null ? null : Math.max(0, Math.round(starts[breakAt] - elapsed)),
      absent: absent,
      late_arrival_levels: plan.late_arrival_levels,
      late_arrival_due: !!(absent.length && deadline !== null && started && elapsed >= deadline),
    });
  }

  window.ncpcClockPlan = { compute: compute };
})();
