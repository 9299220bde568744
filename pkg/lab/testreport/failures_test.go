package testreport

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestAFailedTestIsPrintedWithItsLastMessagesAndNotItsLogs plants what hid
// a CI failure's cause: the failure's message followed by the long log
// tails a failed stack attaches, of which the end of CI's output showed
// only the last lines; and a stack that failed to start, whose logs come
// before its message.
func TestAFailedTestIsPrintedWithItsLastMessagesAndNotItsLogs(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 2*MessageWidth)
	gaveUp := "fault_test.go:52: gave up waiting for every controller at its exact count "
	file := writeRun(t, dir, "race-modern",
		"run pkg/f TestScaleUp",
		"output pkg/f TestScaleUp === RUN   TestScaleUp",
		"output pkg/f TestScaleUp     fault_test.go:46: the stack is up",
		"output pkg/f TestScaleUp     fault_test.go:47: the fault strikes with 27 of 50 pods created",
		"output pkg/f TestScaleUp     fault_test.go:48: one",
		"output pkg/f TestScaleUp     fault_test.go:49: a report",
		"output pkg/f TestScaleUp         pods/web-3 is missing",
		"output pkg/f TestScaleUp         pods/web-4 is missing",
		"output pkg/f TestScaleUp         pods/web-5 is missing",
		"output pkg/f TestScaleUp         pods/web-6 is missing",
		"output pkg/f TestScaleUp         pods/web-7 is missing",
		"output pkg/f TestScaleUp     "+gaveUp+long,
		"output pkg/f TestScaleUp     stacktest.go:216: ---- tail of apiserver.log ----",
		"output pkg/f TestScaleUp         I1129 17:11:29.999761   30538 apiserver.go:122] serving",
		"output pkg/f TestScaleUp         server.go:12: a log line shaped like a message",
		"output pkg/f TestScaleUp --- FAIL: TestScaleUp (197.15s)",
		"fail pkg/f TestScaleUp",
		"run pkg/f TestStart",
		"output pkg/f TestStart     stacktest.go:216: ---- tail of apiserver.log ----",
		"output pkg/f TestStart         E1129 bind: address already in use",
		"output pkg/f TestStart     stacktest.go:196: starting the stack: the apiserver exited",
		"fail pkg/f TestStart",
		"run pkg/f TestTable",
		"run pkg/f TestTable/case",
		"output pkg/f TestTable/case     table_test.go:9: case failed",
		"fail pkg/f TestTable/case",
		"fail pkg/f TestTable",
		"run pkg/f TestPanics",
		"output pkg/f TestPanics panic: runtime error: index out of range [3] with length 3",
		"output pkg/f TestPanics ",
		"output pkg/f TestPanics goroutine 7 [running]:",
		"fail pkg/f TestPanics",
		"run pkg/f TestPasses",
		"output pkg/f TestPasses     pass_test.go:1: fine",
		"pass pkg/f TestPasses",
		"fail pkg/f ",
		"output pkg/g  panic: test timed out after 45m0s",
		"output pkg/g  \trunning tests:",
		"output pkg/g  \t\tTestHangs (45m0s)",
		"output pkg/g  ",
		"output pkg/g  goroutine 1 [running]:",
		"output pkg/g  testing.(*M).startAlarm.func1()",
		"output pkg/g  FAIL\texample.com/m/pkg/g\t2700.1s",
		"fail pkg/g ",
	)
	failures, err := Failures(module, []string{file})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteFailures(&b, failures)
	got := b.String()
	keep := MessageWidth - len(gaveUp)
	want := "[race] pkg/f TestPanics\n" +
		"    panic: runtime error: index out of range [3] with length 3\n" +
		"        goroutine 7 [running]:\n" +
		"[race] pkg/f TestScaleUp\n" +
		"    fault_test.go:47: the fault strikes with 27 of 50 pods created\n" +
		"    fault_test.go:48: one\n" +
		"    fault_test.go:49: a report\n" +
		"        pods/web-3 is missing\n" +
		"        pods/web-4 is missing\n" +
		"        pods/web-5 is missing\n" +
		"        … (2 more lines)\n" +
		"    " + gaveUp + long[:keep] + fmt.Sprintf(" … (%d more bytes)\n", len(long)-keep) +
		"[race] pkg/f TestStart\n" +
		"    stacktest.go:196: starting the stack: the apiserver exited\n" +
		"[race] pkg/f TestTable/case\n" +
		"    table_test.go:9: case failed\n" +
		"[race] pkg/g (the package failed: a build, a timeout or a panic)\n" +
		"    panic: test timed out after 45m0s\n" +
		"    running tests:\n" +
		"    TestHangs (45m0s)\n" +
		"    goroutine 1 [running]:\n"
	if got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

func TestALongLineIsCutAtACharactersEnd(t *testing.T) {
	s := strings.Repeat("é", MessageWidth) // two bytes each
	got := cut("a"+s, MessageWidth)
	if !strings.HasPrefix(got, "a"+strings.Repeat("é", (MessageWidth-2)/2)+" … (") {
		t.Errorf("cut to %q", got[:20])
	}
}
