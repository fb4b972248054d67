package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

var statusLine = regexp.MustCompile(`(?m)^HTTP/1\.1 \d{3} `)

// serve: the app without a database (only what answers before any query) behind the real server and listener.
func serve(t *testing.T) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := newServer((&app{maxBodyBytes: 65536, metrics: newMetrics(nil)}).withRoutes())
	go func() { _ = server.Serve(edgeListener{listener}) }()
	t.Cleanup(func() { _ = server.Close() })
	return listener.Addr().String()
}

// exchange writes bytes on a connection of their own and reads until the server closes it (or 3 s pass).
func exchangeRaw(t *testing.T, address, request string) (response string, closed bool) {
	t.Helper()
	conn, err := net.Dial("tcp", address)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = conn.Write([]byte(request))
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	data, err := io.ReadAll(conn)
	return string(data), err == nil
}

func statusOf(t *testing.T, response string) int {
	t.Helper()
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(response)), nil)
	if err != nil {
		t.Fatalf("no response in %q: %v", response, err)
	}
	return resp.StatusCode
}

func TestWhatNetHTTPRefusesIsAProblemAndNeverA5xx(t *testing.T) {
	address := serve(t)
	for name, request := range map[string]string{
		"unknown transfer coding (net/http: 501)": "POST /categories HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
		"HTTP/3.0 (net/http: 505)":                "GET /items/1 HTTP/3.0\r\nHost: x\r\n\r\n",
		"malformed Host":                          "GET /items/1 HTTP/1.1\r\nHost: \"\r\n\r\n",
		"two different Content-Lengths":           "POST /categories HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
		"TLS ClientHello":                         "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03abc\r\n\r\n",
	} {
		response, closed := exchangeRaw(t, address, request)
		if status := statusOf(t, response); status != 400 {
			t.Errorf("%s: status %d: %q", name, status, response)
		}
		if !strings.Contains(response, "Content-Type: application/problem+json") || !closed {
			t.Errorf("%s: not a problem, or not closed: %q", name, response)
		}
	}
}

func TestRefusalsBeforeRouting(t *testing.T) {
	address := serve(t)
	for name, c := range map[string]struct {
		request string
		status  int
	}{
		"CONNECT host:port":       {"CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n", 400},
		"CONNECT a path":          {"CONNECT /items/1 HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		"HTTP/2 preface":          {"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400},
		"announced 1 GiB":         {"POST /categories HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n", 413},
		"announced 70 KiB, 100":   {"PUT /categories/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 71680\r\nExpect: 100-continue\r\n\r\n", 413},
		"announced 70 KiB on GET": {"GET /items/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 71680\r\n\r\n", 413},
		"Content-Length and chunked": {"POST /categories HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n" +
			"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nGET /actuator/health HTTP/1.1\r\nHost: x\r\n\r\n", 415},
	} {
		start := time.Now()
		response, closed := exchangeRaw(t, address, c.request)
		if status := statusOf(t, response); status != c.status || !closed {
			t.Errorf("%s: status %d, closed %v: %q", name, status, closed, response)
		}
		if len(statusLine.FindAllString(response, -1)) != 1 {
			t.Errorf("%s: more than one answer (or a 100 Continue for a refused body): %q", name, response)
		}
		if elapsed := time.Since(start); elapsed > 2*time.Second {
			t.Errorf("%s: closed after %v: the server waited for a body it refused", name, elapsed)
		}
	}
}

func TestRoutesMethodsAndMetrics(t *testing.T) {
	address := serve(t)
	client := &http.Client{}
	get := func(method, path string) *http.Response {
		request, _ := http.NewRequest(method, "http://"+address+path, nil)
		response, err := client.Do(request)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, response.Body)
		response.Body.Close()
		return response
	}
	if r := get("DELETE", "/items"); r.StatusCode != 405 || r.Header.Get("Allow") != "GET, HEAD, POST" ||
		r.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("DELETE /items: %d %v", r.StatusCode, r.Header)
	}
	if r := get("OPTIONS", "/items/1"); r.StatusCode != 200 || r.Header.Get("Allow") != "GET, HEAD, PUT, DELETE, OPTIONS" {
		t.Errorf("OPTIONS /items/1: %d %v", r.StatusCode, r.Header)
	}
	if r := get("GET", "/nothing"); r.StatusCode != 404 {
		t.Errorf("GET /nothing: %d", r.StatusCode)
	}
	if r := get("GET", "/items/abc"); r.StatusCode != 400 {
		t.Errorf("GET /items/abc: %d", r.StatusCode)
	}
	if r := get("GET", "/actuator/health"); r.StatusCode != 200 {
		t.Errorf("health: %d", r.StatusCode)
	}
	request, _ := http.NewRequest("GET", "http://"+address+"/actuator/prometheus", nil)
	response, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	scrape, _ := io.ReadAll(response.Body)
	response.Body.Close()
	for _, want := range []string{`http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="400",uri="/items/{id}"} 1`,
		`uri="NOT_FOUND"`, "process_cpu_seconds_total", "go_goroutines", `le="0.001"`, `le="30"`} {
		if !strings.Contains(string(scrape), want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
	if strings.Count(string(scrape), "_bucket{") != strings.Count(string(scrape), "http_server_requests_seconds_bucket{") {
		t.Errorf("a histogram other than http_server_requests_seconds")
	}
}

func TestFaultsAreSizedOnTheProcessCostPerRequest(t *testing.T) {
	t.Setenv("FAULT_CPU_PERCENT", "50")
	t.Setenv("FAULT_ALLOC_PERCENT", "")
	t.Setenv("FAULT_START_FAIL_PERCENT", "10")
	if _, err := faultsFromEnv(5); err == nil || !strings.Contains(err.Error(), "fails on purpose") {
		t.Fatalf("a draw below FAULT_START_FAIL_PERCENT fails the start: %v", err)
	}
	f, err := faultsFromEnv(50)
	if err != nil || f == nil {
		t.Fatalf("%v, %v", f, err)
	}
	f.nextUpdate.Store(0) // the first request renews the estimate
	for range faultMinRequests {
		f.afterRequest()
	}
	f.nextUpdate.Store(0)
	f.cpuPerRequest.Store(2_000_000) // as if each request had cost the process 2 ms
	start := threadCPUNanos()
	f.afterRequest()
	if spent := f.addedCPU.Load(); spent < 1_000_000 || threadCPUNanos()-start < 1_000_000 {
		t.Errorf("50 %% of 2 ms is 1 ms of CPU; added %d ns", spent)
	}
	t.Setenv("FAULT_CPU_PERCENT", "")
	t.Setenv("FAULT_START_FAIL_PERCENT", "")
	if f, err := faultsFromEnv(0); f != nil || err != nil {
		t.Errorf("no fault asked: none (%v, %v)", f, err)
	}
}

func TestTheCacheAnswersWithoutADatabase(t *testing.T) {
	address := serve(t)
	get := func(path string) (int, string) {
		response, err := http.Get("http://" + address + path)
		if err != nil {
			t.Fatal(err)
		}
		defer response.Body.Close()
		body, _ := io.ReadAll(response.Body)
		return response.StatusCode, string(body)
	}
	for path, want := range map[string]string{
		"/cache/key1":      `{"key":"key1","value":"value-key1"}`,
		"/cache/other_key": `{"key":"other_key","value":"value-other_key"}`,
		"/cache/key%2D7":   `{"key":"key-7","value":"value-key-7"}`,
	} {
		if status, body := get(path); status != 200 || strings.TrimSpace(body) != want {
			t.Errorf("GET %s: %d %s", path, status, body)
		}
	}
	for _, path := range []string{"/cache/a.b", "/cache/a%20b", "/cache/" + strings.Repeat("k", 65), "/cache/a%00b"} {
		if status, body := get(path); status != 400 || !strings.Contains(body, `"key"`) {
			t.Errorf("GET %s: %d %s", path, status, body)
		}
	}
	if _, scrape := get("/actuator/prometheus"); !strings.Contains(scrape, `uri="/cache/{key}"`) {
		t.Errorf("the scrape has no uri=\"/cache/{key}\"")
	}
}
