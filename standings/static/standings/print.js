// Print buttons (CSP forbids inline onclick handlers).
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
