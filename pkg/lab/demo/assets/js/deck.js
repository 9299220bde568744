// deck.js: a deck plays slides, cards and recordings (a page with one
// recording is a deck of one). The same keys go through both; a card or
// a table too tall for the window goes in pages; n shows the speaker's
// notes in a band of their own below the slide, s opens the presenter
// view (presenter.js).
function Deck(deck, opts) {
  var slides = deck.slides, cur = -1, player = null, notesOn = false;
  var single = slides.length === 1;
  var preview = !!opts.preview;
  var started = 0;
  var cardPage = 0, cardPages = [];
  var designs = deck.recordings[0].talk.designs;

  // Cards. Each is built of units (a change, a line of code, a row, a
  // block of text) that pages are made of when it does not fit.
  function foot() {
    var keys = cur === 0 ? " · Enter or a click: next · ←: back · s: presenter view" : "";
    return '<div class="foot"><span>' + (cur + 1) + " of " + slides.length + keys + "</span>" + '<span class="more" id="cardmore"></span></div>';
  }
  function year(d) {
    var p = String(d).split("-").map(Number);
    return p[0] + ((p[1] || 6) - 1) / 12 + ((p[2] || 15) - 1) / 365;
  }
  function strip(changes) {
    var lo = 2014.75, hi = Math.ceil(Math.max.apply(null, changes.map(function (c) { return year(c.date); })) + 0.01);
    var x = function (y) { return (100 * (y - lo) / (hi - lo)).toFixed(1) + "%"; };
    var h = ['<div class="strip"><div class="bar"></div>'];
    changes.forEach(function (c) { h.push('<div class="tick' + (c.hot ? " hot" : "") + '" style="left:' + x(year(c.date)) + '"></div>'); });
    for (var y = Math.ceil(lo); y <= hi; y++) {
      if (y - lo > 0.2 || y === Math.ceil(lo)) h.push('<span class="year" style="left:' + x(y) + '">' + y + "</span>");
    }
    h.push("</div>");
    return h.join("");
  }
  // A waterfall card's rows (deck/waterfall.go): a total stands on the
  // axis; a step runs from the total so far to the total with it. The
  // bars take the track's left 70 %, their figures the rest.
  function fall(bars) {
    var run = 0, top = 0, spans = bars.map(function (b) {
      var from = b.step ? run : 0, to = b.step ? run + b.value : b.value;
      run = to;
      top = Math.max(top, from, to);
      return [Math.max(0, Math.min(from, to)), Math.max(0, from, to)];
    });
    var x = function (v) { return (70 * v / (top || 1)).toFixed(2) + "%"; };
    var h = ['<div class="fall">'];
    bars.forEach(function (b, i) {
      var kind = !b.step ? "total" : b.value > 0 ? "up" : b.value < 0 ? "down" : "none";
      h.push('<div class="unit row ' + kind + '"><span class="lab">' + esc(b.label) + '</span><span class="track"><span class="b" style="left:' + x(spans[i][0]) +
        ";width:" + x(spans[i][1] - spans[i][0]) + '"></span><span class="v" style="left:calc(' + x(spans[i][1]) + ' + .4rem)">' + esc(b.text) + "</span></span></div>");
    });
    h.push("</div>");
    return h.join("");
  }
  function card(s) {
    var h = ["<h1>" + esc(s.title) + "</h1>"];
    (s.lines || []).forEach(function (l) { h.push('<div class="sub">' + esc(l) + "</div>"); });
    if (s.body && s.kind !== "talk") h.push('<div class="body">' + s.body + "</div>");
    if (s.kind === "timeline") {
      h.push('<div class="era legacy">' + esc(designs[0].heading) + ": " + esc(designs[0].sub) + '</div><ol class="changes">');
      s.changes.forEach(function (c) {
        h.push('<li class="unit' + (c.hot ? " hot" : "") + '" title="' + esc(c.name) + '"><span>' + esc(c.date) + "</span><span><b>" + esc(c.title) + "</b></span>" +
          '<span class="refs">' + esc((c.refs || [])[0] || "") + "</span></li>");
      });
      h.push('</ol><div class="era modern">' + esc(designs[1].heading) + ": " + esc(designs[1].sub) + "</div>");
    }
    if (s.kind === "next") {
      h.push(strip(s.changes) + '<ul class="hotlist">');
      s.changes.filter(function (c) { return c.hot; }).forEach(function (c) {
        h.push('<li class="unit"><b>' + esc(c.title) + "</b> <span>" + esc(c.name) + " · " + esc(c.date) + " · " + esc((c.refs || []).join(" ")) + "</span></li>");
      });
      h.push("</ul>");
    }
    if (s.code) {
      var ns = s.code.lines.filter(function (l) { return l.n; }).map(function (l) { return l.n; });
      h.push('<div class="where">' + esc(s.code.file) + ", lines " + ns[0] + "–" + ns[ns.length - 1] + (s.code.build ? " · " + esc(s.code.build) : "") + '</div><div class="code">');
      s.code.lines.forEach(function (l) {
        h.push('<div class="unit ln' + (l.m ? " m" : "") + (l.c ? " cm" : "") + (l.n ? "" : " gap") + '" style="--i:' + (l.i || 0) + '">' + (l.h || " ") + "</div>");
      });
      h.push("</div>");
    }
    if (s.bars) h.push(fall(s.bars));
    if (s.rows) {
      h.push('<table class="sum"><thead><tr><th>scenario</th><th>figure</th><th class="legacy">' + esc(designs[0].heading) + '</th><th class="modern">' +
        esc(designs[1].heading) + "</th><th>unit</th></tr></thead><tbody>");
      s.rows.forEach(function (r) {
        h.push('<tr class="unit"><td><b>' + esc(r.name) + "</b></td><td>" + esc(r.figure) + "</td>" +
          (r.missing ? '<td class="legacy none">' + esc(r.missing) + "</td>" : '<td class="legacy">' + esc(r.left) + "</td>") +
          '<td class="modern">' + esc(r.right) + "</td><td>" + esc(r.unit) + "</td></tr>");
      });
      h.push("</tbody></table>");
    }
    h.push(foot());
    $("card").innerHTML = h.join("");
    $("card").className = s.kind;
    // A text card's blocks are its units.
    Array.prototype.forEach.call(document.querySelectorAll("#card .body > *"), function (e) { e.classList.add("unit"); });
  }
  function units() { return Array.prototype.slice.call(document.querySelectorAll("#card .unit")); }
  // layoutCard lays the card on screen out as one page (paged false), or
  // in pages of as many units as fit.
  function layoutCard(paged) {
    var us = units(), box = $("card");
    us.forEach(function (u) { u.classList.remove("pg-off"); });
    cardPages = [[0, us.length]];
    if (!paged || !us.length) { showCardPage(0); return 1; }
    cardPages = [];
    us.forEach(function (u) { u.classList.add("pg-off"); });
    $("cardmore").textContent = "page 9 of 9 · Enter: more";
    var from = 0;
    for (var i = 0; i < us.length; i++) {
      us[i].classList.remove("pg-off");
      if (i > from && box.scrollHeight > box.clientHeight + 1) {
        us[i].classList.add("pg-off");
        for (var k = from; k < i; k++) us[k].classList.add("pg-off");
        cardPages.push([from, i]);
        from = i;
        us[i].classList.remove("pg-off");
      }
    }
    cardPages.push([from, us.length]);
    showCardPage(Math.min(cardPage, cardPages.length - 1));
    return cardPages.length;
  }
  function showCardPage(p) {
    cardPage = p;
    var us = units(), r = cardPages[p];
    us.forEach(function (u, i) { u.classList.toggle("pg-off", i < r[0] || i >= r[1]); });
    var more = $("cardmore");
    if (more) more.textContent = cardPages.length > 1 ? "page " + (p + 1) + " of " + cardPages.length + (p < cardPages.length - 1 ? " · Enter: more" : "") : "";
  }

  // The speaker's notes of the slide on screen, the note of the step
  // playing marked.
  function notesHTML(k) {
    var s = slides[k], step = k === cur && player ? frameStep() : 0;
    return (s.notes || []).map(function (n) {
      return "<p" + (n.step && n.step === step ? ' class="k"' : "") + ">" + esc(n.text) + "</p>";
    }).join("") || "<p>No notes for this slide.</p>";
  }
  function notes() {
    var box = $("notes");
    var was = box.hidden;
    box.hidden = !notesOn || preview;
    if (!box.hidden) html(box, notesHTML(cur));
    if (was !== box.hidden) fit();
  }
  function frameStep() {
    var f = deck.recordings[slides[cur].rec].frames[player.i];
    return f ? f.step : 0;
  }
  function footer(p) {
    $("speed").textContent = pace.speed + "×";
    $("pause").textContent = p.paused && !p.waiting && !p.ended ? "resume" : "pause";
    $("pause").disabled = p.waiting || p.ended;
    $("next").disabled = single && p.ended && !(resultsPages.length > 1 && resultsPage < resultsPages.length - 1);
    var where = single ? "" : (cur + 1) + " of " + slides.length;
    if (p.ended) where = single ? "the end" : "end · " + where;
    $("where").textContent = where;
    notes();
    changed();
  }
  function show(k, atEnd) {
    if (k < 0 || k >= slides.length) return;
    if (player) { player.stop(); player = null; }
    var same = k === cur;
    cur = k;
    var s = slides[k];
    var isTalk = s.kind === "talk";
    $("talk").hidden = !isTalk;
    $("card").hidden = isTalk;
    if (isTalk) {
      layoutPages = null;
      var rec = deck.recordings[s.rec];
      setTalk(rec.talk);
      $("controls").hidden = preview;
      var here = k;
      var end = function () {
        if (!moreResults(true)) { show(cur + 1); return; }
        changed();
        // ?auto=1 plays the whole deck: each page of the results stays
        // up as a card does.
        if (auto && !opts.still && !preview) setTimeout(function () { if (cur === here) end(); }, AUTO_CARD);
      };
      player = Player(rec, {
        end: end,
        before: function () { show(cur - 1, true); },
        changed: footer,
        quiet: function () { return preview || !!opts.still; },
      });
      player.start(atEnd);
    } else {
      if (!same) cardPage = 0;
      card(s);
      layoutPages = layoutCard;
      cardPage = atEnd ? 1e9 : cardPage;
      fit();
      if (atEnd) showCardPage(cardPages.length - 1);
      notes();
      // ?auto=1 plays the whole deck: a card stays up AUTO_CARD ms.
      if (auto && !opts.still && !preview && k < slides.length - 1) {
        setTimeout(function () { if (cur === k) next(); }, AUTO_CARD);
      }
      changed();
    }
    document.body.setAttribute("data-slide", String(k + 1));
    if (!single && !opts.still && !preview) try { history.replaceState(null, "", location.search + "#slide=" + (k + 1)); } catch (e) { /* a page from disk may refuse */ }
  }
  function next() {
    if (!started) started = Date.now();
    if (player) { player.next(); return; }
    if (cardPage < cardPages.length - 1) { showCardPage(cardPage + 1); changed(); return; }
    show(cur + 1);
  }
  function back() {
    if (player) {
      if (player.ended && moreResults(false)) { changed(); return; }
      player.back();
      return;
    }
    if (cardPage > 0) { showCardPage(cardPage - 1); changed(); return; }
    show(cur - 1, true);
  }
  function key(k) {
    if (["Enter", " ", "ArrowRight", "ArrowDown", "PageDown"].indexOf(k) >= 0) next();
    else if (["ArrowLeft", "ArrowUp", "PageUp", "Backspace"].indexOf(k) >= 0) back();
    else if (k === "p" || k === "k") { if (player) player.pause(); }
    else if (k === "+" || k === "=") { if (player) player.faster(true); }
    else if (k === "-" || k === "_") { if (player) player.faster(false); }
    else if (k === "r") toggleResults();
    else if (k === "n") { notesOn = !notesOn; notes(); }
    else if (k === "Home") show(0);
    else if (k === "End") show(slides.length - 1);
    else return false;
    return true;
  }
  function toggleResults() {
    if (!player || !$("rows").children.length) return;
    resultsHidden = !resultsHidden;
    $("results").hidden = resultsHidden;
    lastStory = "";
    fit();
    changed();
  }

  // position is where the deck is, as the presenter view mirrors it.
  function position() {
    var p = { slide: cur, slides: slides.length, page: cardPage, pages: cardPages.length, started: started,
      speed: pace.speed, w: window.innerWidth, h: window.innerHeight };
    if (player) {
      p.frame = player.i; p.then = player.then === undefined ? null : player.then; p.paused = player.paused;
      p.ended = player.ended; p.waiting = player.waiting;
      p.results = !$("results").hidden; p.rpage = resultsPage; p.rpages = resultsPages.length;
      p.chip = $("chip").textContent; p.step = $("step").textContent;
    }
    return p;
  }
  // goTo shows a position another window sends (the presenter view's
  // pictures of the projected page and of what comes next).
  function goTo(p) {
    if (p.slide !== cur) show(p.slide, false);
    if (player && p.frame !== undefined) {
      player.show(p.frame, p.then === null ? undefined : p.then, p.paused);
      if (p.results !== undefined && p.results === $("results").hidden && $("rows").children.length) toggleResults();
      if (p.rpage) showResultsPage(Math.min(p.rpage, resultsPages.length - 1));
    } else if (!player && p.page !== undefined) {
      showCardPage(Math.min(p.page, cardPages.length - 1));
    }
  }
  var listeners = [];
  function changed() {
    if (!listeners.length) return;
    var p = position();
    listeners.forEach(function (f) { f(p); });
  }

  // The pictures of the deck, for rcbench deck -stills and the browser
  // tests: every page of every card; each recording at the end of each
  // group of steps, the last on its results, then each further page of
  // them; with all, each recording's start too. Their number depends on
  // the window, so the page counts them.
  function stills(all) {
    var out = [], n = 0, keep = cur;
    slides.forEach(function (s, k) {
      show(k);
      if (s.kind !== "talk") {
        for (var p = 0; p < cardPages.length; p++) {
          n++;
          out.push({ part: (k + 1) + "." + (p + 1), name: pad(n) + "-" + s.kind + (cardPages.length > 1 ? "-page" + (p + 1) : "") });
        }
        return;
      }
      var rec = deck.recordings[s.rec], G = player.groups(), P = player.pauses;
      for (var g = all ? 0 : 1; g <= G; g++) {
        n++;
        var step = g === 0 ? "start" : "step" + (P.length ? rec.frames[P[g - 1]].step : 1);
        out.push({ part: (k + 1) + "." + g, name: pad(n) + "-" + rec.talk.name + "-" + step });
      }
      player.still(G);
      for (var r = 1; r < resultsPages.length; r++) {
        n++;
        out.push({ part: (k + 1) + "." + (G + r), name: pad(n) + "-" + rec.talk.name + "-results" + (r + 1) });
      }
    });
    show(keep < 0 ? 0 : keep);
    return out;
  }
  function pad(n) { return n < 10 ? "0" + n : String(n); }
  // still shows one picture: "<slide>.<part>", as stills() names them.
  function still(part) {
    var m = /^(\d+)\.(\d+)$/.exec(part);
    if (!m) return false;
    var k = +m[1] - 1, p = +m[2];
    if (k !== cur) show(k, false);
    if (player) {
      var G = player.groups();
      player.still(Math.min(p, G));
      if (p > G) showResultsPage(Math.min(p - G, resultsPages.length - 1));
    } else {
      showCardPage(Math.max(0, Math.min(p - 1, cardPages.length - 1)));
    }
    document.body.setAttribute("data-still", part);
    return true;
  }

  // Printing: one page per slide, each as it ends, the recordings on their
  // pods and figures; the pages have the window's size, so that they look
  // as the slides do.
  var printing = null;
  function beforePrint() {
    if (printing) return;
    printing = position();
    var W = window.innerWidth, H = window.innerHeight, out = $("print");
    out.innerHTML = "";
    var style = document.createElement("style");
    style.textContent = "@page { size: " + W + "px " + H + "px; margin: 0; } @media print { #print .sheet { width: " + W + "px; height: " + H + "px; } }";
    out.appendChild(style);
    var hide = resultsHidden;
    var n = 0;
    slides.forEach(function (s, k) {
      show(k, true);
      if (player && !$("results").hidden) { resultsHidden = true; $("results").hidden = true; lastStory = ""; fit(); }
      // A card in pages prints each page.
      var pages = player ? 1 : cardPages.length;
      for (var p = 0; p < pages; p++) {
        if (!player) showCardPage(p);
        var sheet = document.createElement("div");
        sheet.className = "sheet " + $("screen").className;
        var copy = (player ? $("talk") : $("card")).cloneNode(true);
        copy.removeAttribute("hidden");
        // A copy keeps the ids its style needs (the screen's come first, so
        // the scripts still find those); its patterns get names of their
        // own, so that each sheet's squares keep their size.
        n++;
        Array.prototype.forEach.call(copy.querySelectorAll("pattern"), function (e) { e.id = "p" + n + "-" + e.id; });
        Array.prototype.forEach.call(copy.querySelectorAll("rect[fill^='url(#']"), function (e) {
          e.setAttribute("fill", e.getAttribute("fill").replace("url(#", "url(#p" + n + "-"));
        });
        sheet.appendChild(copy);
        out.appendChild(sheet);
      }
    });
    document.body.setAttribute("data-printed", String(n));
    resultsHidden = hide;
  }
  function afterPrint() {
    if (!printing) return;
    var p = printing;
    printing = null;
    $("print").innerHTML = "";
    show(p.slide, false);
    goTo(p);
  }
  window.addEventListener("beforeprint", beforePrint);
  window.addEventListener("afterprint", afterPrint);

  var api = {
    next: next, back: back, key: key, show: show, goTo: goTo, position: position, stills: stills, still: still,
    notesHTML: function (k) { return notesHTML(k); }, slides: slides, deck: deck,
    onChange: function (f) { listeners.push(f); },
    print: function () { beforePrint(); }, printed: function () { afterPrint(); },
  };
  if (!preview) {
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "s") { openPresenter(api); e.preventDefault(); return; }
      if (key(e.key)) e.preventDefault();
    });
    document.addEventListener("click", function (e) {
      if (e.target.closest("button, a, #notes")) return;
      next();
    });
    $("next").addEventListener("click", next);
    $("back").addEventListener("click", back);
    $("pause").addEventListener("click", function () { if (player) player.pause(); });
    $("faster").addEventListener("click", function () { if (player) player.faster(true); });
    $("slower").addEventListener("click", function () { if (player) player.faster(false); });
  }

  // #still=<slide>.<part> shows one picture; #slide=<n> opens at a slide.
  var m = /still=(\d+\.\d+)/.exec(location.hash);
  if (m) {
    opts.still = true;
    still(m[1]);
  } else {
    var at = /slide=(\d+)/.exec(location.hash);
    show(at ? Math.max(1, Math.min(slides.length, +at[1])) - 1 : 0);
  }
  window.addEventListener("hashchange", function () {
    var m = /still=(\d+\.\d+)/.exec(location.hash);
    if (m) still(m[1]);
  });
  return api;
}
