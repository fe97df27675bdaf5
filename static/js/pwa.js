// Installs the night's service worker (issue 20) so the console and the clock open with no network once
// loaded. The worker's address comes from this script's data-sw attribute (no inline script: CSP). On the
// first visit the worker starts after the page has loaded, so this page is put in its keeping once it runs
// (later visits are kept by the worker itself).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script || !script.dataset.sw) return;
  var firstVisit = !navigator.serviceWorker.controller;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function () {
        if (!firstVisit || !window.caches) return;
        return caches.open("ncpc-pages").then(function (cache) {
          return cache.add(location.origin + location.pathname);
        });
      })
      .catch(function () {
        // Not installable here (plain http on another host than localhost): the page works online as before.
      });
  });
})();
