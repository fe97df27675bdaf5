// Runs the device's clock (static/js/clock_plan.js) on every case of tests/events/test_clock_plan_js.py in one
// Node process: reads {"compute": [[plan, last, nowMs], ...], "change": [[plan, last, [[what, atMs], ...]], ...]}
// as JSON on stdin and writes {"compute": [state, ...], "change": [plan, ...]} on stdout.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

global.window = {};
const script = path.join(__dirname, "..", "..", "static", "js", "clock_plan.js");
vm.runInThisContext(fs.readFileSync(script, "utf8"), { filename: script });
const clock = global.window.ncpcClockPlan;

const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const out = {
  compute: (cases.compute || []).map(([plan, last, nowMs]) => clock.compute(plan, last, nowMs)),
  change: (cases.change || []).map(([plan, last, changes]) =>
    changes.reduce((p, [what, atMs]) => clock.change(p, last, what, atMs), plan)
  ),
};
process.stdout.write(JSON.stringify(out));
