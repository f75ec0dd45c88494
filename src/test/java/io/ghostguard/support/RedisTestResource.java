package io.ghostguard.support;

import io.ghostguard.devredis.RedisServerProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Starts a real redis-server on a free loopback port for the tests, hands it to fields marked
 * {@link InjectRedis}, and stops it afterwards (its working directory removed with it).
 */
public class RedisTestResource implements QuarkusTestResourceLifecycleManager {

    private RedisServerProcess server;

    @Override
    public Map<String, String> start() {
        server = RedisServerProcess.startOnFreePort();
        return Map.of("quarkus.redis.hosts", server.url());
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(new TestRedis(server),
            new TestInjector.AnnotatedAndMatchesType(InjectRedis.class, TestRedis.class));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
        }
    }
}
