package io.ghostguard.orders;

import static io.ghostguard.support.Api.as;
import static io.ghostguard.support.Api.available;
import static io.ghostguard.support.Api.concurrently;
import static io.ghostguard.support.Api.json;
import static io.ghostguard.support.Api.orderBody;
import static io.ghostguard.support.Api.place;
import static io.ghostguard.support.Api.stock;
import static io.ghostguard.support.Api.unique;
import static io.ghostguard.support.Api.withKey;
import static io.ghostguard.support.Api.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ghostguard.support.InjectRedis;
import io.ghostguard.support.OrderRequest;
import io.ghostguard.support.RedisTestResource;
import io.ghostguard.support.TestKeys;
import io.ghostguard.support.TestRedis;
import io.ghostguard.support.Tokens;
import io.ghostguard.tenant.Keyspace;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(RedisTestResource.class)
class OrderApiTest {

    @InjectRedis
    TestRedis redis;

    @Test
    void placedOrderIsPricedFromStockAndChargedOnce() {
        String sku = unique("mug");
        stock(sku, 10, 1250);
        String customer = unique("cust");

        Response placed = place(customer, sku, 3);
        placed.then().statusCode(201)
            .header("Location", endsWith("/api/v1/orders/" + placed.jsonPath().getString("id")))
            .body("status", equalTo("CONFIRMED"))
            .body("customerId", equalTo(customer))
            .body("items[0].sku", equalTo(sku))
            .body("items[0].quantity", equalTo(3))
            .body("items[0].unitPrice", equalTo(1250))
            .body("items[0].lineTotal", equalTo(3750))
            .body("total", equalTo(3750))
            .body("currency", equalTo("EUR"))
            .body("paymentId", startsWith("pay_"))
            .body("clientReference", nullValue())
            .body("createdAt", notNullValue());
        String id = placed.jsonPath().getString("id");

        assertEquals(7, available(sku));
        given().get("/api/v1/orders/" + id).then().statusCode(200).body("id", equalTo(id)).body("total", equalTo(3750));
        given().queryParam("orderId", id).get("/api/v1/payments").then().statusCode(200)
            .body("items", hasSize(1))
            .body("items[0].type", equalTo("CHARGE"))
            .body("items[0].amount", equalTo(3750))
            .body("items[0].orderId", equalTo(id))
            .body("nextCursor", nullValue());
    }

    @Test
    void insufficientStockIsRejectedAndChangesNothing() {
        String sku = unique("lamp");
        stock(sku, 2, 500);
        place(unique("cust"), sku, 3).then().statusCode(409)
            .contentType("application/problem+json")
            .body("type", endsWith("/insufficient-stock"))
            .body("sku", equalTo(sku))
            .body("available", equalTo(2));
        assertEquals(2, available(sku));
    }

    @Test
    void unknownSkuIsInsufficientStock() {
        place(unique("cust"), unique("ghost"), 1).then().statusCode(409).body("type", endsWith("/insufficient-stock"));
    }

    @Test
    void multiLineOrderIsAllOrNothing() {
        String plenty = unique("plenty");
        String scarce = unique("scarce");
        stock(plenty, 10, 100);
        stock(scarce, 1, 100);
        json().body(OrderRequest.order().line(plenty, 5).line(scarce, 2).json())
            .post("/api/v1/orders").then().statusCode(409).body("sku", equalTo(scarce));
        assertEquals(10, available(plenty));
        assertEquals(1, available(scarce));
    }

    @Test
    void declinedPaymentLeavesStockAndLedgerUntouched() {
        String sku = unique("chair");
        String customer = unique("cust");
        stock(sku, 5, 900);
        json().body(orderBody(customer, sku, 1, "tok_declined")).post("/api/v1/orders")
            .then().statusCode(402).body("type", endsWith("/payment-declined"));
        assertEquals(5, available(sku));
        given().queryParam("customerId", customer).get("/api/v1/orders").then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void currencyMismatchIsRejected() {
        String sku = unique("usd");
        given().contentType("application/json").body(Map.of("available", 3, "unitPrice", 10, "currency", "USD"))
            .put("/api/v1/inventory/" + sku).then().statusCode(200);
        place(unique("cust"), sku, 1).then().statusCode(422).body("type", endsWith("/currency-mismatch"));
        assertEquals(3, available(sku));
    }

    @Test
    void cancellationRestocksAndRefundsExactlyOnce() {
        String sku = unique("desk");
        stock(sku, 4, 2000);
        String id = place(unique("cust"), sku, 3).then().statusCode(201).extract().jsonPath().getString("id");
        assertEquals(1, available(sku));

        json().post("/api/v1/orders/" + id + "/cancellation").then().statusCode(200).body("status", equalTo("CANCELLED"));
        json().post("/api/v1/orders/" + id + "/cancellation").then().statusCode(200).body("status", equalTo("CANCELLED"));

        assertEquals(4, available(sku));
        given().queryParam("orderId", id).get("/api/v1/payments").then().statusCode(200)
            .body("items", hasSize(2))
            .body("items[1].type", equalTo("REFUND"))
            .body("items[1].amount", equalTo(6000));
    }

    @Test
    void cancellingAnUnknownOrderIs404() {
        json().post("/api/v1/orders/ord_missing/cancellation").then().statusCode(404).body("type", endsWith("/not-found"));
    }

    @Test
    void clientReferenceReusedWithOtherContentConflictsAndRevealsNothing() {
        String sku = unique("ref-sku");
        stock(sku, 10, 300);
        String reference = unique("ref");
        String id = json().body(OrderRequest.order().customer("c-first").line(sku, 1).reference(reference).json())
            .post("/api/v1/orders").then().statusCode(201).extract().jsonPath().getString("id");

        for (OrderRequest other : List.of(
            OrderRequest.order().customer("c-second").line(sku, 1).reference(reference),
            OrderRequest.order().customer("c-first").line(sku, 2).reference(reference))) {
            Response conflict = json().body(other.json()).post("/api/v1/orders");
            conflict.then().statusCode(409).contentType("application/problem+json")
                .body("type", endsWith("/client-reference-conflict"));
            assertTrue(!conflict.asString().contains(id) && !conflict.asString().contains("c-first"),
                "the conflict reveals nothing of the existing order: " + conflict.asString());
        }
        assertEquals(9, available(sku));
        json().body(OrderRequest.order().customer("c-first").line(sku, 1).reference(reference).token("tok_other").json())
            .post("/api/v1/orders").then().statusCode(200).body("id", equalTo(id));
    }

    @Test
    void anAnswerCarryingTheOrderIsTheSameBytesAsReadingItAndAsItsRecord() {
        String sku = unique("bytes");
        stock(sku, 10, 300);
        String body = OrderRequest.order().customer("c").line(sku, 2).reference(unique("ref")).json();
        Response created = json().body(body).post("/api/v1/orders");
        created.then().statusCode(201).contentType("application/json");
        String placed = created.asString();
        String id = JsonPath.from(placed).getString("id");
        assertEquals(given().get("/api/v1/orders/" + id).then().statusCode(200).extract().asString(), placed);
        assertEquals(placed, redis.command("GET", TestKeys.key(Keyspace.ORDER, id)), "the body is the stored record");

        json().post("/api/v1/orders/" + id + "/cancellation").then().statusCode(200);
        String cancelled = placed.replace("\"CONFIRMED\"", "\"CANCELLED\"");
        assertEquals(cancelled, redis.command("GET", TestKeys.key(Keyspace.ORDER, id)), "only the status changed in place");
        assertEquals(cancelled, given().get("/api/v1/orders/" + id).then().statusCode(200).extract().asString());
        assertEquals(cancelled, json().body(body).post("/api/v1/orders").then().statusCode(200).extract().asString(),
            "the natural key's answer is the cancelled order as read");

        String withoutReference = json().body(OrderRequest.order().customer("c").line(sku, 1).json())
            .post("/api/v1/orders").then().statusCode(201).body("clientReference", nullValue()).extract().asString();
        assertEquals(given().get("/api/v1/orders/" + JsonPath.from(withoutReference).getString("id")).then()
            .statusCode(200).extract().asString(), withoutReference);
    }

    @Test
    void clientReferenceIsANaturalKey() {
        String sku = unique("book");
        stock(sku, 10, 300);
        String reference = unique("ref");
        String body = OrderRequest.order().customer("c").line(sku, 1).reference(reference).json();
        String first = json().body(body).post("/api/v1/orders").then().statusCode(201)
            .body("clientReference", equalTo(reference)).extract().jsonPath().getString("id");
        String second = json().body(body).post("/api/v1/orders").then().statusCode(200)
            .extract().jsonPath().getString("id");
        assertEquals(first, second);
        assertEquals(9, available(sku));
    }

    @Test
    void concurrentOrdersNeverOversell() throws Exception {
        String sku = unique("hot");
        int stock = 7;
        int buyers = 24;
        stock(sku, stock, 100);
        List<Integer> statuses = concurrently(buyers, () -> place(unique("cust"), sku, 1)).stream()
            .map(Response::statusCode).toList();
        assertEquals(buyers, statuses.size());
        assertEquals(stock, statuses.stream().filter(s -> s == 201).count());
        assertEquals(buyers - stock, statuses.stream().filter(s -> s == 409).count());
        assertEquals(0, available(sku));
    }

    @Test
    void listIsNewestFirstWithCursorPaging() {
        String sku = unique("pen");
        stock(sku, 50, 10);
        String customer = unique("pager");
        List<String> placed = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            placed.add(place(customer, sku, 1).then().statusCode(201).extract().jsonPath().getString("id"));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = given().queryParam("customerId", customer).queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            var page = request.get("/api/v1/orders").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("items.id", String.class));
            cursor = page.getString("nextCursor");
            pages++;
        } while (cursor != null && pages < 10);
        assertEquals(3, pages);
        List<String> newestFirst = new ArrayList<>(placed);
        java.util.Collections.reverse(newestFirst);
        assertEquals(newestFirst, seen);
    }

    @Test
    void forgedCursorIsRejected() {
        given().queryParam("cursor", "bm90LW91cnM").get("/api/v1/orders").then().statusCode(400)
            .body("violations[0].field", equalTo("cursor"));
        // The old unsigned form, re-encoded by a client at another position.
        given().queryParam("cursor", Base64.getUrlEncoder().withoutPadding().encodeToString("o:1".getBytes(
            StandardCharsets.US_ASCII))).get("/api/v1/orders").then().statusCode(400);
    }

    @Test
    void aCursorCannotBeAlteredOrTakenToAnotherQueryOrTenant() {
        String sku = unique("cursor");
        stock(sku, 10, 100);
        String customer = unique("c");
        for (int i = 0; i < 3; i++) {
            place(customer, sku, 1).then().statusCode(201);
        }
        String cursor = given().queryParam("customerId", customer).queryParam("limit", 1).get("/api/v1/orders").then()
            .statusCode(200).extract().jsonPath().getString("nextCursor");
        given().queryParam("customerId", customer).queryParam("cursor", cursor).get("/api/v1/orders").then()
            .statusCode(200);
        byte[] bytes = Base64.getUrlDecoder().decode(cursor);
        bytes[7] ^= 1;
        String altered = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        given().queryParam("customerId", customer).queryParam("cursor", altered).get("/api/v1/orders").then()
            .statusCode(400).body("violations[0].field", equalTo("cursor"));
        given().queryParam("customerId", unique("other")).queryParam("cursor", cursor).get("/api/v1/orders").then()
            .statusCode(400);
        given().queryParam("cursor", cursor).get("/api/v1/orders").then().statusCode(400);
        as(Tokens.token().tenant("another-tenant").sign()).queryParam("customerId", customer)
            .queryParam("cursor", cursor).get("/api/v1/orders").then().statusCode(400);
    }

    @Test
    void theBodyOfAPlacementIsTheSameBytesWhenPlacedReplayedAndRead() {
        String sku = unique("bytes");
        stock(sku, 10, 1250);
        String key = unique("key");
        String body = OrderRequest.order().customer(unique("cust")).line(sku, 2).reference(unique("ref")).json();
        String placed = withKey(key).body(body).post("/api/v1/orders").then().statusCode(201).extract().asString();
        String replayed = withKey(key).body(body).post("/api/v1/orders").then().statusCode(201)
            .header("Idempotent-Replayed", "true").extract().asString();
        String id = JsonPath.from(placed).getString("id");
        String read = given().get("/api/v1/orders/" + id).then().statusCode(200).extract().asString();
        assertEquals(placed, replayed, "a replay is the stored response, byte for byte");
        assertEquals(read, placed, "the stored order record is the API's JSON, so placing and reading agree");
    }

    @Test
    void storedRecordsWithFieldsThisVersionDoesNotKnowAreStillRead() {
        String sku = unique("newer");
        stock(sku, 10, 100);
        String orderId = place("c-newer", sku, 1).then().statusCode(201).extract().jsonPath().getString("id");
        // A newer version (during a rolling update) wrote a field this one does not know, in the order and the ledger.
        String order = TestKeys.key(Keyspace.ORDER, orderId);
        redis.command("EVAL", "local r = redis.call('GET', KEYS[1]) "
            + "return redis.call('SET', KEYS[1], string.sub(r, 1, -2) .. ',\"fieldOfANewerVersion\":1}', 'KEEPTTL')",
            "1", order);
        redis.command("RPUSH", TestKeys.key(Keyspace.LEDGER, orderId), "{\"id\":\"le_newer\",\"orderId\":\"" + orderId
            + "\",\"type\":\"REFUND\",\"amount\":100,\"currency\":\"EUR\",\"createdAt\":\"2026-01-01T00:00:00Z\","
            + "\"providerReference\":\"re_x\",\"fieldOfANewerVersion\":1}");
        given().get("/api/v1/orders/" + orderId).then().statusCode(200).body("id", equalTo(orderId));
        given().queryParam("orderId", orderId).get("/api/v1/payments").then().statusCode(200)
            .body("items", hasSize(2));
    }
}
