package dev.restbench.datarest.web;

import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which IllegalArgumentExceptions are the client's: one thrown while SDR reads a text/uri-list body into links is a
 * 400; the same converter failing while it writes is the service's, a 500.
 */
class ErrorHandlingTest {

    private static final String CONVERTER = "org.springframework.data.rest.webmvc.convert.UriListHttpMessageConverter";

    /**
     * As the fuzzer's bad authority raised it: in Spring's URI parser, more than four frames below UriTemplate (so
     * only the converter's frame can tell), and below the converter's {@code method}.
     */
    private static IllegalArgumentException thrownBelow(String method) {
        IllegalArgumentException raised = new IllegalArgumentException("Illegal character in authority");
        raised.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("org.springframework.web.util.RfcUriParser$State", "handleNext", null, 1),
                new StackTraceElement("org.springframework.web.util.RfcUriParser$InternalParser", "parse", null, 1),
                new StackTraceElement("org.springframework.web.util.RfcUriParser", "parse", null, 1),
                new StackTraceElement("org.springframework.web.util.UriComponentsBuilder", "fromUriString", null, 1),
                new StackTraceElement("org.springframework.web.util.UriComponentsBuilder", "fromUriString", null, 1),
                new StackTraceElement("org.springframework.hateoas.UriTemplate", "<init>", null, 1),
                new StackTraceElement("org.springframework.hateoas.Link", "of", null, 1),
                new StackTraceElement("org.springframework.hateoas.Links", "parse", null, 1),
                new StackTraceElement(CONVERTER, method, "UriListHttpMessageConverter.java", 1),
        });
        return raised;
    }

    private static int status(IllegalArgumentException raised) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("PUT", "/items/1/category");
        ProblemDetail problem = new ErrorHandling().illegalArgument(raised, request, new MockHttpServletResponse());
        return problem.getStatus();
    }

    @Test
    void aUriListBodyThatIsNoUriIsTheClientsError() throws Exception {
        assertThat(status(thrownBelow("read"))).isEqualTo(400);
    }

    @Test
    void theConverterFailingWhileItWritesIsTheServicesError() throws Exception {
        assertThat(status(thrownBelow("write"))).isEqualTo(500);
        assertThat(status(new IllegalArgumentException("anything else"))).isEqualTo(500);
    }
}
