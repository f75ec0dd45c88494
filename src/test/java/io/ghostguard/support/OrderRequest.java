package io.ghostguard.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the body of POST /orders for tests, valid unless a test changes it: customer {@code c1}, EUR,
 * {@code tok_ok}, no client reference, and the lines the test adds.
 */
public final class OrderRequest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private String customerId = "c1";
    private final List<Map<String, Object>> items = new ArrayList<>();
    private String currency = "EUR";
    private String paymentToken = "tok_ok";
    private String clientReference;

    private OrderRequest() {
    }

    /** A new order with defaults and no lines yet. */
    public static OrderRequest order() {
        return new OrderRequest();
    }

    /** Sets the customer. */
    public OrderRequest customer(String id) {
        this.customerId = id;
        return this;
    }

    /** Adds one line. */
    public OrderRequest line(String sku, int quantity) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("sku", sku);
        item.put("quantity", quantity);
        items.add(item);
        return this;
    }

    /** Sets the currency. */
    public OrderRequest currency(String code) {
        this.currency = code;
        return this;
    }

    /** Sets the payment token. */
    public OrderRequest token(String token) {
        this.paymentToken = token;
        return this;
    }

    /** Sets the client reference. */
    public OrderRequest reference(String reference) {
        this.clientReference = reference;
        return this;
    }

    /** The JSON body. */
    public String json() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("customerId", customerId);
        body.put("items", items);
        body.put("currency", currency);
        body.put("paymentToken", paymentToken);
        if (clientReference != null) {
            body.put("clientReference", clientReference);
        }
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
