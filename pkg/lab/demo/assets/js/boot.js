// boot.js: what the page is. A page with a recording or a deck inside
// plays it (or, opened with ?presenter=1, is its presenter view, or with
// ?preview=1 a picture in one); the live page shows the frames the server
// sends. window.kubeRewind is what rcbench deck -stills and the browser
// tests ask of the page.
var data = $("deck") || $("recording");
if (data) {
  var d = JSON.parse(data.textContent);
  if (data.id === "recording") d = { title: d.talk.name, slides: [{ kind: "talk", rec: 0, notes: notesOf(d) }], recordings: [d] };
  if (q.get("presenter") === "1") {
    Presenter(d);
    window.kubeRewind = { presenter: true };
    return;
  }
  var preview = q.get("preview") === "1";
  var api = Deck(d, { preview: preview });
  if (preview) previewOf(api); else linkProjector(api);
  window.kubeRewind = {
    stills: function () { return api.stills(false); },
    positions: function () { return api.stills(true); },
    still: api.still, check: check, position: api.position, key: api.key, goTo: api.goTo,
    // checkAll shows every picture (positions) and checks each, in one
    // call: what the browser tests read.
    checkAll: function () {
      return api.stills(true).map(function (p) {
        api.still(p.part);
        var c = check();
        c.part = p.part; c.name = p.name;
        return c;
      });
    },
    print: api.print, printed: api.printed,
  };
  return;
}
// The live page: the talk is rendered by the server; frames come as
// server-sent events.
talk = JSON.parse($("talkdata").textContent);
window.kubeRewind = { check: check };
document.addEventListener("keydown", function (e) {
  if (e.key === "r" && talk && $("rows").children.length) { resultsHidden = !resultsHidden; $("results").hidden = resultsHidden; lastStory = ""; fit(); }
});
fit();
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
