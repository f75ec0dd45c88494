package io.ghostguard.config;

/**
 * A configuration mapping that states the bounds of its own values. {@link SettingsValidator} calls {@link #check}
 * once, as the configuration is built; a value out of its bounds stops the start with one line naming the property.
 * (The bounds are plain comparisons: stating them here, instead of as Bean Validation constraints, spares the start
 * a validator factory built only for the configuration, about a fifth of the start.)
 */
public interface CheckedSettings {

    /** Adds a problem for each value out of its bounds; names are relative to the mapping's prefix. */
    default void check(SettingChecks checks) {
    }
}
