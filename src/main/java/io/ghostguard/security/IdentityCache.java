package io.ghostguard.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Identities of bearer tokens OIDC has verified, known by the SHA-256 of each token's exact characters (the token
 * itself is not kept): bounded in entries and in estimated memory, never served before the token's {@code nbf}
 * nor at or after its {@code exp} (checked against the clock on every hit), and emptied when the signing keys
 * change. An entry also records the key generation it was verified under; one verified under keys that changed
 * while it was being verified is never served. Counts {@code identity_cache_requests_total{result="hit|miss"}},
 * {@code identity_cache_clears_total} (key changes) and {@code identity_cache_entries}.
 */
@Startup
@ApplicationScoped
public class IdentityCache {

    /** Lookups by result, {@code identity_cache_requests_total{result}}; result is {@code hit} or {@code miss}. */
    public static final String REQUESTS = "identity.cache.requests";
    /** Times the cache was emptied because signing keys changed, {@code identity_cache_clears_total}. */
    public static final String CLEARS = "identity.cache.clears";
    /** Identities held, {@code identity_cache_entries}. */
    public static final String ENTRIES = "identity.cache.entries";
    /** The label of {@link #REQUESTS}. */
    public static final String RESULT = "result";

    private static final Logger LOG = Logger.getLogger(IdentityCache.class);
    private static final long MIN_MEMORY = 1024;

    private final boolean enabled;
    private final Duration maxAge;
    private final Clock clock;
    private final Cache<TokenDigest, CachedIdentity> identities;
    private final AtomicLong generation = new AtomicLong();
    private final Map<String, TokenDigest> keySets = new ConcurrentHashMap<>();
    private final Counter hits;
    private final Counter misses;
    private final Counter clears;

    @Inject
    public IdentityCache(SecurityConfig config, MeterRegistry registry) {
        this(config.identityCache().enabled(), config.identityCache().maxEntries(),
            config.identityCache().maxMemory().asLongValue(), config.identityCache().maxAge(), registry,
            Clock.systemUTC(), Ticker.systemTicker(), ForkJoinPool.commonPool());
    }

    IdentityCache(boolean enabled, int maxEntries, long maxMemory, Duration maxAge, MeterRegistry registry, Clock clock,
                  Ticker ticker, Executor executor) {
        this.enabled = enabled;
        this.maxAge = maxAge;
        this.clock = clock;
        if (maxMemory < MIN_MEMORY) {
            throw new ConfigurationException("orders.security.identity-cache.max-memory must be at least 1K");
        }
        // One weight bounds both: every entry weighs at least its share of the memory, so no more than max-entries
        // fit, and a large token weighs what it takes, so together they never exceed max-memory.
        long share = Math.max(1, maxMemory / maxEntries);
        this.identities = Caffeine.newBuilder()
            .maximumWeight(maxMemory)
            .weigher((TokenDigest digest, CachedIdentity identity) -> (int) Math.min(Integer.MAX_VALUE,
                Math.max(share, identity.weight())))
            .expireAfter(new UntilExpiry(clock))
            .ticker(ticker)
            .executor(executor)
            .build();
        this.hits = registry.counter(REQUESTS, RESULT, "hit");
        this.misses = registry.counter(REQUESTS, RESULT, "miss");
        this.clears = registry.counter(CLEARS);
        Gauge.builder(ENTRIES, identities, Cache::estimatedSize).register(registry);
    }

    /** Whether identities are kept at all ({@code orders.security.identity-cache.enabled}). */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Who a bearer token names, when this exact token (by the SHA-256 of its characters) was verified before and its
     * identity would be served now; else null (never verified, forged, expired, or verified under signing keys that
     * changed). No signature is checked and nothing is counted: for admission control (docs/load.md), which decides before
     * authentication. Every later decision still uses the identity authentication builds.
     */
    public Verified verified(RoutingContext request, String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        CachedIdentity known = identities.getIfPresent(TokenDigest.of(request, token));
        return known == null || known.generation() != generation.get() || !known.servesAt(clock.millis()) ? null
            : known.verifiedCaller();
    }

    /**
     * The verified claims admission decides on: {@code tenant} (as {@link TokenClaims} accepts it), {@code sub},
     * {@code caller_type} ({@code human} or {@code agent}, else null), and a 64-bit digest of tenant and sub (the
     * first 64 bits of their SHA-256) that keys per-principal state.
     */
    public record Verified(String tenant, String subject, String callerType, long principal) {

        /** From the claims (or identity attributes) {@code tenant}, {@code sub}, {@code caller_type}; null if no one. */
        public static Verified of(Object tenant, Object subject, Object callerType) {
            if (!(tenant instanceof String t) || !TokenClaims.TENANT_PATTERN.matcher(t).matches()
                || !(subject instanceof String s) || s.isBlank()) {
                return null;
            }
            String type = "human".equals(callerType) || "agent".equals(callerType) ? (String) callerType : null;
            byte[] tenantBytes = t.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] subjectBytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] both = new byte[tenantBytes.length + 1 + subjectBytes.length];
            System.arraycopy(tenantBytes, 0, both, 0, tenantBytes.length);
            System.arraycopy(subjectBytes, 0, both, tenantBytes.length + 1, subjectBytes.length);
            return new Verified(t, s, type, TokenDigest.of(both).first());
        }

        @Override
        public String toString() {
            return "Verified[…]";
        }
    }

    /** The key generation now; read it before verifying a token and hand it to {@link #remember}. */
    public long generation() {
        return generation.get();
    }

    /**
     * The identity of a token verified before by OIDC tenant {@code tenant}, if it may be served now; else null
     * (a miss: the token must be verified).
     */
    CachedIdentity find(TokenDigest token, String tenant) {
        CachedIdentity known = identities.getIfPresent(token);
        if (known != null && known.generation() == generation.get() && known.tenant().equals(tenant)
            && known.servesAt(clock.millis())) {
            hits.increment();
            return known;
        }
        misses.increment();
        return null;
    }

    /**
     * Keeps what may be kept of {@code verified}, OIDC's identity of {@code token}, unless the signing keys changed
     * since {@code generationBefore} was read (it may have been verified with keys no longer trusted).
     */
    void remember(TokenDigest digest, TokenCredential token, SecurityIdentity verified, String principalClaim,
                  Duration tokenAge, long generationBefore) {
        if (generationBefore != generation.get()) {
            return;
        }
        CachedIdentity.of(verified, token, principalClaim, tokenAge, clock.millis(), maxAge, generationBefore)
            .ifPresent(identity -> identities.put(digest, identity));
    }

    /**
     * Records the key set an OIDC tenant just fetched (its JWKS document); when it differs from the one this tenant
     * had, every identity is dropped and {@code true} returned. The first key set of a tenant changes nothing: no
     * token of that tenant was verified before it.
     */
    public boolean keySetSeen(String tenant, byte[] keySet) {
        TokenDigest seen = TokenDigest.of(keySet);
        TokenDigest before = keySets.put(tenant, seen);
        if (before == null || before.equals(seen)) {
            return false;
        }
        LOG.infof("The signing keys of OIDC tenant %s changed: every cached identity is dropped", tenant);
        clears.increment();
        clear();
        return true;
    }

    /** Drops every identity and outdates verifications under way (their results are not kept). */
    public void clear() {
        generation.incrementAndGet();
        identities.invalidateAll();
    }

    /** Identities held now, after pending evictions. */
    long size() {
        identities.cleanUp();
        return identities.estimatedSize();
    }

    /** Each identity leaves the cache's memory when it stops being served (its token's exp, or the max age). */
    private static final class UntilExpiry implements Expiry<TokenDigest, CachedIdentity> {
        private final Clock clock;

        UntilExpiry(Clock clock) {
            this.clock = clock;
        }

        @Override
        public long expireAfterCreate(TokenDigest digest, CachedIdentity identity, long currentTime) {
            return TimeUnit.MILLISECONDS.toNanos(Math.max(0, identity.expiresAt() - clock.millis()));
        }

        @Override
        public long expireAfterUpdate(TokenDigest digest, CachedIdentity identity, long currentTime,
                                      long currentDuration) {
            return expireAfterCreate(digest, identity, currentTime);
        }

        @Override
        public long expireAfterRead(TokenDigest digest, CachedIdentity identity, long currentTime,
                                    long currentDuration) {
            return currentDuration;
        }
    }
}
