package validate

import "testing"

// The evaluator must read expressions as GitHub does, or the rehearsal would pass workflows GitHub runs differently.
func TestExpressionsEvaluateAsOnGitHub(t *testing.T) {
	scope := Scope{Contexts: map[string]any{
		"github": map[string]any{"event_name": "push", "sha": "abc", "event": map[string]any{"number": 42.0}},
		"inputs": map[string]any{},
		"needs":  map[string]any{"plan": map[string]any{"outputs": map[string]any{"run": "true", "kind": "pr"}}},
	}, Status: Status{Success: true}}
	cases := map[string]string{
		"inputs.pr != ''":                                       "false", // missing is null, null == '' (both are 0)
		"inputs.pr == null":                                     "true",
		"'PR' == 'pr'":                                          "true", // strings compare case-insensitively
		"needs.plan.outputs.run == 'true'":                      "true",
		"needs.plan.outputs.RUN":                                "true", // property names too
		"github.event_name == 'push' && 'a' || 'b'":             "a",    // && and || return an operand
		"github.event_name == 'pull' && 'a' || 'b'":             "b",
		"format('#{0} @ {1}', github.event.number, github.sha)": "#42 @ abc",
		"!startsWith(github.sha, 'AB')":                         "false",
		"fromJSON('{\"include\":[1]}').include[0]":              "1",
		"contains(fromJSON('[\"x\",\"y\"]'), 'Y')":              "true",
		"1 == '1'":                 "true",  // different types compare as numbers
		"'x' == 0":                 "false", // NaN equals nothing
		"true && 0 || 2":           "2",
		"(false || '') && 'never'": "",
	}
	for expr, want := range cases {
		got, err := Eval(expr, scope)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
		} else if toString(got) != want {
			t.Errorf("%s = %q, want %q", expr, toString(got), want)
		}
	}
	if ok, _ := EvalCondition("needs.plan.outputs.kind == 'pr'", Scope{Contexts: scope.Contexts, Status: Status{}}); ok {
		t.Error("an if: without a status function implies success(): false after a failure")
	}
	if ok, _ := EvalCondition("always() && needs.plan.outputs.kind == 'pr'", Scope{Contexts: scope.Contexts}); !ok {
		t.Error("always() runs after a failure")
	}
	if s, _ := EvalString("group-${{ github.sha }}-${{ needs.plan.outputs.kind }}", scope); s != "group-abc-pr" {
		t.Errorf("template: %q", s)
	}
	if _, err := Eval("secrets.X", scope); err == nil {
		t.Error("an unknown context must be an error, not a silent null")
	}
}
