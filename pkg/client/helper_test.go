package client

import (
	"testing"
	"time"
)

func TestHostFormsBecomeTheV1beta1BaseURL(t *testing.T) {
	cases := []struct {
		host string
		want string
		bad  bool
	}{
		{host: "127.0.0.1", want: "http://127.0.0.1/api/v1beta1/"},
		{host: "127.0.0.1:8080", want: "http://127.0.0.1:8080/api/v1beta1/"},
		{host: "localhost:8080", want: "http://localhost:8080/api/v1beta1/"},
		{host: "foo.bar.com", want: "http://foo.bar.com/api/v1beta1/"},
		{host: "http://host", want: "http://host/api/v1beta1/"},
		{host: "http://host/", want: "http://host/api/v1beta1/"},
		{host: "https://host:443", want: "https://host:443/api/v1beta1/"},
		{host: "http://host/prefix", want: "http://host/prefix/v1beta1/"},
		{host: "host/server", bad: true},
		{host: "ftp://host", bad: true},
		{host: "", bad: true},
	}
	for _, tc := range cases {
		t.Run(tc.host, func(t *testing.T) {
			u, err := DefaultServerURL(tc.host)
			if tc.bad {
				if err == nil {
					t.Errorf("want an error, got %v", u)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if u.String() != tc.want {
				t.Errorf("got %s, want %s", u, tc.want)
			}
		})
	}
}

func TestNewUsesTheV04Defaults(t *testing.T) {
	c, err := New(&Config{Host: "127.0.0.1:8080"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sync || c.PollPeriod != 2*time.Second || c.Timeout != 20*time.Second {
		t.Errorf("got Sync=%v PollPeriod=%v Timeout=%v", c.Sync, c.PollPeriod, c.Timeout)
	}
	if c.rateLimiter != nil {
		t.Error("QPS 0 should mean no rate limiter")
	}
	off, _ := New(&Config{Host: "127.0.0.1:8080", PollPeriod: -1})
	if off.PollPeriod != 0 {
		t.Errorf("a negative PollPeriod should turn polling off, got %v", off.PollPeriod)
	}
}
