// Keeps the page live: every server-sent frame updates the counters, the
// pod grids and the rolling chart. The drawing mirrors grid.go and the
// tiles page.go, so the page looks the same before and after the first
// frame. A page with a recording or a deck inside plays it by itself, with
// no server: the player mirrors replay.go, and a deck adds its cards and
// the speaker's notes around the recordings.
(function () {
  "use strict";
  var GW = 600, GH = 236, CW = 600, CH = 96, SECONDS = 60;
  var COLOUR = { u: "#6e7681", w: "#d29922", r: "#2ea043", x: "#da3633" };
  var VERBS = ["LIST", "GET", "POST", "PUT", "DELETE", "WATCH"];
  var SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
  var AUTO_CARD = 2000;
  var q = new URLSearchParams(location.search);
  var zoom = +q.get("zoom");
  if (zoom > 0) document.documentElement.style.setProperty("--zoom", String(zoom));
  var $ = function (id) { return document.getElementById(id); };

  // Formatting, as console.go, results.go and figure.go print.
  function thousands(n) {
    n = Math.round(n);
    var s = String(Math.abs(n)), out = "";
    while (s.length > 3) { out = "\u202f" + s.slice(-3) + out; s = s.slice(0, -3); }
    return (n < 0 ? "-" : "") + s + out;
  }
  function rate(v) {
    if (v === 0) return "0";
    if (v < 9.95) return v.toFixed(1);
    return thousands(v);
  }
  function formatValue(v) {
    if (v < 0) return "–";
    if (v === Math.trunc(v)) return thousands(v);
    if (v < 10) return v.toFixed(2);
    if (v < 100) return v.toFixed(1);
    return thousands(v);
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function field(root, name) { return root.querySelector('[data-f="' + name + '"]'); }
  function text(root, name, v) { var e = field(root, name); if (e && e.textContent !== v) e.textContent = v; }

  // The talk on the page: its words, the names of its sides and the
  // figure it is about.
  // ?results=0 opens on the pods, the results a key away (r).
  var talk = null, chart = [], lastGrid = ["", ""], resultsHidden = q.get("results") === "0";
  function setTalk(t) {
    talk = t;
    chart = [];
    lastGrid = ["", ""];
    resultsHidden = q.get("results") === "0";
    $("name").textContent = t.name;
    $("title").textContent = t.title;
    $("reproduces").textContent = t.reproduces;
    $("recorded").textContent = t.recorded ? " · recorded " + t.recorded : "";
    var fig = t.figure, own = fig.key === "cr" || fig.key === "ex";
    (t.designs || []).forEach(function (d, i) {
      var root = $("s" + i);
      if (!root) return;
      text(root, "heading", d.heading);
      text(root, "sub", d.sub);
      field(root, "secondtile").className = "tile" + (own ? "" : " key");
      text(root, "secondlabel", own ? "goroutines" : fig.label);
      text(root, "flabel", fig.key === "pg" ? "goroutines" : fig.label);
      var h = document.querySelector("#results th.h" + i);
      if (h) h.textContent = d.heading;
    });
  }
  function idle(s) { return !s.d && !s.a && !s.cr; }
  function chartValue(s) {
    var k = talk.figure.key;
    if (k === "pg" || k === "go") return s.go;
    return Math.max(0, s.f || 0);
  }
  function addPoint(f) {
    var s = f.sides || [];
    if (s.length === 2 && (s[0].ready || s[1].ready)) {
      var last = chart[chart.length - 1];
      if (!last || last[0] < f.t) chart.push([f.t, s[0].r, chartValue(s[0]), s[1].r, chartValue(s[1])]);
      while (chart.length && f.t - chart[0][0] > SECONDS + 1) chart.shift();
    }
  }
  function layout(n, w, h) {
    if (n < 1) n = 1;
    var cell = Math.floor(Math.sqrt(w * h / n));
    while (cell > 1 && Math.floor(w / cell) * Math.floor(h / cell) < n) cell--;
    if (cell < 1) cell = 1;
    return { cell: cell, cols: Math.floor(w / cell) };
  }
  function gap(cell) { return cell >= 8 ? 2 : cell >= 4 ? 1 : 0; }
  function gridSVG(id, grid, cells) {
    var runs = [], total = 0, re = /([a-z])(\d+)/g, m;
    while ((m = re.exec(grid))) { runs.push([m[1], +m[2]]); total += +m[2]; }
    if (cells < total) cells = total;
    var L = layout(cells, GW, GH), g = gap(L.cell), c = L.cell;
    var out = ['<svg class="grid" viewBox="0 0 ' + GW + " " + GH + '" preserveAspectRatio="xMinYMin meet" role="img" aria-label="' + total + ' pods"><defs>'];
    "uwrx".split("").forEach(function (k) {
      out.push('<pattern id="' + id + k + '" width="' + c + '" height="' + c + '" patternUnits="userSpaceOnUse"><rect width="' +
        (c - g) + '" height="' + (c - g) + '" fill="' + COLOUR[k] + '"/></pattern>');
    });
    out.push("</defs>");
    var i = 0;
    runs.forEach(function (r) {
      if (!COLOUR[r[0]]) { i += r[1]; return; }
      for (var left = r[1]; left > 0;) {
        var row = Math.floor(i / L.cols), col = i % L.cols, k = Math.min(L.cols - col, left);
        out.push('<rect x="' + col * c + '" y="' + row * c + '" width="' + k * c + '" height="' + c + '" fill="url(#' + id + r[0] + ')"/>');
        i += k; left -= k;
      }
    });
    out.push("</svg>");
    return out.join("");
  }
  function line(col, top, now) {
    var pts = [];
    chart.forEach(function (p) {
      var age = now - p[0];
      if (age > SECONDS) return;
      pts.push((CW - age / SECONDS * CW).toFixed(1) + "," + (CH - 3 - p[col] / top * (CH - 6)).toFixed(1));
    });
    return pts.join(" ");
  }
  // verbsLine shows the requests a second of each verb that has any, and
  // the POSTs refused; on one line, leaving out the smallest rates when
  // they do not all fit.
  function verbsLine(el, s) {
    var items = [];
    VERBS.forEach(function (verb) {
      var r = (s.rq && s.rq[verb]) || 0;
      if (r) items.push([r, '<span class="on">' + verb + " <b>" + rate(r) + "</b></span>"]);
    });
    var tail = s.pf ? ' <span class="fail">· ' + thousands(s.pf) + " POSTs refused</span>" : "";
    function draw() {
      el.innerHTML = "req/s " + (items.length ? items.map(function (x) { return x[1]; }).join(" ") : "<b>0</b>") + tail;
    }
    draw();
    while (el.scrollWidth > el.clientWidth + 1 && items.length > 1) {
      var min = 0;
      items.forEach(function (x, i) { if (x[0] < items[min][0]) min = i; });
      items.splice(min, 1);
      draw();
    }
  }
  // row is the results' value of the figure for side i, once they are in.
  function row(f, i) {
    var name = talk.figure.row;
    var r = (f.results || []).filter(function (r) { return name && r.name === name; })[0];
    return r ? (i === 0 ? r.legacy : r.modern) : "";
  }
  function stepLine(f) {
    if (!f.step) return f.steps + " steps";
    if (f.from && f.from < f.step) return "Steps " + f.from + "–" + f.step + " of " + f.steps + ": " + f.title;
    return "Step " + f.step + " of " + f.steps + ": " + f.title;
  }

  // render shows frame f; how says what the chip says of a pause (a
  // player waits for Enter at every one) and whether the player is paused.
  function render(f, how) {
    how = how || {};
    var chip = $("chip"), phase = how.paused ? "paused" : f.phase;
    chip.className = "chip " + phase;
    chip.textContent = phase === "ready" ? (f.wait || how.player ? "next: press Enter" : "next") : phase;
    $("step").textContent = stepLine(f);
    $("say").textContent = f.say || talk.explain;
    $("then").textContent = f.then ? "↳ " + f.then : "";
    $("note").textContent = f.note || "";
    $("clock").textContent = Math.round(f.t) + " s · " + talk.size;

    var top = [1, 1], fig = talk.figure, own = fig.key === "cr" || fig.key === "ex";
    (f.sides || []).forEach(function (s) { top[0] = Math.max(top[0], s.d); });
    chart.forEach(function (p) {
      top[0] = Math.max(top[0], p[1], p[3]);
      top[1] = Math.max(top[1], p[2], p[4]);
    });
    (f.sides || []).forEach(function (s, i) {
      var root = $("s" + i);
      if (!root) return;
      var none = idle(s), sp = Math.max(0, s.a - s.d);
      text(root, "status", s.ready ? "" : "starting…");
      text(root, "r", none ? "–" : thousands(s.r));
      field(root, "rv").className = "v" + (s.d && s.a > s.d ? " over" : "");
      text(root, "d", none ? "–" : thousands(s.d));
      var v = own ? thousands(s.go) : row(f, i) || formatValue(s.f === undefined ? -1 : s.f);
      text(root, "second", v);
      text(root, "secondunit", !own && fig.unit ? " " + fig.unit : "");
      text(root, "cr", none ? "–" : thousands(s.cr));
      text(root, "ex", none ? "–" : thousands(s.ex));
      text(root, "sp", none ? "–" : thousands(sp));
      field(root, "crrow").className = fig.key === "cr" ? "key" : "";
      field(root, "exrow").className = (fig.key === "ex" ? "key" : "") + (s.ex ? " hot" : "");
      field(root, "sprow").className = sp ? "hot" : "";
      verbsLine(field(root, "verbs"), s);
      var key = s.g + "/" + s.n;
      if (lastGrid[i] !== key) {
        field(root, "grid").innerHTML = gridSVG("s" + i, s.g, s.n);
        lastGrid[i] = key;
      }
      text(root, "ptop", thousands(top[0]));
      text(root, "ftop", formatValue(top[1]));
      field(root, "pline").setAttribute("points", line(1 + 2 * i, top[0], f.t));
      field(root, "fline").setAttribute("points", line(2 + 2 * i, top[1], f.t));
    });

    var box = $("results");
    if (f.results && f.results.length) {
      box.hidden = resultsHidden;
      $("rows").innerHTML = f.results.map(function (r) {
        var name = esc(r.name) + (r.process ? ' <span class="proc">(' + esc(r.process) + ")</span>" : "");
        return "<tr" + (r.name === fig.row ? ' class="key"' : "") + "><td" + (r.note ? ' title="' + esc(r.note) + '"' : "") + ">" + name +
          "</td><td" + (r.better === "legacy" ? ' class="better"' : "") + ">" + esc(r.legacy) +
          "</td><td" + (r.better === "modern" ? ' class="better"' : "") + ">" + esc(r.modern) +
          '</td><td class="unit">' + esc(r.unit) + '</td><td class="why">' + esc(r.diff) + "</td></tr>";
      }).join("");
      $("verdicts").innerHTML = (how.verdicts || []).map(function (v) {
        return v.ok ? '<span class="ok">✓</span> ' + esc(v.design) + " showed what its design must" :
          '<span class="no">✗</span> ' + esc(v.design) + " did not show its point this time: " + esc(v.why);
      }).join(" · ");
    } else {
      box.hidden = true;
    }
    if (q.get("check") === "1") check();
  }

  // check, with ?check=1, measures the page as laid out and writes what
  // does not fit into the body's data-layout ("ok" when all does): text
  // cut at its box's edge, results rows outside the window, pod grids of
  // different sizes. The browser tests read it.
  function check() {
    var bad = [], W = window.innerWidth, H = window.innerHeight;
    function visible(e) { return e.offsetParent !== null || e.tagName === "BODY"; }
    function name(e) { return (e.id ? "#" + e.id : "") + (e.getAttribute("data-f") ? "[" + e.getAttribute("data-f") + "]" : "") || e.className || e.tagName; }
    var sel = "#talk:not([hidden]) h1, #talk:not([hidden]) .issue, #talk:not([hidden]) .stepline, #talk:not([hidden]) .head, #talk:not([hidden]) .tile .v, " +
      "#talk:not([hidden]) .tile .l, #talk:not([hidden]) .tile.counts > div, #talk:not([hidden]) .verbs, #talk:not([hidden]) .chartcap, " +
      "#talk:not([hidden]) footer, #talk:not([hidden]) #where, #results:not([hidden]) td, #results:not([hidden]) th, #card:not([hidden]) li, #card:not([hidden]) tr";
    Array.prototype.forEach.call(document.querySelectorAll(sel), function (e) {
      if (!visible(e)) return;
      if (e.scrollWidth > e.clientWidth + 1) bad.push(name(e) + " cut: " + e.scrollWidth + " > " + e.clientWidth + " (" + e.textContent.trim().slice(0, 40) + ")");
      var r = e.getBoundingClientRect();
      if (r.right > W + 1 || r.bottom > H + 1) bad.push(name(e) + " outside the window (" + e.textContent.trim().slice(0, 40) + ")");
    });
    var box = $("results");
    if (!box.hidden && visible(box)) {
      var b = box.getBoundingClientRect();
      Array.prototype.forEach.call(box.querySelectorAll("tr, #verdicts"), function (tr, i) {
        var r = tr.getBoundingClientRect();
        if (r.bottom > b.bottom + 1 || r.right > b.right + 1) bad.push("results row " + i + " outside the results box");
      });
    }
    var grids = document.querySelectorAll("#talk:not([hidden]) .gridbox");
    if (grids.length === 2) {
      var g0 = grids[0].getBoundingClientRect(), g1 = grids[1].getBoundingClientRect();
      if (Math.abs(g0.width - g1.width) > 1 || Math.abs(g0.height - g1.height) > 1) bad.push("the pod grids differ: " + g0.width + "×" + g0.height + " and " + g1.width + "×" + g1.height);
    }
    if (document.documentElement.scrollHeight > H + 1) bad.push("the page is taller than the window");
    document.body.setAttribute("data-layout", bad.length ? bad.join("; ") : "ok");
  }

  // Player plays a recording's frames at their pace, from where both
  // sides were up, and waits before each step (a pause: a ready frame).
  // The time spent waiting is left out of its clock. It can pause within
  // a step, go faster or slower, skip to the end of a step and go back to
  // the start of one. hooks.end is called on "next" at the end, and
  // hooks.before on "back" at the first pause.
  function Player(rec, hooks) {
    var frames = rec.frames, timer = null;
    var self = { speed: Math.max(0.05, +q.get("speed") || 1), paused: false, waiting: false, ended: false, i: 0 };
    var auto = q.get("auto") === "1";
    var s0 = 0;
    while (s0 < frames.length - 1 && !(frames[s0].sides[0].ready && frames[s0].sides[1].ready)) s0++;
    // pt is each frame's time on the player's clock; pauses the frames
    // where it waits for Enter.
    var pt = [], pauses = [];
    frames.forEach(function (f, i) {
      pt[i] = i <= s0 ? 0 : pt[i - 1] + (frames[i - 1].phase === "ready" ? 0 : f.t - frames[i - 1].t);
      var last = pauses.length ? frames[pauses[pauses.length - 1]].step : -1;
      if (f.phase === "ready" && !f.from && f.step !== last) pauses.push(i);
    });
    if (pauses.length && pauses[0] < s0) s0 = pauses[0];
    function frameAt(i, then) {
      var f = frames[i], g = {};
      for (var k in f) g[k] = f[k];
      g.t = pt[i];
      if (then !== undefined) g.then = then;
      return g;
    }
    function paint(then) {
      render(frameAt(self.i, then), { player: true, paused: self.paused && !self.waiting && !self.ended, verdicts: rec.verdicts });
      hooks.changed && hooks.changed(self);
    }
    // seek shows frame j, its chart rebuilt from the frames before it.
    function seek(j, then) {
      clearTimeout(timer);
      timer = null;
      chart = [];
      for (var k = s0; k <= j; k++) addPoint(frameAt(k));
      self.i = j;
      self.ended = frames[j].phase === "done" || j === frames.length - 1;
      self.waiting = pauses.indexOf(j) >= 0 && !self.ended;
      paint(then);
    }
    function arrive() {
      if (self.ended) {
        // ?auto=1 plays a whole deck: the results stay up as a card does.
        if (auto && hooks.end) setTimeout(hooks.end, AUTO_CARD);
        return;
      }
      if (self.waiting) {
        if (auto) setTimeout(self.next, 0);
        return;
      }
      schedule();
    }
    // advance shows the next frame.
    function advance() {
      timer = null;
      self.i++;
      var f = frameAt(self.i);
      addPoint(f);
      self.ended = f.phase === "done" || self.i === frames.length - 1;
      self.waiting = pauses.indexOf(self.i) >= 0 && !self.ended;
      paint();
      arrive();
    }
    function schedule() {
      clearTimeout(timer);
      if (self.paused || self.waiting || self.ended || self.i >= frames.length - 1) return;
      timer = setTimeout(advance, Math.max(0, (pt[self.i + 1] - pt[self.i]) / self.speed * 1000));
    }
    // next runs the step the player waits before, or skips to the end of
    // the step it plays, or, at the end, leaves.
    self.next = function () {
      if (self.ended) { if (hooks.end) hooks.end(); return; }
      if (self.waiting) {
        // The step runs at once: its first frame follows the pause
        // without delay.
        self.waiting = false;
        self.paused = false;
        clearTimeout(timer);
        advance();
        return;
      }
      var k = pauses.filter(function (p) { return p > self.i; })[0];
      if (k === undefined) k = frames.length - 1;
      seek(k);
      arrive();
    };
    // back goes to the pause before the step playing, or the one before
    // that when it waits there already.
    self.back = function () {
      var before = pauses.filter(function (p) { return self.waiting || self.ended ? p < self.i : p <= self.i; });
      if (self.ended) before = pauses.filter(function (p) { return p < self.i; });
      var k = before[before.length - 1];
      if (k === undefined || (self.waiting && self.i === pauses[0])) { if (hooks.before) hooks.before(); return; }
      self.paused = false;
      seek(k);
    };
    self.pause = function () {
      if (self.waiting || self.ended) return;
      self.paused = !self.paused;
      paint();
      if (self.paused) clearTimeout(timer); else schedule();
    };
    self.faster = function (up) {
      var i = SPEEDS.indexOf(self.speed);
      if (i < 0) i = SPEEDS.indexOf(1);
      self.speed = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + (up ? 1 : -1)))];
      hooks.changed && hooks.changed(self);
      if (timer) schedule();
    };
    // still shows the end of the g-th group of steps (1-based): its last
    // frame, with the conclusion the next pause carries; the last group
    // ends on the results.
    self.still = function (g) {
      var next = pauses[g];
      if (next === undefined) { seek(frames.length - 1); return; }
      seek(next - 1, frames[next].then || "");
    };
    self.stop = function () { clearTimeout(timer); timer = null; };
    self.start = function (atEnd) {
      if (atEnd) { seek(frames.length - 1); return; }
      seek(pauses.length ? pauses[0] : s0);
      arrive();
    };
    return self;
  }

  // Deck plays slides: cards, and recordings through a Player.
  function Deck(deck) {
    var slides = deck.slides, cur = -1, player = null, notesOn = false;
    var single = slides.length === 1;
    function card(s) {
      var h = ["<h1>" + esc(s.title) + "</h1>"];
      (s.lines || []).forEach(function (l) { h.push('<div class="sub">' + esc(l) + "</div>"); });
      if (s.changes) {
        var left = deck.recordings[0].talk.designs[0], right = deck.recordings[0].talk.designs[1];
        h.push('<div class="era legacy">' + esc(left.heading) + ": " + esc(left.sub) + "</div><ol>");
        s.changes.forEach(function (c) {
          h.push('<li class="' + (c.hot ? "hot" : "") + '"><span>' + esc(c.date) + "</span><span><b>" + esc(c.name) + "</b> " + esc(c.title) +
            '</span><span class="refs">' + esc((c.refs || [])[0] || "") + "</span></li>");
        });
        h.push('</ol><div class="era modern">' + esc(right.heading) + ": " + esc(right.sub) + "</div>");
      }
      if (s.rows) {
        h.push('<table class="sum">');
        s.rows.forEach(function (r) {
          h.push("<tr><td><b>" + esc(r.name) + "</b></td><td>" + esc(r.figure) + '</td><td class="legacy">' + esc(r.left) +
            '</td><td class="modern">' + esc(r.right) + "</td><td>" + esc(r.unit) + "</td></tr>");
        });
        h.push("</table>");
      }
      h.push('<div class="foot">' + esc(deck.title) + " · " + (cur + 1) + " of " + slides.length + " · Enter or a click: next · ←: back · n: notes</div>");
      $("card").innerHTML = h.join("");
      $("card").className = s.kind;
    }
    function notes() {
      var s = slides[cur], box = $("notes");
      box.hidden = !notesOn;
      if (!notesOn) return;
      var step = player ? frameStep() : 0;
      box.innerHTML = (s.notes || []).map(function (n) {
        return "<p" + (n.step && n.step === step ? ' class="k"' : "") + ">" + esc(n.text) + "</p>";
      }).join("") || "<p>No notes for this slide.</p>";
    }
    function frameStep() {
      var f = deck.recordings[slides[cur].rec].frames[player.i];
      return f ? f.step : 0;
    }
    function footer(p) {
      $("speed").textContent = p.speed + "×";
      $("pause").textContent = p.paused && !p.waiting && !p.ended ? "resume" : "pause";
      $("pause").disabled = p.waiting || p.ended;
      $("next").disabled = single && p.ended;
      var where = single ? "" : (cur + 1) + " of " + slides.length;
      if (p.ended) where = single ? "the end" : "end · " + where;
      $("where").textContent = where;
      notes();
    }
    function show(k, atEnd) {
      if (k < 0 || k >= slides.length) return;
      if (player) { player.stop(); player = null; }
      cur = k;
      var s = slides[k];
      var isTalk = s.kind === "talk";
      $("talk").hidden = !isTalk;
      $("card").hidden = isTalk;
      if (isTalk) {
        var rec = deck.recordings[s.rec];
        setTalk(rec.talk);
        $("controls").hidden = false;
        player = Player(rec, {
          end: function () { show(cur + 1); },
          before: function () { show(cur - 1, true); },
          changed: footer,
        });
        player.start(atEnd);
      } else {
        card(s);
        notes();
        // ?auto=1 plays the whole deck: a card stays up AUTO_CARD ms.
        if (q.get("auto") === "1" && !still && k < slides.length - 1) {
          setTimeout(function () { if (cur === k) show(k + 1); }, AUTO_CARD);
        }
      }
      document.body.setAttribute("data-slide", String(k + 1));
      if (q.get("check") === "1") check();
      if (!single && !still) try { history.replaceState(null, "", "#slide=" + (k + 1)); } catch (e) { /* a page from disk may refuse */ }
    }
    function next() { if (player) player.next(); else show(cur + 1); }
    function back() { if (player) player.back(); else show(cur - 1, true); }
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var k = e.key;
      if (["Enter", " ", "ArrowRight", "ArrowDown", "PageDown"].indexOf(k) >= 0) { e.preventDefault(); next(); }
      else if (["ArrowLeft", "ArrowUp", "PageUp", "Backspace"].indexOf(k) >= 0) { e.preventDefault(); back(); }
      else if (k === "p" || k === "k") { if (player) player.pause(); }
      else if (k === "+" || k === "=") { if (player) player.faster(true); }
      else if (k === "-" || k === "_") { if (player) player.faster(false); }
      else if (k === "n") { notesOn = !notesOn; notes(); }
      else if (k === "Home") show(0);
      else if (k === "End") show(slides.length - 1);
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

    // #still=<slide>.<part> shows one picture, for rcbench deck -stills:
    // a card, or a recording at the end of one of its steps. #slide=<n>
    // opens at a slide.
    var m = /still=(\d+)\.(\d+)/.exec(location.hash), still = !!m;
    if (m) {
      show(+m[1] - 1, true);
      if (player) player.still(+m[2]);
      document.body.setAttribute("data-still", m[1] + "." + m[2]);
      return;
    }
    var at = /slide=(\d+)/.exec(location.hash);
    show(at ? Math.min(slides.length, +at[1]) - 1 : 0);
  }

  // notesOf is the speaker's notes of a recording played alone, as
  // deck.go's talkNotes makes them for a deck.
  function notesOf(rec) {
    var out = [{ text: rec.talk.explain }], seen = {};
    rec.frames.forEach(function (f) {
      if (!f.step || seen[f.step] || f.phase === "done" || f.from) return;
      seen[f.step] = true;
      out.push({ text: "Step " + f.step + ", " + f.title + ": " + f.say, step: f.step });
    });
    return out;
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "r" && talk) { resultsHidden = !resultsHidden; var b = $("results"); if ($("rows").children.length) b.hidden = resultsHidden; }
  });
  var data = $("deck") || $("recording");
  if (data) {
    var d = JSON.parse(data.textContent);
    if (data.id === "recording") d = { title: d.talk.name, slides: [{ kind: "talk", rec: 0, notes: notesOf(d) }], recordings: [d] };
    Deck(d);
    return;
  }
  // The live page: the talk is rendered by the server; frames come as
  // server-sent events.
  talk = JSON.parse($("talkdata").textContent);
  if (!window.EventSource) return;
  // The query string passes through: ?frames=N asks for a still picture
  // after N frames.
  var es = new EventSource("events" + location.search);
  es.addEventListener("chart", function (e) { chart = JSON.parse(e.data) || []; });
  es.addEventListener("bye", function () { es.close(); });
  es.onmessage = function (e) {
    var f = JSON.parse(e.data);
    addPoint(f);
    render(f);
  };
})();
