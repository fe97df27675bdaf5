// The night console (issue 19): attendance, seats and tables, the clock and bust entry on one live screen.
//
// How it works
//   The page is rendered by the server and works without this file: every button is a plain <form> posting
//   one action to the act URL (data-act-url), with the night's version ("results.clock.seats") it showed.
//   This file makes it live:
//   - poll(): every data-poll-ms (1 s) it asks data-state-url?since=<version>. 204 = unchanged (cheap);
//     otherwise the JSON state, which render() puts on the screen. Every 10 s (and when a clock level ends)
//     it asks without "since", so what the clock alone changes (late-arrival windows) shows too.
//   - A submitted console form becomes send(action) — one POST, no page load — and its answer's state is
//     rendered at once. A refused action (409: the page was out of date, e.g. another officer recorded that
//     bust) shows the reason and the fresh state.
//   - The clock counts down locally between polls from the server's exact seconds left.
//
// The seam (for the offline queue, issue 19 / h20): window.ncpcConsole = {send, render, poll, state}.
//   send(action): action is a FormData (or a plain object) with "action", "version" and the action's fields
//     ("player", "hand", "attendance", "to_table", "to_seat", "table", "seat", "called_at", "confirm").
//     Returns a Promise of the answer {ok, message, error, conflict, state}; it rejects only when the server
//     could not be reached (a network error), never for a refusal.
//   render(state): puts a state on the screen. A state is what the state endpoint sends: JSON values (version,
//     versions, clock, tables, move, busts, away, …) plus html = {clock, attendance, tables, busts}, the
//     rendered parts, which replace the [data-part] sections (a section holding the focused field waits until
//     the officer leaves it).
// No inline script: the Content-Security-Policy allows only our files.
(function () {
  "use strict";
  var root = document.getElementById("console");
  if (!root) return;
  var stateUrl = root.dataset.stateUrl;
  var actUrl = root.dataset.actUrl;
  var doorUrl = root.dataset.doorUrl;
  var pollMs = parseInt(root.dataset.pollMs, 10) || 1000;
  var state = JSON.parse(document.getElementById("console-state").textContent);
  var receivedAt = performance.now();
  var shown = {};  // part -> the html last put on the screen
  var waiting = {};  // part -> html waiting for the officer to leave a field of that part
  var failures = 0;
  var inFlight = false;
  var lastFull = performance.now();
  var endAsked = false;

  function csrfToken() {
    var input = root.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "∞";
    var total = Math.max(0, Math.ceil(seconds - 0.0005));
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  function sinceReceived(seconds) {
    var clock = state.clock;
    if (seconds === null || seconds === undefined || !clock) return null;
    if (clock.running) seconds -= (performance.now() - receivedAt) / 1000;
    return Math.max(0, seconds);
  }

  function tick() {
    var clock = state.clock;
    if (!clock) return;
    var left = sinceReceived(clock.seconds_left_exact);
    var time = root.querySelector('[data-clock="time"]');
    if (time) {
      var text = clockText(left);
      if (time.textContent !== text) time.textContent = text;
    }
    var toBreak = root.querySelector('[data-clock="next-break"]');
    if (toBreak) toBreak.textContent = clockText(sinceReceived(clock.seconds_to_next_break));
    if (clock.running && left !== null && left <= 0 && !endAsked) {
      endAsked = true;  // the level is over: ask the server at once for the next one
      poll(true);
    }
  }

  function flash(text, kind) {
    var box = root.querySelector("[data-flash]");
    if (!box) return;
    box.innerHTML = "";
    if (!text) return;
    var div = document.createElement("div");
    div.className = "alert py-2 mb-2 alert-" + (kind || "success");
    div.textContent = text;
    box.appendChild(div);
  }

  function focusedIn(el) {
    var active = document.activeElement;
    return active && el.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
  }

  function put(part, html) {
    var el = root.querySelector('[data-part="' + part + '"]');
    if (!el || shown[part] === html) return;
    if (focusedIn(el)) {
      waiting[part] = html;
      return;
    }
    delete waiting[part];
    el.innerHTML = html;
    shown[part] = html;
  }

  function render(next) {
    if (!next) return;
    var versionChanged = next.version !== state.version;
    state = next;
    receivedAt = performance.now();
    endAsked = false;
    Object.keys(next.html || {}).forEach(function (part) { put(part, next.html[part]); });
    if (versionChanged) door();
    tick();
  }

  function poll(full) {
    if (inFlight) return Promise.resolve();
    inFlight = true;
    if (full) lastFull = performance.now();
    var url = stateUrl + (full ? "" : "?since=" + encodeURIComponent(state.version));
    return fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 204) return null;
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (next) {
        failures = 0;
        connection("");
        if (next) render(next);
      })
      .catch(function () {
        failures += 1;
        if (failures > 2) connection("Offline: showing the last known state");
      })
      .then(function () { inFlight = false; });
  }

  function connection(text) {
    var el = root.querySelector("[data-connection]");
    if (el && el.textContent !== text) el.textContent = text;
  }

  function send(action) {
    var body = action instanceof FormData ? action : new FormData();
    if (!(action instanceof FormData)) {
      Object.keys(action).forEach(function (key) { body.set(key, action[key]); });
    }
    if (!body.get("version")) body.set("version", state.version);
    return fetch(actUrl, {
      method: "POST",
      body: body,
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === -1) throw new Error("answer " + response.status);
      return response.json();
    });
  }

  function door() {
    if (!doorUrl) return;
    var box = root.querySelector("[data-door]");
    if (!box) return;
    fetch(doorUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 404 || response.status === 403) doorUrl = "";  // not for us: stop asking
        if (response.status !== 200) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        box.innerHTML = html;
        box.hidden = false;
      })
      .catch(function () { box.hidden = true; });
  }

  // After ncpc.js's confirm handler (registered first, on the same node): a cancelled confirm is prevented.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !root.contains(form) || form.getAttribute("action") !== actUrl) return;
    event.preventDefault();
    if (form.dataset.busy) return;
    form.dataset.busy = "1";
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    var data = new FormData(form);
    flash("");
    send(data)
      .then(function (answer) {
        if (answer.error) flash(answer.error, answer.conflict ? "warning" : "danger");
        else flash(answer.message, "success");
        render(answer.state);
        var proposal = root.querySelector(".console-proposal");
        if (proposal && data.get("action") === "bust") proposal.scrollIntoView({ block: "nearest" });
      })
      .catch(function () {
        flash("The server did not answer: nothing was recorded. Try again.", "danger");
        delete form.dataset.busy;
        if (button) button.disabled = false;
      });
  });

  document.addEventListener("focusout", function () {
    setTimeout(function () {
      Object.keys(waiting).forEach(function (part) { put(part, waiting[part]); });
    }, 0);
  });

  root.querySelectorAll("[data-part]").forEach(function (el) {
    shown[el.dataset.part] = null;  // the server's first rendering stays until a state replaces it
  });
  window.ncpcConsole = { send: send, render: render, poll: poll, state: function () { return state; } };
  door();
  tick();
  setInterval(tick, 250);
  setInterval(function () {
    poll(performance.now() - lastFull > 10000);
  }, pollMs);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(true); });
})();
