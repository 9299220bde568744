package site

// The architecture picture on the index: an inline SVG drawn from the
// small table of boxes and arrows below, so it needs no image file and no
// drawing tool to change.

import (
	"fmt"
	"html"
	"html/template"
	"strings"
)

// box is a component; cylinder draws it as a database.
type box struct {
	x, y, w, h int
	title      string
	sub        []string
	class      string
	cylinder   bool
}

// arrow points from caller to server; label lines sit at (lx, ly), aligned
// by anchor ("start", "middle" or "end").
type arrow struct {
	x1, y1, x2, y2 int
	both           bool
	label          []string
	lx, ly         int
	anchor         string
}

var diagramBoxes = []box{
	{x: 450, y: 14, w: 180, h: 58, title: "kubecfg", sub: []string{"the 2014 CLI"}, class: "client"},
	{x: 400, y: 140, w: 280, h: 100, title: "apiserver", sub: []string{"v1beta1 REST and watch streams", "pkg/apiserver · pkg/registry"}, class: "server"},
	{x: 880, y: 146, w: 200, h: 88, title: "etcd", sub: []string{"v2 keys under /registry/…", "embedded by default"}, class: "store", cylinder: true},
	{x: 10, y: 150, w: 230, h: 80, title: "hollow nodes", sub: []string{"stand-in scheduler + kubelets", "(not part of 2014)"}, class: "nodes"},
	{x: 310, y: 330, w: 460, h: 150, title: "", class: "cm"},
	{x: 326, y: 346, w: 210, h: 84, title: "ReplicationManager", sub: []string{"pkg/controller", "2014: watch + 10 s tick"}, class: "ctl"},
	{x: 544, y: 346, w: 210, h: 84, title: "endpoints controller", sub: []string{"pkg/service", "2014: LIST all every 10 s"}, class: "ctl"},
}

var diagramArrows = []arrow{
	{x1: 540, y1: 72, x2: 540, y2: 140, label: []string{"GET · POST · PUT · DELETE"}, lx: 552, ly: 110, anchor: "start"},
	{x1: 240, y1: 190, x2: 400, y2: 190, label: []string{"LIST + watch pods", "POST bindings, PUT pods"}, lx: 320, ly: 180, anchor: "middle"},
	{x1: 680, y1: 190, x2: 880, y2: 190, both: true, label: []string{"go-etcd (v2 API)", "GET · SET · CAS · watch"}, lx: 780, ly: 180, anchor: "middle"},
	{x1: 430, y1: 346, x2: 475, y2: 240, label: []string{"watch RCs", "LIST RCs, LIST pods", "POST / DELETE pods"}, lx: 436, ly: 270, anchor: "end"},
	{x1: 650, y1: 346, x2: 605, y2: 240, label: []string{"LIST services, LIST pods", "GET · POST · PUT endpoints"}, lx: 644, ly: 278, anchor: "start"},
}

// Diagram returns the architecture picture as inline SVG.
func Diagram() template.HTML {
	var b strings.Builder
	b.WriteString(`<svg class="arch" viewBox="0 0 1090 490" role="img" aria-labelledby="arch-title arch-desc" xmlns="http://www.w3.org/2000/svg">`)
	b.WriteString(`<title id="arch-title">kube-rewind's processes and the requests between them</title>`)
	b.WriteString(`<desc id="arch-desc">kubecfg, the hollow nodes and the controller-manager (ReplicationManager and endpoints controller) all talk to the apiserver, which stores every object in etcd.</desc>`)
	b.WriteString(`<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head"/></marker></defs>`)
	for _, bx := range diagramBoxes {
		writeBox(&b, bx)
	}
	fmt.Fprintf(&b, `<text class="cm-title" x="540" y="466" text-anchor="middle">controller-manager</text>`)
	fmt.Fprintf(&b, `<text class="cm-sub" x="540" y="449" text-anchor="middle">-tags modern: informers, workqueue, expectations, leader election</text>`)
	for _, a := range diagramArrows {
		writeArrow(&b, a)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func writeBox(b *strings.Builder, bx box) {
	if bx.cylinder {
		ry := 12
		fmt.Fprintf(b, `<path class="box %s" d="M%d,%d a%d,%d 0 0,0 %d,0 v%d a%d,%d 0 0,1 -%d,0 z"/>`,
			bx.class, bx.x, bx.y+ry, bx.w/2, ry, bx.w, bx.h-2*ry, bx.w/2, ry, bx.w)
		fmt.Fprintf(b, `<ellipse class="box %s" cx="%d" cy="%d" rx="%d" ry="%d"/>`, bx.class, bx.x+bx.w/2, bx.y+ry, bx.w/2, ry)
	} else {
		fmt.Fprintf(b, `<rect class="box %s" x="%d" y="%d" width="%d" height="%d" rx="8"/>`, bx.class, bx.x, bx.y, bx.w, bx.h)
	}
	if bx.title == "" {
		return
	}
	cx := bx.x + bx.w/2
	ty := bx.y + 28
	if bx.cylinder {
		ty += 10
	}
	fmt.Fprintf(b, `<text class="title" x="%d" y="%d" text-anchor="middle">%s</text>`, cx, ty, html.EscapeString(bx.title))
	for i, s := range bx.sub {
		fmt.Fprintf(b, `<text class="sub" x="%d" y="%d" text-anchor="middle">%s</text>`, cx, ty+20+i*17, html.EscapeString(s))
	}
}

func writeArrow(b *strings.Builder, a arrow) {
	start := ""
	if a.both {
		start = ` marker-start="url(#head)"`
	}
	fmt.Fprintf(b, `<line class="arrow" x1="%d" y1="%d" x2="%d" y2="%d" marker-end="url(#head)"%s/>`, a.x1, a.y1, a.x2, a.y2, start)
	for i, l := range a.label {
		y := a.ly + i*16
		if a.x1 != a.x2 && a.y1 == a.y2 && i > 0 {
			// Horizontal arrows: first line above, the rest below.
			y = a.ly + 14 + i*16
		}
		fmt.Fprintf(b, `<text class="label" x="%d" y="%d" text-anchor="%s">%s</text>`, a.lx, y, a.anchor, html.EscapeString(l))
	}
}
