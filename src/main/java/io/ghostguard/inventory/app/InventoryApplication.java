package io.ghostguard.inventory.app;

import io.ghostguard.api.Answer;
import io.ghostguard.idempotency.Ticket;
import io.ghostguard.inventory.InventoryService;
import io.ghostguard.inventory.StockItem;
import io.ghostguard.inventory.StockPrecondition;
import io.ghostguard.security.Access;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The inventory context's application service, the one piece of code between the gate and the stock domain for
 * every surface: the caller's tenant, the conditions of a replacement (RFC 9110 entity tags), the claimed answer
 * an adjustment's script stores, and every answer with the record's version as its entity tag.
 */
@ApplicationScoped
public class InventoryApplication {

    /** One entity tag of a list, with its separator: {@code W/"1", } or {@code "2"}. */
    private static final Pattern ENTITY_TAG = Pattern.compile("\\s*(W/)?\"([\\x21\\x23-\\x7E]*)\"\\s*(?:,|$)");

    private final InventoryService inventory;

    public InventoryApplication(InventoryService inventory) {
        this.inventory = inventory;
    }

    /** Stock and price of one SKU of the caller's tenant, tagged with its version. */
    public Uni<Answer> stock(Access access, String sku) {
        return inventory.stock(access.actor().tenant(), sku).map(InventoryApplication::tagged);
    }

    /**
     * Sets quantity and price of one SKU under the request's conditions: {@code ifMatch} and {@code ifNoneMatch}
     * as sent (absent, {@code *}, or a list of entity tags; If-Match compares strongly, If-None-Match weakly, a
     * malformed list matches nothing).
     */
    public Uni<Answer> setStock(Access access, String sku, SetStockRequest request, String ifMatch,
                                String ifNoneMatch) {
        boolean matchAny = ifMatch != null && "*".equals(ifMatch.strip());
        boolean noneMatchAny = ifNoneMatch != null && "*".equals(ifNoneMatch.strip());
        StockPrecondition precondition = new StockPrecondition(
            ifMatch == null || ifMatch.isBlank() || matchAny ? null : versions(ifMatch, true), matchAny,
            ifNoneMatch == null || ifNoneMatch.isBlank() || noneMatchAny ? null : versions(ifNoneMatch, false),
            noneMatchAny);
        return inventory.setStock(access.actor().tenant(),
                new StockItem(sku, request.available(), request.unitPrice(), request.currency(), 0), precondition)
            .map(InventoryApplication::tagged);
    }

    /** Adds a delta to one SKU's quantity, never below zero, under the gate's ticket (null: not keyed). */
    public Uni<Answer> adjust(Access access, Ticket ticket, String sku, AdjustStockRequest request) {
        return inventory.adjust(access.actor().tenant(), sku, request.delta(),
                ticket == null ? null : ticket.commitTagged())
            .map(InventoryApplication::tagged);
    }

    /** The versions an entity-tag list names; weak tags only when {@code strong} is false. */
    static Set<Long> versions(String list, boolean strong) {
        Set<Long> versions = new HashSet<>();
        Matcher tag = ENTITY_TAG.matcher(list);
        int end = 0;
        while (tag.find() && tag.start() == end) {
            end = tag.end();
            boolean weak = tag.group(1) != null;
            if ((!weak || !strong) && tag.group(2).matches("0|[1-9][0-9]{0,17}")) {
                versions.add(Long.parseLong(tag.group(2)));
            }
        }
        return end == list.length() ? versions : Set.of();
    }

    private static Answer tagged(StockItem item) {
        return new Answer(200, StockResponse.from(item), null, Long.toString(item.version()));
    }
}
