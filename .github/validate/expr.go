// A small evaluator of GitHub Actions expressions (${{ … }}), enough for the rehearsal to evaluate the workflows'
// own if:, with:, env:, concurrency and run-name fields against recorded events: literals, context properties
// (case-insensitive, missing = null), ! == != < <= > >= && || and parentheses, and the functions always, success,
// failure, cancelled, format, contains, startsWith, endsWith, fromJSON, toJSON and join. The semantics follow
// GitHub's documentation: && and || return an operand, comparisons of different types compare numbers, strings
// compare case-insensitively, and false, 0, the empty string, null and NaN are falsy. Anything else is an error, so a workflow
// cannot use an expression the tests would silently misread.
package validate

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Status is what the status functions answer for the job or step being evaluated.
type Status struct {
	Success, Failure, Cancelled bool
}

// Scope holds the contexts (github, needs, steps, matrix, inputs, runner, env, secrets) and the status.
type Scope struct {
	Contexts map[string]any
	Status   Status
}

var templatePart = regexp.MustCompile(`(?s)\$\{\{(.*?)\}\}`)

// EvalTemplate evaluates a field value: a lone ${{ e }} yields e's value, text with several or embedded
// expressions yields the text with each value in string form.
func EvalTemplate(text string, scope Scope) (any, error) {
	trimmed := strings.TrimSpace(text)
	if m := templatePart.FindStringSubmatchIndex(trimmed); m != nil && m[0] == 0 && m[1] == len(trimmed) {
		return Eval(trimmed[m[2]:m[3]], scope)
	}
	var err error
	out := templatePart.ReplaceAllStringFunc(text, func(part string) string {
		v, e := Eval(part[3:len(part)-2], scope)
		if e != nil && err == nil {
			err = e
		}
		return toString(v)
	})
	return out, err
}

// EvalString is EvalTemplate's value in string form.
func EvalString(text string, scope Scope) (string, error) {
	v, err := EvalTemplate(text, scope)
	return toString(v), err
}

// EvalCondition evaluates an if: (a bare expression or one ${{ }}); empty means success().
func EvalCondition(cond string, scope Scope) (bool, error) {
	cond = strings.TrimSpace(cond)
	if cond == "" {
		cond = "success()"
	}
	if strings.HasPrefix(cond, "${{") && strings.HasSuffix(cond, "}}") {
		cond = cond[3 : len(cond)-2]
	}
	// GitHub adds success() to a condition that calls no status function.
	if !regexp.MustCompile(`\b(always|success|failure|cancelled)\s*\(`).MatchString(cond) {
		cond = "success() && (" + cond + ")"
	}
	v, err := Eval(cond, scope)
	return truthy(v), err
}

// Eval evaluates one expression.
func Eval(src string, scope Scope) (any, error) {
	p := &parser{scope: scope}
	if err := p.lex(src); err != nil {
		return nil, err
	}
	v, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("expression %q: unexpected %q", src, p.toks[p.pos].text)
	}
	return v, nil
}

type token struct {
	kind string // ident, num, str, op
	text string
}

type parser struct {
	toks  []token
	pos   int
	scope Scope
}

var lexer = regexp.MustCompile(`^(?:\s+|([A-Za-z_][A-Za-z0-9_-]*)|([0-9]+(?:\.[0-9]+)?)|'((?:[^']|'')*)'|(==|!=|<=|>=|&&|\|\||[()\[\].,!<>*]))`)

func (p *parser) lex(src string) error {
	for rest := src; rest != ""; {
		m := lexer.FindStringSubmatchIndex(rest)
		if m == nil {
			return fmt.Errorf("expression %q: cannot read %q", src, rest)
		}
		switch {
		case m[2] >= 0:
			p.toks = append(p.toks, token{"ident", rest[m[2]:m[3]]})
		case m[4] >= 0:
			p.toks = append(p.toks, token{"num", rest[m[4]:m[5]]})
		case m[6] >= 0:
			p.toks = append(p.toks, token{"str", strings.ReplaceAll(rest[m[6]:m[7]], "''", "'")})
		case m[8] >= 0:
			p.toks = append(p.toks, token{"op", rest[m[8]:m[9]]})
		}
		rest = rest[m[1]:]
	}
	return nil
}

func (p *parser) peek(op string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == "op" && p.toks[p.pos].text == op
}

func (p *parser) expect(op string) error {
	if !p.peek(op) {
		return fmt.Errorf("expected %q", op)
	}
	p.pos++
	return nil
}

func (p *parser) or() (any, error) {
	left, err := p.and()
	for err == nil && p.peek("||") {
		p.pos++
		var right any
		right, err = p.and()
		if !truthy(left) {
			left = right
		}
	}
	return left, err
}

func (p *parser) and() (any, error) {
	left, err := p.comparison()
	for err == nil && p.peek("&&") {
		p.pos++
		var right any
		right, err = p.comparison()
		if truthy(left) {
			left = right
		}
	}
	return left, err
}

func (p *parser) comparison() (any, error) {
	left, err := p.unary()
	for err == nil {
		op := ""
		for _, candidate := range []string{"==", "!=", "<=", ">=", "<", ">"} {
			if p.peek(candidate) {
				op = candidate
			}
		}
		if op == "" {
			break
		}
		p.pos++
		var right any
		if right, err = p.unary(); err != nil {
			break
		}
		left = compare(op, left, right)
	}
	return left, err
}

func (p *parser) unary() (any, error) {
	if p.peek("!") {
		p.pos++
		v, err := p.unary()
		return !truthy(v), err
	}
	return p.postfix()
}

func (p *parser) postfix() (any, error) {
	v, err := p.primary()
	for err == nil {
		switch {
		case p.peek("."):
			p.pos++
			if p.pos >= len(p.toks) || p.toks[p.pos].kind != "ident" {
				return nil, fmt.Errorf("expected a property name after '.'")
			}
			v = property(v, p.toks[p.pos].text)
			p.pos++
		case p.peek("["):
			p.pos++
			var key any
			if key, err = p.or(); err != nil {
				return nil, err
			}
			if err = p.expect("]"); err != nil {
				return nil, err
			}
			if list, ok := v.([]any); ok {
				i := int(toNumber(key))
				if i >= 0 && i < len(list) {
					v = list[i]
				} else {
					v = nil
				}
			} else {
				v = property(v, toString(key))
			}
		default:
			return v, nil
		}
	}
	return v, err
}

func (p *parser) primary() (any, error) {
	if p.pos >= len(p.toks) {
		return nil, fmt.Errorf("unexpected end of expression")
	}
	t := p.toks[p.pos]
	p.pos++
	switch t.kind {
	case "num":
		return strconv.ParseFloat(t.text, 64)
	case "str":
		return t.text, nil
	case "op":
		if t.text == "(" {
			v, err := p.or()
			if err == nil {
				err = p.expect(")")
			}
			return v, err
		}
		return nil, fmt.Errorf("unexpected %q", t.text)
	}
	switch strings.ToLower(t.text) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if p.peek("(") {
		p.pos++
		var args []any
		for !p.peek(")") {
			a, err := p.or()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if !p.peek(")") {
				if err := p.expect(","); err != nil {
					return nil, err
				}
			}
		}
		p.pos++
		return p.call(strings.ToLower(t.text), args)
	}
	for name, ctx := range p.scope.Contexts {
		if strings.EqualFold(name, t.text) {
			return ctx, nil
		}
	}
	return nil, fmt.Errorf("unknown context %q", t.text)
}

func (p *parser) call(name string, args []any) (any, error) {
	arity := map[string]int{"always": 0, "success": 0, "failure": 0, "cancelled": 0, "contains": 2,
		"startswith": 2, "endswith": 2, "fromjson": 1, "tojson": 1}
	if n, ok := arity[name]; ok && len(args) != n {
		return nil, fmt.Errorf("%s() takes %d arguments, got %d", name, n, len(args))
	}
	switch name {
	case "always":
		return true, nil
	case "success":
		return p.scope.Status.Success, nil
	case "failure":
		return p.scope.Status.Failure, nil
	case "cancelled":
		return p.scope.Status.Cancelled, nil
	case "contains":
		if list, ok := args[0].([]any); ok {
			for _, item := range list {
				if compare("==", item, args[1]) == true {
					return true, nil
				}
			}
			return false, nil
		}
		return strings.Contains(strings.ToLower(toString(args[0])), strings.ToLower(toString(args[1]))), nil
	case "startswith":
		return strings.HasPrefix(strings.ToLower(toString(args[0])), strings.ToLower(toString(args[1]))), nil
	case "endswith":
		return strings.HasSuffix(strings.ToLower(toString(args[0])), strings.ToLower(toString(args[1]))), nil
	case "fromjson":
		var v any
		if err := json.Unmarshal([]byte(toString(args[0])), &v); err != nil {
			return nil, fmt.Errorf("fromJSON(%q): %v", toString(args[0]), err)
		}
		return v, nil
	case "tojson":
		data, err := json.Marshal(args[0])
		return string(data), err
	case "join":
		list, _ := args[0].([]any)
		sep := ","
		if len(args) > 1 {
			sep = toString(args[1])
		}
		parts := make([]string, len(list))
		for i, item := range list {
			parts[i] = toString(item)
		}
		return strings.Join(parts, sep), nil
	case "format":
		if len(args) == 0 {
			return nil, fmt.Errorf("format() needs a format string")
		}
		out := toString(args[0])
		for i := len(args) - 1; i >= 1; i-- {
			out = strings.ReplaceAll(out, "{"+strconv.Itoa(i-1)+"}", toString(args[i]))
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown function %s()", name)
}

func property(v any, name string) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if value, ok := m[name]; ok {
		return value
	}
	for key, value := range m {
		if strings.EqualFold(key, name) {
			return value
		}
	}
	return nil
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	}
	return true
}

func toNumber(v any) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case bool:
		if x {
			return 1
		}
		return 0
	case float64:
		return x
	case string:
		if strings.TrimSpace(x) == "" {
			return 0
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return f
		}
	}
	return math.NaN()
}

func compare(op string, a, b any) any {
	sa, aStr := a.(string)
	sb, bStr := b.(string)
	var c int
	switch {
	case aStr && bStr:
		c = strings.Compare(strings.ToLower(sa), strings.ToLower(sb))
	case sameKind(a, b) && (isMap(a) || isList(a)):
		if op == "==" {
			return fmt.Sprintf("%p", a) == fmt.Sprintf("%p", b)
		}
		if op == "!=" {
			return fmt.Sprintf("%p", a) != fmt.Sprintf("%p", b)
		}
		return false
	default:
		x, y := toNumber(a), toNumber(b)
		if math.IsNaN(x) || math.IsNaN(y) {
			return op == "!="
		}
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	}
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func isMap(v any) bool  { _, ok := v.(map[string]any); return ok }
func isList(v any) bool { _, ok := v.([]any); return ok }
func sameKind(a, b any) bool {
	return fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b)
}

func toString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	data, _ := json.Marshal(v)
	return string(data)
}
