package io.ghostguard.orders.app;

import io.ghostguard.input.InvalidInputException;
import io.ghostguard.input.Violation;
import io.ghostguard.tenant.TenantId;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.logging.Logger;

/**
 * List cursors clients cannot forge or alter: the position of the last returned order and an HMAC-SHA256 tag over
 * it, the tenant and the query (the customer filter), with the key of {@code orders.paging.cursor-key}. A cursor
 * made up, edited, taken to another tenant or to another query is refused as invalid input (400).
 */
@ApplicationScoped
public class Cursors {

    private static final Logger LOG = Logger.getLogger(Cursors.class);
    private static final String ALGORITHM = "HmacSHA256";
    private static final int TAG_BYTES = 12;
    private static final Violation FORGED = new Violation("cursor", "must be a cursor from nextCursor", "Cursor");

    private final SecretKeySpec key;

    public Cursors(PagingConfig paging) {
        byte[] secret = paging.cursorKey().map(text -> text.getBytes(StandardCharsets.UTF_8)).orElseGet(() -> {
            LOG.warn("orders.paging.cursor-key is not set: list cursors are signed with a key of this instance only, "
                + "so a cursor from another instance is refused; set one shared key for every instance");
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            return random;
        });
        this.key = new SecretKeySpec(secret, ALGORITHM);
    }

    /** The cursor after {@code position} (null stays null) for this tenant and query. */
    public String encode(TenantId tenant, String customerId, Long position) {
        if (position == null) {
            return null;
        }
        ByteBuffer cursor = ByteBuffer.allocate(Long.BYTES + TAG_BYTES);
        cursor.putLong(position).put(tag(tenant, customerId, position));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor.array());
    }

    /** The position a request's cursor names (null for the first page); refused when this service did not issue it. */
    public Long before(TenantId tenant, String customerId, String cursor) {
        if (cursor == null) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException notBase64) {
            throw new InvalidInputException(List.of(FORGED));
        }
        if (bytes.length != Long.BYTES + TAG_BYTES) {
            throw new InvalidInputException(List.of(FORGED));
        }
        ByteBuffer read = ByteBuffer.wrap(bytes);
        long position = read.getLong();
        byte[] tag = Arrays.copyOfRange(bytes, Long.BYTES, bytes.length);
        if (position < 0 || !MessageDigest.isEqual(tag, tag(tenant, customerId, position))) {
            throw new InvalidInputException(List.of(FORGED));
        }
        return position;
    }

    private byte[] tag(TenantId tenant, String customerId, long position) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            byte[] full = mac.doFinal(String.join("\u0000", "v1", tenant.value(), customerId == null ? "" : customerId,
                Long.toString(position)).getBytes(StandardCharsets.UTF_8));
            return Arrays.copyOf(full, TAG_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
