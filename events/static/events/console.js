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
// Offline (issue 20)
//   When the server cannot be reached (a send fails on the network, two polls in a row fail, or the browser
//   says it is offline), busts, undos of the last bust, table moves and clock changes are recorded on the
//   device by static/js/night_queue.js (IndexedDB, in order, with the time they happened and the versions of
//   the night last heard) and shown at once: the player out (waiting), the move made, the clock paused or
//   skipped (the clock runs on the device from its plan, clock/plan/, with static/js/clock_plan.js, the clock's
//   arithmetic shared with the TV clock). While
//   changes wait, new ones queue behind them, so the order is kept. When the server answers again the queue
//   is sent to night/sync/; a change another screen overtook comes back as a conflict and the panel links to
//   the conflicts page, where the Vice President settles it. The status says Live, Offline — N changes
//   waiting, or Syncing…, and when the server was last heard. The last state heard is kept in localStorage,
//   so the page opened again with no network (the service worker's copy) shows the night as last heard.
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
//   Also: waiting() (the changes waiting on this device) and sync() (send them now).
// No inline script: the Content-Security-Policy allows only our files.
(function () {
  "use strict";
  var root = document.getElementById("console");
  var clockPlan = window.ncpcClockPlan;
  if (!root || !clockPlan) return;
  var stateUrl = root.dataset.stateUrl;
  var actUrl = root.dataset.actUrl;
  var doorUrl = root.dataset.doorUrl;
  var syncUrl = root.dataset.syncUrl;
  var planUrl = root.dataset.planUrl;
  var pollMs = parseInt(root.dataset.pollMs, 10) || 1000;
  var state = JSON.parse(document.getElementById("console-state").textContent);
  var receivedAt = performance.now();
  var shown = {};  // part -> the html last put on the screen
  var waiting = {};  // part -> html waiting for the officer to leave a field of that part
  var failures = 0;
  var inFlight = false;
  var lastFull = performance.now();
  var forceFull = false;
  var endAsked = false;
  var queue = window.ncpcNightQueue || null;
  var storeKey = "ncpc-console:" + stateUrl;
  var online = null;  // null: not known yet (the first poll tells)
  var syncing = false;
  var loggedOut = false;  // the server answers with its login page: the session ended
  var retryAt = 0;  // after the server refused a batch as a whole, when to send again
  var pending = [];  // this event's changes waiting on the device, oldest first
  var heardAt = loadJson("heard");
  var plan = loadJson("plan");  // the clock's plan (clock/plan/), to run the clock with no server
  var QUEUED = { bust: 1, undo: 1, move: 1, "clock.start": 1, "clock.pause": 1, "clock.resume": 1, "clock.skip": 1, "clock.back": 1 };

  // ---------------------------------------------------------------------------------------------------------
  // What this device last heard (localStorage)

  function loadJson(name) {
    try { return JSON.parse(window.localStorage.getItem(storeKey + ":" + name)); } catch (e) { return null; }
  }
  function saveJson(name, value) {
    try { window.localStorage.setItem(storeKey + ":" + name, JSON.stringify(value)); } catch (e) { /* full or private mode */ }
  }
  function serverTime(s) { return (s && s.clock && s.clock.server_time) || 0; }
  function heard(next) {
    online = true;
    failures = 0;
    heardAt = Date.now();
    saveJson("heard", heardAt);
    if (next) saveJson("state", next);
  }

  function csrfToken() {
    var input = root.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    // A final night's console has no forms left, and the cookie is HttpOnly: a phone that comes back then
    // still sends its queue (its busts are parked for the officers, SPEC §17.8).
    if (root.dataset.csrf) return root.dataset.csrf;
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  var clockText = clockPlan.clockText;
  var hhmmss = clockPlan.hhmmss;
  // Times of day in the club's time zone (data-time-zone), as every page of the club shows them, whatever
  // the zone the phone is set to; the phone's own zone only when the browser cannot.
  var clubClock = null;
  try {
    clubClock = new Intl.DateTimeFormat("en-GB", {
      timeZone: root.dataset.timeZone || undefined, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
    });
  } catch (e) { clubClock = null; }
  function clubTime(ms) { return clubClock ? clubClock.format(new Date(ms)) : hhmmss(ms); }
  var thousands = clockPlan.thousands;

  // Time to the next break on the same count as the time left: the server rounds both to whole seconds and the
  // time left is shown from its exact value, so the break is counted from that value too (20:30 and 20:30, not
  // 20:30 and 20:29).
  function breakExact(c) {
    var s = c.seconds_to_next_break;
    if (s === null || s === undefined) return null;
    if (typeof c.seconds_left_exact === "number" && typeof c.seconds_left === "number") s += c.seconds_left_exact - c.seconds_left;
    return Math.max(0, s);
  }

  function sinceReceived(seconds) {
    var clock = state.clock;
    if (seconds === null || seconds === undefined || !clock) return null;
    if (clock.running) seconds -= (performance.now() - receivedAt) / 1000;
    return Math.max(0, seconds);
  }

  // ---------------------------------------------------------------------------------------------------------
  // The clock: from the server's state while live, from the plan on the device while changes wait

  function setClock(name, text) {
    var el = root.querySelector('[data-clock="' + name + '"]');
    if (el && el.textContent !== text) el.textContent = text;
  }

  // The plan with the clock changes waiting on this device applied, as the server will apply them.
  function planNow() {
    if (!plan || !plan.structure) return null;
    var p = plan;
    pending.forEach(function (entry) {
      if (entry.action === "clock") p = clockPlan.change(p, state.clock, entry.clock, entry.happened_at);
    });
    return Object.assign({}, p);
  }

  function localClock() {
    if (!queueMode()) return null;
    var p = planNow();
    if (!p) return null;
    return clockPlan.compute(p, state.clock, Date.now() + (p.offset || 0));
  }

  function showLocal(c) {
    setClock("level", c.kind === "break" ? "Break" : "Level " + c.level_number);
    setClock("status", !c.started ? "Not started" : c.paused ? "Paused" : "");
    setClock("time", clockText(c.seconds_left_exact));
    setClock("blinds", c.kind === "break" ? (c.note || "Break") :
      thousands(c.small_blind) + " / " + thousands(c.big_blind) + (c.ante ? " · ante " + thousands(c.ante) : ""));
    setClock("next-break", clockText(breakExact(c)));
    setClock("next", c.next_level ? thousands(c.next_level.small_blind) + " / " + thousands(c.next_level.big_blind) : "–");
    if (state.clock && typeof state.clock.players_left === "number") {
      var eff = effective();
      setClock("left", String(state.clock.players_left - Object.keys(eff.out).length + undoneBack(eff)));
    }
    var box = root.querySelector(".console-clock");
    if (box) {
      box.classList.toggle("is-paused", !!c.paused);
      box.classList.toggle("is-break", c.kind === "break");
    }
    // The one button that starts, pauses or resumes follows the clock on the device.
    var main = null;
    root.querySelectorAll('[data-part="clock"] form input[name=action]').forEach(function (input) {
      if (/^clock\.(start|pause|resume)$/.test(input.value)) main = input;
    });
    if (main) {
      var want = !c.started ? "clock.start" : c.paused ? "clock.resume" : "clock.pause";
      if (main.value !== want) {
        main.value = want;
        var button = main.form.querySelector("button");
        if (button) {
          button.textContent = { "clock.start": "Start the clock", "clock.pause": "Pause", "clock.resume": "Resume" }[want];
          button.className = "btn " + (want === "clock.pause" ? "btn-warning" : "btn-success");
        }
      }
    }
  }

  function tick() {
    var local = localClock();
    if (local) { showLocal(local); return; }
    var clock = state.clock;
    if (!clock) return;
    var left = sinceReceived(clock.seconds_left_exact);
    var time = root.querySelector('[data-clock="time"]');
    if (time) {
      var text = clockText(left);
      if (time.textContent !== text) time.textContent = text;
    }
    var toBreak = root.querySelector('[data-clock="next-break"]');
    if (toBreak) toBreak.textContent = clockText(sinceReceived(breakExact(clock)));
    if (clock.running && left !== null && left <= 0 && !endAsked) {
      endAsked = true;  // the level is over: ask the server at once for the next one
      poll(true);
    }
  }

  function fetchPlan() {
    clockPlan.fetchPlan(planUrl, function (next) {
      plan = next;
      saveJson("plan", plan);
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Rendering

  // A message says what the last tap did, then goes: 8 s for what went well, 30 s for a refusal or a warning
  // (long enough to read twice), never the whole night.
  var flashTimer = null;
  function flash(text, kind) {
    var box = root.querySelector("[data-flash]");
    if (!box) return;
    box.innerHTML = "";
    if (flashTimer) { clearTimeout(flashTimer); flashTimer = null; }
    if (!text) return;
    var div = document.createElement("div");
    div.className = "alert py-2 mb-2 alert-" + (kind || "success");
    div.textContent = text;
    box.appendChild(div);
    flashTimer = setTimeout(function () { flash(""); }, (kind || "success") === "success" ? 8000 : 30000);
  }

  // The messages of the last page load (a form sent without this file, "Open the night") go the same way.
  function fadeMessages() {
    document.querySelectorAll("main > .alert-dismissible").forEach(function (alert) {
      var success = alert.classList.contains("alert-success") || alert.classList.contains("alert-info");
      setTimeout(function () { alert.remove(); }, success ? 8000 : 30000);
    });
  }

  // A table's count of players leaves out those whose bust waits on this device and follows the moves made at
  // the tables: the server's count, less its players as the server placed them, plus those the device now
  // places there who are not out.
  function tableCounts(eff) {
    if (state.final) return;
    (state.tables || []).forEach(function (t) {
      var card = root.querySelector('[data-table="' + t.number + '"]');
      var count = card && card.querySelector("[data-players]");
      if (!count) return;
      var served = t.seats.filter(function (x) { return x.player; }).length;
      var here = Object.keys(eff.where).filter(function (id) {
        return !eff.out[id] && eff.where[id].split("-")[0] === String(t.number);
      }).length;
      var n = t.players - served + here;
      var text = n + " player" + (n === 1 ? "" : "s");
      if (count.textContent !== text) count.textContent = text;
    });
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
    // A panel the officer opened (several out on one hand, removal for abuse) stays open.
    var open = [];
    el.querySelectorAll("details[data-keep-open][open]").forEach(function (d) { open.push(d.id); });
    el.innerHTML = html;
    shown[part] = html;
    open.forEach(function (id) {
      var d = document.getElementById(id);
      if (d && el.contains(d)) d.open = true;
    });
  }

  function render(next) {
    if (!next) return;
    var versionChanged = next.version !== state.version;
    state = next;
    receivedAt = performance.now();
    endAsked = false;
    Object.keys(next.html || {}).forEach(function (part) { put(part, next.html[part]); });
    if (versionChanged) door();
    if (typeof next.conflicts === "number") conflicts(next.conflicts);
    if (plan && next.versions && plan.version !== next.versions.clock) fetchPlan();
    decorate();
    tick();
  }

  // Several out on one hand: the confirmation names the players ticked and their chips, best place first.
  function handConfirm(form) {
    var picked = [];
    form.querySelectorAll("input[data-hand-player]").forEach(function (box) {
      if (!box.checked) return;
      var chips = form.querySelector('[data-hand-chips="' + box.value + '"]');
      var count = parseInt(String(chips ? chips.value : "").replace(/[^0-9]/g, ""), 10);
      picked.push({ name: box.dataset.handPlayer, chips: isNaN(count) ? null : count });
    });
    picked.sort(function (a, b) { return (b.chips || 0) - (a.chips || 0); });
    form.dataset.confirm = picked.length
      ? "Out on one hand: " + picked.map(function (p) {
          return p.name + " (" + (p.chips === null ? "chips not entered" : thousands(p.chips) + " chips") + ")";
        }).join(", ") + "? More chips at the start of the hand, better place."
      : "Tick the players out on the hand first. Send anyway?";
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("[data-hand-form]");
    if (form) handConfirm(form);
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("[data-hand-form]");
    if (form) handConfirm(form);
  });

  // ---------------------------------------------------------------------------------------------------------
  // The night as the server last said, with the changes waiting on this device (shown at once)

  function nameOf(id) {
    var found = "";
    (state.tables || []).forEach(function (t) {
      t.seats.forEach(function (x) { if (x.player === id) found = x.name; });
    });
    (state.still_in || []).forEach(function (r) { if (r.id === id) found = r.name; });
    (state.busts || []).forEach(function (b) { b.players.forEach(function (p) { if (p.id === id) found = p.name; }); });
    return found || "player #" + id;
  }

  function effective() {
    var out = {}, undone = {}, seats = {}, where = {}, moved = [], held = {};
    var stack = (state.busts || []).slice().reverse().map(function (b) {
      return { hand: b.hand, players: b.players.map(function (p) { return p.id; }) };
    });
    (state.tables || []).forEach(function (t) {
      t.seats.forEach(function (x) {
        var key = t.number + "-" + x.seat;
        if (x.player) { seats[key] = x.player; where[x.player] = key; }
        else if (x.name) held[key] = true;  // posted and folded, or otherwise taken
      });
    });
    pending.forEach(function (entry) {
      if (entry.action === "bust") {
        entry.players.forEach(function (p) { out[p] = true; });
        stack.push({ sequence: entry.sequence, players: entry.players });
      } else if (entry.action === "undo") {
        var top = stack.pop();
        if (!top) return;
        top.players.forEach(function (p) { delete out[p]; });
        if (top.hand !== undefined) undone[top.hand] = true;
      } else if (entry.action === "move") {
        var to = entry.to_table + "-" + entry.to_seat;
        if (where[entry.player]) delete seats[where[entry.player]];
        seats[to] = entry.player;
        where[entry.player] = to;
        moved.push(entry.player);
      }
    });
    return { out: out, undone: undone, seats: seats, where: where, moved: moved, held: held, stack: stack };
  }

  function undoneBack(eff) {
    var back = 0;
    (state.busts || []).forEach(function (b) { if (eff.undone[b.hand]) back += b.players.length; });
    return back;
  }

  function badge(el, text, kind) {
    var mark = el.querySelector(":scope > [data-waiting]");
    if (!text) { if (mark) mark.remove(); return; }
    if (!mark) {
      mark = document.createElement("span");
      mark.dataset.waiting = "1";
      mark.className = "badge ms-1 text-bg-" + (kind || "warning");
      el.appendChild(mark);
    }
    if (mark.textContent !== text) mark.textContent = text;
  }

  // A player moved at the tables: their button goes to the new seat (whatever showed there, an empty seat or a
  // player out, goes), their old seat shows empty. The seat's own marks (number, button) stay with the seat.
  function moveInto(button, fromLi, toLi) {
    var holder = button;
    while (holder.parentNode !== fromLi) holder = holder.parentNode;
    Array.prototype.slice.call(toLi.children).forEach(function (node) {
      if (node.classList.contains("seat-empty") || node.querySelector("[data-bust]") || node.matches("[data-waiting]")) node.remove();
    });
    var empty = document.createElement("span");
    empty.className = "flex-grow-1 seat-empty";
    empty.textContent = "empty";
    fromLi.insertBefore(empty, holder);
    var number = toLi.querySelector(".seat-no");
    toLi.insertBefore(holder, number ? number.nextSibling : toLi.firstChild);
  }

  function decorate() {
    var eff = effective();
    root.querySelectorAll("[data-bust]").forEach(function (button) {
      var id = parseInt(button.dataset.bust, 10);
      var out = !!eff.out[id];
      if (out) button.disabled = true;
      else if (button.dataset.waitingOut) button.disabled = false;
      if (out) button.dataset.waitingOut = "1"; else delete button.dataset.waitingOut;
      button.classList.toggle("text-decoration-line-through", out);
      badge(button, out ? "out · waiting" : "");
    });
    eff.moved.forEach(function (id) {
      var button = root.querySelector('[data-bust="' + id + '"]');
      var fromLi = button && button.closest("li[data-seat]");
      var toLi = root.querySelector('li[data-seat="' + eff.where[id] + '"]');
      if (fromLi && toLi && fromLi !== toLi) {
        moveInto(button, fromLi, toLi);
        badge(toLi, "moved · waiting", "info");
      }
    });
    root.querySelectorAll("li[data-hand]").forEach(function (li) {
      badge(li, eff.undone[li.dataset.hand] ? "undo waiting" : "");
    });
    tableCounts(eff);
    offlinePanel(eff);
  }

  function offlinePanel(eff) {
    var panel = root.querySelector("[data-offline]");
    if (!panel) return;
    panel.hidden = !queue || !queueMode();
    var count = panel.querySelector("[data-offline-count]");
    if (count) count.textContent = String(pending.length);
    var list = panel.querySelector("[data-offline-list]");
    if (list) {
      var html = pending.map(function (entry) {
        return "<li data-queued=\"" + entry.sequence + "\">" + escapeHtml(entry.label || entry.action) +
          " <span class=\"text-muted\">" + clubTime(entry.happened_at - offsetOf()) + "</span></li>";
      }).join("");
      if (list.innerHTML !== html) list.innerHTML = html;
    }
    var undo = panel.querySelector("[data-offline-undo]");
    if (undo) {
      var top = eff.stack[eff.stack.length - 1];
      undo.hidden = !top || state.final;
      var label = top ? "Undo the last bust: " + top.players.map(nameOf).join(", ") + " back in" : "";
      var undoButton = undo.querySelector("button");
      if (undoButton && undoButton.textContent !== label) undoButton.textContent = label;
      undo.dataset.confirm = label + "?";
    }
    var form = panel.querySelector("[data-offline-move]");
    if (!form || focusedIn(form)) return;
    form.hidden = !(state.tables && state.tables.length) || state.final;
    var players = Object.keys(eff.where).map(Number).filter(function (id) { return !eff.out[id]; })
      .map(function (id) { return { id: id, name: nameOf(id), at: eff.where[id] }; })
      .sort(function (a, b) { return a.name.localeCompare(b.name); });
    var options = players.map(function (p) {
      return "<option value=\"" + p.id + "\">" + escapeHtml(p.name) + " (table " + p.at.replace("-", " seat ") + ")</option>";
    }).join("");
    var empty = [];
    (state.tables || []).forEach(function (t) {
      t.seats.forEach(function (x) {
        var key = t.number + "-" + x.seat;
        var taken = eff.held[key] || (eff.seats[key] && !eff.out[eff.seats[key]]);
        if (!taken) empty.push("<option value=\"" + key + "\">Table " + t.number + " seat " + x.seat + "</option>");
      });
    });
    var who = form.querySelector("select[name=player]");
    var seat = form.querySelector("select[name=seat]");
    if (who && who.innerHTML !== options) who.innerHTML = options;
    if (seat && seat.innerHTML !== empty.join("")) seat.innerHTML = empty.join("");
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // The honest status

  function offsetOf() { return plan && plan.offset ? plan.offset : 0; }
  function isOffline() { return online === false || loggedOut || navigator.onLine === false; }
  function queueMode() { return isOffline() || syncing || pending.length > 0; }
  function changes(n) { return n + " change" + (n === 1 ? "" : "s"); }

  function status(extra) {
    var box = root.querySelector("[data-status]");
    if (!box) return;
    box.hidden = false;
    var text, kind;
    if (syncing) { text = "Syncing… " + changes(pending.length); kind = "info"; }
    else if (loggedOut) {
      text = "Logged out: log in again" + (pending.length ? " to send the " + changes(pending.length) + " waiting" : "");
      kind = "danger";
    }
    else if (isOffline()) { text = "Offline — " + changes(pending.length) + " waiting"; kind = "warning"; }
    else if (pending.length) { text = changes(pending.length) + " waiting" + (extra ? ": " + extra : ""); kind = "warning"; }
    else if (online === null) { text = "Connecting…"; kind = "secondary"; }
    else { text = "Live"; kind = "success"; }
    box.className = "small badge text-wrap text-start text-bg-" + kind;
    connection(text);
    var when = box.querySelector("[data-heard]");
    var said = heardAt ? " · last heard the server " + clubTime(heardAt) : "";
    if (when && when.textContent !== said) when.textContent = said;
    root.classList.toggle("is-offline", isOffline());
  }

  function connection(text) {
    var el = root.querySelector("[data-connection]");
    if (el && el.textContent !== text) el.textContent = text;
  }

  function wentOffline() {
    var was = online;
    online = false;
    status();
    if (was !== false) decorate();
  }

  // ---------------------------------------------------------------------------------------------------------
  // Talking to the server

  function poll(full) {
    if (inFlight) return Promise.resolve();
    inFlight = true;
    full = full || forceFull;
    if (full) lastFull = performance.now();
    var url = stateUrl + (full ? "" : "?since=" + encodeURIComponent(state.version) +
      "&conflicts=" + encodeURIComponent(String(state.conflicts || 0)));
    return fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 204) return null;
        if (response.redirected && (response.headers.get("Content-Type") || "").indexOf("json") === -1) {
          var error = new Error("logged out");
          error.login = true;
          throw error;
        }
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (next) {
        var was = online;
        var before = state.version;
        loggedOut = false;
        heard(next);
        if (full) forceFull = false;
        if (next) render(next);
        if (was !== true) fetchPlan();
        if (pending.length && !syncing && Date.now() >= retryAt) sync();
        else status();
        // The door list is the finance side's: a payment another officer took moves no version of the night
        // (before the night is opened there is no seat to change), so the list is asked again at each full poll.
        if (full && state.version === before) door();
      })
      .catch(function (error) {
        if (error && error.login) { loggedOut = true; status(); decorate(); return; }
        failures += 1;
        if (failures >= 2 || navigator.onLine === false) wentOffline();
      })
      .then(function () { inFlight = false; });
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
        doorShow(html);
      })
      .catch(function () { box.hidden = true; });
  }

  function doorShow(html) {
    var box = root.querySelector("[data-door]");
    if (!box) return;
    var body = box.querySelector("[data-door-body]") || box;
    if (focusedIn(body)) return;
    body.innerHTML = html;
    // A member's name is not a way out of the console (the list's page links it to the member's statement):
    // on the console it is plain text, and the night stays on the screen.
    body.querySelectorAll("[data-door-row] a:not(.btn)").forEach(function (link) {
      var name = document.createElement("span");
      name.textContent = link.textContent;
      link.replaceWith(name);
    });
    box.hidden = false;
  }

  // A tap on the door list records the payment with no page change (the list's one-time key books it once,
  // however often the tap is sent); the answer brings the list as it is now.
  function doorPay(form) {
    if (form.dataset.busy) return;
    form.dataset.busy = "1";
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    flash("");
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
    })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (type.indexOf("application/json") === -1) throw new Error("answer " + response.status);
        return response.json();
      })
      .then(function (answer) {
        if (answer.error) flash(answer.error, "danger");
        else flash(answer.message, "success");
        if (answer.html) doorShow(answer.html);
        forceFull = true;
        poll(true);  // a member who paid may now play: the attendance shows it
      })
      .catch(function () {
        delete form.dataset.busy;
        if (button) button.disabled = false;
        flash("The server did not answer: the payment may not be recorded. Check the list, then tap again.", "danger");
      });
  }

  // The changes recorded offline that wait for the Vice President: their count comes with every state (the
  // poll's "since" carries the count shown, so a new one arrives within a poll, as a bust does).
  function conflicts(count) {
    var panel = root.querySelector("[data-conflicts-panel]");
    if (!panel || typeof count !== "number") return;
    panel.hidden = !count;
    var text = panel.querySelector("[data-conflicts-text]");
    var said = count === 1
      ? "1 change recorded offline waits for the Vice President (a conflict, or refused by the checks)."
      : count + " changes recorded offline wait for the Vice President (conflicts, or refused by the checks).";
    if (text && text.textContent !== said) text.textContent = said;
  }

  // ---------------------------------------------------------------------------------------------------------
  // The queue on this device

  function reload() {
    if (!queue) return Promise.resolve();
    return queue.list().then(function (rows) {
      pending = rows.filter(function (row) { return row.url === syncUrl; });
      decorate();
      status();
    }).catch(function () { /* no IndexedDB: nothing can wait */ });
  }

  function sync() {
    if (!queue || syncing || !pending.length) return Promise.resolve();
    syncing = true;
    status();
    return queue.flush(csrfToken())
      .then(function (result) {
        syncing = false;
        var stuck = result.outcomes.filter(function (o) { return o.status === "conflict" || o.status === "refused"; });
        var applied = result.outcomes.filter(function (o) { return !o.duplicate && (o.status === "applied"); }).length;
        if (result.sent) {
          var text = "Sent " + changes(result.sent) + " recorded offline: " + applied + " applied";
          // A bust tapped before busts other screens recorded meanwhile re-orders the places (SPEC §17.8): its
          // answer names who moves up, and the officer who tapped it is told.
          var reordered = result.outcomes.filter(function (o) {
            return !o.duplicate && o.status === "applied" && /places follow the taps/.test(o.message || "");
          });
          if (stuck.length) text += ", " + stuck.length + " wait for the Vice President (" +
            stuck.map(function (o) { return (o.label || "#" + o.sequence) + ": " + o.message; }).join("; ") + ")";
          text += ".";
          if (reordered.length) text += " " + reordered.map(function (o) { return o.message; }).join(" ");
          flash(text, stuck.length ? "warning" : "success");
        }
        if (result.open !== null) {
          state.conflicts = result.open;
          conflicts(result.open);
        }
        Object.keys(shown).forEach(function (part) { shown[part] = null; });  // put the server's parts back
        forceFull = true;
        return reload().then(function () { return poll(true); });
      })
      .catch(function (error) {
        syncing = false;
        if (error && error.login) { loggedOut = true; status(); }
        else if (error && error.refused) { retryAt = Date.now() + 30000; status(error.message); }
        else wentOffline();
      });
  }

  function record(data) {
    var act = data.get("action");
    var versions = state.versions || {};
    // When it was tapped (SPEC §17.8: places follow the taps): the server's time as this device reckons it,
    // and this device's own clock, which the server measures against the clock at sending (sent_at), so a
    // phone whose clock is minutes wrong still places its busts where they were tapped.
    var change = {
      happened_at: Date.now() + offsetOf(),
      device_at: Date.now(),
      seen: { results: versions.results, seats: versions.seats, clock: versions.clock },
    };
    var id = parseInt(data.get("player"), 10);
    if (act === "bust") {
      change.action = "bust";
      change.players = data.getAll("player").map(function (p) { return parseInt(p, 10); });
      if (change.players.length > 1) {
        change.chips = {};
        change.players.forEach(function (p) {
          var chips = String(data.get("chips_" + p) || "").replace(/[^0-9]/g, "");
          if (chips) change.chips[p] = parseInt(chips, 10);
        });
      }
      change.label = "Out: " + change.players.map(nameOf).join(", ");
    } else if (act === "undo") {
      var eff = effective();
      var top = eff.stack[eff.stack.length - 1];
      var hand = parseInt(data.get("hand"), 10);
      if (!top || (top.hand !== undefined && top.hand !== hand)) {
        flash("Offline, only the last bust can be undone (the server undoes the others when it is back). Nothing was recorded.", "warning");
        return Promise.resolve(null);
      }
      change.action = "undo";
      // An undo names its bust (SPEC §17.8): the hand the server gave it, or, for a bust recorded on this
      // device and not sent yet, that change's sequence number.
      if (top.hand !== undefined) change.hand = top.hand;
      else change.bust = top.sequence;
      change.label = "Undo the last bust (" + top.players.map(nameOf).join(", ") + " back in)";
    } else if (act === "move") {
      change.action = "move";
      change.player = id;
      change.to_table = parseInt(data.get("to_table"), 10);
      change.to_seat = parseInt(data.get("to_seat"), 10);
      change.label = "Move: " + nameOf(id) + " to table " + change.to_table + " seat " + change.to_seat;
    } else {
      change.action = "clock";
      change.clock = act.slice(6);
      change.label = "Clock: " + change.clock;
    }
    if (!queue) {
      flash("The server cannot be reached and this browser cannot keep changes: nothing was recorded.", "danger");
      return Promise.resolve(null);
    }
    return queue.add(syncUrl, change)
      .then(function (entry) {
        if (!pending.some(function (e) { return e.sequence === entry.sequence; })) pending.push(entry);
        decorate();
        status();
        tick();
        flash("Recorded on this device: " + change.label + ". It is sent when the server answers again.", "warning");
        if (!isOffline()) sync();
        return entry;
      })
      .catch(function () {
        flash("This browser could not keep the change (no storage): nothing was recorded.", "danger");
        return null;
      });
  }

  // After ncpc.js's confirm handler (registered first, on the same node): a cancelled confirm is prevented.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !root.contains(form)) return;
    if (form.matches("[data-offline-undo]")) {
      event.preventDefault();
      var last = effective().stack.slice(-1)[0];
      if (!last) return;
      var undoData = new FormData();
      undoData.set("action", "undo");
      undoData.set("hand", last.hand === undefined ? "" : String(last.hand));
      record(undoData);
      return;
    }
    if (form.matches("[data-offline-move]")) {
      event.preventDefault();
      var data = new FormData();
      var where = String(form.querySelector("select[name=seat]").value || "").split("-");
      var who = form.querySelector("select[name=player]").value;
      if (!who || where.length !== 2) return;
      data.set("action", "move");
      data.set("player", who);
      data.set("to_table", where[0]);
      data.set("to_seat", where[1]);
      record(data);
      return;
    }
    if (form.closest("[data-door]")) {
      event.preventDefault();
      doorPay(form);
      return;
    }
    if (form.getAttribute("action") !== actUrl) return;
    event.preventDefault();
    if (form.dataset.busy) return;
    var fields = new FormData(form);
    var act = fields.get("action");
    if (queueMode()) {
      if (QUEUED[act]) record(fields);
      else flash("Offline: this needs the server. Nothing was recorded; do it when the status says Live.", "warning");
      return;
    }
    form.dataset.busy = "1";
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    flash("");
    send(fields)
      .then(function (answer) {
        heard(null);
        status();
        if (answer.error) flash(answer.error, answer.conflict ? "warning" : "danger");
        else flash(answer.message, "success");
        render(answer.state);
        saveJson("state", answer.state);
        var proposal = root.querySelector(".console-proposal");
        if (proposal && act === "bust") proposal.scrollIntoView({ block: "nearest" });
      })
      .catch(function () {
        delete form.dataset.busy;
        if (button) button.disabled = false;
        wentOffline();
        if (QUEUED[act]) record(fields);
        else flash("The server did not answer: nothing was recorded. Try again.", "danger");
      });
  });

  document.addEventListener("focusout", function () {
    setTimeout(function () {
      Object.keys(waiting).forEach(function (part) { put(part, waiting[part]); });
    }, 0);
  });
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", function () { poll(true); });

  root.querySelectorAll("[data-part]").forEach(function (el) {
    shown[el.dataset.part] = null;  // the server's first rendering stays until a state replaces it
  });
  // Opened from the device's copy (no network): what this device last heard is newer than the page.
  var kept = loadJson("state");
  if (kept && kept.html && serverTime(kept) > serverTime(state)) render(kept);
  else saveJson("state", state);
  window.ncpcConsole = {
    send: send,
    render: render,
    poll: poll,
    state: function () { return state; },
    waiting: function () { return pending.slice(); },
    sync: sync,
  };
  status();
  fadeMessages();
  reload();
  door();
  fetchPlan();
  conflicts(state.conflicts);
  tick();
  setInterval(tick, 250);
  setInterval(function () {
    poll(performance.now() - lastFull > 10000);
  }, pollMs);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(true); });
})();
