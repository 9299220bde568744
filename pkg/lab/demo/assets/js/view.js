// view.js: the talk on the page, one frame at a time. Every frame updates
// the figure, the counters, the pod grids and the rolling chart. The
// drawing mirrors grid.go and the tiles page.go, so the page looks the
// same before and after the first frame. The page's scripts are these
// files, in this order, inside one function (page.go joins them): view,
// fit, player, deck, presenter, boot.
var CW = 600, CH = 96, SECONDS = 60;
var COLOUR = { u: "#6e7681", w: "#d29922", r: "#2ea043", x: "#da3633" };
var VERBS = ["LIST", "GET", "POST", "PUT", "DELETE", "WATCH"];
var q = new URLSearchParams(location.search);
var zoom = Math.max(1, +q.get("zoom") || 1);
document.documentElement.style.setProperty("--zoom", String(zoom));
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
function html(e, v) { if (e && e.innerHTML !== v) e.innerHTML = v; }

// The talk on the page: its words, the names of its sides and the
// figure it is about. ?results=0 opens on the pods, the results a key
// away (r).
var talk = null, chart = [], lastGrid = ["", ""], resultsHidden = q.get("results") === "0";
var lastStory = "", lastSides = [];
// redrawGrids draws the pods again for the size their boxes have now.
function redrawGrids() {
  lastSides.forEach(function (s, i) { var root = $("s" + i); if (root && !$("talk").hidden) drawGrid(root, i, s); });
}
function setTalk(t) {
  talk = t;
  chart = [];
  lastGrid = ["", ""];
  lastStory = "";
  lastRows = "";
  resultsHidden = q.get("results") === "0";
  $("name").textContent = t.name;
  $("title").textContent = t.title;
  $("reproduces").textContent = t.reproduces;
  $("recorded").textContent = t.recorded ? " · recorded " + t.recorded : "";
  var fig = t.figure;
  (t.designs || []).forEach(function (d, i) {
    var root = $("s" + i);
    if (!root) return;
    text(root, "heading", d.heading);
    text(root, "sub", d.sub);
    text(root, "figlabel", fig.label);
    text(root, "figunit", fig.unit ? " " + fig.unit : "");
    text(root, "flabel", chartLabel(fig));
    var h = document.querySelector("#results th.h" + i);
    if (h) h.textContent = d.heading;
  });
}
function chartLabel(fig) { return fig.key === "pg" ? "goroutines" : fig.label; }
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
// gridSVG draws the pods as squares in a space of the box's own shape,
// 600 wide, so that the squares are as large as the box allows.
function gridSVG(id, grid, cells, GW, GH) {
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
function drawGrid(root, i, s) {
  var box = field(root, "grid"), w = box.clientWidth, h = box.clientHeight;
  var GW = 600, GH = w > 0 && h > 0 ? Math.max(20, Math.min(2400, Math.round(600 * h / w))) : 236;
  var key = s.g + "/" + s.n + "/" + GH;
  if (lastGrid[i] !== key) {
    box.innerHTML = gridSVG("s" + i, s.g, s.n, GW, GH);
    lastGrid[i] = key;
  }
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
// ticks is the chart's time axis: every 20 s of the run's clock in the
// last minute, as chartTicks in page.go.
function ticks(now) {
  var out = [];
  for (var v = Math.ceil((now - SECONDS) / 20) * 20; v <= now; v += 20) {
    var left = 100 - (now - v) / SECONDS * 100;
    if (v < 0 || left < 8 || left > 92) continue;
    out.push('<span style="left:' + (Math.round(left * 10) / 10) + '%">' + v + " s</span>");
  }
  return out.join("");
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
    html(el, "req/s " + (items.length ? items.map(function (x) { return x[1]; }).join(" ") : "<b>0</b>") + tail);
  }
  draw();
  if (!el.clientWidth) return;
  while (el.scrollWidth > el.clientWidth + 1 && items.length > 1) {
    var min = 0;
    items.forEach(function (x, i) { if (x[0] < items[min][0]) min = i; });
    items.splice(min, 1);
    draw();
  }
  if (el.scrollWidth > el.clientWidth + 1) { tail = ""; draw(); }
}
// row is the results' value of the figure for side i, once they are in:
// "none" for a left side that has no such thing.
function row(f, i) {
  var name = talk.figure.row;
  var r = (f.results || []).filter(function (r) { return name && r.name === name; })[0];
  if (!r) return "";
  if (i === 0) return r.missing ? "none" : r.legacy;
  return r.modern;
}
function stepLine(f) {
  if (!f.step) return f.steps + " steps";
  if (f.from && f.from < f.step) return "Steps " + f.from + "–" + f.step + " of " + f.steps + ": " + f.title;
  return "Step " + f.step + " of " + f.steps + ": " + f.title;
}

// render shows frame f; how says what the chip says of a pause (a
// player waits for Enter at every one), whether the player is paused,
// and the verdicts of a recording.
function render(f, how) {
  how = how || {};
  var chip = $("chip"), phase = how.paused ? "paused" : f.phase;
  chip.className = "chip " + phase;
  chip.textContent = phase === "ready" ? (f.wait || how.player ? "next: press Enter" : "next") : phase;
  $("step").textContent = stepLine(f);
  var say = f.then ? "↳ " + f.then : (f.say || talk.explain);
  $("say").textContent = say;
  $("say").className = f.then ? "then" : "";
  $("note").textContent = f.note || "";
  $("clock").textContent = Math.round(f.t) + " s · " + talk.size;

  var top = [1, 1], fig = talk.figure;
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
    text(root, "fig", row(f, i) || formatValue(s.f === undefined ? -1 : s.f));
    text(root, "r", none ? "–" : thousands(s.r));
    text(root, "d", none ? "–" : thousands(s.d));
    field(root, "r").parentNode.className = s.d && s.a > s.d ? "over" : "";
    text(root, "cr", none ? "–" : thousands(s.cr));
    text(root, "ex", none ? "–" : thousands(s.ex));
    text(root, "sp", none ? "–" : thousands(sp));
    field(root, "crrow").className = fig.key === "cr" ? "key" : "";
    field(root, "exrow").className = (fig.key === "ex" ? "key" : "") + (s.ex ? " hot" : "");
    field(root, "sprow").className = sp ? "hot" : "";
    verbsLine(field(root, "verbs"), s);
    drawGrid(root, i, s);
    text(root, "ptop", thousands(top[0]));
    text(root, "ftop", formatValue(top[1]));
    field(root, "pline").setAttribute("points", line(1 + 2 * i, top[0], f.t));
    field(root, "fline").setAttribute("points", line(2 + 2 * i, top[1], f.t));
    html(field(root, "axis"), ticks(f.t));
  });
  lastSides = f.sides || [];
  renderResults(f, how);
  // The words change with the step, the results come at the end: the
  // slide is laid out again for what it now holds.
  var story = say + "|" + f.note + "|" + (f.results ? f.results.length : 0) + "|" + $("results").hidden;
  if (story !== lastStory) {
    lastStory = story;
    fit();
  } else if (!fits()) {
    fit();
  }
}

// The results, and their pages when they are taller than the room they
// have: Enter shows the next page before the deck moves on.
var lastRows = "", resultsPage = 0, resultsPages = [[0, 0]];
function renderResults(f, how) {
  var box = $("results"), fig = talk.figure;
  if (!(f.results && f.results.length)) {
    box.hidden = true;
    return;
  }
  // The process most rows measure is named once, in the header.
  var procs = {}, common = "";
  f.results.forEach(function (r) { if (r.process) procs[r.process] = (procs[r.process] || 0) + 1; });
  for (var p in procs) if (procs[p] * 2 >= f.results.length && (!common || procs[p] > procs[common])) common = p;
  var head = box.querySelector("th");
  head.innerHTML = "Results" + (common ? ' <span class="proc">(' + esc(common) + " but where named)</span>" : "");
  var rows = f.results.map(function (r) {
    var name = esc(r.name) + (r.process && r.process !== common ? ' <span class="proc">(' + esc(r.process) + ")</span>" : "");
    var left = r.missing ? '<td class="none">' + esc(r.missing) + "</td>" :
      "<td" + (r.better === "legacy" ? ' class="better"' : "") + ">" + esc(r.legacy) + "</td>";
    return "<tr" + (r.name === fig.row ? ' class="key"' : "") + "><td" + (r.note ? ' title="' + esc(r.note) + '"' : "") + ">" + name +
      "</td>" + left + "<td" + (r.better === "modern" ? ' class="better"' : "") + ">" + esc(r.modern) +
      '</td><td class="unit">' + esc(r.unit) + '</td><td class="why">' + esc(r.diff) + "</td></tr>";
  }).join("");
  var verdicts = (how.verdicts || []).map(function (v) {
    return v.ok ? '<span class="ok">✓</span> ' + esc(v.design) + " showed what its design must" :
      '<span class="no">✗</span> ' + esc(v.design) + " did not show its point this time: " + esc(v.why);
  }).join(" · ");
  var was = box.hidden;
  box.hidden = resultsHidden;
  if (rows + verdicts !== lastRows) {
    lastRows = rows + verdicts;
    $("rows").innerHTML = rows;
    $("verdicts").innerHTML = verdicts;
    resultsPage = 0;
    pageResults();
  } else if (was !== box.hidden) {
    pageResults();
  }
}
// pageResults fits the results into their box: without the column of
// differences, then with names on two lines, when the table is too wide;
// in pages of rows when it is too tall.
function pageResults() {
  var box = $("results");
  if (box.hidden) return;
  var trs = Array.prototype.slice.call($("rows").children);
  trs.forEach(function (tr) { tr.classList.remove("off"); });
  $("rpage").hidden = true;
  box.className = "";
  if (box.scrollWidth > box.clientWidth + 1) box.className = "nodiff";
  if (box.scrollWidth > box.clientWidth + 1) box.className = "nodiff wrap";
  resultsPages = [[0, trs.length]];
  if (box.scrollHeight <= box.clientHeight + 1 || trs.length < 2) { showResultsPage(0); return; }
  // Pages of rows: as many as fit with the header, the verdicts and the
  // line that says there is more.
  $("rpage").hidden = false;
  $("rpage").textContent = "rows 1–1 of " + trs.length + " · Enter: more";
  var room = box.clientHeight - (box.scrollHeight - $("rows").offsetHeight);
  resultsPages = [];
  var from = 0, used = 0;
  trs.forEach(function (tr, i) {
    var h = tr.offsetHeight;
    if (i > from && used + h > room) { resultsPages.push([from, i]); from = i; used = 0; }
    used += h;
  });
  resultsPages.push([from, trs.length]);
  showResultsPage(Math.min(resultsPage, resultsPages.length - 1));
}
function showResultsPage(p) {
  resultsPage = p;
  var trs = $("rows").children, r = resultsPages[p];
  for (var i = 0; i < trs.length; i++) trs[i].classList.toggle("off", i < r[0] || i >= r[1]);
  if (resultsPages.length > 1) {
    $("rpage").textContent = "rows " + (r[0] + 1) + "–" + r[1] + " of " + trs.length + (p < resultsPages.length - 1 ? " · Enter: more" : "");
  }
}
// moreResults turns to the next page of results (or the one before), if
// there is one on screen.
function moreResults(forward) {
  if ($("results").hidden || resultsPages.length < 2) return false;
  var p = resultsPage + (forward ? 1 : -1);
  if (p < 0 || p >= resultsPages.length) return false;
  showResultsPage(p);
  return true;
}
