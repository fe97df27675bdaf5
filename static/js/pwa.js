// Installs the night's service worker (issue 20) so the console and the clock open with no network once
// loaded. The worker's address comes from this script's data-sw attribute (no inline script: CSP).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script || !script.dataset.sw) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/" }).catch(function () {
      // Not installable here (plain http on another host than localhost): the page works online as before.
    });
  });
})();
