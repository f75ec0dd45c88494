package io.ghostguard.support;

import io.quarkus.test.common.QuarkusTestResource;

/** Test resources every Quarkus test gets: the trusted token issuer and the management port. */
@QuarkusTestResource(ServiceTestResource.class)
public final class TestResources {

    private TestResources() {
    }
}
