// The night's offline queue (issue 20): what an officer records while the server cannot be reached (busts,
// undos, table moves, clock changes) is kept on the device, in IndexedDB, in the order it happened, and sent
// to the event's night/sync/ when the network returns. No inline script: CSP allows only our files.
//
// The rules it keeps (the server's side is events/services/night_sync.py):
//   - Each login on the device has its own queue and device id (SPEC §16.13: a device id belongs to the login
//     that first used it): the IndexedDB database is "ncpc-night-<login>", the login given by the script
//     tag's data-login. On a phone two officers share, each one's waiting changes stay theirs and are sent
//     under their own login when they are signed in.
//   - The device has an id (kept in IndexedDB with its counter, and shown in localStorage as
//     "ncpc-night-device-<login>"); every change gets the next sequence number of the device, in the same IndexedDB
//     transaction that stores it, so two changes never share a number and a number is never skipped. When
//     the counter is gone (the browser's storage was cleared) the device takes a new id: the server knows
//     the old id's numbers and would answer them as sent already.
//   - flush() sends the waiting changes in sequence order. The server stores every change it receives once
//     per (device, sequence) — applied, a conflict or refused — and answers each; a change it stored is taken
//     off the queue, one it holds (an earlier one of the device is missing) stays. A resend after a lost
//     answer is answered "sent before" by the server and never recorded twice.
//   - Nothing is taken off the queue unless the server answered for it: a reload, a closed tab or a dead
//     battery keeps the queue (IndexedDB survives them).
//
// window.ncpcNightQueue = {device, add, list, flush}:
//   add(syncUrl, change): change = {action, happened_at (ms), device_at (ms, the device's own clock), seen:
//     {results, seats, clock}, label, ...the action's fields}; resolves to the stored entry (with its sequence).
//   list(): resolves to every waiting entry, oldest first.
//   flush(csrfToken): resolves to {sent, outcomes, open, versions} (outcomes: the server's answers for this
//     flush; open: conflicts and refused changes waiting at the last event answered); rejects when the server
//     could not be reached (error.login: it answered with the login page) or refused the batch itself
//     (error.refused); the queue is kept.
(function () {
  "use strict";
  var script = document.currentScript;
  var login = (script && script.getAttribute("data-login")) || "";
  var DB = login ? "ncpc-night-" + login : "ncpc-night";
  var CHANGES = "changes";
  var META = "meta";
  var BATCH = 200;  // the server takes up to 500 at once
  var opening = null;
  var flushing = null;

  function promised(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function done(tx) {
    return new Promise(function (resolve, reject) {
      tx.oncomplete = function () { resolve(); };
      tx.onabort = tx.onerror = function () { reject(tx.error || new Error("IndexedDB transaction failed")); };
    });
  }

  function open() {
    if (opening) return opening;
    opening = new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("No IndexedDB on this browser")); return; }
      var request = window.indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains(CHANGES)) db.createObjectStore(CHANGES, { keyPath: "sequence" });
        if (!db.objectStoreNames.contains(META)) db.createObjectStore(META, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
    opening.catch(function () { opening = null; });
    return opening;
  }

  function newId() {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function remember(id) {
    try { window.localStorage.setItem(login ? "ncpc-night-device-" + login : "ncpc-night-device", id); } catch (e) { /* private mode */ }
  }

  // The device record {key: "device", id, next} read (and made when missing) inside transaction tx.
  function deviceIn(tx) {
    var meta = tx.objectStore(META);
    return promised(meta.get("device")).then(function (row) {
      if (row && row.id) return row;
      row = { key: "device", id: newId(), next: 1 };
      meta.put(row);
      return row;
    });
  }

  function device() {
    return open().then(function (db) {
      var tx = db.transaction(META, "readwrite");
      var result;
      deviceIn(tx).then(function (row) { result = row.id; });
      return done(tx).then(function () { remember(result); return result; });
    });
  }

  function add(syncUrl, change) {
    return open().then(function (db) {
      var tx = db.transaction([META, CHANGES], "readwrite");
      var entry = null;
      // One transaction: the number taken and the change stored, or neither.
      deviceIn(tx).then(function (row) {
        entry = Object.assign({}, change, { url: syncUrl, device: row.id, sequence: row.next });
        row.next += 1;
        tx.objectStore(META).put(row);
        tx.objectStore(CHANGES).add(entry);
      });
      return done(tx).then(function () { remember(entry.device); return entry; });
    });
  }

  function list() {
    return open().then(function (db) {
      var tx = db.transaction(CHANGES, "readonly");
      return promised(tx.objectStore(CHANGES).getAll());
    }).then(function (rows) {
      return rows.sort(function (a, b) { return a.sequence - b.sequence; });
    });
  }

  function remove(sequences) {
    if (!sequences.length) return Promise.resolve();
    return open().then(function (db) {
      var tx = db.transaction(CHANGES, "readwrite");
      var store = tx.objectStore(CHANGES);
      sequences.forEach(function (sequence) { store.delete(sequence); });
      return done(tx);
    });
  }

  var OWN = { url: 1, device: 1, label: 1, local: 1 };  // kept on the device, not sent

  function wire(entry) {
    var out = {};
    Object.keys(entry).forEach(function (key) { if (!OWN[key]) out[key] = entry[key]; });
    return out;
  }

  function post(url, deviceId, entries, csrfToken) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken },
      // sent_at: this device's clock now, against which the server reads each change's device_at.
      body: JSON.stringify({ device: deviceId, sent_at: Date.now(), changes: entries.map(wire) }),
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === -1) {
        var failed = new Error("The server answered " + response.status);
        failed.login = response.redirected;  // sent to the login page: the session ended
        throw failed;
      }
      return response.json().then(function (body) {
        if (!response.ok) {
          var error = new Error(body.error || "The server refused the batch (" + response.status + ")");
          error.refused = true;
          throw error;
        }
        return body;
      });
    });
  }

  // The waiting changes in sequence order, in batches of consecutive changes for the same event.
  function batches(entries) {
    var out = [];
    entries.forEach(function (entry) {
      var last = out[out.length - 1];
      if (last && last.url === entry.url && last.device === entry.device && last.entries.length < BATCH) {
        last.entries.push(entry);
      } else {
        out.push({ url: entry.url, device: entry.device, entries: [entry] });
      }
    });
    return out;
  }

  function flush(csrfToken) {
    if (flushing) return flushing;
    var result = { sent: 0, outcomes: [], open: null, versions: null };
    flushing = list().then(function (entries) {
      var chain = Promise.resolve(true);
      batches(entries).forEach(function (batch) {
        chain = chain.then(function (goOn) {
          if (!goOn) return false;
          return post(batch.url, batch.device, batch.entries, csrfToken).then(function (body) {
            var bySequence = {};
            batch.entries.forEach(function (entry) { bySequence[entry.sequence] = entry; });
            var stored = [];
            (body.outcomes || []).forEach(function (outcome) {
              var entry = bySequence[outcome.sequence];
              if (entry) outcome.label = entry.label;
              if (outcome.status !== "held") stored.push(outcome.sequence);
              result.outcomes.push(outcome);
            });
            result.sent += stored.length;
            if (typeof body.open === "number") result.open = body.open;
            if (body.versions) result.versions = body.versions;
            // A held change waits for an earlier one: stop here, the order must be kept.
            return remove(stored).then(function () { return stored.length === batch.entries.length; });
          });
        });
      });
      return chain;
    }).then(function () { return result; });
    flushing.then(clear, clear);
    return flushing;
  }

  function clear() { flushing = null; }

  window.ncpcNightQueue = { device: device, add: add, list: list, flush: flush };
})();
