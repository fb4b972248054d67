package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

var titles = map[int]string{
	400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 409: "Conflict",
	411: "Length Required", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
	431: "Request Header Fields Too Large", 500: "Internal Server Error", 503: "Service Unavailable",
}

func title(status int) string {
	if t, ok := titles[status]; ok {
		return t
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Error"
}

type problemBody struct {
	Type     string       `json:"type"`
	Title    string       `json:"title"`
	Status   int          `json:"status"`
	Detail   string       `json:"detail,omitempty"`
	Instance string       `json:"instance,omitempty"`
	Errors   []fieldError `json:"errors,omitempty"`
}

func problemJSON(status int, detail, instance string, errors []fieldError) []byte {
	body, _ := marshal(problemBody{Type: "about:blank", Title: title(status), Status: status, Detail: detail,
		Instance: instance, Errors: errors})
	return body
}

// marshal: JSON as Jackson writes it (no HTML escaping), without the encoder's trailing newline.
func marshal(v any) ([]byte, error) {
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

// ---- Routing ------------------------------------------------------------------------------------------------------

type handlerFunc func(x *exchange) error

// route: a path template and its handlers by method (HEAD is GET's, OPTIONS answers Allow, anything else is 405).
type route struct {
	template string
	segments []string // "{…}" is the path variable (at most one per template: {id} or {key})
	methods  map[string]handlerFunc
	allow    string
}

func newRoute(template string, methods map[string]handlerFunc) *route {
	r := &route{template: template, segments: strings.Split(strings.TrimPrefix(template, "/"), "/"), methods: methods}
	var allow []string
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "DELETE"} {
		if methods[m] != nil || m == "HEAD" && methods["GET"] != nil {
			allow = append(allow, m)
		}
	}
	r.allow = strings.Join(allow, ", ")
	return r
}

// match: the raw (still percent-encoded) path variable when the escaped path fits the template.
func (r *route) match(segments []string) (variable string, ok bool) {
	if len(segments) != len(r.segments) {
		return "", false
	}
	for i, s := range r.segments {
		if strings.HasPrefix(s, "{") {
			variable = segments[i]
		} else if s != segments[i] {
			return "", false
		}
	}
	return variable, true
}

// exchange: one request on its way through a handler.
type exchange struct {
	w   http.ResponseWriter
	r   *http.Request
	app *app
	// rawVar: the path variable's segment as sent (percent-encoded), the id or the key.
	rawVar string
	status int
	close  bool
	// linger: the body was refused (413) with part of it unread; it is read and dropped after the answer, before
	// the connection closes (lingerRefusedBody).
	linger bool
}

func (x *exchange) id() (int64, error) {
	text, err := url.PathUnescape(x.rawVar)
	if err != nil {
		return 0, invalidField("id", "must be an integer, got '"+shortened(x.rawVar)+"'")
	}
	id, p := pathID(text)
	if p != nil {
		return 0, p
	}
	return id, nil
}

func (x *exchange) query() query {
	return parseQuery(x.r.URL.RawQuery)
}

// acceptable: checked before a handler does anything (a 406 after an INSERT would leave a row behind).
func (x *exchange) acceptable() error {
	if !acceptsJSON(x.r.Header.Values("Accept")) {
		return newProblem(406, "only application/json is produced")
	}
	return nil
}

func (x *exchange) send(status int, body any, headers ...string) error {
	data, err := marshal(body)
	if err != nil {
		return err
	}
	h := x.w.Header()
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	x.writeHeader(status)
	_, _ = x.w.Write(data)
	return nil
}

func (x *exchange) noContent() error {
	x.writeHeader(204)
	return nil
}

func (x *exchange) writeHeader(status int) {
	x.status = status
	if x.close {
		x.w.Header().Set("Connection", "close")
	}
	x.w.WriteHeader(status)
}

// jsonBody: the JSON object of a write; application/json only (415), at most MAX_BODY_BYTES (413), valid UTF-8
// and JSON (400), an object (400). Numbers keep their text (json.Number), so that they are read exactly.
func (x *exchange) jsonBody() (map[string]any, error) {
	if !isJSONContentType(x.r.Header.Get("Content-Type")) {
		return nil, newProblem(415, "Content-Type '%s' is not supported: application/json", shortened(x.r.Header.Get("Content-Type")))
	}
	limit := x.app.maxBodyBytes
	raw, err := io.ReadAll(io.LimitReader(x.r.Body, limit+1))
	if err != nil {
		// A broken chunked framing or a client gone: nothing after it on the connection can be trusted.
		return nil, &problem{status: 400, detail: "the request body cannot be read: " + err.Error(), closeConnection: true}
	}
	if int64(len(raw)) > limit {
		x.linger = true
		return nil, &problem{status: 413, detail: "request body above " + strconv.FormatInt(limit, 10) + " bytes",
			closeConnection: true}
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, newProblem(400, "request body is missing")
	}
	if !utf8.Valid(raw) {
		return nil, newProblem(400, "request body is not valid UTF-8")
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var body any
	if err := decoder.Decode(&body); err != nil {
		return nil, newProblem(400, "request body is not valid JSON")
	}
	if _, err := decoder.Token(); !errors.Is(err, io.EOF) {
		return nil, newProblem(400, "request body is not valid JSON")
	}
	object, ok := body.(map[string]any)
	if !ok {
		return nil, newProblem(400, "request body must be a JSON object")
	}
	return object, nil
}

// ServeHTTP: what every request goes through: the timer, the refusals that come before routing, the route.
func (a *app) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	x := &exchange{w: w, r: r, app: a}
	uri := a.serve(x)
	if a.faults != nil {
		a.faults.afterRequest() // inside the timer, before the response leaves the server's buffer
	}
	a.metrics.observe(r.Method, uri, x.status, time.Since(start))
}

const (
	// lingerBytes: Java's HttpClient goes on sending after the answer: 64 MiB lost none of 40 16 MB POSTs
	// (express-http's lingering close, which this one follows).
	lingerBytes = 64 << 20
	// lingerIdle, lingerMax: a client that stops sending, or sends slowly, is not waited for long.
	lingerIdle = time.Second
	lingerMax  = 5 * time.Second
)

// lingerRefusedBody reads and drops the rest of a refused body after the answer has been flushed. Closing with it
// unread leaves bytes in the kernel, which answers them with a reset that can overtake the answer: the client then
// sees no answer at all (10 of 200 70 KB POSTs in the contract's answersEveryOversizedBody). net/http's own close
// half-closes and waits 500 ms without reading, which did not prevent it. Not for a client that asked for 100
// Continue: it sends no body unless invited, and reading would invite it after a final answer.
func lingerRefusedBody(rc *http.ResponseController, body io.Reader) {
	deadline := time.Now().Add(lingerMax)
	buf := make([]byte, 32<<10)
	for dropped := 0; dropped < lingerBytes; {
		next := time.Now().Add(lingerIdle)
		if next.After(deadline) {
			next = deadline
		}
		_ = rc.SetReadDeadline(next)
		n, err := body.Read(buf)
		dropped += n
		if err != nil {
			return
		}
	}
}

func (a *app) serve(x *exchange) (uri string) {
	r := x.r
	// net/http drops a Content-Length sent beside Transfer-Encoding: chunked without a trace, so the handler cannot
	// tell that request (RFC 9112 §6.1: answer it, then close) from a plain chunked one: every chunked request is
	// answered and its connection closed. Load generators send Content-Length.
	if len(r.TransferEncoding) > 0 {
		x.close = true
	}
	uri = "UNKNOWN"
	var err error
	defer func() {
		if recovered := recover(); recovered != nil {
			log.Printf("go: %s %s: panic: %v", r.Method, r.URL.EscapedPath(), recovered)
			err = newProblem(500, "Internal Server Error")
		}
		if err != nil {
			x.fail(err)
		}
		if x.close {
			// The body may be unread: no byte of it may be read as the next request, nor waited for. The response
			// is out; the server's read of the rest ends at once and it closes the connection.
			rc := http.NewResponseController(x.w)
			_ = rc.Flush()
			if x.linger && x.r.Header.Get("Expect") == "" {
				lingerRefusedBody(rc, x.r.Body)
			}
			_ = rc.SetReadDeadline(time.Now())
		}
	}()
	switch {
	case r.Method == "CONNECT":
		// The proxy method (target host:port) sent to an origin server: 400, as every variant answers it.
		x.close = true
		err = newProblem(400, "CONNECT is a proxy method; this is an origin server")
		return uri
	case r.Method == "PRI":
		// The HTTP/2 preface, which net/http hands to the handler: this server speaks HTTP/1.1 only.
		x.close = true
		err = newProblem(400, "HTTP/2 is not spoken here: HTTP/1.1 only")
		return uri
	case r.ContentLength > a.maxBodyBytes:
		// Refused from its Content-Length, whatever the method, and not read before the answer (nor 100 Continue
		// sent); read and dropped after it (lingerRefusedBody).
		x.close = true
		x.linger = true
		err = newProblem(413, "request body above %d bytes", a.maxBodyBytes)
		return uri
	}
	segments := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	for _, rt := range a.routes {
		rawVar, ok := rt.match(segments)
		if !ok {
			continue
		}
		uri = rt.template
		x.rawVar = rawVar
		method := r.Method
		if method == "HEAD" {
			method = "GET"
		}
		handler := rt.methods[method]
		switch {
		case handler != nil:
			err = handler(x)
		case r.Method == "OPTIONS":
			x.w.Header().Set("Allow", rt.allow+", OPTIONS")
			x.w.Header().Set("Content-Length", "0")
			x.writeHeader(200)
		default:
			x.w.Header().Set("Allow", rt.allow)
			err = newProblem(405, "Method '%s' is not supported.", shortened(r.Method))
		}
		return uri
	}
	uri = "NOT_FOUND"
	err = newProblem(404, "No endpoint %s %s.", shortened(r.Method), shortened(r.URL.EscapedPath()))
	return uri
}

// fail answers an error: a problem as its status, anything else logged and answered 500 (a bug: the contract
// tests treat any 5xx as a failure) or 503 when the database is out of reach.
func (x *exchange) fail(err error) {
	var p *problem
	if !errors.As(err, &p) {
		status := 500
		if isUnavailable(err) {
			status = 503
		}
		log.Printf("go: %s %s: %v", x.r.Method, x.r.URL.EscapedPath(), err)
		p = &problem{status: status, detail: title(status)}
	}
	if p.closeConnection {
		x.close = true
	}
	if x.status != 0 {
		return // the answer has begun: nothing more to say
	}
	body := problemJSON(p.status, p.detail, x.r.URL.EscapedPath(), p.errors)
	h := x.w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	x.writeHeader(p.status)
	_, _ = x.w.Write(body)
}

// ---- What net/http refuses before any handler -----------------------------------------------------------------------

// edgeListener: net/http answers what it cannot parse (a malformed request line or header, headers too large, a
// transfer coding other than chunked, an HTTP version other than 1.x) itself, with a text/plain body, written in one
// piece straight to the connection, and closes it; it offers no hook. Some of those answers are 5xx (501 for an
// unknown transfer coding, 505 for another HTTP version). This listener's connections rewrite exactly those
// answers (their fixed shape: status line, "Content-Type: text/plain; charset=utf-8", "Connection: close", no Date)
// into a problem detail, a 5xx into a 400: the client's request was malformed. Handler responses never have that
// shape (they always carry a Date and their own Content-Type).
type edgeListener struct{ net.Listener }

func (l edgeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &edgeConn{Conn: c}, nil
}

type edgeConn struct{ net.Conn }

var refusalHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

func (c *edgeConn) Write(p []byte) (int, error) {
	if status, ok := serverRefusal(p); ok {
		if status >= 500 {
			status = 400
		}
		reason := string(p[bytes.Index(p, refusalHeaders)+len(refusalHeaders):])
		body := problemJSON(status, reason, "", nil)
		response := "HTTP/1.1 " + strconv.Itoa(status) + " " + title(status) +
			"\r\nContent-Type: application/problem+json\r\nContent-Length: " + strconv.Itoa(len(body)) +
			"\r\nConnection: close\r\n\r\n" + string(body)
		if _, err := c.Conn.Write([]byte(response)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// serverRefusal: the status of one of net/http's own refusals ("HTTP/1.1 NNN text" + refusalHeaders + text).
func serverRefusal(p []byte) (int, bool) {
	if len(p) < 13 || !bytes.HasPrefix(p, []byte("HTTP/1.1 ")) {
		return 0, false
	}
	end := bytes.IndexByte(p, '\r')
	if end < 0 || !bytes.HasPrefix(p[end:], refusalHeaders) {
		return 0, false
	}
	status, err := strconv.Atoi(string(p[9:12]))
	if err != nil || status < 400 {
		return 0, false
	}
	return status, true
}
