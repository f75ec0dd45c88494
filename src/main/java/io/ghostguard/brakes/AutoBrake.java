package io.ghostguard.brakes;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.ghostguard.caller.CallerClassification;
import io.ghostguard.caller.CallerType;
import io.ghostguard.security.Access;
import io.ghostguard.security.Actor;
import io.ghostguard.telemetry.LogText;
import io.ghostguard.tenant.TenantId;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The automatic brake (docs/runbooks/brakes.md): a principal whose refusals (400 schema violations, 409 in progress,
 * 422 key reuse,
 * 429) reach {@code orders.brakes.auto.<caller-type>.refusals} within {@code .window} is braked for
 * {@code .cool-down} by itself ({@code setBy = auto}), like a manual brake: logged, counted, alerted, and held by
 * every instance within a second. The counting is local to the instance that answered the refusals, in memory
 * (no Redis call: a schema violation never reaches Redis, and the rest are decided from what the gate's own scripts
 * answered), bounded in entries; only the brake itself is written, once. Behind N instances a principal's refusals
 * spread, so each instance brakes at its own count. Built at start, so a setting for a caller type that does not
 * exist stops the start instead of failing the first refusal.
 */
@Startup
@ApplicationScoped
public class AutoBrake {

    private static final Logger LOG = Logger.getLogger(AutoBrake.class);
    /** Who set an automatic brake. */
    static final String AUTO = "auto";
    private static final int PRINCIPALS = 100_000;

    private final Brakes brakes;
    private final Map<CallerType, BrakesConfig.AutoBrake> settings = new EnumMap<>(CallerType.class);
    private final Cache<String, Window> windows;

    /** Refusals of one principal since its window began. */
    private record Window(long startNanos, AtomicInteger refusals) {
    }

    public AutoBrake(Brakes brakes, BrakesConfig config) {
        this.brakes = brakes;
        Duration longest = Duration.ofSeconds(1);
        for (Map.Entry<String, BrakesConfig.AutoBrake> entry : config.auto().entrySet()) {
            CallerType type = CallerType.parse(entry.getKey()).filter(parsed -> parsed.label().equals(entry.getKey()))
                .orElseThrow(() -> new io.quarkus.runtime.configuration.ConfigurationException("orders.brakes.auto."
                    + entry.getKey() + ": automatic brakes are set per caller type: human, agent, mcp or unknown"));
            settings.put(type, entry.getValue());
            if (entry.getValue().window().compareTo(longest) > 0) {
                longest = entry.getValue().window();
            }
        }
        this.windows = Caffeine.newBuilder().maximumSize(PRINCIPALS).expireAfterWrite(longest).build();
    }

    /**
     * Counts one refusal of a principal known by its verified tenant, {@code sub} and tier, before any identity was
     * built for the request (admission control: a request that came back before the Retry-After it was given).
     */
    public void refused(TenantId tenant, String principal, CallerType tier) {
        refused(new Access(new Actor(tenant, principal), new CallerClassification(tier, null), tier, null));
    }

    /**
     * Counts one refusal of a caller; brakes its principal when its refusals reach the threshold of its verified tier
     * (the token's {@code caller_type} claim, else the surface; never the label a User-Agent can move).
     */
    public void refused(Access access) {
        BrakesConfig.AutoBrake setting = settings.get(access.tier());
        if (setting == null || !setting.enabled()) {
            return;
        }
        BrakeScope scope = BrakeScope.principalOf(access);
        if (brakes.holds(scope)) {
            // Under a brake already (an operator's is never replaced by an automatic one): nothing to count.
            return;
        }
        long now = System.nanoTime();
        Window window = windows.asMap().compute(scope.text(), (key, current) ->
            current == null || now - current.startNanos() > setting.window().toNanos()
                ? new Window(now, new AtomicInteger()) : current);
        if (window.refusals().incrementAndGet() != setting.refusals()) {
            return;
        }
        String reason = setting.refusals() + " refusals within " + setting.window().toSeconds() + " s";
        brakes.setAutomatically(scope, reason, setting.coolDown()).subscribe().with(
            set -> {
                if (set.outcome() == Brakes.Outcome.DONE) {
                    LOG.warnf("automatic brake: %s callers' principal of tenant %s braked for %d s after %s: scope=%s",
                        access.tier().label(), access.actor().tenant().value(), setting.coolDown().toSeconds(), reason,
                        LogText.escape(scope.text()));
                }
            },
            failure -> {
                // Counted again from zero: the next run of refusals tries again.
                windows.invalidate(scope.text());
                LOG.warn("automatic brake could not be stored; the principal's refusals are counted again");
            });
    }
}
