// Site-wide behaviour, kept out of the HTML because the Content-Security-Policy forbids inline scripts.
//   <form data-confirm="Sure?">      asks before submitting; once answered yes, its <input data-confirmed>
//                                    sends 1 (the server asks again when it is missing)
//   <button data-confirm="Sure?">    asks before its form submits
//   <button data-print>              prints the page
//   <input data-select-on-click>     selects its text when clicked
//   <input type=checkbox data-check-all="NAME">  ticks or unticks every checkbox named NAME
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var message = form.getAttribute("data-confirm");
    var submitter = event.submitter;
    if (submitter && submitter.hasAttribute("data-confirm")) {
      message = submitter.getAttribute("data-confirm");
    }
    if (message && !window.confirm(message)) {
      event.preventDefault();
      return;
    }
    if (message) {
      form.querySelectorAll("input[data-confirmed]").forEach(function (input) {
        input.value = "1";
      });
    }
  });
  document.addEventListener("change", function (event) {
    var all = event.target.closest("[data-check-all]");
    if (!all) {
      return;
    }
    var name = all.getAttribute("data-check-all");
    document.querySelectorAll('input[type="checkbox"][name="' + name + '"]').forEach(function (box) {
      if (!box.disabled) {
        box.checked = all.checked;
      }
    });
  });
  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-print], [data-select-on-click]");
    if (!target) {
      return;
    }
    if (target.hasAttribute("data-print")) {
      event.preventDefault();
      window.print();
    } else {
      target.select();
    }
  });
})();
