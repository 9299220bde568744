package sampler

import (
	"encoding/csv"
	"io"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Point is one sample: seconds since the recording started, and a value.
type Point struct {
	T float64 `json:"t"`
	V float64 `json:"v"`
}

// Recorder keeps named time series.
type Recorder struct {
	mu     sync.Mutex
	start  time.Time
	series map[string][]Point
}

// NewRecorder returns a recorder whose time zero is start.
func NewRecorder(start time.Time) *Recorder {
	return &Recorder{start: start, series: map[string][]Point{}}
}

// Start returns the recorder's time zero.
func (r *Recorder) Start() time.Time { return r.start }

// Add records a sample in the named series, which stays in time order
// even when a sample taken on demand lands between two periodic ones.
func (r *Recorder) Add(name string, at time.Time, v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := Point{T: at.Sub(r.start).Seconds(), V: v}
	s := r.series[name]
	i := len(s)
	for i > 0 && s[i-1].T > p.T {
		i--
	}
	s = append(s, Point{})
	copy(s[i+1:], s[i:])
	s[i] = p
	r.series[name] = s
}

// Series returns a copy of the named series.
func (r *Recorder) Series(name string) []Point {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Point(nil), r.series[name]...)
}

// Names returns the names of every series, sorted.
func (r *Recorder) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.series))
	for n := range r.series {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Max returns the largest value of the named series (0 when empty).
func (r *Recorder) Max(name string) float64 {
	max := 0.0
	for _, p := range r.Series(name) {
		if p.V > max {
			max = p.V
		}
	}
	return max
}

// Last returns the latest value of the named series (0 when empty).
func (r *Recorder) Last(name string) float64 {
	s := r.Series(name)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].V
}

// Between returns the change of a cumulative series from time a to b
// (seconds since start), using the last samples at or before each.
func (r *Recorder) Between(name string, a, b float64) float64 {
	var va, vb float64
	for _, p := range r.Series(name) {
		if p.T <= a {
			va = p.V
		}
		if p.T <= b {
			vb = p.V
		}
	}
	return vb - va
}

// WriteCSV writes every sample as rows of series, seconds, value.
func (r *Recorder) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"series", "seconds", "value"})
	for _, name := range r.Names() {
		for _, p := range r.Series(name) {
			cw.Write([]string{name, strconv.FormatFloat(p.T, 'f', 3, 64), strconv.FormatFloat(p.V, 'g', -1, 64)})
		}
	}
	cw.Flush()
	return cw.Error()
}
