package io.ghostguard.security;

/**
 * The surface a call came through; without a {@code caller_type} claim it decides the limits tier (docs/security-and-
 * limits.md).
 */
public enum Surface {
    /** The REST API under {@code /api/v1}. */
    REST,
    /** The MCP endpoint. */
    MCP
}
