// Tag filter of the catalog page: shows only the plugins carrying the chosen tag.
document.addEventListener("DOMContentLoaded", function () {
  var bar = document.querySelector("[data-dr-filter]");
  if (!bar) return;
  var buttons = bar.querySelectorAll("button[data-tag]");
  var cards = document.querySelectorAll(".dr-card");
  function choose(tag) {
    buttons.forEach(function (b) { b.classList.toggle("dr-tag--active", b.getAttribute("data-tag") === tag); });
    cards.forEach(function (card) {
      var tags = (card.getAttribute("data-tags") || "").split(" ");
      card.hidden = tag !== "" && tags.indexOf(tag) < 0;
    });
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () { choose(b.getAttribute("data-tag")); });
  });
});
