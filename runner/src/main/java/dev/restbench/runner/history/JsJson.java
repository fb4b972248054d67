package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Iterator;
import java.util.Map;

/**
 * Serialises a JSON tree exactly as JavaScript's {@code JSON.stringify(value, null, 2)} does, which is how
 * github-action-benchmark writes data.js: two-space indent, {@code "key": value}, empty containers as
 * {@code []}/{@code {}}, numbers in JavaScript's shortest form (1 not 1.0, 1500000 not 1.5E6), and only the
 * characters JSON requires escaped. Writing every history file this way keeps them byte-stable.
 */
public final class JsJson {

    private JsJson() {
    }

    public static String stringify(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out, "");
        return out.toString();
    }

    /** Rounds to 6 significant digits, so values from different JVMs or re-runs print identically. */
    public static double round(double value) {
        if (!Double.isFinite(value) || value == 0) {
            return value;
        }
        return new BigDecimal(value).round(new MathContext(6)).doubleValue();
    }

    private static void write(JsonNode node, StringBuilder out, String indent) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isObject()) {
            if (node.isEmpty()) {
                out.append("{}");
                return;
            }
            String inner = indent + "  ";
            out.append("{\n");
            Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                out.append(inner);
                string(field.getKey(), out);
                out.append(": ");
                write(field.getValue(), out, inner);
                out.append(fields.hasNext() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                out.append("[]");
                return;
            }
            String inner = indent + "  ";
            out.append("[\n");
            for (int i = 0; i < node.size(); i++) {
                out.append(inner);
                write(node.get(i), out, inner);
                out.append(i < node.size() - 1 ? ",\n" : "\n");
            }
            out.append(indent).append(']');
        } else if (node.isTextual()) {
            string(node.asText(), out);
        } else if (node.isBoolean()) {
            out.append(node.asBoolean());
        } else if (node.isIntegralNumber()) {
            out.append(node.bigIntegerValue());
        } else if (node.isNumber()) {
            out.append(number(node.doubleValue()));
        } else {
            throw new IllegalArgumentException("cannot write " + node.getNodeType());
        }
    }

    /** JavaScript's Number.prototype.toString for finite doubles; NaN and infinities become null as in JSON.stringify. */
    static String number(double value) {
        if (!Double.isFinite(value)) {
            return "null";
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal decimal = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        double magnitude = Math.abs(value);
        if (magnitude >= 1e-6 && magnitude < 1e21) {
            return decimal.toPlainString();
        }
        // Exponent form: d[.ddd]e+N / e-N
        String digits = decimal.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - decimal.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (value < 0 ? "-" : "") + mantissa + "e" + (exponent >= 0 ? "+" : "-") + Math.abs(exponent);
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || (Character.isSurrogate(c) && !validSurrogatePair(text, i))) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** JSON.stringify escapes lone surrogates only (well-formed JSON.stringify, ES2019). */
    private static boolean validSurrogatePair(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
