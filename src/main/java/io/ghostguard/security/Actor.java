package io.ghostguard.security;

import io.ghostguard.tenant.TenantId;

/** Who acts in a request: the tenant it acts for and the authenticated principal within that tenant. */
public record Actor(TenantId tenant, String principal) {
}
