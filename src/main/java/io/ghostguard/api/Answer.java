package io.ghostguard.api;

/**
 * What an operation answered, before a surface renders it: REST as the status, the JSON body and its
 * {@code Location} and {@code ETag} headers; MCP as a tool result with the same body as structured content.
 *
 * @param status the HTTP status it stands for
 * @param body the JSON body: a value to serialise, or the exact text to send (a stored record)
 * @param location the link of what it created or found (null: none)
 * @param entityTag the version of what it read or changed, the strong ETag (null: none)
 */
public record Answer(int status, Object body, String location, String entityTag) {

    /** A 200 with a body and nothing else. */
    public static Answer ok(Object body) {
        return new Answer(200, body, null, null);
    }
}
