package io.ghostguard.config;

import io.ghostguard.orders.Order;
import io.ghostguard.orders.OrderLine;
import io.ghostguard.payments.LedgerEntry;
import io.ghostguard.problem.Problem;
import io.ghostguard.problem.Violation;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types that Jackson reads or writes without the REST layer seeing them statically (records stored as
 * JSON in Redis, problem documents built at run time); a native image needs their reflection metadata.
 */
@RegisterForReflection(targets = {Order.class, OrderLine.class, LedgerEntry.class, Problem.class, Violation.class})
public final class NativeReflection {

    private NativeReflection() {
    }
}
