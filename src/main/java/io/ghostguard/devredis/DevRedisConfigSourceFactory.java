package io.ghostguard.devredis;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * In dev mode only, and only when no {@code quarkus.redis.hosts} is configured, starts a local
 * redis-server so that {@code ./mvnw quarkus:dev} works on a machine with nothing but a JDK. The server
 * lives as long as the JVM and survives live reloads through a system property. Other profiles get
 * nothing from here: production must name its Redis explicitly, and is told so when it does not.
 */
public class DevRedisConfigSourceFactory implements ConfigSourceFactory {

    private static final String HOSTS = "quarkus.redis.hosts";
    private static final String STARTED = "ghostguard.dev-redis.url";
    /** System property, not a static field: the factory runs in more than one class loader. */
    private static final String EXPLAINED = "ghostguard.redis-hosts.explained";

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue configured = context.getValue(HOSTS);
        if (configured != null && configured.getValue() != null) {
            return List.of();
        }
        if (context.getProfiles().contains("test")) {
            return List.of();
        }
        if (!context.getProfiles().contains("dev")) {
            // The start-up failure that follows is logged without its cause; say it plainly once.
            if (System.getProperty(EXPLAINED) == null && runningApplication()) {
                System.setProperty(EXPLAINED, "true");
                System.err.println("Ghostguard Orders: quarkus.redis.hosts is not set. Production needs an explicit "
                    + "Redis address, for example QUARKUS_REDIS_HOSTS=redis://redis:6379.");
            }
            return List.of();
        }
        ConfigValue enabled = context.getValue("orders.dev.start-redis");
        if (enabled != null && "false".equals(enabled.getValue())) {
            return List.of();
        }
        return List.of(new PropertiesConfigSource(Map.of(HOSTS, startOnce()), "ghostguard-dev-redis", 50));
    }

    /** True in the packaged application (JVM or native), false while Maven builds it. */
    private static boolean runningApplication() {
        return System.getProperty("java.class.path", "").endsWith("quarkus-run.jar")
            || "runtime".equals(System.getProperty("org.graalvm.nativeimage.imagecode"));
    }

    private static synchronized String startOnce() {
        String url = System.getProperty(STARTED);
        if (url == null) {
            RedisServerProcess server = RedisServerProcess.startOnFreePort();
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "dev-redis-stop"));
            url = server.url();
            System.setProperty(STARTED, url);
            System.out.println("Started a local redis-server for dev mode at " + url);
        }
        return url;
    }
}
