package io.ghostguard.orders;

import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ghostguard.devredis.RedisServerProcess;
import io.ghostguard.support.Await;
import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.tenant.Keyspace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(ReplicaAcknowledgementTest.OneReplica.class)
@QuarkusTestResource(RedisTestResource.class)
class ReplicaAcknowledgementTest {

    @InjectRedis
    TestRedis redis;

    /** Requires one replica acknowledgement before an order is confirmed. */
    public static class OneReplica implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("orders.redis.min-replica-acks", "1", "orders.redis.replica-ack-timeout", "PT2S");
        }
    }

    @Test
    void orderIsConfirmedOnlyOnceAReplicaHasIt() throws InterruptedException {
        String sku = unique("durable");
        stock(sku, 10, 100);
        String key = unique("key");
        String body = orderBody("c-durable", sku, 1, "tok_ok");

        given().contentType("application/json").header("Idempotency-Key", key).body(body).post("/api/v1/orders")
            .then().statusCode(503)
            .header("Retry-After", notNullValue())
            .body("type", endsWith("/idempotency-store-unavailable"))
            .body("detail", containsString("may have been applied"));

        assertEquals("+OK", redis.command("CONFIG", "SET", "repl-diskless-sync-delay", "0"));
        try (RedisServerProcess server = redis.startReplica()) {
            TestRedis replica = new TestRedis(server);
            awaitSync(replica);
            // The retry gets the result of the unacknowledged attempt: no second order, no second charge.
            String id = given().contentType("application/json").header("Idempotency-Key", key).body(body)
                .post("/api/v1/orders").then().statusCode(201).header("Idempotent-Replayed", "true")
                .extract().jsonPath().getString("id");
            assertEquals(9, available(sku));
            given().queryParam("orderId", id).get("/api/v1/payments").then().body("items.size()", equalTo(1));
            String fresh = given().contentType("application/json").header("Idempotency-Key", unique("key"))
                .body(body).post("/api/v1/orders").then().statusCode(201).extract().jsonPath().getString("id");
            assertEquals(":1", replica.command("EXISTS", TestKeys.key(Keyspace.ORDER, fresh)));
        }
    }

    /** Waits until a write made now on the primary is visible on the replica: the full sync is over. */
    private void awaitSync(TestRedis replica) throws InterruptedException {
        String marker = unique("sync");
        redis.command("SET", marker, "1");
        Await.until(() -> "the replica has the primary's writes; last role " + replica.command("ROLE"),
            Duration.ofSeconds(10), () -> replica.command("EXISTS", marker).equals(":1"));
    }
}
