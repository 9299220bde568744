// fit.js: every slide fits its window. The root size follows the window
// (page.html) and nothing is smaller, so no text is under 3.3 % of its
// height; the zoom asked for (?zoom=) is given where the slide fits at
// it. fit() tries, in order: the zoom asked for, with everything; without
// the lines that only add detail (.lo1: the incident's line, the designs'
// subtitles); smaller zooms, down to the root size; then without the
// request rates, the legend and the chart's caption (.lo2); then without
// the chart (.lo3). Tables and cards that are still too tall go in pages
// (a page more a key press), never cut.
var FLOOR = 1, notesScale = 0.5;
function setScale(s) { document.documentElement.style.setProperty("--scale", String(s)); }
function setLevel(n) {
  var e = $("screen");
  e.classList.remove("c1", "c2", "c3");
  if (n > 0) e.classList.add("c" + n);
}
// candidates are the (scale, level) pairs fit() tries, best first. With
// the speaker's notes on the projected page the slide may go below the
// root size: the speaker asked for them there.
function candidates() {
  var out = [[zoom, 0]], floor = notesShown() ? notesScale : FLOOR;
  for (var s = zoom; s > floor + 1e-9; s = Math.round((s - 0.1) * 100) / 100) out.push([s, 1]);
  out.push([floor, 1], [floor, 2], [floor, 3]);
  return out;
}
function notesShown() { return !$("notes").hidden; }
var fitting = false;
// fit lays the slide on screen out again; pages is set by a deck for the
// card it shows (cards.js), which pages itself at the zoom asked for when
// even the root size is too large.
function fit() {
  if (fitting) return;
  fitting = true;
  try {
    var cs = candidates();
    for (var i = 0; i < cs.length; i++) {
      setScale(cs[i][0]);
      setLevel(cs[i][1]);
      if (layoutPages) layoutPages(false);
      pageResults();
      if (fits()) return;
    }
    // Nothing fits as one page: a card goes in pages, at the largest zoom
    // that needs at most one page more than the fewest it can have.
    if (layoutPages) {
      var counts = [];
      for (var j = 0; j < cs.length; j++) {
        if (cs[j][1] !== 1) continue;
        setScale(cs[j][0]);
        setLevel(1);
        var n = layoutPages(true);
        if (fits()) counts.push([cs[j][0], n]);
      }
      var fewest = Math.min.apply(null, counts.map(function (c) { return c[1]; }));
      var pick = counts.filter(function (c) { return c[1] <= fewest + 1; })[0];
      setScale(pick ? pick[0] : cs[cs.length - 1][0]);
      setLevel(1);
      layoutPages(true);
    }
  } finally {
    fitting = false;
    redrawGrids();
    if (q.get("check") === "1") document.body.setAttribute("data-layout", problems().join("; ") || "ok");
  }
}
// layoutPages, when a deck shows a card, lays the card out as one page
// (false) or in as many as it needs (true), and returns how many pages.
var layoutPages = null;

function visible(e) {
  if (!e.getClientRects().length) return false;
  return getComputedStyle(e).visibility !== "hidden";
}
function describe(e) {
  var t = (e.textContent || "").replace(/\s+/g, " ").trim().slice(0, 40);
  return (e.id ? "#" + e.id : "") + (e.getAttribute && e.getAttribute("data-f") ? "[" + e.getAttribute("data-f") + "]" : "") +
    (e.id || (e.getAttribute && e.getAttribute("data-f")) ? "" : e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined ? "." + String(e.className).split(" ")[0] : "")) +
    (t ? " (" + t + ")" : "");
}
// fits reports whether the slide on screen fits its window, the pods
// with at least a fifth of its height: the squares are what the audience
// watches.
function fits() {
  var W = window.innerWidth, H = window.innerHeight, root = document.documentElement;
  if (root.scrollWidth > W + 1 || root.scrollHeight > H + 1) return false;
  // The boxes that clip what they hold: what does not fit makes one of
  // them overflow.
  var boxes = document.querySelectorAll("#screen, #talk, #stage, main, .col, .verbs, #results, #card, #notes");
  for (var i = 0; i < boxes.length; i++) {
    var e = boxes[i];
    if (e.id === "notes" || !e.getClientRects().length) continue;
    if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1) return false;
  }
  var grids = document.querySelectorAll("#talk:not([hidden]) .gridbox");
  if (grids.length === 2 && grids[0].getClientRects().length && grids[0].getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(root).fontSize)) return false;
  var g = grids[0];
  return !g || !visible(g) || g.getBoundingClientRect().height >= 0.2 * window.innerHeight;
}
// problems lists what does not fit on screen: an element outside the
// window, a box whose content is cut at its edge, pod grids of different
// sizes or none left to see. With quick, the first problem is enough.
function problems(quick) {
  var bad = [], W = window.innerWidth, H = window.innerHeight;
  var root = document.documentElement;
  if (root.scrollWidth > W + 1 || root.scrollHeight > H + 1) {
    bad.push("the page is larger than the window: " + root.scrollWidth + "×" + root.scrollHeight);
    if (quick) return bad;
  }
  var screen = $("screen");
  var all = screen.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    var e = all[i];
    if (e.closest("svg") && e.tagName.toLowerCase() !== "svg") continue;
    if (!visible(e)) continue;
    var r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1) {
      bad.push(describe(e) + " outside the window");
      if (quick) return bad;
      continue;
    }
    var o = getComputedStyle(e).overflow;
    if (o !== "visible" && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1) && e.id !== "notes") {
      bad.push(describe(e) + " cut: " + e.scrollWidth + "×" + e.scrollHeight + " in " + e.clientWidth + "×" + e.clientHeight);
      if (quick) return bad;
    }
  }
  var grids = Array.prototype.filter.call(document.querySelectorAll("#talk .gridbox"), visible);
  if (grids.length === 2) {
    var g0 = grids[0].getBoundingClientRect(), g1 = grids[1].getBoundingClientRect();
    var rem = parseFloat(getComputedStyle(root).fontSize);
    if (Math.abs(g0.width - g1.width) > 1 || Math.abs(g0.height - g1.height) > 1) bad.push("the pod grids differ: " + g0.width + "×" + g0.height + " and " + g1.width + "×" + g1.height);
    else if (g0.height < 1.5 * rem) bad.push("no room left for the pods: their grid is " + Math.round(g0.height) + " px high");
  }
  return bad;
}
// smallestText finds the smallest text on screen: its size in pixels and
// where it is.
function smallestText() {
  var min = Infinity, where = "";
  var walk = document.createTreeWalker($("screen"), NodeFilter.SHOW_TEXT);
  for (var n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.nodeValue.trim()) continue;
    var e = n.parentElement;
    if (!e || !visible(e)) continue;
    var px = parseFloat(getComputedStyle(e).fontSize);
    if (px < min) { min = px; where = describe(e); }
  }
  return { px: min === Infinity ? 0 : min, where: where };
}
// check is what the browser tests read of the slide on screen.
function check() {
  var t = smallestText();
  return { problems: problems(), minText: t.px, minTextAt: t.where, width: window.innerWidth, height: window.innerHeight,
    scale: parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--scale")) };
}
window.addEventListener("resize", function () { fit(); });
