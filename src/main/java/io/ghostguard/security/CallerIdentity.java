package io.ghostguard.security;

import io.ghostguard.tenant.TenantId;

/** Who is calling: the tenant the request acts for and the authenticated principal within it. */
public record CallerIdentity(TenantId tenant, String principal) {
}
