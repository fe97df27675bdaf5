// The night's service worker (issue 20). Rendered by ncpc.club.views.pwa: the cache is named after a hash of the
// files it keeps, so a deploy replaces them. Night pages: the network first, the kept copy when there is
// none. The site's own files: the kept copy first. Everything else (the JSON state, every POST) goes to the
// network as always: the pages say themselves when they are offline and queue what the officer records.
"use strict";
var CACHE = "ncpc-files-{{ version }}";
var PAGES_CACHE = "ncpc-pages";
var PRECACHE = {{ precache|safe }};
var STATIC_URL = {{ static_url|safe }};
var PAGES = new RegExp({{ pages|safe }});

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (keys) {
        return Promise.all(keys.filter(function (key) {
          return key.indexOf("ncpc-files-") === 0 && key !== CACHE;
        }).map(function (key) { return caches.delete(key); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function pageFromNetwork(request) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES_CACHE).then(function (cache) { cache.put(request.url.split("?")[0], copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES_CACHE)
      .then(function (cache) { return cache.match(request.url.split("?")[0]); })
      .then(function (kept) {
        return kept || new Response(
          "<!doctype html><meta charset=utf-8><title>Offline</title><p>No network, and this page was not " +
          "opened on this device while online. Open it once with the network, then it works offline.</p>",
          { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
        );
      });
  });
}

function fileFromCache(request) {
  return caches.match(request).then(function (kept) {
    return kept || fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PAGES.test(url.pathname)) {
    event.respondWith(pageFromNetwork(request));
  } else if (url.pathname.indexOf(STATIC_URL) === 0) {
    event.respondWith(fileFromCache(request));
  }
});
