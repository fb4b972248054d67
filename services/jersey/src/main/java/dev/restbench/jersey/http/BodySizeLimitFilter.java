package dev.restbench.jersey.http;

import jakarta.annotation.Priority;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Refuses bodies above MAX_BODY_BYTES with 413 before they are read: at once when Content-Length says so, and
 * while streaming for chunked bodies, so an oversized body is never buffered.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public final class BodySizeLimitFilter implements ContainerRequestFilter {

    private final long maxBodyBytes;

    public BodySizeLimitFilter(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void filter(ContainerRequestContext request) throws IOException {
        String contentLength = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        if (contentLength != null) {
            // With a Content-Length the server reads exactly that many bytes: checking the header is enough.
            if (declaredLength(contentLength) > maxBodyBytes) {
                throw new BodyTooLargeException(maxBodyBytes);
            }
        } else if (request.getHeaderString("Transfer-Encoding") != null) {
            request.setEntityStream(new LimitedInputStream(request.getEntityStream(), maxBodyBytes));
        }
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            throw new BadRequestException("invalid Content-Length '" + header + "'");
        }
    }

    /** Fails as soon as more than {@code limit} bytes have been read. */
    private static final class LimitedInputStream extends FilterInputStream {

        private final long limit;
        private long count;

        LimitedInputStream(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        private void counted(int n) throws BodyTooLargeException {
            count += n;
            if (count > limit) {
                throw new BodyTooLargeException(limit);
            }
        }
    }
}
