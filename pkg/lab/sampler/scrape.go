package sampler

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Metrics is one scrape of a Prometheus text endpoint.
type Metrics map[string]*dto.MetricFamily

var scrapeClient = &http.Client{Timeout: 5 * time.Second}

// Scrape reads the metrics served at url.
func Scrape(url string) (Metrics, error) {
	return ScrapeWith(scrapeClient, url)
}

// scrapeAccept asks for the delimited protobuf format and takes text
// where a server has no other: a protobuf scrape costs both sides less
// than text (kube-controller-manager's metrics, read every 25 ms, took it
// more CPU a read as text than as protobuf).
var scrapeAccept = string(expfmt.NewFormat(expfmt.TypeProtoDelim)) + ";q=0.7," + string(expfmt.NewFormat(expfmt.TypeTextPlain)) + ";q=0.3"

// ScrapeWith reads the metrics served at url with client c.
func ScrapeWith(c *http.Client, url string) (Metrics, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", scrapeAccept)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() {
		// Read to the end, so that the connection is kept.
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	var m Metrics
	if format := expfmt.ResponseFormat(resp.Header); format.FormatType() == expfmt.TypeProtoDelim {
		m, err = decodeMetrics(expfmt.NewDecoder(resp.Body, format))
	} else {
		m, err = ParseMetrics(resp.Body)
	}
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %v", url, err)
	}
	return m, nil
}

// decodeMetrics reads every metric family d has.
func decodeMetrics(d expfmt.Decoder) (Metrics, error) {
	m := Metrics{}
	for {
		f := &dto.MetricFamily{}
		if err := d.Decode(f); err == io.EOF {
			return m, nil
		} else if err != nil {
			return nil, err
		}
		m[f.GetName()] = f
	}
}

// ParseMetrics reads metrics in the Prometheus text format.
func ParseMetrics(r io.Reader) (Metrics, error) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		return nil, err
	}
	return Metrics(families), nil
}

// Sum adds up every sample of the named metric whose labels include all of
// match; counters, gauges and untyped values are read as they are.
func (m Metrics) Sum(name string, match map[string]string) float64 {
	family, ok := m[name]
	if !ok {
		return 0
	}
	total := 0.0
	for _, metric := range family.GetMetric() {
		if !labelsMatch(metric, match) {
			continue
		}
		switch {
		case metric.Counter != nil:
			total += metric.GetCounter().GetValue()
		case metric.Gauge != nil:
			total += metric.GetGauge().GetValue()
		case metric.Untyped != nil:
			total += metric.GetUntyped().GetValue()
		}
	}
	return total
}

// By sums the named metric by the value of one label, over samples whose
// labels include all of match.
func (m Metrics) By(name, label string, match map[string]string) map[string]float64 {
	out := map[string]float64{}
	family, ok := m[name]
	if !ok {
		return out
	}
	for _, metric := range family.GetMetric() {
		if !labelsMatch(metric, match) {
			continue
		}
		key := ""
		for _, l := range metric.GetLabel() {
			if l.GetName() == label {
				key = l.GetValue()
			}
		}
		if metric.Counter != nil {
			out[key] += metric.GetCounter().GetValue()
		} else if metric.Gauge != nil {
			out[key] += metric.GetGauge().GetValue()
		}
	}
	return out
}

// Each calls f with the labels and value of every sample of the named
// metric (counters, gauges and untyped values).
func (m Metrics) Each(name string, f func(labels map[string]string, v float64)) {
	family, ok := m[name]
	if !ok {
		return
	}
	for _, metric := range family.GetMetric() {
		labels := make(map[string]string, len(metric.GetLabel()))
		for _, l := range metric.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		switch {
		case metric.Counter != nil:
			f(labels, metric.GetCounter().GetValue())
		case metric.Gauge != nil:
			f(labels, metric.GetGauge().GetValue())
		case metric.Untyped != nil:
			f(labels, metric.GetUntyped().GetValue())
		}
	}
}

func labelsMatch(metric *dto.Metric, match map[string]string) bool {
	for k, v := range match {
		found := false
		for _, l := range metric.GetLabel() {
			if l.GetName() == k && l.GetValue() == v {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// SaveURL saves what a GET of url answers to path, whole or not at all:
// a profile, a page of metrics, anything a run keeps as it came.
func SaveURL(ctx context.Context, url, path string) error {
	return SaveURLWith(ctx, http.DefaultClient, "", url, path)
}

// SaveURLWith is SaveURL through client, sending token as a bearer
// token where one is given (kube-apiserver's /debug/pprof asks for one).
func SaveURLWith(ctx context.Context, client *http.Client, token, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
