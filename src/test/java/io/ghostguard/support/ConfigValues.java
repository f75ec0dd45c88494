package io.ghostguard.support;

import io.smallrye.config.WithDefault;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code @ConfigMapping} interface answered from a map, for plain tests that build a service by hand: each accessor
 * returns the value given under its path ({@code paging.maxLimit}), else its {@code @WithDefault}, else nothing
 * (an empty Optional, Map or List; a nested mapping answered the same way).
 */
public final class ConfigValues {

    private ConfigValues() {
    }

    /** {@code type} answering {@code values} (paths of accessor names joined by dots). */
    public static <T> T of(Class<T> type, Map<String, Object> values) {
        return of(type, values, "");
    }

    private static <T> T of(Class<T> type, Map<String, Object> values, String prefix) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
            (proxy, method, args) -> {
                if (method.getDeclaringClass() == Object.class) {
                    return "toString".equals(method.getName()) ? type.getSimpleName() + values
                        : method.invoke(values, args);
                }
                return value(method, values, prefix + method.getName());
            }));
    }

    private static Object value(Method method, Map<String, Object> values, String path) {
        Class<?> returned = method.getReturnType();
        if (values.containsKey(path)) {
            Object value = values.get(path);
            return returned == Optional.class && !(value instanceof Optional) ? Optional.ofNullable(value) : value;
        }
        WithDefault fallback = method.getAnnotation(WithDefault.class);
        if (fallback != null) {
            return parse(returned, fallback.value());
        }
        if (returned == Optional.class) {
            return Optional.empty();
        }
        if (returned == Map.class) {
            return Map.of();
        }
        if (returned == List.class) {
            return List.of();
        }
        if (returned.isInterface()) {
            return of(returned, values, path + ".");
        }
        throw new UnsupportedOperationException("no value for " + path);
    }

    private static Object parse(Class<?> type, String text) {
        if (type == int.class) {
            return Integer.parseInt(text);
        }
        if (type == long.class) {
            return Long.parseLong(text);
        }
        if (type == double.class) {
            return Double.parseDouble(text);
        }
        if (type == boolean.class) {
            return Boolean.parseBoolean(text);
        }
        if (type == Duration.class) {
            return Duration.parse(text);
        }
        return text;
    }
}
