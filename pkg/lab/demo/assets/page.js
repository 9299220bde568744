// Keeps the page live: every server-sent frame updates the counters, the
// pod grids and the rolling chart. The drawing mirrors grid.go and the
// figures figure.go, so the page looks the same before and after the first
// frame. A page with a recording inside plays it by itself, with no
// server: the player at the end mirrors replay.go.
(function () {
  "use strict";
  var GW = 600, GH = 236, CW = 600, CH = 96, SECONDS = 60;
  var COLOUR = { u: "#6e7681", w: "#d29922", r: "#2ea043", x: "#da3633" };
  var VERBS = ["LIST", "GET", "POST", "PUT", "DELETE", "WATCH"];
  var chart = [];
  var lastGrid = ["", ""];
  var FIGURE = document.body.getAttribute("data-figure") || "go";
  var SECOND = FIGURE === "cr" ? "go" : FIGURE;

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
  function figure(key, s) {
    if (key === "rq") {
      var total = 0;
      for (var k in s.rq || {}) total += s.rq[k];
      return total;
    }
    return key === "cr" ? s.cr : key === "lm" ? s.lm || 0 : s.go;
  }
  function formatFigure(key, v) { return key === "rq" ? rate(v) : thousands(v); }
  function addPoint(f) {
    var s = f.sides || [];
    if (s.length === 2 && (s[0].ready || s[1].ready)) {
      var last = chart[chart.length - 1];
      if (!last || last[0] < f.t) chart.push([f.t, s[0].r, figure(FIGURE, s[0]), s[1].r, figure(FIGURE, s[1])]);
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
  function field(root, name) { return root.querySelector('[data-f="' + name + '"]'); }
  function text(root, name, v) { var e = field(root, name); if (e && e.textContent !== v) e.textContent = v; }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }

  function render(f) {
    var chip = document.getElementById("chip");
    chip.className = "chip " + f.phase;
    chip.textContent = f.phase === "ready" ? "next: press Enter" : f.phase;
    document.getElementById("step").textContent = f.step ? "Step " + f.step + " of " + f.steps + ": " + f.title : f.steps + " steps";
    if (f.say) document.getElementById("say").textContent = f.say;
    document.getElementById("note").textContent = f.note || "";
    var clock = document.getElementById("clock");
    clock.textContent = Math.round(f.t) + " s" + clock.textContent.replace(/^[^·]*/, " ");

    var top = [1, 1];
    (f.sides || []).forEach(function (s) { top[0] = Math.max(top[0], s.d); });
    chart.forEach(function (p) {
      top[0] = Math.max(top[0], p[1], p[3]);
      top[1] = Math.max(top[1], p[2], p[4]);
    });
    (f.sides || []).forEach(function (s, i) {
      var root = document.getElementById("s" + i);
      if (!root) return;
      text(root, "status", s.ready ? "" : "starting…");
      text(root, "r", thousands(s.r));
      field(root, "rv").className = "v" + (s.d && s.a > s.d ? " over" : "");
      text(root, "d", thousands(s.d));
      text(root, "second", formatFigure(SECOND, figure(SECOND, s)));
      text(root, "cr", thousands(s.cr));
      text(root, "ex", thousands(s.ex));
      field(root, "extile").className = "tile" + (s.ex ? " hot" : "");
      var v = ["req/s"];
      VERBS.forEach(function (verb) {
        var r = (s.rq && s.rq[verb]) || 0;
        v.push("<span" + (r ? ' class="on"' : "") + ">" + verb + " <b>" + rate(r) + "</b></span>");
      });
      if (s.pf) v.push('<span class="fail">' + thousands(s.pf) + " POSTs refused</span>");
      field(root, "verbs").innerHTML = v.join(" ");
      var key = s.g + "/" + s.n;
      if (lastGrid[i] !== key) {
        field(root, "grid").innerHTML = gridSVG("s" + i, s.g, s.n);
        lastGrid[i] = key;
      }
      text(root, "ptop", thousands(top[0]));
      text(root, "ftop", formatFigure(FIGURE, top[1]));
      field(root, "pline").setAttribute("points", line(1 + 2 * i, top[0], f.t));
      field(root, "fline").setAttribute("points", line(2 + 2 * i, top[1], f.t));
    });

    var box = document.getElementById("results");
    // The results cover the grids and charts, never the rows above them.
    var verbs = document.querySelector('#s0 [data-f="verbs"]');
    if (verbs) box.style.top = (verbs.offsetTop + verbs.offsetHeight + 4) + "px";
    if (f.results && f.results.length) {
      if (!box.dataset.shown) { box.hidden = false; box.dataset.shown = "1"; }
      document.getElementById("rows").innerHTML = f.results.map(function (r) {
        var name = r.process ? r.name + " (" + r.process + ")" : r.name;
        return "<tr><td" + (r.note ? ' title="' + esc(r.note) + '"' : "") + ">" + esc(name) + "</td><td" + (r.better === "legacy" ? ' class="better"' : "") + ">" + esc(r.legacy) +
          "</td><td" + (r.better === "modern" ? ' class="better"' : "") + ">" + esc(r.modern) + '</td><td class="why">' + esc(r.diff) + "</td></tr>";
      }).join("");
    }
  }

  document.getElementById("results").addEventListener("click", function () { this.hidden = true; });
  document.addEventListener("keydown", function (e) {
    if (e.key === "r") { var b = document.getElementById("results"); if (b.dataset.shown) b.hidden = !b.hidden; }
  });
  var recording = document.getElementById("recording");
  if (recording) { play(JSON.parse(recording.textContent)); return; }
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

  // play shows a recording's frames at their pace, from where both sides
  // were up, and waits for Enter (or Space, or the arrow or page key of a
  // presenter's remote) before each step. ?speed=N plays N times faster, +
  // and - change it; ?auto=1 plays every step without waiting.
  function play(rec) {
    var q = new URLSearchParams(location.search);
    var speed = Math.max(1, +q.get("speed") || 1), auto = q.get("auto") === "1";
    var frames = rec.frames, i = 0, step = 0, waiting = null;
    while (i < frames.length - 1 && !(frames[i].sides[0].ready && frames[i].sides[1].ready)) i++;
    var offset = frames[i].t, prev = frames[i].t;
    function show(f) {
      var g = {};
      for (var k in f) g[k] = f[k];
      g.t = f.t - offset;
      addPoint(g);
      render(g);
    }
    function next() {
      if (i >= frames.length) return;
      var f = frames[i];
      if (f.phase === "ready" && f.step !== step) {
        step = f.step;
        show(f);
        var j = i + 1;
        while (j < frames.length && frames[j].phase === "ready" && frames[j].step === step) j++;
        var resume = function () {
          if (j < frames.length) { offset += frames[j].t - f.t; prev = frames[j].t; }
          i = j;
          next();
        };
        if (auto) setTimeout(resume, 0); else waiting = resume;
        return;
      }
      setTimeout(function () {
        prev = f.t;
        show(f);
        i++;
        if (f.phase !== "done") next();
      }, Math.max(0, (f.t - prev) / speed * 1000));
    }
    document.addEventListener("keydown", function (e) {
      if (e.key === "+") speed *= 2;
      if (e.key === "-") speed = Math.max(1, speed / 2);
      if (waiting && ["Enter", " ", "ArrowRight", "ArrowDown", "PageDown"].indexOf(e.key) >= 0) {
        var w = waiting;
        waiting = null;
        e.preventDefault();
        w();
      }
    });
    next();
  }
})();
