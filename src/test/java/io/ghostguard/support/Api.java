package io.ghostguard.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/** Small request helpers shared by the HTTP tests. */
public final class Api {

    private Api() {
    }

    /**
     * Port of the management interface (health and metrics) in tests: 9001, or {@code -Dghostguard.test.management-port}
     * when another build on the same machine holds it.
     */
    public static final int MANAGEMENT_PORT = Integer.getInteger("ghostguard.test.management-port", 9001);

    /** A request of the default test caller (see {@link Tokens}): every scope, tenant {@code default}. */
    public static RequestSpecification given() {
        return as(Tokens.defaultToken());
    }

    /** A request carrying the given bearer token. */
    public static RequestSpecification as(String token) {
        return RestAssured.given().auth().oauth2(token);
    }

    /** A request without any credential. */
    public static RequestSpecification anonymous() {
        return RestAssured.given();
    }

    /** A request to the management interface, where health and metrics live. */
    public static RequestSpecification management() {
        return RestAssured.given().port(MANAGEMENT_PORT);
    }

    /** A fresh id, safe as SKU, customer id or reference. */
    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
    }

    /** A JSON request with an Idempotency-Key that is new every call. */
    public static RequestSpecification json() {
        return given().contentType(ContentType.JSON).header("Idempotency-Key", UUID.randomUUID().toString());
    }

    /** A JSON request with the given Idempotency-Key. */
    public static RequestSpecification withKey(String key) {
        return given().contentType(ContentType.JSON).header("Idempotency-Key", key);
    }

    /** Sends {@code count} requests at once (released together by a latch) and returns every response. */
    public static List<Response> concurrently(int count, Supplier<Response> request) throws InterruptedException {
        List<Response> responses = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    responses.add(request.get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(60_000);
        }
        return responses;
    }

    /**
     * Sets stock and price of a SKU in EUR, whatever was there: created without a precondition, or replaced with
     * {@code If-Match: *} when a record exists (428).
     */
    public static void stock(String sku, long available, long unitPrice) {
        stockAs(Tokens.defaultToken(), sku, available, unitPrice);
    }

    /** {@link #stock} by the caller of {@code token} (a person, where unclaimed callers have small write quotas). */
    public static void stockAs(String token, String sku, long available, long unitPrice) {
        Map<String, Object> body = Map.of("available", available, "unitPrice", unitPrice, "currency", "EUR");
        int created = as(token).contentType(ContentType.JSON).body(body).put("/api/v1/inventory/" + sku).statusCode();
        if (created == 428) {
            as(token).contentType(ContentType.JSON).header("If-Match", "*").body(body).put("/api/v1/inventory/" + sku)
                .then().statusCode(200);
        } else {
            assertEquals(200, created, "stock of " + sku);
        }
    }

    /** The service's metrics, parsed. */
    public static PrometheusText metrics() {
        return PrometheusText.parse(management().get("/q/metrics").then().statusCode(200).extract().asString());
    }

    /** The JSON body of a one-line order in EUR. */
    public static String orderBody(String customer, String sku, int quantity, String token) {
        return OrderRequest.order().customer(customer).line(sku, quantity).token(token).json();
    }

    /** Places a one-line order with a fresh idempotency key. */
    public static Response place(String customer, String sku, int quantity) {
        return json().body(orderBody(customer, sku, quantity, "tok_ok")).post("/api/v1/orders");
    }

    /** Available quantity of a SKU. */
    public static long available(String sku) {
        return given().get("/api/v1/inventory/" + sku).then().statusCode(200).extract().jsonPath().getLong("available");
    }
}
