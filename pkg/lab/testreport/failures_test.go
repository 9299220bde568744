package testreport

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestAFailedTestIsPrintedWithItsLastMessagesBeforeItsLogs plants what hid
// a CI failure's cause: the failure's message followed by the long log
// tails a failed stack attaches, of which the end of CI's output showed
// only the last lines.
func TestAFailedTestIsPrintedWithItsLastMessagesBeforeItsLogs(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 2*MessageWidth)
	events := []string{
		"run pkg/f TestScaleUp",
		"output pkg/f TestScaleUp === RUN   TestScaleUp",
		"output pkg/f TestScaleUp     fault_test.go:46: the stack is up",
		"output pkg/f TestScaleUp     fault_test.go:47: the fault strikes with 27 of 50 pods created",
		"output pkg/f TestScaleUp     fault_test.go:48: one",
		"output pkg/f TestScaleUp     fault_test.go:49: two",
		"output pkg/f TestScaleUp     fault_test.go:52: gave up waiting for every controller at its exact count " + long,
		"output pkg/f TestScaleUp     stacktest.go:216: ---- tail of apiserver.log ----",
		"output pkg/f TestScaleUp         I1129 17:11:29.999761   30538 apiserver.go:122] serving",
		"output pkg/f TestScaleUp         server.go:12: a log line shaped like a message",
		"output pkg/f TestScaleUp --- FAIL: TestScaleUp (197.15s)",
		"fail pkg/f TestScaleUp",
		"run pkg/f TestTable",
		"run pkg/f TestTable/case",
		"output pkg/f TestTable/case     table_test.go:9: case failed",
		"fail pkg/f TestTable/case",
		"fail pkg/f TestTable",
		"run pkg/f TestPasses",
		"output pkg/f TestPasses     pass_test.go:1: fine",
		"pass pkg/f TestPasses",
		"fail pkg/f ",
	}
	file := writeRun(t, dir, "modern", events...)
	failures, err := Failures(module, []string{file})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteFailures(&b, failures)
	got := b.String()
	want := "[modern] pkg/f TestScaleUp\n" +
		"    fault_test.go:47: the fault strikes with 27 of 50 pods created\n" +
		"    fault_test.go:48: one\n" +
		"    fault_test.go:49: two\n" +
		"    fault_test.go:52: gave up waiting for every controller at its exact count " + long[:MessageWidth-len("fault_test.go:52: gave up waiting for every controller at its exact count ")] +
		fmt.Sprintf(" … (%d more bytes)\n", 2*MessageWidth-(MessageWidth-len("fault_test.go:52: gave up waiting for every controller at its exact count "))) +
		"[modern] pkg/f TestTable/case\n" +
		"    table_test.go:9: case failed\n"
	if got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}
