// The catalog on the home page: the first cards come with the page, the others from cards.json (its
// texts are written as text, never as HTML) as the reader scrolls; the tag filter shows the plugins
// carrying a tag and keeps the count in the heading right. The translation page's lists of missing texts load when opened.
document.addEventListener("DOMContentLoaded", function () {
  var catalog = document.querySelector("[data-dr-cards]");
  if (catalog) catalogPage(catalog);
  document.querySelectorAll("details[data-dr-missing]").forEach(missingTexts);
  if (document.body.hasAttribute("data-dr-copy")) copyButtons(document.body);
  // The words of the "shown in English" mark are in this script once, not in every mark.
  var fallback = pageWords().fallback;
  document.querySelectorAll("sup.dr-fallback:not([title])").forEach(function (mark) {
    mark.title = fallback;
  });
  anchorLinks(document);
});

// The "#" link to each output variable's and schema property's row (its id is in the page; the link
// is drawn here rather than written in every row of every tool page).
function anchorLinks(root) {
  root.querySelectorAll('article tr[id^="out-"] > td:first-child, article tr[id^="prop-"] > td:first-child')
    .forEach(function (cell) {
      var link = element("a", "dr-anchor", "#");
      link.href = "#" + cell.parentNode.id;
      cell.insertBefore(document.createTextNode(" "), cell.firstChild);
      cell.insertBefore(link, cell.firstChild);
    });
}

// The site's words in the page's language: the published script starts with every language's
// (`DR_WORDS`, generator/site/texts.py `script_words`), chosen by the page's <html lang>.
function pageWords() {
  var table = typeof DR_WORDS === "object" ? DR_WORDS : {};
  return table[document.documentElement.lang] || table.en || {};
}

function element(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function shown(tag, text, english, words) {
  var node = element(tag, "", text);
  if (english) {
    node.lang = "en";
    var mark = element("sup", "dr-fallback", "EN");
    mark.title = words.fallback;
    node.appendChild(mark);
  }
  return node;
}

function cut(words) {
  var mark = element("span", "dr-cut", "…");
  mark.title = words.cut;
  return mark;
}

// What the catalog's filter matches a card by: its tags and its kinds (`kind:triggers`).
function filterTags(item) {
  return item.tags.concat(item.kinds.map(function (kind) { return "kind:" + kind; }));
}

function card(data, item) {
  var words = data.words;
  var li = element("li", "dr-card");
  li.setAttribute("data-tags", filterTags(item).join(" "));
  li.setAttribute("data-plugin", item.slug);
  var title = element("a", "dr-card__title");
  title.href = item.href;
  if (item.icon) {
    var icon = element("img", "dr-icon");
    icon.src = item.icon;
    icon.alt = "";
    icon.width = 32;
    icon.height = 32;
    icon.loading = "lazy";
    title.appendChild(icon);
  }
  var label = shown("strong", item.label, item.labelEn, words);
  if (item.labelCut) label.appendChild(cut(words));
  title.appendChild(label);
  li.appendChild(title);
  var description = shown("p", item.description, item.descriptionEn, words);
  description.className = "dr-card__description";
  if (item.descriptionCut) description.appendChild(cut(words));
  li.appendChild(description);
  var meta = element("p", "dr-card__meta");
  item.kinds.forEach(function (kind) {
    // A kind is one of the site's own words (the manifest's plugin keys it shows).
    if (!Object.prototype.hasOwnProperty.call(data.kinds, kind)) return;
    meta.appendChild(element("span", "dr-chip dr-kind", String(data.kinds[kind])));
    meta.appendChild(document.createTextNode(" "));
  });
  item.tags.forEach(function (tag) {
    // A tag is a stranger's word: only the site's own translations are looked up, never a property
    // every object has (a tag named "constructor").
    var known = Object.prototype.hasOwnProperty.call(data.tags, tag) ? data.tags[tag] : tag;
    meta.appendChild(element("span", "dr-chip", String(known)));
    meta.appendChild(document.createTextNode(" "));
  });
  var counted = [[words.author, item.author], [words.version, item.version]];
  if (item.tools || !item.counts.length) counted.push([words.tools, String(item.tools)]);
  item.counts.forEach(function (pair) { counted.push([pair[0], String(pair[1])]); });
  counted.forEach(
    function (pair) {
      meta.appendChild(element("span", "", pair[0] + ": " + pair[1]));
      meta.appendChild(document.createTextNode(" · "));
    }
  );
  meta.appendChild(element("span", "dr-badge " + item.badge[0], item.badge[1]));
  li.appendChild(meta);
  return li;
}

// The cards past the first screen are drawn a screen at a time as the reader nears the end of the
// list (a catalog of thousands of plugins draws only what is read); the filter and the count cover
// every plugin, drawn or not.
var CARDS_AT_ONCE = 48;

function catalogPage(catalog) {
  var list = catalog.querySelector(".dr-cards");
  var count = catalog.querySelector("[data-dr-count]");
  var rest = catalog.querySelector("[data-dr-rest]");
  var chosen = "";
  var pending = []; // cards.json entries not drawn yet, in catalog order
  var data = null;
  function matches(tags) {
    return chosen === "" || tags.indexOf(chosen) >= 0;
  }
  function filter() {
    var visible = 0;
    catalog.querySelectorAll(".dr-card, [data-dr-rest] li").forEach(function (item) {
      item.hidden = !matches((item.getAttribute("data-tags") || "").split(" "));
      if (!item.hidden) visible += 1;
    });
    pending.forEach(function (item) { if (matches(filterTags(item))) visible += 1; });
    if (count) count.textContent = String(visible);
    more();
  }
  catalog.querySelectorAll("button[data-tag]").forEach(function (button) {
    button.addEventListener("click", function () {
      chosen = button.getAttribute("data-tag");
      catalog.querySelectorAll("button[data-tag]").forEach(function (b) {
        b.classList.toggle("dr-tag--active", b === button);
      });
      filter();
    });
  });
  if (!rest) {
    catalog.setAttribute("data-dr-loaded", "");
    return;
  }
  var end = element("div", "dr-cards__end");
  // Draws the next cards that the filter shows while the end of the list is within a screen.
  function more() {
    if (!data) return;
    while (pending.length && end.getBoundingClientRect().top < window.innerHeight * 2) {
      var drawn = 0;
      while (pending.length && drawn < CARDS_AT_ONCE) {
        var item = pending.shift();
        var node = card(data, item);
        node.hidden = !matches(filterTags(item));
        if (!node.hidden) drawn += 1;
        list.appendChild(node);
      }
    }
    if (!pending.length) catalog.setAttribute("data-dr-loaded", "");
  }
  var first = Number(catalog.getAttribute("data-dr-first"));
  fetch(catalog.getAttribute("data-dr-cards"))
    .then(function (response) { return response.json(); })
    .then(function (loaded) {
      data = loaded;
      pending = loaded.cards.slice(first);
      rest.remove();
      rest = null;
      list.after(end);
      new IntersectionObserver(more, { rootMargin: "100% 0px" }).observe(end);
      window.addEventListener("scroll", more, { passive: true });
      filter();
    })
    .catch(function () { /* the plain links stay */ });
}

function missingTexts(details) {
  details.addEventListener("toggle", function load() {
    details.removeEventListener("toggle", load);
    fetch(details.getAttribute("data-dr-missing"))
      .then(function (response) { return response.json(); })
      .then(function (data) {
        var items = (data[details.getAttribute("data-dr-plugin")] || {})[details.getAttribute("data-dr-lang")] || [];
        var list = element("ul");
        items.forEach(function (where) {
          var li = element("li");
          li.appendChild(element("code", "", where));
          list.appendChild(li);
        });
        details.appendChild(list);
      });
  });
}

// The copy button of each code block (the theme's `content.code.copy`, drawn with its classes): the
// generated pages do not load the theme's script, which draws them on its own pages.
function copyButtons(body) {
  body.querySelectorAll("article pre > code").forEach(function (code) {
    var nav = element("nav", "md-code__nav");
    var button = element("button", "md-code__button");
    button.type = "button";
    button.setAttribute("data-md-type", "copy");
    button.title = body.getAttribute("data-dr-copy");
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(code.textContent).then(function () {
        button.title = body.getAttribute("data-dr-copied");
      });
    });
    nav.appendChild(button);
    code.parentNode.insertBefore(nav, code);
  });
}
