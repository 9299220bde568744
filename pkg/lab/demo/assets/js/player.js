// player.js: a page with a recording or a deck inside plays it by
// itself, with no server; the player mirrors replay.go.
var SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
var AUTO_CARD = 2000;
var auto = q.get("auto") === "1";
// pace is the speed the speaker chose: it stays from one recording to the
// next, as ?speed= set it first.
var pace = { speed: Math.max(0.05, +q.get("speed") || 1) };

// Player plays a recording's frames at their pace, from where both
// sides were up, and waits before each step (a pause: a ready frame).
// The time spent waiting is left out of its clock. It can pause within
// a step, go faster or slower, skip to the end of a step and go back to
// the start of one. hooks.end is called on "next" at the end, and
// hooks.before on "back" at the first pause; hooks.changed after every
// change.
function Player(rec, hooks) {
  var frames = rec.frames, timer = null;
  var self = { paused: false, waiting: false, ended: false, i: 0 };
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
  self.pauses = pauses;
  self.frames = frames.length;
  function frameAt(i, then) {
    var f = frames[i], g = {};
    for (var k in f) g[k] = f[k];
    g.t = pt[i];
    if (then !== undefined) g.then = then;
    return g;
  }
  function paint(then) {
    render(frameAt(self.i, then), { player: true, paused: self.paused && !self.waiting && !self.ended, verdicts: rec.verdicts });
    if (hooks.changed) hooks.changed(self);
  }
  // seek shows frame j, its chart rebuilt from the frames before it.
  function seek(j, then) {
    clearTimeout(timer);
    timer = null;
    chart = [];
    for (var k = s0; k <= j; k++) addPoint(frameAt(k));
    self.i = j;
    self.then = then;
    self.ended = frames[j].phase === "done" || j === frames.length - 1;
    self.waiting = pauses.indexOf(j) >= 0 && !self.ended;
    paint(then);
  }
  function arrive() {
    // A picture (a still, the presenter view's) does not play on.
    if (hooks.quiet && hooks.quiet()) return;
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
    self.then = undefined;
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
    timer = setTimeout(advance, Math.max(0, (pt[self.i + 1] - pt[self.i]) / pace.speed * 1000));
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
    var i = SPEEDS.indexOf(pace.speed);
    if (i < 0) i = SPEEDS.indexOf(1);
    pace.speed = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + (up ? 1 : -1)))];
    if (hooks.changed) hooks.changed(self);
    if (timer) schedule();
  };
  // groups is how many groups of steps the recording pauses before.
  self.groups = function () { return Math.max(1, pauses.length); };
  // still shows the end of the g-th group of steps (1-based): its last
  // frame, with the conclusion the next pause carries; the last group
  // ends on the results. Group 0 is the start, before the first step.
  self.still = function (g) {
    self.paused = false;
    if (g === 0) { seek(pauses.length ? pauses[0] : s0); return; }
    var next = pauses[g];
    if (next === undefined) { seek(frames.length - 1); return; }
    seek(next - 1, frames[next].then || "");
  };
  // show shows frame i as another window shows it (the presenter view's
  // picture of the projected one), without playing on.
  self.show = function (i, then, paused) {
    self.paused = !!paused;
    if (i !== self.i || then !== self.then) seek(Math.max(0, Math.min(frames.length - 1, i)), then);
  };
  self.stop = function () { clearTimeout(timer); timer = null; };
  self.start = function (atEnd) {
    if (atEnd) { seek(frames.length - 1); return; }
    seek(pauses.length ? pauses[0] : s0);
    arrive();
  };
  return self;
}
