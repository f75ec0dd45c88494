package io.ghostguard.input;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.RedisTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An answer given before a body was read, to a request that is not authenticated (no token at all, or one over the
 * size limit), ends its connection: the client cannot go on pushing the body it started into the service.
 */
@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class UnreadBodiesTest {

    private static final byte[] CHUNK = ("1F40\r\n" + " ".repeat(8000) + "\r\n").getBytes(StandardCharsets.US_ASCII);

    /**
     * Sends the head, then keeps sending body bytes (at most 64 MB, 20 s) and reads the answer; true when the server
     * closed the connection within that bound.
     */
    private static boolean closedWhileSending(String head, byte[] piece, StringBuilder answer) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(50);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            long deadline = System.nanoTime() + 20_000_000_000L;
            byte[] buffer = new byte[4096];
            for (long sent = 0; sent < 64L << 20 && System.nanoTime() < deadline; sent += piece.length) {
                try {
                    out.write(piece);
                    int read = in.read(buffer);
                    if (read < 0) {
                        return true;
                    }
                    answer.append(new String(Arrays.copyOf(buffer, read), StandardCharsets.US_ASCII));
                } catch (SocketTimeoutException nothingYet) {
                    // the server has not answered yet: go on sending
                } catch (IOException reset) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Sends the head and then body bytes; the answer has {@code status} and the server closes the connection. */
    private static void answeredAndClosed(String head, byte[] piece, String status) throws IOException {
        StringBuilder answer = new StringBuilder();
        boolean closed = closedWhileSending(head, piece, answer);
        assertTrue(closed, "the connection stayed open after: " + answer);
        assertTrue(answer.toString().startsWith("HTTP/1.1 " + status), answer.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/orders", "/mcp", "/no-such-path"})
    void aChunkedBodyWithoutATokenEndsItsConnectionWithTheRefusal(String path) throws IOException {
        answeredAndClosed("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Idempotency-Key: k1\r\nTransfer-Encoding: chunked\r\n\r\n", CHUNK, "40");
    }

    @Test
    void aRequestTheRouterRefusesEndsItsConnectionWithItsProblem() throws IOException {
        answeredAndClosed("POST /api/v1/orders HTTP/1.1\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n", CHUNK, "400");
    }

    @Test
    void aDeclaredBodyOverTheLimitEndsItsConnectionWithThe413() throws IOException {
        answeredAndClosed("POST /api/v1/orders HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: 100000000000\r\n\r\n", new byte[8000], "413");
    }
}
