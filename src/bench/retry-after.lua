-- Shared by the wrk scripts of src/bench that send one request over and over (a replay, a read; loaded with dofile
-- from beside them): a client that honours Retry-After, as the service asks every client to. Each request of such a
-- run is the same request again, so after a 503 or 429 that names a wait, this wrk thread sends nothing until it has
-- passed (wrk alone sends the next request at once, and the service refuses a request that comes back before its
-- Retry-After, and closes the connection of one that does so twice, so a run of wrk alone would measure those
-- refusals). Runs of new requests (unique-orders.lua) need none of it: a new key is a new request, not a retry.
-- Approximate: the service keeps one wait per request for all connections and may extend it, and requests already
-- sent, or sent by the other thread, still come back early; the harnesses print every non-2xx answer and socket error,
-- and a run with any is not valid.
-- os.time counts whole seconds, so the wait ends up to a second late, never early.
local resume_at = 0

-- The thread's delay before its next request, in milliseconds.
function delay()
  local wait = resume_at - os.time()
  if wait > 0 then
    return wait * 1000
  end
  return 0
end

function response(status, headers)
  if status == 503 or status == 429 then
    local after = tonumber(headers["Retry-After"] or headers["retry-after"] or "")
    if after then
      resume_at = math.max(resume_at, os.time() + after + 1)
    end
  end
end
