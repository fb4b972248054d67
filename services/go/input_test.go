package main

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

func body(t *testing.T, text string) map[string]any {
	t.Helper()
	decoder := json.NewDecoder(bytes.NewReader([]byte(text)))
	decoder.UseNumber()
	var m map[string]any
	if err := decoder.Decode(&m); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return m
}

func TestIntegersAreAnyNumberWithAWholeValue(t *testing.T) {
	for text, want := range map[string]int64{"3": 3, "3.0": 3, "3e0": 3, "2.50e1": 25, "0": 0, "0e999999999999": 0,
		"2147483647": 2147483647, "21474836.47e2": 2147483647} {
		f := &fields{body: body(t, `{"stock":`+text+`}`)}
		got, ok := f.integer("stock", 0, 2147483647)
		if !ok || got != want {
			t.Errorf("stock %s: got %d, %v (%v), want %d", text, got, ok, f.errors, want)
		}
	}
	for text, message := range map[string]string{"2.5": "must be an integer", "1e-1": "must be an integer",
		"-1": "must be between 0 and 2147483647", "2147483648": "must be between 0 and 2147483647",
		"99999999999999999999999": "must be between 0 and 2147483647", "1e400": "must be between 0 and 2147483647",
		"1e99999999999999999999": "must be between 0 and 2147483647", `"3"`: "must be a number",
		"true": "must be a number", "null": "is required"} {
		f := &fields{body: body(t, `{"stock":`+text+`}`)}
		if _, ok := f.integer("stock", 0, 2147483647); ok || len(f.errors) != 1 || f.errors[0].Message != message {
			t.Errorf("stock %s: %v, want %q", text, f.errors, message)
		}
	}
}

func TestPricesAreExactWithAtMostTwoDecimals(t *testing.T) {
	for text, want := range map[string]string{"12.5": "12.5", "12.50": "12.5", "0": "0", "99999999.99": "99999999.99",
		"1.25e1": "12.5", "1250e-2": "12.5", "0.01": "0.01"} {
		f := &fields{body: body(t, `{"price":`+text+`}`)}
		got, ok := f.price()
		if !ok || decimalText(got) != want && decimalText(pgtype.Numeric{Int: got.Int, Exp: got.Exp, Valid: true}) != want {
			t.Errorf("price %s: got %s, %v (%v), want %s", text, decimalText(got), ok, f.errors, want)
		}
	}
	for text, message := range map[string]string{"0.001": "must have at most 2 decimals",
		"1.005": "must have at most 2 decimals", "-0.01": "must be between 0 and 99999999.99",
		"100000000": "must be between 0 and 99999999.99", "1e400": "must be between 0 and 99999999.99",
		"1e-400": "must have at most 2 decimals", `"abc"`: "must be a number"} {
		f := &fields{body: body(t, `{"price":`+text+`}`)}
		if _, ok := f.price(); ok || len(f.errors) != 1 || f.errors[0].Message != message {
			t.Errorf("price %s: %v, want %q", text, f.errors, message)
		}
	}
}

func TestTextRules(t *testing.T) {
	for text, message := range map[string]string{
		`"\u0001\u0002"`: "must not be blank", `"\u00a0\u202f"`: "must not be blank", `"\ufeff"`: "must not be blank",
		`" \t\n"`: "must not be blank", `""`: "must not be blank", `"a\u0000b"`: "must not contain the NUL character (\\u0000)",
		`{"a":1}`: "must be a string", `1`: "must be a string", `null`: "is required"} {
		f := &fields{body: body(t, `{"name":`+text+`}`)}
		if f.text("name", 200, true) != nil || len(f.errors) != 1 || f.errors[0].Message != message {
			t.Errorf("name %s: %v, want %q", text, f.errors, message)
		}
	}
	astral := ""
	for range 64 {
		astral += "😀"
	}
	f := &fields{body: map[string]any{"code": astral}}
	if f.text("code", 64, true) == nil {
		t.Errorf("64 code points outside the BMP are 64 characters: %v", f.errors)
	}
	f = &fields{body: map[string]any{"code": astral + "😀"}}
	if f.text("code", 64, true) != nil {
		t.Errorf("65 code points are too many")
	}
}

func TestEveryInvalidFieldIsListed(t *testing.T) {
	_, p := validItem(body(t, `{"sku":" ","price":1.001,"stock":-1,"categoryId":1.5}`))
	if p == nil || p.status != 400 {
		t.Fatalf("want a 400, got %v", p)
	}
	var listed []string
	for _, e := range p.errors {
		listed = append(listed, e.Field)
	}
	want := []string{"sku", "name", "price", "stock", "categoryId"}
	if len(listed) != len(want) {
		t.Fatalf("listed %v, want %v", listed, want)
	}
	for i := range want {
		if listed[i] != want[i] {
			t.Fatalf("listed %v, want %v", listed, want)
		}
	}
}

func TestCategoryIDOutsideInt64CannotExist(t *testing.T) {
	r, p := validItem(body(t, `{"sku":"s","name":"n","price":1,"stock":1,"categoryId":1e30}`))
	if p != nil || r.categoryOutOfRange != "1e30" {
		t.Fatalf("got %+v, %v", r, p)
	}
	r, p = validItem(body(t, `{"sku":"s","name":"n","price":1,"stock":1,"categoryId":-9223372036854775808}`))
	if p != nil || r.categoryID != -9223372036854775808 || r.categoryOutOfRange != "" {
		t.Fatalf("got %+v, %v", r, p)
	}
}

func TestQueryParametersOneRuleEverywhere(t *testing.T) {
	ok := map[string]paging{"": {0, 20}, "page=2&size=5": {2, 5}, "size=100": {0, 100}, "page=%32": {2, 20},
		"page=2147483647&size=100": {2147483647, 100}, "sort=%25zz": {0, 20}, "a=%C3&page=1": {1, 20}}
	for raw, want := range ok {
		got, p := parseQuery(raw).paging()
		if p != nil || got != want {
			t.Errorf("%q: got %v, %v, want %v", raw, got, p, want)
		}
	}
	for _, raw := range []string{"page=-1", "size=0", "size=101", "size=2147483648", "page=1e3", "page=99999999999",
		"page=1&page=2", "page=&size=", "size=", "page=%zz", "page=+1 ", "page=1.0"} {
		if _, p := parseQuery(raw).paging(); p == nil || p.status != 400 {
			t.Errorf("%q: want a 400, got %v", raw, p)
		}
	}
	for _, raw := range []string{"categoryId=", "categoryId=1&categoryId=2", "categoryId=x",
		"categoryId=&categoryId=x&categoryId=1.5", "categoryId=99999999999999999999"} {
		if _, p := parseQuery(raw).optionalID("categoryId"); p == nil || p.status != 400 {
			t.Errorf("%q: want a 400, got %v", raw, p)
		}
	}
	if id, p := parseQuery("categoryId=-7").optionalID("categoryId"); p != nil || *id != -7 {
		t.Errorf("a negative filter is a filter")
	}
}

func TestAccept(t *testing.T) {
	if !acceptsJSON(nil) {
		t.Errorf("no Accept: JSON is acceptable")
	}
	for accept, want := range map[string]bool{"": true, " ": true, "*/*": true, "application/json": true, "text/csv": false,
		"application/xml": false, "application/*;q=0.5": true, "application/json;q=0": false,
		"application/json;q=abc": true, "text/html, application/json;q=0.1": true} {
		if acceptsJSON([]string{accept}) != want {
			t.Errorf("Accept %q: want %v", accept, want)
		}
	}
}

func TestInstantIsJavasInstantToString(t *testing.T) {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for nanos, want := range map[int]string{0: "2026-01-02T03:04:05Z", 500_000_000: "2026-01-02T03:04:05.500Z",
		123_456_000: "2026-01-02T03:04:05.123456Z", 1_000: "2026-01-02T03:04:05.000001Z"} {
		if got := instantText(base.Add(time.Duration(nanos))); got != want {
			t.Errorf("%d ns: got %s, want %s", nanos, got, want)
		}
	}
}

func TestDecimalTextKeepsTheScale(t *testing.T) {
	for _, c := range []struct {
		n    pgtype.Numeric
		want string
	}{{numeric(1250, -2), "12.50"}, {numeric(5, -2), "0.05"}, {numeric(0, -2), "0.00"}, {numeric(7, 0), "7"},
		{numeric(7, 1), "70"}} {
		if got := decimalText(c.n); got != c.want {
			t.Errorf("%v: got %s, want %s", c.n, got, c.want)
		}
	}
}

func TestJDBCURL(t *testing.T) {
	got, err := connectionOf("jdbc:postgresql://127.0.0.1:54329/bench?ssl=false")
	if err != nil || got != (dbTarget{"127.0.0.1", 54329, "bench"}) {
		t.Errorf("got %v, %v", got, err)
	}
	if got, _ := connectionOf("jdbc:postgresql://db/x"); got.port != 5432 {
		t.Errorf("default port: %v", got)
	}
	if _, err := connectionOf("postgres://db/x"); err == nil {
		t.Errorf("not a JDBC URL")
	}
}

func numeric(n int64, exp int32) pgtype.Numeric {
	return pgtype.Numeric{Int: big.NewInt(n), Exp: exp, Valid: true}
}
