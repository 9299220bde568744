// presenter.js: the presenter view, a second window for the speaker (s
// opens it): the notes, the slide on the projector and what comes next,
// the time of day and the time since the talk began, the pace, and the
// keys, which work there as on the projected page. It is the same page,
// opened with ?presenter=1; its two pictures are the same page again
// (?preview=1), shown the position the projected page sends.
//
// The windows talk by postMessage, between the page and the window it
// opened (window.open gives one its handle, window.opener the other),
// which every browser delivers between pages from disk, whatever origin
// it gives them; and by a BroadcastChannel of the page's own name, which
// also reaches a presenter window opened by hand or after a reload. Each
// message carries its sender and a number, so one that comes both ways
// counts once.
var APP = "kube-rewind talk";
function Link(onMessage) {
  var me = Math.random().toString(36).slice(2), seq = 0, seen = {}, peers = [], bc = null;
  try { bc = new BroadcastChannel(APP + " " + location.pathname); } catch (e) { bc = null; }
  function receive(m, source) {
    if (!m || m.app !== APP || m.from === me) return;
    if (seen[m.from] >= m.seq) return;
    seen[m.from] = m.seq;
    if (source && peers.indexOf(source) < 0) peers.push(source);
    onMessage(m);
  }
  window.addEventListener("message", function (e) { receive(e.data, e.source); });
  if (bc) bc.onmessage = function (e) { receive(e.data, null); };
  return {
    // send sends m to every window this one knows, and on the channel.
    send: function (m) {
      m.app = APP; m.from = me; m.seq = ++seq;
      if (bc) try { bc.postMessage(m); } catch (e) { /* the channel is gone */ }
      peers = peers.filter(function (w) { return !w.closed; });
      peers.forEach(function (w) { try { w.postMessage(m, "*"); } catch (e) { /* the window went away */ } });
    },
    add: function (w) { if (w && peers.indexOf(w) < 0) peers.push(w); },
  };
}

// The projected page's side: it answers a presenter's hello with where
// it is, tells every change, and takes the keys pressed over there.
var projector = null;
function linkProjector(api) {
  var link = Link(function (m) {
    if (m.type === "hello") state();
    if (m.type === "key") api.key(m.key);
  });
  function nextOf(p) {
    if (p.frame === undefined && p.page < p.pages - 1) return { slide: p.slide, page: p.page + 1 };
    if (p.slide + 1 < p.slides) return { slide: p.slide + 1, page: 0 };
    return null;
  }
  function state() {
    var p = api.position(), n = nextOf(p), s = api.slides;
    link.send({ type: "state", pos: p, next: n, notes: api.notesHTML(p.slide), title: api.deck.title, minutes: api.deck.minutes || 0,
      now: s[p.slide].title || "", after: n ? s[n.slide].title || "" : "" });
  }
  api.onChange(state);
  // A heartbeat, so that a presenter window that lost its link (a reload
  // of either) finds it again.
  setInterval(state, 1000);
  projector = { link: link, state: state };
}
function openPresenter(api) {
  var url = location.href.split("#")[0].split("?")[0] + "?presenter=1";
  var w = window.open(url, "kube-rewind-presenter", "popup,width=1280,height=800");
  if (w && projector) projector.link.add(w);
}

// The presenter window itself.
function Presenter(deck) {
  document.title = "Presenter · " + deck.title;
  $("screen").hidden = true;
  var root = document.createElement("div");
  root.id = "presenter";
  var base = location.href.split("#")[0].split("?")[0] + "?preview=1";
  root.innerHTML =
    '<style>#presenter{height:100%;display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:.5em;padding:.4em .6em;font-size:calc(.8 * min(3.4vh, 2.55vw))}' +
    "#presenter .pcol{display:flex;flex-direction:column;gap:.4em;min-height:0;min-width:0}" +
    "#presenter .plabel{color:var(--muted)} #presenter .plabel b{color:var(--fg)}" +
    "#presenter .pview{position:relative;overflow:hidden;background:#000;border:.1em solid var(--line);border-radius:.3em;flex:none}" +
    "#presenter .pview iframe{position:absolute;left:0;top:0;border:0;transform-origin:0 0;pointer-events:none}" +
    "#presenter #pnotes{flex:1;overflow:auto;background:#1f2630;border-top:.15em solid var(--then);padding:.3em .8em;font-size:1.15em;line-height:1.3}" +
    "#presenter #pnotes p{margin:.2em 0} #presenter #pnotes .k{color:var(--then);font-weight:700}" +
    "#presenter .pclock{display:flex;gap:1em;align-items:baseline;font-variant-numeric:tabular-nums}" +
    "#presenter .pclock b{font-size:2.4em} #presenter .pclock span{font-size:1.5em;color:var(--muted)} #presenter .pclock span.over{color:var(--bad)}" +
    "#presenter .pkeys{color:var(--muted);line-height:1.35} #presenter .pkeys b{color:var(--fg)}" +
    "#presenter .plink{color:var(--bad)} #presenter .plink.ok{color:var(--muted)}</style>" +
    '<div class="pcol"><div class="plabel" id="pnow">Now</div><div class="pview" id="vnow"><iframe id="fnow" title="the projected slide"></iframe></div>' +
    '<div id="pnotes"></div></div>' +
    '<div class="pcol"><div class="pclock"><b id="ptime"></b><span id="pelapsed"></span></div>' +
    '<div class="plabel" id="pnext">Next</div><div class="pview" id="vnext"><iframe id="fnext" title="the next slide"></iframe></div>' +
    '<div class="plabel" id="ppace"></div>' +
    '<div class="pkeys"><b>Enter</b>, <b>→</b>, <b>Space</b>: on · <b>←</b>: back · <b>p</b>: pause · <b>+</b> <b>−</b>: pace · <b>r</b>: results · <b>Home</b> <b>End</b>: first and last slide · <b>n</b>: notes on the projected page too</div>' +
    '<div class="plink" id="plink">waiting for the projected page: open this deck and press s there</div></div>';
  document.body.appendChild(root);
  var fnow = $("fnow"), fnext = $("fnext"), last = null, heard = 0, shown = {};
  fnow.src = base;
  fnext.src = base;
  var link = Link(function (m) {
    if (m.type === "state") update(m);
    if (m.type === "shown") {
      shown[m.which] = m.pos;
      document.body.setAttribute("data-shown-" + m.which, key(m.pos));
    }
  });
  if (window.opener) link.add(window.opener);
  function hello() { link.send({ type: "hello" }); }
  hello();
  setInterval(function () { if (Date.now() - heard > 2500) hello(); tick(); }, 1000);
  // key names a position by what the pictures show.
  function key(p) {
    if (!p) return "";
    return [p.slide, p.page, p.frame, p.results ? 1 : 0, p.rpage].join(".");
  }
  function size(view, frame, w, h) {
    var box = $(view), f = $(frame);
    var bw = box.parentNode.clientWidth, maxh = box.parentNode.clientHeight * (view === "vnow" ? 0.5 : 0.42);
    var s = Math.min(bw / w, maxh / h);
    box.style.width = Math.floor(w * s) + "px";
    box.style.height = Math.floor(h * s) + "px";
    f.width = w; f.height = h;
    f.style.width = w + "px"; f.style.height = h + "px";
    f.style.transform = "scale(" + s + ")";
  }
  function update(m) {
    heard = Date.now();
    last = m;
    var p = m.pos;
    $("plink").textContent = "in step with the projected page";
    $("plink").className = "plink ok";
    size("vnow", "fnow", p.w, p.h);
    size("vnext", "fnext", p.w, p.h);
    fnow.contentWindow.postMessage({ app: APP, type: "show", which: "now", pos: p }, "*");
    if (m.next) fnext.contentWindow.postMessage({ app: APP, type: "show", which: "next", pos: m.next }, "*");
    $("vnext").style.visibility = m.next ? "visible" : "hidden";
    var where = "Now · slide " + (p.slide + 1) + " of " + p.slides + (p.pages > 1 ? ", page " + (p.page + 1) + " of " + p.pages : "") +
      (p.step ? " · " + p.step + " · " + p.chip : "") + (p.rpages > 1 && p.results ? " · results " + (p.rpage + 1) + " of " + p.rpages : "");
    $("pnow").innerHTML = "<b>" + esc(m.now) + "</b> · " + esc(where);
    $("pnext").innerHTML = m.next ? "Next: <b>" + esc(m.after) + "</b>" : "The last slide";
    html($("pnotes"), m.notes);
    $("ppace").textContent = "Pace of the recordings: " + p.speed + "×";
    document.body.setAttribute("data-pos", key(p));
    document.body.setAttribute("data-speed", String(p.speed));
    tick();
  }
  function two(n) { return n < 10 ? "0" + n : String(n); }
  function tick() {
    var d = new Date();
    $("ptime").textContent = two(d.getHours()) + ":" + two(d.getMinutes());
    var e = $("pelapsed");
    if (!last || !last.pos.started) { e.textContent = "the talk has not begun"; return; }
    var s = Math.floor((Date.now() - last.pos.started) / 1000);
    var plan = last.minutes ? " of " + last.minutes + ":00" : " in";
    e.textContent = Math.floor(s / 60) + ":" + two(s % 60) + plan;
    e.className = last.minutes && s > last.minutes * 60 ? "over" : "";
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.key === "s") return;
    if (["Enter", " ", "ArrowRight", "ArrowDown", "PageDown", "ArrowLeft", "ArrowUp", "PageUp", "Backspace", "p", "k", "+", "=", "-", "_", "r", "n", "Home", "End"].indexOf(e.key) < 0) return;
    e.preventDefault();
    link.send({ type: "key", key: e.key });
  });
  window.addEventListener("resize", function () { if (last) update(last); });
}

// A picture in the presenter view: the deck, shown the positions its
// parent sends, which it confirms.
function previewOf(api) {
  window.addEventListener("message", function (e) {
    var m = e.data;
    if (!m || m.app !== APP || m.type !== "show") return;
    api.goTo(m.pos);
    var p = api.position();
    e.source.postMessage({ app: APP, type: "shown", which: m.which, from: "preview-" + m.which, seq: Date.now() + Math.random(), pos: p }, "*");
  });
}
