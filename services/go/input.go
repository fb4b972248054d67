package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"
)

// ---- Database URL -------------------------------------------------------------------------------------------------

type dbTarget struct {
	host     string
	port     uint16
	database string
}

var jdbcURL = regexp.MustCompile(`^jdbc:postgresql://([^/:?]+)(?::(\d+))?/([^?]+)`)

// connectionOf reads DB_URL, a JDBC URL (every variant reads the same variable): jdbc:postgresql://host:port/db?….
func connectionOf(jdbc string) (dbTarget, error) {
	m := jdbcURL.FindStringSubmatch(jdbc)
	if m == nil {
		return dbTarget{}, fmt.Errorf("DB_URL is not a jdbc:postgresql://host[:port]/database URL: %s", jdbc)
	}
	port := uint64(5432)
	if m[2] != "" {
		var err error
		if port, err = strconv.ParseUint(m[2], 10, 16); err != nil {
			return dbTarget{}, fmt.Errorf("DB_URL has no valid port: %s", jdbc)
		}
	}
	database, err := url.PathUnescape(m[3])
	if err != nil {
		return dbTarget{}, fmt.Errorf("DB_URL has a malformed database name: %s", jdbc)
	}
	return dbTarget{host: m[1], port: uint16(port), database: database}, nil
}

// ---- Problems -----------------------------------------------------------------------------------------------------

type fieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// problem is an answer other than success: its status, detail and the invalid fields (RFC 9457 problem details).
type problem struct {
	status int
	detail string
	errors []fieldError
	// closeConnection: the rest of the request may still be on the connection (an unread body): answer, then close.
	closeConnection bool
}

func (p *problem) Error() string { return p.detail }

func newProblem(status int, format string, args ...any) *problem {
	return &problem{status: status, detail: fmt.Sprintf(format, args...)}
}

func invalidField(field, message string) *problem {
	return &problem{status: 400, detail: "Invalid request content: " + field + " " + message,
		errors: []fieldError{{field, message}}}
}

// ---- Path and query -----------------------------------------------------------------------------------------------

// shortened echoes at most 40 characters of a bad value: enough to recognise it, not a reflection of any size.
func shortened(text string) string {
	if utf8.RuneCountInString(text) <= 40 {
		return text
	}
	return string([]rune(text)[:40]) + "…"
}

// pathID reads a path id as Long.parseLong does (sign, decimal digits, within int64).
func pathID(text string) (int64, *problem) {
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, invalidField("id", "must be an integer, got '"+shortened(text)+"'")
	}
	return id, nil
}

// query holds the raw query parameters, each name with all its values, decoded leniently: a value that is not
// well-formed percent-encoding (or not UTF-8) is only an error for the parameters the API reads.
type query map[string][]string

func parseQuery(raw string) query {
	q := query{}
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		key, value, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(key); err == nil {
			key = k
		}
		q[key] = append(q[key], value)
	}
	return q
}

// single is the parameter's one value: absent is ok=false; given more than once, empty, or malformed is a 400
// (openapi.yaml declares each an integer, not an array, and empty values are not allowed: issue 22).
func (q query) single(name string) (value string, present bool, p *problem) {
	values := q[name]
	if len(values) == 0 {
		return "", false, nil
	}
	if len(values) > 1 {
		return "", true, invalidField(name, fmt.Sprintf("must be given at most once, got %d values", len(values)))
	}
	decoded, err := url.QueryUnescape(values[0])
	if err != nil || decoded == "" {
		return "", true, invalidField(name, "must be an integer, got '"+shortened(values[0])+"'")
	}
	return decoded, true, nil
}

func (q query) integer(name string, fallback, min, max int64) (int64, *problem) {
	text, present, p := q.single(name)
	if p != nil {
		return 0, p
	}
	if !present {
		return fallback, nil
	}
	value, err := strconv.ParseInt(text, 10, 64)
	if err != nil || value < min || value > max {
		rule := fmt.Sprintf("must be an integer between %d and %d", min, max)
		if max == 2147483647 {
			rule = fmt.Sprintf("must be an integer >= %d", min)
		}
		return 0, invalidField(name, rule+", got '"+shortened(text)+"'")
	}
	return value, nil
}

type paging struct {
	page, size int64
}

func (p paging) offset() int64 { return p.page * p.size }

func (q query) paging() (paging, *problem) {
	page, p := q.integer("page", 0, 0, 2147483647)
	if p != nil {
		return paging{}, p
	}
	size, p := q.integer("size", 20, 1, 100)
	if p != nil {
		return paging{}, p
	}
	return paging{page: page, size: size}, nil
}

// optionalID is an optional int64 filter (categoryId): absent is nil.
func (q query) optionalID(name string) (*int64, *problem) {
	text, present, p := q.single(name)
	if p != nil || !present {
		return nil, p
	}
	value, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return nil, invalidField(name, "must be an integer, got '"+shortened(text)+"'")
	}
	return &value, nil
}

// ---- Headers ------------------------------------------------------------------------------------------------------

// acceptsJSON: success bodies are JSON; false when Accept excludes it (then 406). A q that is no number is no
// exclusion.
func acceptsJSON(accept []string) bool {
	if strings.TrimSpace(strings.Join(accept, "")) == "" {
		return true // absent or empty: anything is acceptable
	}
	for _, header := range accept {
		for _, part := range strings.Split(header, ",") {
			params := strings.Split(strings.ToLower(part), ";")
			mediaRange := strings.TrimSpace(params[0])
			if mediaRange != "*/*" && mediaRange != "application/*" && mediaRange != "application/json" {
				continue
			}
			excluded := false
			for _, param := range params[1:] {
				name, value, _ := strings.Cut(strings.TrimSpace(param), "=")
				if strings.TrimSpace(name) == "q" {
					if q, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil && q == 0 {
						excluded = true
					}
				}
			}
			if !excluded {
				return true
			}
		}
	}
	return false
}

// isJSONContentType: the media type (parameters ignored) is application/json.
func isJSONContentType(contentType string) bool {
	mediaType, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mediaType), "application/json")
}

// ---- Request bodies -----------------------------------------------------------------------------------------------

type categoryRequest struct {
	code, name string
}

type itemRequest struct {
	sku, name   string
	price       pgtype.Numeric
	stock       int32
	description *string
	categoryID  int64
	// categoryOutOfRange: a whole number outside int64, which cannot be an existing category's id.
	categoryOutOfRange string
}

// fields collects every invalid field, so that one 400 lists them all (as Bean Validation lists them).
type fields struct {
	body   map[string]any
	errors []fieldError
}

func (f *fields) fail(field, message string) {
	f.errors = append(f.errors, fieldError{field, message})
}

func (f *fields) problem() *problem {
	if len(f.errors) == 0 {
		return nil
	}
	parts := make([]string, len(f.errors))
	for i, e := range f.errors {
		parts[i] = e.Field + " " + e.Message
	}
	return &problem{status: 400, detail: "Invalid request content: " + strings.Join(parts, "; "), errors: f.errors}
}

// isBlankRune: White_Space, a control character (U+0000-U+001F, U+007F-U+009F) or U+FEFF: the contract's "blank".
func isBlankRune(r rune) bool {
	return unicode.IsSpace(r) || unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp) || unicode.IsControl(r) ||
		r == 0xFEFF
}

func isBlank(text string) bool {
	for _, r := range text {
		if !isBlankRune(r) {
			return false
		}
	}
	return true
}

// text: a string, not blank when required, at most max code points (as PostgreSQL's varchar(n) counts), no U+0000
// (PostgreSQL text cannot hold it).
func (f *fields) text(field string, max int, required bool) *string {
	value, ok := f.body[field]
	if !ok || value == nil {
		if required {
			f.fail(field, "is required")
		}
		return nil
	}
	text, ok := value.(string)
	switch {
	case !ok:
		f.fail(field, "must be a string")
	case required && isBlank(text):
		f.fail(field, "must not be blank")
	case utf8.RuneCountInString(text) > max:
		f.fail(field, fmt.Sprintf("must be at most %d characters", max))
	case strings.ContainsRune(text, 0):
		f.fail(field, "must not contain the NUL character (\\u0000)")
	default:
		return &text
	}
	return nil
}

// decimal is a JSON number's exact value: digits × 10^exponent, digits without leading or trailing zeros
// ("" for zero). Read from the number's text, never through a float64.
type decimal struct {
	negative bool
	digits   string
	exponent int64
}

var jsonNumber = regexp.MustCompile(`^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$`)

func parseDecimal(text string) (decimal, bool) {
	m := jsonNumber.FindStringSubmatch(text)
	if m == nil {
		return decimal{}, false
	}
	digits := strings.TrimLeft(m[2]+m[3], "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return decimal{}, true // zero, whatever its exponent
	}
	exponent := int64(len(digits)-len(trimmed)) - int64(len(m[3]))
	if m[4] != "" {
		e, err := strconv.ParseInt(m[4], 10, 64)
		if err != nil || e > 1_000_000 || e < -1_000_000 {
			// Far beyond any value the API takes (out of range, or too many decimals): kept symbolic, never expanded.
			e = 1_000_000
			if strings.HasPrefix(m[4], "-") {
				e = -1_000_000
			}
		}
		exponent += e
	}
	return decimal{negative: m[1] == "-", digits: trimmed, exponent: exponent}, true
}

func (d decimal) isZero() bool { return d.digits == "" }

// integerDigits: the number of digits before the decimal point (0 for |d| < 1).
func (d decimal) integerDigits() int64 {
	return max(0, int64(len(d.digits))+d.exponent)
}

// bigInt: the whole value (exponent >= 0), only called once integerDigits is known to be small.
func (d decimal) bigInt() *big.Int {
	n, _ := new(big.Int).SetString(d.digits+strings.Repeat("0", int(d.exponent)), 10)
	if d.negative {
		n.Neg(n)
	}
	return n
}

// number: a JSON number (the decoder keeps its text: json.Number), read exactly.
func (f *fields) number(field string) (decimal, bool) {
	value, ok := f.body[field]
	if !ok || value == nil {
		f.fail(field, "is required")
		return decimal{}, false
	}
	number, ok := value.(json.Number)
	if !ok {
		f.fail(field, "must be a number")
		return decimal{}, false
	}
	d, ok := parseDecimal(string(number))
	if !ok {
		f.fail(field, "must be a number")
	}
	return d, ok
}

// integer: a JSON Schema integer, any number with a whole value (3, 3.0, 3e0), within [min, max].
func (f *fields) integer(field string, min, max int64) (int64, bool) {
	d, ok := f.number(field)
	if !ok {
		return 0, false
	}
	if d.exponent < 0 {
		f.fail(field, "must be an integer")
		return 0, false
	}
	if d.isZero() {
		if min > 0 {
			f.fail(field, fmt.Sprintf("must be between %d and %d", min, max))
			return 0, false
		}
		return 0, true
	}
	if d.integerDigits() > 19 || !d.bigInt().IsInt64() {
		f.fail(field, fmt.Sprintf("must be between %d and %d", min, max))
		return 0, false
	}
	n := d.bigInt().Int64()
	if n < min || n > max {
		f.fail(field, fmt.Sprintf("must be between %d and %d", min, max))
		return 0, false
	}
	return n, true
}

// price: 0 <= price <= 99999999.99 with at most two decimals (numeric(10,2)), exactly as BigDecimal checks it.
func (f *fields) price() (pgtype.Numeric, bool) {
	d, ok := f.number("price")
	if !ok {
		return pgtype.Numeric{}, false
	}
	if d.isZero() {
		return pgtype.Numeric{Int: big.NewInt(0), Exp: 0, Valid: true}, true
	}
	if d.negative || d.integerDigits() > 8 {
		f.fail("price", "must be between 0 and 99999999.99")
		return pgtype.Numeric{}, false
	}
	if d.exponent < -2 {
		f.fail("price", "must have at most 2 decimals")
		return pgtype.Numeric{}, false
	}
	n, _ := new(big.Int).SetString(d.digits, 10)
	return pgtype.Numeric{Int: n, Exp: int32(d.exponent), Valid: true}, true
}

func validCategory(body map[string]any) (categoryRequest, *problem) {
	f := &fields{body: body}
	code := f.text("code", 64, true)
	name := f.text("name", 200, true)
	if p := f.problem(); p != nil {
		return categoryRequest{}, p
	}
	return categoryRequest{code: *code, name: *name}, nil
}

func validItem(body map[string]any) (itemRequest, *problem) {
	f := &fields{body: body}
	var request itemRequest
	sku := f.text("sku", 64, true)
	name := f.text("name", 200, true)
	request.price, _ = f.price()
	stock, _ := f.integer("stock", 0, 2147483647)
	request.stock = int32(stock)
	request.description = f.text("description", 8192, false)
	if d, ok := f.number("categoryId"); ok {
		switch {
		case d.exponent < 0:
			f.fail("categoryId", "must be an integer")
		case d.isZero():
			request.categoryID = 0
		case d.integerDigits() > 19 || !d.bigInt().IsInt64():
			request.categoryOutOfRange = string(body["categoryId"].(json.Number))
		default:
			request.categoryID = d.bigInt().Int64()
		}
	}
	if p := f.problem(); p != nil {
		return itemRequest{}, p
	}
	request.sku, request.name = *sku, *name
	return request, nil
}
