package dev.restbench.contract;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed and hostile requests against every variant of the manifest: never a 5xx, where the contract names the status, that
 * status, and an error body in the dialect's media types (problem details for the plain API). One table, so a new
 * nasty request is one line and is tried on every stack. The rows after "found by the fuzzer" are what
 * {@link FuzzTest} found, kept here as regression cases that run without Python.
 */
@ExtendWith(ContractEnvironment.class)
class HostileRequestsTest {

    private static final String TAG = UUID.randomUUID().toString().substring(0, 8);
    private static final Set<String> WARMED = ConcurrentHashMap.newKeySet();

    /**
     * One hostile request. {@code plain}/{@code hal}: the status the contract demands of that dialect, or null when
     * only "not a 5xx" is demanded (several answers are reasonable).
     */
    record Hostile(String name, BiFunction<Http, Boolean, Http.Response> exchange, Integer plain, Integer hal,
                   Predicate<List<Integer>> statusLines) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Hostile row(String name, BiFunction<Http, Boolean, Http.Request> request, Integer plain,
                               Integer hal) {
        return new Hostile(name, (http, isHal) -> request.apply(http, isHal).send(), plain, hal, null);
    }

    private static Hostile row(String name, BiFunction<Http, Boolean, Http.Request> request, Integer both) {
        return row(name, request, both, both);
    }

    /**
     * Bytes on the wire as they are ({@link Http#raw}); {@code statusLines} judges the statuses of all responses read
     * from the connection, in order.
     */
    private static Hostile wire(String name, String bytes, Predicate<List<Integer>> statusLines) {
        return new Hostile(name, (http, isHal) -> http.raw(name, bytes), null, null, statusLines);
    }

    /** A GET whose Host header is {@code host} (bytes as ISO-8859-1): any answer but a 5xx. */
    private static Hostile hostHeader(String what, String host) {
        return wire("Host header that is " + what, "GET /items/1 HTTP/1.1\r\nHost: " + host
                + "\r\nConnection: close\r\n\r\n", statuses -> statuses.stream().allMatch(s -> s < 500));
    }

    /** After the first answer only the GET's 200, or nothing (closed): the body never became a request of its own. */
    private static boolean bodyStayedABody(List<Integer> statuses) {
        return statuses.stream().skip(1).allMatch(status -> status == 200) && statuses.size() <= 2;
    }

    /** A valid item body in the variant's dialect (HAL links the category by URI), to be spoiled by the caller. */
    private static ObjectNode item(boolean hal, String suffix) {
        ObjectNode body = Http.JSON.createObjectNode();
        body.put("sku", "X-" + TAG + "-" + suffix).put("name", "Hostile " + suffix).put("price", 1.5).put("stock", 1);
        return hal ? body.put("category", "/categories/1") : body.put("categoryId", 1);
    }

    private static String withRaw(ObjectNode body, String field, String rawJson) {
        String json = body.toString();
        return json.substring(0, json.length() - 1) + ",\"" + field + "\":" + rawJson + "}";
    }

    private static BiFunction<Http, Boolean, Http.Request> postItem(String suffix, String field, String rawJson) {
        return (http, hal) -> http.request("POST", "/items").json(withRaw(item(hal, suffix), field, rawJson));
    }

    private static BiFunction<Http, Boolean, Http.Request> raw(String method, String path, String body) {
        return (http, hal) -> http.request(method, path).json(body);
    }

    private static BiFunction<Http, Boolean, Http.Request> get(String path) {
        return (http, hal) -> http.request("GET", path);
    }

    static List<Hostile> rows() {
        byte[] oversized = ("{\"code\":\"X\",\"name\":\"" + "n".repeat(70 * 1024) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        String deep = "[".repeat(20_000) + "]".repeat(20_000);
        byte[] invalidUtf8 = {'{', '"', 'c', 'o', 'd', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        return List.of(
                row("malformed JSON", raw("POST", "/categories", "{\"code\": \"x\""), 400),
                row("truncated JSON item", raw("POST", "/items", "{\"sku\":"), 400),
                row("JSON array instead of object", raw("POST", "/categories", "[]"), 400),
                row("JSON null body", raw("POST", "/categories", "null"), 400),
                row("empty body", raw("POST", "/items", ""), 400),
                row("deeply nested JSON (20,000 levels)", raw("POST", "/categories", deep), 400),
                row("invalid UTF-8", (http, hal) -> http.request("POST", "/categories")
                        .body(invalidUtf8, "application/json"), 400),
                row("price is a word", postItem("p1", "price", "\"abc\""), 400),
                row("price 1e400", postItem("p2", "price", "1e400"), 400),
                row("price null", postItem("p3", "price", "null"), 400),
                row("stock is fractional", postItem("s1", "stock", "1.5"), 400),
                row("stock is boolean", postItem("s2", "stock", "true"), 400),
                row("stock beyond long", postItem("s3", "stock", "99999999999999999999999"), 400),
                row("name is an object", postItem("n1", "name", "{\"a\":1}"), 400),
                row("NUL character in a string", postItem("n2", "description", "\"a\\u0000b\""), 400),
                row("unknown category", (http, hal) -> http.request("POST", "/items").json(hal
                        ? item(true, "c1").put("category", "/categories/987654321")
                        : item(false, "c1").put("categoryId", 987654321)), 400),
                row("category link that is not a URI", (http, hal) -> http.request("POST", "/items")
                        .json(item(hal, "c2").put(hal ? "category" : "categoryId", "::not a uri::")), 400),
                row("oversized body (Content-Length)", (http, hal) -> http.request("POST", "/categories")
                        .body(oversized, "application/json"), 413),
                row("oversized body (chunked)", (http, hal) -> http.request("POST", "/categories")
                        .body(oversized, "application/json").chunked(), 413),
                row("Content-Type text/plain", (http, hal) -> http.request("POST", "/categories")
                        .body("{\"code\":\"a\",\"name\":\"b\"}".getBytes(StandardCharsets.UTF_8), "text/plain"), 415),
                row("Content-Type with a bogus charset", (http, hal) -> http.request("POST", "/categories")
                        .body("{}".getBytes(StandardCharsets.UTF_8), "application/json; charset=bogus-42"), null),
                row("Accept text/csv", (http, hal) -> http.request("GET", "/items/1").accept("text/csv"), 406),
                row("non-numeric id", get("/items/abc"), 400),
                row("id beyond long", get("/categories/99999999999999999999"), 400),
                row("negative id", get("/items/-1"), 404),
                row("encoded path traversal", get("/items/..%2F..%2Fetc%2Fpasswd"), null),
                row("very long path", get("/items/" + "9".repeat(6000)), null),
                row("page=-1", get("/items?page=-1"), 400),
                row("size=0", get("/categories?size=0"), 400),
                row("size=101", get("/items?size=101"), 400),
                row("size=2147483648", get("/items?size=2147483648"), 400),
                row("page=1e3", get("/categories?page=1e3"), 400),
                row("page beyond int", get("/items?page=99999999999"), 400),
                row("last int page of 100", get("/items?page=2147483647&size=100"), 200, null),
                // One rule in every variant (issue 22): each query parameter an integer, given at most once, never
                // empty (openapi.yaml: not an array; OpenAPI's allowEmptyValue is false).
                row("page given twice", get("/items?page=1&page=2"), 400),
                row("page and size empty", get("/items?page=&size="), 400),
                row("size empty on categories", get("/categories?size="), 400),
                row("categoryId empty, then not integers", (http, hal) -> http.request("GET", (hal
                        ? "/items/search/byCategory" : "/items") + "?categoryId=&categoryId=x&categoryId=1.5"), 400),
                row("categoryId empty", (http, hal) -> http.request("GET",
                        hal ? "/items/search/byCategory?categoryId=" : "/items?categoryId="), 400),
                row("categoryId given twice", (http, hal) -> http.request("GET",
                        hal ? "/items/search/byCategory?categoryId=1&categoryId=2" : "/items?categoryId=1&categoryId=2"),
                        400),
                row("categoryId not a number", (http, hal) -> http.request("GET",
                        hal ? "/items/search/byCategory?categoryId=x" : "/items?categoryId=x"), 400),
                row("PUT to an unknown id", (http, hal) -> http.request("PUT", "/categories/987654321")
                        .json("{\"code\":\"X-" + TAG + "-put\",\"name\":\"n\"}"), 404, null),
                row("DELETE on a collection", (http, hal) -> http.request("DELETE", "/items"), 405, null),
                row("huge header", (http, hal) -> http.request("GET", "/items/1").header("X-Junk", "j".repeat(20_000)),
                        null),
                // ---- found by the fuzzer (FuzzTest, schemathesis) ----
                row("multipart/form-data without a boundary on a GET", (http, hal) -> http.request("GET", "/items/1")
                        .header("Content-Type", "multipart/form-data"), 200),
                row("multipart/form-data without a boundary on a POST", (http, hal) -> http.request("POST",
                        "/categories").body("{}".getBytes(StandardCharsets.UTF_8), "multipart/form-data"), 415),
                row("multipart/form-data without a boundary on a DELETE", (http, hal) -> http.request("DELETE",
                        "/items/987654321").header("Content-Type", "multipart/form-data"), 404),
                row("GET with a body", (http, hal) -> http.request("GET", "/items/1").json("{\"a\":1}"), 200),
                wire("TRACE with a body, then a GET on the same connection",
                        "TRACE /items/1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                + "Content-Length: 12\r\n\r\n{\"sku\": \"0\"}"
                                + "GET /items/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                        HostileRequestsTest::bodyStayedABody),
                wire("TRACE with a chunked body, then a GET on the same connection",
                        "TRACE /items/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "5\r\nhello\r\n0\r\n\r\n"
                                + "GET /items/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                        HostileRequestsTest::bodyStayedABody),
                wire("CONNECT to a path", "CONNECT /items/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                        statuses -> statuses.equals(List.of(400)) || statuses.equals(List.of(405))),
                wire("CONNECT to host:port",
                        "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\nConnection: close\r\n\r\n",
                        statuses -> statuses.equals(List.of(400)) || statuses.equals(List.of(405))),
                row("query string that is not UTF-8", get("/categories?a=%C3&page=1"), null),
                // ---- found by probing the resteasy variant's edge: Host values that are no URI authority, and
                // quality values that are no number (jersey answered 500 to each) ----
                hostHeader("a quote", "\""),
                hostHeader("a credentials-like value", "Basic !!!"),
                hostHeader("an unclosed IPv6 literal", "http://[::1"),
                hostHeader("UTF-8 bytes", "\u00c3\u00a9"),
                hostHeader("empty", ""),
                row("Content-Type with a q that is no number", (http, hal) -> http.request("POST", "/categories")
                        .body("{}".getBytes(StandardCharsets.UTF_8), "application/json;q=abc"), null),
                row("Accept with a q that is no number", (http, hal) -> http.request("GET", "/items/1")
                        .accept("application/json;q=abc"), null),
                row("stock 2.0 is the integer 2", postItem("f1", "stock", "2.0"), 201),
                row("stock 3e0 is the integer 3", postItem("f2", "stock", "3e0"), 201),
                row("stock 2.5", postItem("f3", "stock", "2.5"), 400),
                row("stock 1e400", postItem("f4", "stock", "1e400"), 400),
                row("name of control characters only", postItem("b1", "name", "\"\\u0001\\u0002\""), 400),
                row("name of no-break spaces only", postItem("b2", "name", "\"\\u00a0\\u202f\""), 400),
                row("name of a BOM only", postItem("b3", "name", "\"\\ufeff\""), 400),
                row("code of 64 characters outside the BMP", (http, hal) -> http.request("POST", "/categories")
                        .json("{\"code\":\"" + TAG + "\uD83D\uDE00".repeat(56) + "\",\"name\":\"astral\"}"), 201),
                row("code of 65 characters outside the BMP", (http, hal) -> http.request("POST", "/categories")
                        .json("{\"code\":\"" + TAG + "\uD83D\uDE00".repeat(57) + "\",\"name\":\"astral\"}"), 400),
                row("name is a boolean (PATCH)", (http, hal) -> http.request("PATCH", "/categories/1")
                        .json("{\"name\":true}"), 405, 400),
                row("PATCH with an empty property name", (http, hal) -> http.request("PATCH", "/items/1")
                        .json("{\"\":{\"c\":1}}"), 405, 400),
                row("sort with a stray %", get("/items?sort=%25zz"), 200, 400),
                row("page 21474837 of size 1", get("/items?page=21474837&size=1"), 200, 400),
                row("unknown profile", get("/profile/nothing"), 404),
                row("profile name with a control character (seed 20261127)", get("/profile/%1D"), null, 404),
                row("association PUT whose body is no URI", (http, hal) -> http.request("PUT", "/items/1/category")
                        .body("{\"a\": 1}".getBytes(StandardCharsets.UTF_8), "text/uri-list"), null, 400),
                row("association PUT whose URI has an authority that does not parse (seed 20261201)",
                        (http, hal) -> http.request("PUT", "/items/1/category").body(
                                "http://0\u00ea\u00b4\u0094{0\u00ae\u00fb\u00f1(\u00f5\u008b\u0000\u0003a3/categories/8"
                                        .getBytes(StandardCharsets.UTF_8), "text/uri-list"), null, 400),
                row("PUT on the search resource", (http, hal) -> http.request("PUT", "/items/search").json("{}"),
                        null, 405),
                row("POST on the root", (http, hal) -> http.request("POST", "/").json("{}"), null, 405));
    }

    static Stream<Arguments> cases() {
        List<Arguments> arguments = new ArrayList<>();
        for (String variant : ContractManifest.all()) { // every variant in benchmarks.json
            for (Hostile hostile : rows()) {
                arguments.add(Arguments.of(variant, hostile));
            }
        }
        return arguments.stream();
    }

    /** Every variant × every generated framing case ({@link HttpEdge#cases}). */
    static Stream<Arguments> framings() {
        List<HttpEdge.Case> generated = HttpEdge.cases();
        return ContractManifest.all().stream().flatMap(variant -> generated.stream()
                .map(edgeCase -> Arguments.of(variant, edgeCase)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("framings")
    void refusesOrClosesOnMalformedFraming(String variant, HttpEdge.Case edgeCase) {
        URI base = ContractEnvironment.service(variant).baseUri();
        if (WARMED.add(variant)) {
            // A service's first request (Spring initialises its dispatcher then, C1-only JVMs are slow to start)
            // took more than 5 s on the loaded box: a cold start, not a held connection. Answered before the clock.
            assertThat(new Http(base).get("/items/1").status()).as(variant).isEqualTo(200);
        }
        HttpEdge.Observation observed = HttpEdge.exchange(variant, base, edgeCase);
        assertThat(observed.failure()).as("%s: %s: statuses %s, closed %s after %d ms; read: %s", variant, edgeCase,
                observed.statuses(), observed.closed(), observed.closeMillis(), observed.head()).isEmpty();
    }

    /** What each variant answered to each framing, for docs/results (measured, not typed). */
    @AfterAll
    static void writeFramingReport() {
        HttpEdge.report(ContractEnvironment.OUTPUT);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void neverAnswersWithA5xx(String variant, Hostile hostile) {
        boolean hal = ContractManifest.isHal(variant);
        Http http = new Http(ContractEnvironment.service(variant).baseUri());
        Http.Response response = hostile.exchange().apply(http, hal);
        assertThat(response.status()).as("%s: %s", variant, response).isLessThan(500);
        if (hostile.statusLines() != null) {
            List<Integer> statuses = Http.statusLines(response.body());
            assertThat(hostile.statusLines().test(statuses)).as("%s: status lines %s of %s", variant, statuses,
                    response).isTrue();
        }
        Integer expected = hal ? hostile.hal() : hostile.plain();
        if (expected != null) {
            assertThat(response.status()).as("%s: %s", variant, response).isEqualTo(expected);
        }
        // Error bodies in the dialect's error media types (the container's own 400s were application/json or HTML).
        if (response.status() >= 400 && !response.method().equals("RAW") && !response.body().isEmpty()) {
            assertThat(response.mediaType()).as("%s: %s", variant, response)
                    .isIn(hal ? List.of("application/problem+json", "application/json")
                            : List.of("application/problem+json"));
        }
    }
}
