// The payment form: choosing a member shows what they owe now, to play at the next event and the next late
// fee (the server renders the panel, GET /finance/payments/outlook/<id>/), and fills in the amount to play
// unless the officer typed another one. Without JavaScript the "Look up dues for" menu does the same.
(function () {
  "use strict";
  var form = document.getElementById("payment-form");
  if (!form) {
    return;
  }
  var select = form.querySelector("select[name=membership]");
  var amount = form.querySelector("input[name=amount]");
  var panel = document.getElementById("payment-outlook");
  var picker = document.querySelector("[data-member-picker]");
  var template = form.getAttribute("data-outlook-url");
  if (!select || !amount || !panel || !template) {
    return;
  }
  if (picker) {
    picker.classList.add("d-none");
  }
  var filled = amount.value; // what this script (or the server) filled in, not typed by the officer
  var asked = 0;

  function show(memberId) {
    var ticket = ++asked;
    if (!memberId) {
      panel.innerHTML = "";
      return;
    }
    var url = template.replace(/\/0\/$/, "/" + encodeURIComponent(memberId) + "/");
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) {
          throw new Error(response.status);
        }
        return response.json();
      })
      .then(function (data) {
        if (ticket !== asked) {
          return; // the officer chose someone else meanwhile
        }
        panel.innerHTML = data.html;
        if (amount.value === "" || amount.value === filled) {
          amount.value = Number(data.to_play) > 0 ? data.to_play : "";
          filled = amount.value;
        }
      })
      .catch(function () {
        if (ticket === asked) {
          panel.innerHTML = '<p class="small text-danger">Could not read what this member owes.</p>';
        }
      });
  }

  select.addEventListener("change", function () {
    show(select.value);
  });
})();
