// The search box: Pagefind's index of this page's language, loaded in chunks. A page whose label
// (in any language) is the whole query comes first (shown as soon as it is found), then plugin and
// tool pages (filter kind), then the other pages that match.
document.addEventListener("DOMContentLoaded", function () {
  var box = document.querySelector("[data-dr-search]");
  if (!box) return;
  // The page carries the box's words only (search needs this script): the box is built here.
  var input = document.createElement("input");
  input.type = "search";
  input.className = "dr-search__input";
  input.name = "query";
  var words = pageWords();
  input.placeholder = words.search_placeholder;
  input.setAttribute("aria-label", input.placeholder);
  input.autocomplete = "off";
  input.setAttribute("autocapitalize", "off");
  input.spellcheck = false;
  var output = document.createElement("div");
  output.className = "dr-search__output";
  output.hidden = true;
  var status = document.createElement("p");
  status.className = "dr-search__status";
  status.setAttribute("aria-live", "polite");
  var list = document.createElement("ol");
  list.className = "dr-search__results";
  output.append(status, list);
  box.append(input, output);
  var root = new URL(box.getAttribute("data-root"), document.baseURI);
  var SHOWN = 10;
  // Han and kana (the ranges of generator/site/search.py): a query holding any is also asked one
  // character a word, as every label is indexed too, since the browser splits such words
  // differently from the segmenters that built the index.
  var HAN = "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]";
  var CJK = new RegExp("(" + HAN + ")", "g");

  function spaced(text) {
    return text.replace(CJK, " $1 ").split(/\s+/).filter(Boolean).join(" ");
  }

  // The word a page holds for each of its labels whole (`whole` in generator/site/search.py: FNV-1a
  // of the normalized label's UTF-8 bytes, in letters): asking for it finds the pages whose label
  // is the whole query first, whatever the ranking makes of the label's words.
  function whole(text) {
    var bytes = new TextEncoder().encode(text.normalize("NFKC").toLowerCase().split(/\s+/).filter(Boolean).join(" "));
    var digest = 0x811c9dc5;
    for (var i = 0; i < bytes.length; i++) digest = Math.imul(digest ^ bytes[i], 0x01000193) >>> 0;
    return "drlabel" + digest.toString(16).padStart(8, "0").replace(/[0-9a-f]/g, function (c) {
      return "abcdefghijklmnop".charAt(parseInt(c, 16));
    });
  }
  var engine = null;
  var asked = 0; // the latest query; answers to older ones are dropped

  function load() {
    if (!engine) {
      engine = import(new URL("pagefind/pagefind.js", root).href).then(function (pagefind) {
        return pagefind.options({ baseUrl: root.pathname }).then(function () {
          return pagefind.init();
        }).then(function () { return pagefind; });
      });
    }
    return engine;
  }

  // Pagefind's excerpt is escaped text with <mark> around the matches: rebuilt as text nodes and
  // <mark> elements, so nothing in it is ever parsed as HTML into the page.
  // The label words and the one-character-a-word labels are for the index, not for reading.
  var LABEL_WORD = /\s*(?:<mark>)?drlabel[a-p]{8}(?:<\/mark>)?/g;
  var SPLIT_HAN = new RegExp("(" + HAN + "(?:</mark>)?) (?=(?:<mark>)?" + HAN + ")", "g");

  function excerpt(html) {
    html = html.replace(LABEL_WORD, "").replace(SPLIT_HAN, "$1");
    var span = document.createElement("span");
    span.className = "dr-search__excerpt";
    var decoder = document.createElement("textarea");
    html.split(/(<mark>|<\/mark>)/).reduce(function (marked, part) {
      if (part === "<mark>") return true;
      if (part === "</mark>") return false;
      decoder.innerHTML = part;
      var text = document.createTextNode(decoder.value);
      if (marked) {
        var mark = document.createElement("mark");
        mark.appendChild(text);
        span.appendChild(mark);
      } else {
        span.appendChild(text);
      }
      return marked;
    }, false);
    return span;
  }

  function item(data) {
    var li = document.createElement("li");
    var link = document.createElement("a");
    // A page this language serves only in English names the English page (`url` meta): opened directly.
    link.href = data.meta.url ? new URL(data.meta.url, root).href : data.url;
    var title = document.createElement("span");
    title.className = "dr-search__title";
    title.textContent = data.meta.title || data.url;
    link.appendChild(title);
    var kind = what(data.filters && data.filters.what);
    if (kind) link.appendChild(kind);
    link.appendChild(excerpt(data.excerpt || ""));
    li.appendChild(link);
    return li;
  }

  // What the page is (`what` filter values: a plugin kind, shown as the site's word `kind_<kind>`,
  // or a word of the site's texts): "Plugin · Tool, Trigger", "Tool", "Trigger event". Only words
  // the site knows are shown.
  function word(value) {
    var own = Object.prototype.hasOwnProperty;
    if (own.call(words, "kind_" + value)) return words["kind_" + value];
    return own.call(words, value) ? words[value] : null;
  }

  function what(values) {
    var shown = (values || []).map(word).filter(Boolean);
    if (!shown.length) return null;
    var text = values.indexOf("plugin") >= 0 && shown.length > 1
      ? shown[0] + " · " + shown.slice(1).join(", ")
      : shown.join(", ");
    var span = document.createElement("span");
    span.className = "dr-search__what";
    span.textContent = text;
    return span;
  }

  function count(n) {
    if (n === 0) return words.search_none;
    if (n === 1) return words.search_one;
    return words.search_other.replace("#", String(n));
  }

  // Pagefind answers a word its index lacks with the pages of the longest indexed word that begins
  // it: the key of a query that is no whole label found every page holding the word "dr" (a label
  // "Dr. ..."). A page counts as the label's only when it holds the key itself, as a word.
  function holding(answer, key) {
    return Promise.all(answer.results.slice(0, SHOWN).map(function (r) {
      return r.data().then(function (data) {
        return data.content.split(/\s+/).indexOf(key) >= 0 ? r : null;
      });
    })).then(function (kept) {
      return { results: kept.filter(Boolean) };
    });
  }

  function show(results, total) {
    return Promise.all(results.map(function (r) { return r.data(); })).then(function (data) {
      return { total: total, data: data };
    });
  }

  function render(answer, mine, final) {
    if (!answer || mine !== asked) return;
    status.textContent = final ? count(answer.total) : "";
    list.replaceChildren.apply(list, answer.data.map(item));
  }

  function search(query) {
    var mine = ++asked;
    if (!query.trim()) {
      output.hidden = true;
      list.replaceChildren();
      return;
    }
    output.hidden = false;
    if (!list.children.length) status.textContent = words.search_loading;
    var early = null;
    var catalog = { filters: { kind: { any: ["plugin", "tool", "child"] } } };
    var pf = null;
    var key = whole(query);
    load().then(function (pagefind) {
      pf = pagefind;
      // The page whose label is the whole query is asked alone first (one index chunk) and shows
      // with only its fragment fetched; the other answers, which load the chunks of every word of
      // the query, follow and complete the list.
      return pagefind.search(key, catalog);
    }).then(function (answer) {
      return holding(answer, key);
    }).then(function (exact) {
      if (mine !== asked) return null;
      if (exact.results.length) {
        early = show(exact.results.slice(0, 1), exact.results.length).then(function (first) {
          render(first, mine, false);
        });
      }
      var asks = [exact, pf.search(query, catalog), pf.search(query)];
      CJK.lastIndex = 0;
      if (CJK.test(query)) asks.splice(2, 0, pf.search(spaced(query), catalog));
      return Promise.all(asks);
    }).then(function (found) {
      if (!found || mine !== asked) return null;
      // The very label first, then catalog pages, then every other page.
      var seen = new Set();
      var results = [];
      found.forEach(function (answer) {
        answer.results.forEach(function (r) {
          if (!seen.has(r.id)) { seen.add(r.id); results.push(r); }
        });
      });
      return show(results.slice(0, SHOWN), results.length);
    }).then(function (answer) {
      // Never let the early answer land after the full one.
      return Promise.resolve(early).then(function () { render(answer, mine, true); });
    }).catch(function (failure) {
      if (mine === asked) status.textContent = String(failure);
    });
  }

  input.addEventListener("input", function () { search(input.value); });
  input.addEventListener("focus", function () { load(); if (input.value.trim()) output.hidden = false; });
  document.addEventListener("click", function (event) {
    if (!box.contains(event.target)) output.hidden = true;
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { output.hidden = true; input.blur(); }
  });
  // Pagefind's code, its WebAssembly and this language's index header (about 130 KB, cached
  // between pages) are fetched as soon as the page is read (its stylesheets are in, its images load
  // lazily), so that a query typed at once only waits for the index chunks it needs.
  load();
});
