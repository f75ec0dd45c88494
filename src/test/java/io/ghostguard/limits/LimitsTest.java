package io.ghostguard.limits;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.concurrently;
import static io.ghostguard.support.Api.given;
import static io.ghostguard.support.Api.metrics;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.PrometheusText;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.SmallLimitsProfile;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a runaway caller can do is bounded: request rates, fresh keys and spending, per caller type. */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
@QuarkusTestResource(RedisTestResource.class)
class LimitsTest {

    @InjectRedis
    TestRedis redis;

    /** The sum of a counter's samples with these labels, now. */
    private static double count(String name, String... labels) {
        return metrics().series(name).stream().filter(sample -> sample.has(labels))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static RequestSpecification post(String token, String key, String body) {
        return as(token).contentType("application/json").header("Idempotency-Key", key).body(body);
    }

    @Test
    void aBurstOfAgentWritesPassesItsQuotaAndTheRestAre429WhileAPersonIsUnaffected() throws Exception {
        String sku = unique("burst");
        stock(sku, 1000, 10);
        String agent = Tokens.token().subject(unique("agent")).callerType("agent").sign();
        String human = Tokens.token().subject(unique("human")).callerType("human").sign();
        String body = OrderRequest.order().line(sku, 1).json();
        double limitedBefore = count("rate_limited_total", "policy", "writes", "caller_type", "agent");

        List<Response> burst = concurrently(40, () -> post(agent, unique("k"), body).post("/api/v1/orders"));
        List<Response> placed = burst.stream().filter(r -> r.statusCode() == 201).toList();
        List<Response> limited = burst.stream().filter(r -> r.statusCode() == 429).toList();
        assertEquals(SmallLimitsProfile.AGENT_WRITES, placed.size(), "exactly the quota passes");
        assertEquals(40 - SmallLimitsProfile.AGENT_WRITES, limited.size(), "the rest is refused");
        for (Response refused : limited) {
            refused.then().contentType("application/problem+json").body("type", endsWith("/rate-limited"))
                .header("Retry-After", matchesPattern("[1-9][0-9]*"))
                .header("RateLimit-Policy", equalTo("\"writes\";q=" + SmallLimitsProfile.AGENT_WRITES + ";w=3600"))
                .header("RateLimit", equalTo("\"writes\";r=0;t=" + refused.header("Retry-After")));
        }
        placed.get(0).then().header("RateLimit-Policy", notNullValue())
            .header("RateLimit", matchesPattern("\"writes\";r=[0-9]+;t=[0-9]+"));
        assertEquals(1000 - SmallLimitsProfile.AGENT_WRITES, available(sku), "nothing ran for the refused requests");

        for (int i = 0; i < 5; i++) {
            post(human, unique("k"), body).post("/api/v1/orders").then().statusCode(201);
        }
        assertEquals(limitedBefore + limited.size(), count("rate_limited_total", "policy", "writes", "caller_type",
            "agent"), "every refusal counted once");
    }

    @Test
    void aFloodOfFreshKeysIsCutAtTheBudgetButRetriesOfKnownKeysStillWork() {
        String sku = unique("flood");
        stock(sku, 100, 10);
        String flooder = Tokens.token().subject(unique("flooder")).sign();
        String body = OrderRequest.order().line(sku, 1).json();
        String firstKey = unique("k");
        post(flooder, firstKey, body).post("/api/v1/orders").then().statusCode(201);
        for (int i = 1; i < SmallLimitsProfile.FLOOD_KEYS; i++) {
            post(flooder, unique("k"), body).post("/api/v1/orders").then().statusCode(201);
        }
        Response overBudget = post(flooder, unique("k"), body).post("/api/v1/orders");
        overBudget.then().statusCode(429)
            .body("type", endsWith("/rate-limited")).body("policy", equalTo("new-keys"))
            .header("Retry-After", notNullValue())
            .header("RateLimit-Policy", startsWith("\"new-keys\";q=" + SmallLimitsProfile.FLOOD_KEYS + ";"))
            .header("RateLimit", equalTo("\"new-keys\";r=0;t=" + overBudget.header("Retry-After")));
        post(flooder, firstKey, body).post("/api/v1/orders").then().statusCode(201)
            .header("Idempotent-Replayed", "true");
        assertEquals(100 - SmallLimitsProfile.FLOOD_KEYS, available(sku));
    }

    @Test
    void theNewKeyWindowHasItsClockAndACounterThatLostItGetsItBackAtItsFirstRefusal() {
        String sku = unique("budget-clock");
        stock(sku, 100, 10);
        String body = OrderRequest.order().line(sku, 1).json();
        String opener = unique("opener");
        String openerCounter = TestKeys.key(Keyspace.NEW_KEYS, Limits.subject(opener));
        post(Tokens.token().subject(opener).sign(), unique("k"), body).post("/api/v1/orders").then().statusCode(201);
        assertEquals("1", redis.command("GET", openerCounter));
        assertTrue(pttl(openerCounter) > 0, "the key that opened the window started its clock");

        String clockless = unique("clockless");
        String token = Tokens.token().subject(clockless).sign();
        String counter = TestKeys.key(Keyspace.NEW_KEYS, Limits.subject(clockless));
        post(token, unique("k"), body).post("/api/v1/orders").then().statusCode(201);
        assertEquals(":1", redis.command("PERSIST", counter));
        for (int i = 1; i < SmallLimitsProfile.FLOOD_KEYS; i++) {
            post(token, unique("k"), body).post("/api/v1/orders").then().statusCode(201);
        }
        assertEquals(-1, pttl(counter), "later keys find the window's clock as it is");
        post(token, unique("k"), body).post("/api/v1/orders").then().statusCode(429).body("policy", equalTo("new-keys"));
        assertTrue(pttl(counter) > 0, "the first refusal gave the counter its clock back");
        assertEquals(Integer.toString(SmallLimitsProfile.FLOOD_KEYS), redis.command("GET", counter));
    }

    private long pttl(String key) {
        return Long.parseLong(redis.command("PTTL", key).substring(1));
    }

    @Test
    void theSpendCapHoldsForOneOrderAndForManyConcurrentOnes() throws Exception {
        String sku = unique("spend");
        stock(sku, 1000, 100);
        String spender = unique("spender");
        String human = Tokens.token().subject(spender).callerType("human").sign();

        String key = unique("k");
        String tooBig = OrderRequest.order().line(sku, 11).json();
        // Its total alone is over the cap: no window helps, so no retry time, and it says so.
        post(human, key, tooBig).post("/api/v1/orders").then().statusCode(429)
            .contentType("application/problem+json").body("type", endsWith("/spend-cap-exceeded"))
            .header("Retry-After", org.hamcrest.Matchers.nullValue()).body("retryable", equalTo(false));
        assertEquals(1000, available(sku), "nothing charged, nothing reserved");
        String spent = TestKeys.key(Keyspace.SPEND, "EUR:" + Limits.subject(spender));
        assertEquals(":0", redis.command("EXISTS", spent), "the refused charge left no counter behind");

        String one = OrderRequest.order().line(sku, 1).json();
        double cappedBefore = count("spend_capped_total", "caller_type", "human");
        List<Response> storm = concurrently(50, () -> post(human, unique("k"), one).post("/api/v1/orders"));
        long placed = storm.stream().filter(r -> r.statusCode() == 201).count();
        long capped = storm.stream().filter(r -> r.statusCode() == 429).count();
        assertEquals(SmallLimitsProfile.HUMAN_SPEND / 100, placed, "the cap buys exactly this many orders");
        assertEquals(50 - placed, capped);
        assertEquals(1000 - placed, available(sku), "charged at most the cap, never more");
        assertEquals(cappedBefore + capped, count("spend_capped_total", "caller_type", "human"),
            "every capped order counted once");
        assertEquals(Long.toString(placed * 100), redis.command("GET", spent), "a refused charge is taken back");
        assertTrue(Long.parseLong(redis.command("PTTL", spent).substring(1)) > 0, "the window has its clock");

        // Over the cap, the refusal is not stored: the key is released, and the same request goes through once
        // the window ends (here: its counter expires).
        String retried = unique("k");
        post(human, retried, one).post("/api/v1/orders").then().statusCode(429)
            .body("type", endsWith("/spend-cap-exceeded"));
        assertEquals(":1", redis.command("DEL", spent));
        post(human, retried, one).post("/api/v1/orders").then().statusCode(201)
            .header("Idempotent-Replayed", nullValue());
        assertEquals(1000 - placed - 1, available(sku));
    }

    @Test
    void readsAreLimitedResponsesCarryTheHeadersAndAStoreFailureFailsOpen() {
        String sku = unique("reads");
        stock(sku, 1, 1);
        given().get("/api/v1/inventory/" + sku).then().statusCode(200)
            .header("RateLimit-Policy", equalTo("\"reads\";q=1000;w=60"))
            .header("RateLimit", matchesPattern("\"reads\";r=[0-9]+;t=[0-9]+"));
        double before = metrics().find("rate_limiter_errors_total", s -> "reads".equals(s.label("policy")))
            .map(PrometheusText.Sample::value).orElse(0.0);
        assertEquals("+OK", redis.command(TestKeys.aclReachingOnly(Keyspace.INVENTORY, Keyspace.IDEMPOTENCY,
            Keyspace.NEW_KEYS, Keyspace.SPEND, Keyspace.ORDER, Keyspace.ORDER_INDEX, Keyspace.SEQUENCE, Keyspace.LEDGER,
            Keyspace.OPERATION_KEY, Keyspace.CLIENT_REFERENCE)));
        try {
            given().get("/api/v1/inventory/" + sku).then().statusCode(200).header("RateLimit", nullValue());
        } finally {
            assertEquals("+OK", redis.command("ACL", "SETUSER", "default", "allkeys"));
        }
        double after = metrics().find("rate_limiter_errors_total", s -> "reads".equals(s.label("policy")))
            .map(PrometheusText.Sample::value).orElse(0.0);
        assertEquals(before + 1, after, "the limiter's failure is counted");
    }
}
