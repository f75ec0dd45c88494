package io.ghostguard.orders;

import io.ghostguard.domain.OperationKey;
import io.ghostguard.domain.SpendLimit;
import io.ghostguard.redis.ScriptCommit;
import io.ghostguard.tenant.TenantId;

/**
 * One placement as the use case takes it, whichever surface asked.
 *
 * @param tenant the tenant the order belongs to
 * @param order what to place and how to pay
 * @param operation the natural key of the call (null: none, the call is unprotected)
 * @param spend the caller's spend cap (null: limits off)
 * @param commit the claimed answer the placing script stores with the order (null: nothing to store)
 */
public record PlaceOrderCommand(TenantId tenant, PlaceOrder order, OperationKey operation, SpendLimit spend,
                                ScriptCommit commit) {
}
