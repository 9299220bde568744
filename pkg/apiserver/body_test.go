package apiserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// TestABodyThatStallsIsRefusedInsteadOfWaitedFor sends headers and half a
// body, then nothing: the server must answer 408 once BodyReadTimeout has
// passed rather than hold the connection for good.
func TestABodyThatStallsIsRefusedInsteadOfWaitedFor(t *testing.T) {
	ts := newTestServer(t, Options{BodyReadTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.http.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1beta1/simple HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":")
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 408 || decodeStatus(t, body).Reason != api.StatusReasonTimeout {
		t.Errorf("HTTP %d %s, want 408", resp.StatusCode, body)
	}
	if n := ts.storage.writeCount(); n != 0 {
		t.Errorf("the storage saw %d writes", n)
	}
}
