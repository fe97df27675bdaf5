// A form is sent once: after a POST form is submitted (and not cancelled by a confirmation), its buttons are
// disabled until the next page, so a double click sends nothing twice. The server is what guarantees it (each
// money form carries a one-time key); this only spares the officer the "already recorded" page.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || (form.method || "").toLowerCase() !== "post") {
      return;
    }
    if (form.getAttribute("data-sent")) {
      event.preventDefault();
      return;
    }
    form.setAttribute("data-sent", "1");
    // Later, so that the button that was clicked still sends its name and value with the form.
    window.setTimeout(function () {
      form.querySelectorAll("button, input[type=submit]").forEach(function (button) {
        button.disabled = true;
        button.setAttribute("aria-busy", "true");
      });
    }, 0);
  });
  // Coming back with the Back button shows the page as it was left: let its forms be sent again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) {
      return;
    }
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      form.removeAttribute("data-sent");
      form.querySelectorAll("button, input[type=submit]").forEach(function (button) {
        button.disabled = false;
        button.removeAttribute("aria-busy");
      });
    });
  });
})();
