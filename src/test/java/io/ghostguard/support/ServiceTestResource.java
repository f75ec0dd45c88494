package io.ghostguard.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * What every test instance of the service gets: the tests' own token issuer and key pair (see {@link Tokens}),
 * and the management interface on {@link Api#MANAGEMENT_PORT}, also for the packaged jar of the *IT tests.
 */
public class ServiceTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("quarkus.oidc.public-key", Tokens.publicKey(), "quarkus.oidc.token.issuer", Tokens.ISSUER,
            "quarkus.management.port", Integer.toString(Api.MANAGEMENT_PORT));
    }

    @Override
    public void stop() {
    }
}
