package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JsJsonTest {

    @Test
    void writesNumbersAsJavaScriptDoes() {
        assertThat(JsJson.number(1.0)).isEqualTo("1");
        assertThat(JsJson.number(1500000.0)).isEqualTo("1500000");
        assertThat(JsJson.number(0.25)).isEqualTo("0.25");
        assertThat(JsJson.number(-12.5)).isEqualTo("-12.5");
        assertThat(JsJson.number(1e21)).isEqualTo("1e+21");
        assertThat(JsJson.number(1.5e-7)).isEqualTo("1.5e-7");
        assertThat(JsJson.number(Double.NaN)).isEqualTo("null");
    }

    @Test
    void indentsAsJsonStringifyWithTwoSpaces() throws Exception {
        var node = new ObjectMapper().readTree("{\"a\":[1,{\"b\":\"x\\\"y\"}],\"e\":[],\"o\":{},\"n\":null,\"t\":true}");

        assertThat(JsJson.stringify(node)).isEqualTo("""
                {
                  "a": [
                    1,
                    {
                      "b": "x\\"y"
                    }
                  ],
                  "e": [],
                  "o": {},
                  "n": null,
                  "t": true
                }""");
    }

    @Test
    void roundsToSixSignificantDigits() {
        assertThat(JsJson.round(2150.123456)).isEqualTo(2150.12);
        assertThat(JsJson.round(0.000123456789)).isEqualTo(0.000123457);
    }
}
