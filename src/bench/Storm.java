import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.StandardSocketOptions;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The storm harness (docs/load.md, issue 27): an open-loop arrival rate of order placements against one instance, from
 * many principals of several tenants (agents and people), each intent with a client timeout and a retry policy that
 * resends the same Idempotency-Key and body; a steady phase at the plateau, storms at 2x and 4x, and a recovery
 * phase. Prints one line per second, a summary per phase, the service's own metrics, and a check of Redis: one order
 * per intent answered 2xx, never two.
 *
 * <p>Run with the JDK's source launcher (JDK 17, nothing else on the class path); src/bench/storm.sh starts the
 * packaged service and redis-server on loopback and runs it: {@code java src/bench/Storm.java --base=URL
 * --management=URL --redis=HOST:PORT --key=PKCS8.pem --issuer=ISSUER [--option=value...]}. Every option is listed in
 * {@link Options}; docs/load.md says how to read the output. Exit status 0 when nothing was placed twice, Redis
 * holds one order per intent answered 2xx, every intent was settled and every answer was one the contract allows
 * (2xx, 409/429 with Retry-After, 503 overloaded with Retry-After); timing targets are printed, never enforced.
 */
public final class Storm {

    private static final Pattern ORDER_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]*)\"");
    private static final String SCOPES = "orders:read orders:write inventory:write";

    private final Options options;
    private final HttpClient client;
    private final Wire wire;
    private final ExecutorService callbacks;
    private final ScheduledExecutorService timer;
    private final Semaphore inflight;
    private final PrivateKey signingKey;
    private final List<Principal> stormPrincipals = new ArrayList<>();
    private final List<Principal> rampPrincipals = new ArrayList<>();
    private final List<Intent> intents = new ArrayList<>();
    private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    private final AtomicInteger openCopies = new AtomicInteger();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder gaveUp = new LongAdder();
    private final LongAdder harnessErrors = new LongAdder();
    private final Cpu cpu;
    private volatile Second[] seconds;
    private volatile long origin;
    private volatile int drained = Integer.MAX_VALUE;

    private Storm(Options options) throws IOException, GeneralSecurityException {
        this.options = options;
        this.callbacks = Executors.newFixedThreadPool(options.clientThreads, daemon("storm-client"));
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("storm-timer"));
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(callbacks)
            .connectTimeout(Duration.ofMillis(options.timeoutMs)).build();
        this.wire = new Wire(URI.create(options.base), callbacks, !options.abandonWithFin, options.sourceAddresses);
        this.inflight = new Semaphore(options.maxInflight);
        this.signingKey = privateKey(Path.of(options.key));
        this.cpu = new Cpu(options.pids, options.clockTicks);
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Storm storm = new Storm(options);
        int status = storm.run();
        System.exit(status);
    }

    private int run() throws Exception {
        if (options.scenario.equals("flood")) {
            return flood();
        }
        printHeader();
        principals();
        stock();
        System.out.println("== warm-up and plateau: closed loop (each connection sends its next placement when the"
            + " last is answered), ramp tenant only");
        warmUp();
        double plateau = options.plateau > 0 ? options.plateau : measurePlateau();
        List<Phase> phases = phases(plateau);
        Map<String, Double> before = scrape();
        storm(phases);
        Map<String, Double> after = scrape();
        Settlement settlement = settle();
        return summary(plateau, phases, settlement, before, after);
    }

    // ---------------------------------------------------------------- set-up

    private void printHeader() {
        System.out.printf(Locale.ROOT, "storm: %s, %d cores, %s, load average at start %s%n", options.base,
            Runtime.getRuntime().availableProcessors(), "JDK " + Runtime.version(), loadAverage());
        System.out.printf(Locale.ROOT, "clients: %d tenants x %d principals (half agent, half human; half retry at once,"
            + " half back off), %d SKUs per tenant, %.0f %% of intents sent twice at once%n", options.tenants,
            options.principals, options.skus, options.doubleShare * 100);
        System.out.printf(Locale.ROOT, "each intent: timeout %d ms per attempt, at most %d attempts within %d ms;"
            + " Retry-After honoured up to %d ms; backoff %d ms doubling to %d ms, full jitter; at most %d requests"
            + " in flight; a timed-out attempt's connection is %s%n", options.timeoutMs, options.maxAttempts,
            options.intentDeadlineMs, options.retryAfterCapMs, options.backoffBaseMs, options.backoffCapMs,
            options.maxInflight, options.abandonWithFin ? "closed (FIN)" : "reset (RST)");
    }

    private void principals() throws GeneralSecurityException {
        for (int t = 0; t < options.tenants; t++) {
            String tenant = options.tenantPrefix + "-" + t;
            for (int p = 0; p < options.principals; p++) {
                stormPrincipals.add(principal(tenant, p));
            }
        }
        for (int p = 0; p < 16; p++) {
            rampPrincipals.add(principal(options.tenantPrefix + "-ramp", p));
        }
    }

    private Principal principal(String tenant, int index) throws GeneralSecurityException {
        String callerType = index % 2 == 0 ? "agent" : "human";
        boolean immediate = (index / 2) % 2 == 0;
        String subject = callerType + "-" + index;
        return new Principal(tenant, subject, callerType, immediate, "Bearer " + token(tenant, subject, callerType));
    }

    /** Puts plenty of stock on every SKU of every tenant (the storm's and the ramp's). */
    private void stock() throws IOException, InterruptedException {
        List<Principal> owners = new ArrayList<>();
        for (int i = 0; i < stormPrincipals.size(); i += options.principals) {
            owners.add(stormPrincipals.get(i));
        }
        owners.add(rampPrincipals.get(0));
        for (Principal owner : owners) {
            for (int s = 0; s < options.skus; s++) {
                String body = "{\"available\":" + options.stock + ",\"unitPrice\":100,\"currency\":\"EUR\"}";
                HttpResponse<String> created = put(owner, "sku-" + s, body, "If-None-Match");
                if (created.statusCode() == 412) {
                    created = put(owner, "sku-" + s, body, "If-Match");
                }
                if (created.statusCode() / 100 != 2) {
                    throw new IllegalStateException("stocking " + owner.tenant + "/sku-" + s + " answered "
                        + created.statusCode() + ": " + created.body());
                }
            }
        }
        System.out.printf("stock: %d units on each of %d SKUs of %d tenants%n", options.stock, options.skus,
            owners.size());
    }

    private HttpResponse<String> put(Principal owner, String sku, String body, String condition)
        throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(options.base + "/api/v1/inventory/" + sku))
            .timeout(Duration.ofSeconds(10)).header("Authorization", owner.bearer)
            .header("Content-Type", "application/json").header(condition, "*")
            .PUT(HttpRequest.BodyPublishers.ofString(body)).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    // ---------------------------------------------------------------- plateau (closed loop)

    /**
     * Closed-loop windows of 5 s until the JIT has done its work: at least {@code --warmup} seconds, then until two
     * windows in a row are within 10 % of each other, at most {@code --warmup-max} seconds.
     */
    private void warmUp() throws InterruptedException {
        double last = -1;
        int elapsed = 0;
        while (elapsed < options.warmupMaxSeconds) {
            int window = Math.min(5, options.warmupMaxSeconds - elapsed);
            double rate = closedLoop("warm-up", options.warmupConcurrency, window);
            elapsed += window;
            if (elapsed >= options.warmupSeconds && last > 0 && Math.abs(rate - last) <= 0.1 * Math.max(rate, last)) {
                return;
            }
            last = rate;
        }
    }

    /** A short closed-loop ramp after the warm-up; the plateau is the best rate of orders placed per second. */
    private double measurePlateau() throws InterruptedException {
        double best = 0;
        for (int concurrency : options.rampConcurrency) {
            best = Math.max(best, closedLoop("ramp", concurrency, options.rampSeconds));
        }
        System.out.printf(Locale.ROOT, "  plateau %.0f orders/s (best step)%n", best);
        return best;
    }

    private double closedLoop(String label, int concurrency, int secondsLong) throws InterruptedException {
        LongAdder placed = new LongAdder();
        LongAdder refused = new LongAdder();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(secondsLong);
        CountDownLatch done = new CountDownLatch(concurrency);
        for (int c = 0; c < concurrency; c++) {
            Principal principal = rampPrincipals.get(c % rampPrincipals.size());
            loop(principal, end, placed, refused, latencies, done);
        }
        if (!done.await(secondsLong + 30L, TimeUnit.SECONDS)) {
            System.out.println("  (some closed-loop requests were still unanswered 30 s after the step)");
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] sorted = sorted(latencies);
        double rate = placed.sum() / elapsed;
        System.out.printf(Locale.ROOT, "  %-8s %4d connections %3d s: %7.0f orders/s, %d not 2xx, p50 %s ms, p99 %s ms%n",
            label, concurrency, secondsLong, rate, refused.sum(), millis(percentile(sorted, 0.50)),
            millis(percentile(sorted, 0.99)));
        return rate;
    }

    private void loop(Principal principal, long end, LongAdder placed, LongAdder refused,
                      ConcurrentLinkedQueue<Long> latencies, CountDownLatch done) {
        if (System.nanoTime() >= end) {
            done.countDown();
            return;
        }
        byte[] request = placement(principal, UUID.randomUUID().toString(),
            ThreadLocalRandom.current().nextInt(options.skus));
        long sent = System.nanoTime();
        wire.send(request, TimeUnit.SECONDS.toNanos(10), reply -> {
            latencies.add((System.nanoTime() - sent) / 1000);
            if (reply.status() / 100 == 2) {
                placed.increment();
            } else {
                refused.increment();
            }
            loop(principal, end, placed, refused, latencies, done);
        });
    }

    // ---------------------------------------------------------------- the storm (open loop)

    private List<Phase> phases(double plateau) {
        double steady = plateau * options.steadyShare;
        List<Phase> phases = new ArrayList<>();
        int start = 0;
        String[] names = {"steady", "storm-2x", "storm-4x", "recovery"};
        double[] rates = {steady, 2 * plateau, 4 * plateau, steady};
        int[] lengths = {options.steadySeconds, options.storm2Seconds, options.storm4Seconds, options.recoverySeconds};
        for (int i = 0; i < names.length; i++) {
            if (lengths[i] > 0) {
                phases.add(new Phase(names[i], rates[i], start, lengths[i]));
                start += lengths[i];
            }
        }
        return phases;
    }

    private void storm(List<Phase> phases) throws InterruptedException {
        int planned = phases.isEmpty() ? 0 : phases.get(phases.size() - 1).end();
        int drainLimit = (int) (options.intentDeadlineMs / 1000) + 10;
        Second[] table = new Second[planned + drainLimit + 2];
        for (int i = 0; i < table.length; i++) {
            table[i] = new Second(i, phaseAt(phases, i));
        }
        seconds = table;
        System.out.printf(Locale.ROOT, "== storm: open loop (arrivals by the clock, never waiting for answers); "
            + "one line per second%n");
        System.out.println(Second.HEADER);
        origin = System.nanoTime();
        Thread printer = new Thread(() -> printSeconds(planned + drainLimit), "storm-printer");
        printer.setDaemon(true);
        printer.start();
        for (Phase phase : phases) {
            arrive(phase);
        }
        // Drain: no new intents; retries of the open ones go on until each is answered or gives up (bounded).
        long drainEnd = origin + TimeUnit.SECONDS.toNanos(planned + drainLimit);
        while (openCopies.get() > 0 && System.nanoTime() < drainEnd) {
            Thread.sleep(50);
        }
        drained = second(System.nanoTime());
        printer.join(TimeUnit.SECONDS.toMillis(5));
    }

    private static Phase phaseAt(List<Phase> phases, int second) {
        for (Phase phase : phases) {
            if (second >= phase.start && second < phase.end()) {
                return phase;
            }
        }
        return new Phase("drain", 0, second, 1);
    }

    /** Launches the phase's intents by the clock: the n-th at start + n / rate, whatever the answers do. */
    private void arrive(Phase phase) {
        long start = origin + TimeUnit.SECONDS.toNanos(phase.start);
        long end = start + TimeUnit.SECONDS.toNanos(phase.seconds);
        long launched = 0;
        long now;
        while ((now = System.nanoTime()) < end) {
            long due = (long) ((now - start) / 1e9 * phase.rate);
            for (; launched < due; launched++) {
                Intent intent = newIntent();
                callbacks.execute(() -> begin(intent));
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    private Intent newIntent() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Principal principal = stormPrincipals.get(random.nextInt(stormPrincipals.size()));
        int copies = random.nextDouble() < options.doubleShare ? 2 : 1;
        Intent intent = new Intent(principal, UUID.randomUUID().toString(), random.nextInt(options.skus), copies,
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.intentDeadlineMs));
        synchronized (intents) {
            intents.add(intent);
        }
        // Counted open here, on the clock's thread, so the drain never sees zero while a launch is still queued.
        openCopies.addAndGet(copies);
        return intent;
    }

    private void begin(Intent intent) {
        for (int c = 0; c < intent.copies; c++) {
            send(intent, new Copy());
        }
    }

    private void send(Intent intent, Copy copy) {
        try {
            Second second = seconds[second(System.nanoTime())];
            if (!inflight.tryAcquire()) {
                copy.attempts++;
                second.add(Counter.REJECTED);
                retry(intent, copy, -1, true);
                return;
            }
            copy.attempts++;
            intent.attempts.incrementAndGet();
            second.add(Counter.OFFERED);
            if (copy.attempts > 1) {
                second.add(Counter.RETRIES);
            }
            byte[] request = placement(intent.principal, intent.key, intent.sku);
            long sent = System.nanoTime();
            wire.send(request, TimeUnit.MILLISECONDS.toNanos(options.timeoutMs), reply -> {
                inflight.release();
                answered(intent, copy, sent, reply);
            });
        } catch (RuntimeException e) {
            harnessError(e);
            endCopy();
        }
    }

    private void answered(Intent intent, Copy copy, long sent, Reply reply) {
        try {
            long now = System.nanoTime();
            Second second = seconds[second(now)];
            long micros = (now - sent) / 1000;
            Answer answer = Answer.of(reply);
            answers.computeIfAbsent(answer.label, k -> new LongAdder()).increment();
            Kind kind = answer.kind;
            if (kind.admitted) {
                second.admitted(micros);
            }
            if (kind.counter != null) {
                second.add(kind.counter);
            }
            if (kind == Kind.PLACED) {
                placed(intent, answer.orderId, second);
            }
            if (kind.retried) {
                retry(intent, copy, answer.retryAfterSeconds, false);
            } else {
                endCopy();
            }
        } catch (RuntimeException e) {
            harnessError(e);
            endCopy();
        }
    }

    /** The first 2xx of an intent is goodput; a later 2xx naming another order is a duplicate placed. */
    private void placed(Intent intent, String orderId, Second second) {
        synchronized (intent) {
            if (intent.orderId == null) {
                intent.orderId = orderId;
                second.add(Counter.GOODPUT);
            } else if (!intent.orderId.equals(orderId)) {
                second.add(Counter.DUPLICATES);
                duplicates.increment();
            }
        }
    }

    /** Resends the same key and body after the policy's delay, or gives up when the intent's budget is spent. */
    private void retry(Intent intent, Copy copy, long retryAfterSeconds, boolean rejectedLocally) {
        if (copy.attempts >= options.maxAttempts || System.nanoTime() >= intent.deadline) {
            gaveUp.increment();
            endCopy();
            return;
        }
        long delayMs;
        if (retryAfterSeconds >= 0) {
            long jitter = intent.principal.immediate ? 0 : ThreadLocalRandom.current().nextLong(100);
            delayMs = Math.min(retryAfterSeconds * 1000, options.retryAfterCapMs) + jitter;
        } else if (intent.principal.immediate) {
            delayMs = rejectedLocally ? 10 : 0;
        } else {
            long ceiling = Math.min(options.backoffCapMs, options.backoffBaseMs << Math.min(copy.attempts, 20));
            delayMs = Math.max(rejectedLocally ? 10 : 1, ThreadLocalRandom.current().nextLong(ceiling + 1));
        }
        if (delayMs == 0) {
            send(intent, copy);
        } else {
            timer.schedule(() -> callbacks.execute(() -> send(intent, copy)), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private void endCopy() {
        openCopies.decrementAndGet();
    }

    private void harnessError(RuntimeException e) {
        harnessErrors.increment();
        if (harnessErrors.sum() <= 3) {
            System.out.println("harness error: " + e);
        }
    }

    private int second(long nanos) {
        int index = (int) Math.max(0, (nanos - origin) / 1_000_000_000L);
        return Math.min(index, seconds.length - 1);
    }

    /** Prints second k just after it ends: sends are counted when sent, answers when they arrive. */
    private void printSeconds(int last) {
        cpu.sample();
        for (int k = 0; k <= last && k < seconds.length; k++) {
            long printAt = origin + TimeUnit.SECONDS.toNanos(k + 1) + TimeUnit.MILLISECONDS.toNanos(20);
            long wait;
            while ((wait = printAt - System.nanoTime()) > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            seconds[k].close(options.maxInflight - inflight.availablePermits(), wire.open(), cpu.sample());
            System.out.println(seconds[k].row());
            if (k >= drained) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- settle and verify

    /**
     * After the storm, every intent that never got its 2xx, and every intent sent more than once, is sent again with
     * its key and body (a client that comes back later): an intent whose order exists gets it back (the same id, or
     * it was placed twice), one that was never placed is placed now. Afterwards each intent has one order.
     */
    private Settlement settle() throws InterruptedException {
        List<Intent> again = new ArrayList<>();
        synchronized (intents) {
            for (Intent intent : intents) {
                if (intent.orderId == null || intent.attempts.get() > 1) {
                    again.add(intent);
                }
            }
        }
        Settlement settlement = new Settlement();
        long started = System.nanoTime();
        ExecutorService workers = Executors.newFixedThreadPool(64, daemon("storm-settle"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.settleSeconds);
        for (Intent intent : again) {
            workers.execute(() -> settleOne(intent, settlement, deadline));
        }
        workers.shutdown();
        if (!workers.awaitTermination(options.settleSeconds + 15L, TimeUnit.SECONDS)) {
            workers.shutdownNow();
        }
        settlement.seconds = (System.nanoTime() - started) / 1e9;
        settlement.intents = again.size();
        return settlement;
    }

    private void settleOne(Intent intent, Settlement settlement, long deadline) {
        for (int attempt = 0; attempt < 20 && System.nanoTime() < deadline; attempt++) {
            try {
                Reply reply = wire.call(placement(intent.principal, intent.key, intent.sku), TimeUnit.SECONDS.toNanos(10));
                Answer answer = Answer.of(reply);
                if (reply.failure() != null) {
                    settlement.transportRetries.increment();
                    if (!pause(200)) {
                        break;
                    }
                    continue;
                }
                if (answer.kind == Kind.PLACED) {
                    synchronized (intent) {
                        if (intent.orderId == null) {
                            intent.orderId = answer.orderId;
                            (reply.replayed() ? settlement.foundLater : settlement.placedLater).increment();
                        } else if (intent.orderId.equals(answer.orderId)) {
                            settlement.same.increment();
                        } else {
                            settlement.changed.increment();
                            duplicates.increment();
                        }
                    }
                    return;
                }
                if (answer.kind == Kind.OTHER) {
                    settlement.refused.increment();
                    return;
                }
                long pause = answer.retryAfterSeconds >= 0 ? Math.min(answer.retryAfterSeconds * 1000, 2000) : 200;
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        settlement.unsettled.increment();
        intent.unsettled = true;
    }

    // ---------------------------------------------------------------- summary

    private int summary(double plateau, List<Phase> phases, Settlement settlement, Map<String, Double> before,
                        Map<String, Double> after) throws IOException {
        System.out.println("== phases (per-second figures: median and lowest second; p50/p99 over every admitted answer"
            + " of the phase)");
        System.out.printf("  %-9s %5s %8s %9s %9s %9s %7s %7s %7s %8s %6s %8s %8s%n", "phase", "s", "target/s",
            "offered/s", "goodput/s", "low/s", "%plat", "shed", "409", "timeouts", "5xx", "p50 ms", "p99 ms");
        Map<String, PhaseFigures> figures = new LinkedHashMap<>();
        for (Phase phase : phases) {
            PhaseFigures f = figures(phase.name, phase.start, phase.end(), phase.rate);
            figures.put(phase.name, f);
            System.out.println(f.row(plateau));
        }
        int drainEnd = Math.min(drained + 1, seconds.length);
        int planned = phases.isEmpty() ? 0 : phases.get(phases.size() - 1).end();
        if (drainEnd > planned) {
            System.out.println(figures("drain", planned, drainEnd, 0).row(plateau));
        }
        recovery(phases, figures);

        long intentCount;
        long answered2xx = 0;
        Map<String, Long> placedPerTenant = new TreeMap<>();
        Map<String, Long> unsettledPerTenant = new TreeMap<>();
        Map<String, java.util.Set<String>> idsPerTenant = new TreeMap<>();
        synchronized (intents) {
            intentCount = intents.size();
            for (Intent intent : intents) {
                placedPerTenant.putIfAbsent(intent.principal.tenant, 0L);
                if (intent.unsettled) {
                    unsettledPerTenant.merge(intent.principal.tenant, 1L, Long::sum);
                }
                idsPerTenant.putIfAbsent(intent.principal.tenant, new java.util.HashSet<>());
                if (intent.orderId != null) {
                    answered2xx++;
                    placedPerTenant.merge(intent.principal.tenant, 1L, Long::sum);
                    idsPerTenant.get(intent.principal.tenant).add(intent.orderId);
                }
            }
        }
        System.out.println("== answers to every attempt of the storm (status:problem type:retry-after)");
        long unexpected = 0;
        for (Map.Entry<String, LongAdder> entry : new TreeMap<>(answers).entrySet()) {
            boolean allowed = Answer.allowed(entry.getKey());
            if (!allowed) {
                unexpected += entry.getValue().sum();
            }
            System.out.printf("  %-58s %9d%s%n", entry.getKey(), entry.getValue().sum(), allowed ? "" : "   NOT ALLOWED");
        }
        System.out.printf(Locale.ROOT, "== intents: %d (%d answered 2xx during the storm or its drain), %d copies gave up"
            + " (attempts or deadline spent); harness errors %d%n", intentCount, answered2xx - settlement.placedLater.sum()
            - settlement.foundLater.sum(), gaveUp.sum(), harnessErrors.sum());
        System.out.printf(Locale.ROOT, "== settle: the %d intents sent more than once or never answered 2xx, sent again with"
            + " their key and body (64 at a time, %.0f s): %d same order, %d ANOTHER order, %d found placed (replay), %d"
            + " placed now, %d refused, %d unsettled (%d sends retried after a timeout or a failed connection)%n",
            settlement.intents, settlement.seconds, settlement.same.sum(), settlement.changed.sum(),
            settlement.foundLater.sum(), settlement.placedLater.sum(), settlement.refused.sum(),
            settlement.unsettled.sum(), settlement.transportRetries.sum());

        printMetrics(before, after);

        System.out.println("== Redis: orders per tenant (the index orders:{t:<tenant>}:all and the order:{t:<tenant>}:*"
            + " keys) against intents answered 2xx");
        long mismatch = 0;
        long redisOrders = 0;
        for (Map.Entry<String, Long> entry : placedPerTenant.entrySet()) {
            String tenant = entry.getKey();
            long index = redisInteger("ZCARD", "orders:{t:" + tenant + "}:all");
            long keys = countKeys("order:{t:" + tenant + "}:*");
            long distinct = idsPerTenant.get(tenant).size();
            redisOrders += keys;
            long expected = entry.getValue();
            // An intent left unsettled may or may not have its order: the count is exact only when none is left.
            long slack = unsettledPerTenant.getOrDefault(tenant, 0L);
            String verdict;
            if (index == keys && distinct == expected && keys == expected) {
                verdict = "equal";
            } else if (distinct == expected && Math.min(index, keys) >= expected
                && Math.max(index, keys) <= expected + slack) {
                verdict = "within the " + slack + " unsettled";
            } else {
                verdict = "DIFFERENT";
                mismatch++;
            }
            System.out.printf("  %-16s intents answered 2xx %8d   distinct order ids %8d   index %8d   order keys %8d   %s%n",
                tenant, expected, distinct, index, keys, verdict);
        }
        long dup = duplicates.sum();
        boolean pass = dup == 0 && mismatch == 0 && unexpected == 0 && settlement.unsettled.sum() == 0
            && harnessErrors.sum() == 0;
        System.out.printf(Locale.ROOT, "== checks: duplicates placed %d, tenants where Redis differs %d, answers not"
            + " allowed %d, unsettled %d: %s; load average at end %s%n", dup, mismatch, unexpected,
            settlement.unsettled.sum(), pass ? "PASS" : "FAIL", loadAverage());
        System.out.printf(Locale.ROOT, "STORM-RESULT plateau=%.0f intents=%d placed=%d redis_orders=%d duplicates=%d"
            + " redis_mismatch=%d unexpected=%d unsettled=%d harness_errors=%d%n", plateau, intentCount, answered2xx,
            redisOrders, dup, mismatch, unexpected, settlement.unsettled.sum(), harnessErrors.sum());
        for (Map.Entry<String, LongAdder> entry : new TreeMap<>(answers).entrySet()) {
            System.out.println("STORM-ANSWER " + entry.getKey() + " " + entry.getValue().sum());
        }
        return pass ? 0 : 1;
    }

    private PhaseFigures figures(String name, int from, int to, double rate) {
        PhaseFigures f = new PhaseFigures(name, to - from, rate);
        List<long[]> latencies = new ArrayList<>();
        long[] goodput = new long[Math.max(0, to - from)];
        long offered = 0;
        for (int k = from; k < to; k++) {
            Second s = seconds[k];
            offered += s.get(Counter.OFFERED);
            goodput[k - from] = s.get(Counter.GOODPUT);
            f.shed += s.get(Counter.SHED429) + s.get(Counter.SHED503);
            f.wait409 += s.get(Counter.WAIT409);
            f.timeouts += s.get(Counter.TIMEOUTS);
            f.errors += s.get(Counter.ERROR5XX);
            latencies.add(s.latencies);
        }
        f.offeredPerSecond = f.seconds == 0 ? 0 : (double) offered / f.seconds;
        long[] sortedGoodput = goodput.clone();
        Arrays.sort(sortedGoodput);
        f.goodputMedian = sortedGoodput.length == 0 ? 0 : sortedGoodput[(sortedGoodput.length - 1) / 2];
        f.goodputLow = sortedGoodput.length == 0 ? 0 : sortedGoodput[0];
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        f.p50 = percentile(all, 0.50);
        f.p99 = percentile(all, 0.99);
        return f;
    }

    /** The first second of the recovery phase from which every second is back to the steady phase's figures. */
    private void recovery(List<Phase> phases, Map<String, PhaseFigures> figures) {
        PhaseFigures steady = figures.get("steady");
        Optional<Phase> recovery = phases.stream().filter(p -> p.name.equals("recovery")).findFirst();
        if (steady == null || recovery.isEmpty()) {
            return;
        }
        Phase phase = recovery.get();
        if (steady.goodputMedian == 0 || steady.p99 < 0) {
            System.out.println("  recovery: no reference (the steady phase had no goodput)");
            return;
        }
        double goodputFloor = 0.9 * steady.goodputMedian;
        double p99Ceiling = 1.5 * steady.p99;
        int back = -1;
        for (int k = phase.end() - 1; k >= phase.start; k--) {
            Second s = seconds[k];
            if (s.get(Counter.GOODPUT) >= goodputFloor && s.p99 <= p99Ceiling) {
                back = k;
            } else {
                break;
            }
        }
        System.out.printf(Locale.ROOT, "  recovery: back to steady (every later second: goodput >= 90 %% of steady's median"
            + " %d/s, p99 <= 1.5 x steady's p99 %s ms) %s%n", steady.goodputMedian, millis(steady.p99),
            back < 0 ? "NOT within the recovery phase" : "after " + (back - phase.start) + " s");
    }

    // ---------------------------------------------------------------- the flood (one runaway principal, issue 35)

    /**
     * One agent principal floods {@code POST /orders} at full speed from {@code --flood-connections} connections,
     * ignoring Retry-After (each answer or client timeout is followed at once by the next placement), while
     * {@code --polite} other agent principals of the same tenant each start one placement every
     * {@code --polite-interval-ms}, honouring Retry-After and retrying the same key. First the polite principals run
     * alone ({@code --calm} seconds: their calm goodput), then with the flood ({@code --flood} seconds). Prints their
     * goodput in both and its ratio, all useful work during the flood against the plateau, and the refusals slower
     * than 200 ms or without Retry-After. Targets (docs/load.md, fairness) are printed, never enforced.
     */
    private int flood() throws Exception {
        System.out.printf(Locale.ROOT, "flood: %s, %d cores, %s, load average at start %s%n", options.base,
            Runtime.getRuntime().availableProcessors(), "JDK " + Runtime.version(), loadAverage());
        String tenant = options.tenantPrefix + "-flood";
        Principal flooder = new Principal(tenant, "flooder", "agent", true,
            "Bearer " + token(tenant, "flooder", "agent"));
        List<Principal> polite = new ArrayList<>();
        for (int i = 0; i < options.polite; i++) {
            String subject = "polite-" + i;
            polite.add(new Principal(tenant, subject, "agent", false, "Bearer " + token(tenant, subject, "agent")));
        }
        System.out.printf(Locale.ROOT, "clients: 1 flooding agent principal (%d connections, client timeout %d ms, next"
            + " placement at once after any answer, Retry-After ignored); %d well-behaved agent principals of the same"
            + " tenant (one placement each per %d ms, Retry-After honoured up to %d ms, the same key retried, client"
            + " timeout %d ms); calm %d s, flood %d s%n", options.floodConnections, options.timeoutMs, options.polite,
            options.politeIntervalMs, options.retryAfterCapMs, options.politeTimeoutMs, options.calmSeconds,
            options.floodSeconds);
        principals();
        stock();
        stockTenant(polite.get(0));
        System.out.println("== warm-up and plateau: closed loop, ramp tenant only");
        warmUp();
        double plateau = options.plateau > 0 ? options.plateau : measurePlateau();
        Map<String, Double> before = scrape();

        System.out.printf("== calm: the %d well-behaved principals alone, %d s%n", options.polite, options.calmSeconds);
        Tally calm = new Tally();
        runPolite(polite, options.calmSeconds, calm, null, null);
        System.out.println("  " + calm.line(options.calmSeconds));

        System.out.printf("== flood: the same, with the flooding principal, %d s%n", options.floodSeconds);
        Tally during = new Tally();
        Tally flood = new Tally();
        runPolite(polite, options.floodSeconds, during, flooder, flood);
        System.out.println("  well-behaved: " + during.line(options.floodSeconds));
        System.out.println("  flooder:      " + flood.line(options.floodSeconds));
        Map<String, Double> after = scrape();

        double calmRate = calm.placed.sum() / (double) options.calmSeconds;
        double floodRate = during.placed.sum() / (double) options.floodSeconds;
        double useful = (during.placed.sum() + flood.placed.sum()) / (double) options.floodSeconds;
        double kept = calmRate == 0 ? 0 : floodRate / calmRate;
        double share = plateau == 0 ? 0 : useful / plateau;
        System.out.println("== figures (targets: well-behaved keep >= 90 % of their calm goodput; useful work >= 50 %"
            + " of the plateau; every refusal under 200 ms with Retry-After)");
        System.out.printf(Locale.ROOT, "  well-behaved goodput: calm %.1f orders/s, during the flood %.1f orders/s:"
            + " %.0f %% kept%n", calmRate, floodRate, kept * 100);
        System.out.printf(Locale.ROOT, "  all useful work during the flood: %.1f orders/s (well-behaved %.1f + flooder"
            + " %.1f) against the plateau %.0f orders/s: %.0f %%%n", useful, floodRate,
            flood.placed.sum() / (double) options.floodSeconds, plateau, share * 100);
        System.out.printf(Locale.ROOT, "  refusals slower than 200 ms or without Retry-After: well-behaved %d of %d,"
            + " flooder %d of %d (calm: %d of %d)%n", during.badRefusals.sum(), during.refusals.sum(),
            flood.badRefusals.sum(), flood.refusals.sum(), calm.badRefusals.sum(), calm.refusals.sum());
        System.out.println("== answers to every attempt (status:problem type:retry-after)");
        for (Map.Entry<String, LongAdder> entry : new TreeMap<>(answers).entrySet()) {
            System.out.printf("  %-58s %9d%n", entry.getKey(), entry.getValue().sum());
        }
        printMetrics(before, after);
        System.out.printf(Locale.ROOT, "FLOOD-RESULT plateau=%.0f calm=%.1f flood=%.1f kept=%.2f useful=%.1f"
            + " useful_share=%.2f polite_bad_refusals=%d polite_refusals=%d flooder_bad_refusals=%d flooder_refusals=%d"
            + " flooder_timeouts=%d harness_errors=%d load=%s%n", plateau, calmRate, floodRate, kept, useful, share,
            during.badRefusals.sum(), during.refusals.sum(), flood.badRefusals.sum(), flood.refusals.sum(),
            flood.timeouts.sum(), harnessErrors.sum(), loadAverage().replace(' ', '/'));
        return harnessErrors.sum() == 0 ? 0 : 1;
    }

    /** Stock on every SKU of the owner's tenant. */
    private void stockTenant(Principal owner) throws IOException, InterruptedException {
        for (int s = 0; s < options.skus; s++) {
            String body = "{\"available\":" + options.stock + ",\"unitPrice\":100,\"currency\":\"EUR\"}";
            HttpResponse<String> created = put(owner, "sku-" + s, body, "If-None-Match");
            if (created.statusCode() == 412) {
                created = put(owner, "sku-" + s, body, "If-Match");
            }
            if (created.statusCode() / 100 != 2) {
                throw new IllegalStateException("stocking " + owner.tenant + "/sku-" + s + " answered "
                    + created.statusCode() + ": " + created.body());
            }
        }
    }

    /**
     * The well-behaved principals for {@code secondsLong} (and, when {@code flooder} is given, the flood alongside);
     * returns once every client stopped, bounded by the phase plus the longest client timeout and Retry-After wait.
     */
    private void runPolite(List<Principal> polite, int secondsLong, Tally tally, Principal flooder, Tally flood)
        throws InterruptedException {
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(secondsLong);
        int lanes = flooder == null ? 0 : options.floodConnections;
        CountDownLatch done = new CountDownLatch(polite.size() + lanes);
        for (int i = 0; i < lanes; i++) {
            flooding(flooder, end, flood, done);
        }
        for (int i = 0; i < polite.size(); i++) {
            Principal principal = polite.get(i);
            // Spread over the first interval, as independent agents are.
            long first = start + TimeUnit.MILLISECONDS.toNanos(options.politeIntervalMs) * i / polite.size();
            timer.schedule(() -> politeIntent(principal, first, end, tally, done),
                Math.max(0, first - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        long bound = secondsLong * 1000L + Math.max(options.timeoutMs, options.politeTimeoutMs) + options.retryAfterCapMs
            + 5000;
        if (!done.await(bound, TimeUnit.MILLISECONDS)) {
            System.out.println("  (some clients had not stopped " + bound + " ms after the phase began)");
        }
    }

    /** One well-behaved placement, started at {@code due}; the principal's next one starts an interval later. */
    private void politeIntent(Principal principal, long due, long end, Tally tally, CountDownLatch done) {
        if (System.nanoTime() >= end) {
            done.countDown();
            return;
        }
        String key = UUID.randomUUID().toString();
        int sku = ThreadLocalRandom.current().nextInt(options.skus);
        politeAttempt(principal, key, sku, due + TimeUnit.MILLISECONDS.toNanos(options.politeIntervalMs), end, tally,
            done);
    }

    private void politeAttempt(Principal principal, String key, int sku, long next, long end, Tally tally,
                               CountDownLatch done) {
        long sent = System.nanoTime();
        tally.attempts.increment();
        wire.send(placement(principal, key, sku), TimeUnit.MILLISECONDS.toNanos(options.politeTimeoutMs), reply -> {
            try {
                long now = System.nanoTime();
                long delayMs = tally.record(reply, (now - sent) / 1000, now < end, answers);
                if (now >= end) {
                    done.countDown();
                } else if (delayMs < 0) {
                    // Settled (placed, or refused for good): the next intent at its time.
                    timer.schedule(() -> politeIntent(principal, next, end, tally, done),
                        Math.max(0, next - now), TimeUnit.NANOSECONDS);
                } else {
                    timer.schedule(() -> politeAttempt(principal, key, sku, next, end, tally, done),
                        Math.min(delayMs, options.retryAfterCapMs), TimeUnit.MILLISECONDS);
                }
            } catch (RuntimeException e) {
                harnessError(e);
                done.countDown();
            }
        });
    }

    /** One flooding connection: a new placement as soon as the last one is answered or timed out. */
    private void flooding(Principal flooder, long end, Tally tally, CountDownLatch done) {
        if (System.nanoTime() >= end) {
            done.countDown();
            return;
        }
        long sent = System.nanoTime();
        tally.attempts.increment();
        byte[] request = placement(flooder, UUID.randomUUID().toString(),
            ThreadLocalRandom.current().nextInt(options.skus));
        wire.send(request, TimeUnit.MILLISECONDS.toNanos(options.timeoutMs), reply -> {
            try {
                long now = System.nanoTime();
                tally.record(reply, (now - sent) / 1000, now < end, answers);
                flooding(flooder, end, tally, done);
            } catch (RuntimeException e) {
                harnessError(e);
                done.countDown();
            }
        });
    }

    /** What one group of clients got in one phase. */
    private static final class Tally {
        final LongAdder attempts = new LongAdder();
        final LongAdder placed = new LongAdder();
        final LongAdder refusals = new LongAdder();
        final LongAdder badRefusals = new LongAdder();
        final LongAdder timeouts = new LongAdder();
        final LongAdder other = new LongAdder();
        final ConcurrentLinkedQueue<Long> refusalMicros = new ConcurrentLinkedQueue<>();

        /**
         * Counts one reply (placements and refusals only while the phase runs) and says when to retry the same key:
         * -1 when the intent is settled, else the wait in milliseconds (Retry-After, or 500 ms without one).
         */
        long record(Reply reply, long micros, boolean inPhase, Map<String, LongAdder> answers) {
            Answer answer = Answer.of(reply);
            answers.computeIfAbsent(answer.label, k -> new LongAdder()).increment();
            switch (answer.kind) {
                case PLACED -> {
                    if (inPhase) {
                        placed.increment();
                    }
                    return -1;
                }
                case SHED_LIMITED, SHED_OVERLOADED, WAIT, SERVER_ERROR -> {
                    if (inPhase && reply.status() != 409) {
                        refusals.increment();
                        refusalMicros.add(micros);
                        if (micros > 200_000 || reply.retryAfterSeconds() < 0) {
                            badRefusals.increment();
                        }
                    }
                    return reply.retryAfterSeconds() >= 0 ? reply.retryAfterSeconds() * 1000 : 500;
                }
                case TIMEOUT, CONNECTION -> {
                    if (inPhase) {
                        timeouts.increment();
                    }
                    return 500;
                }
                default -> {
                    if (inPhase) {
                        other.increment();
                    }
                    return -1;
                }
            }
        }

        String line(int secondsLong) {
            long[] sortedRefusals = sorted(refusalMicros);
            return String.format(Locale.ROOT, "%d attempts, %d placed (%.1f/s), %d refused (p50 %s ms, p99 %s ms),"
                + " %d timeouts or failed connections, %d other answers", attempts.sum(), placed.sum(),
                placed.sum() / (double) secondsLong, refusals.sum(), millis(percentile(sortedRefusals, 0.5)),
                millis(percentile(sortedRefusals, 0.99)), timeouts.sum(), other.sum());
        }
    }

    // ---------------------------------------------------------------- service metrics

    /**
     * The service's metrics, as one sample per series. A service still working off a backlog may answer late, so
     * this tries for up to a minute (each try bounded); an empty map when it never answered.
     */
    private Map<String, Double> scrape() throws InterruptedException {
        Map<String, Double> samples = new TreeMap<>();
        if (options.management == null) {
            return samples;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String failure = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(options.management
                    + "/q/metrics")).timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
                for (String line : response.body().split("\n")) {
                    if (line.isEmpty() || line.startsWith("#")) {
                        continue;
                    }
                    // An exemplar (" # {trace_id=...} value timestamp") follows the sample's own value.
                    if (line.contains(" # ")) {
                        line = line.substring(0, line.indexOf(" # "));
                    }
                    int space = line.lastIndexOf(' ');
                    if (space > 0) {
                        samples.merge(line.substring(0, space), Double.parseDouble(line.substring(space + 1)),
                            Double::sum);
                    }
                }
                return samples;
            } catch (IOException | RuntimeException e) {
                failure = e.getClass().getSimpleName();
                Thread.sleep(1000);
            }
        }
        System.out.println("  (metrics not scraped within a minute: " + failure + ")");
        return samples;
    }

    private void printMetrics(Map<String, Double> before, Map<String, Double> after) {
        if (options.management == null) {
            System.out.println("== the service's own metrics: not scraped (no --management)");
            return;
        }
        System.out.println("== the service's own metrics (" + options.management + "/q/metrics), storm start to drain end");
        if (after.isEmpty()) {
            System.out.println("  (none)");
            return;
        }
        printGrouped(before, after, "http_server_requests_seconds_count", "POST /api/v1/orders by status",
            labels -> "POST".equals(labels.get("method")) && "/api/v1/orders".equals(labels.get("uri")), "status");
        printGrouped(before, after, "orders_placed_total", "orders_placed_total by result", labels -> true, "result");
        printGrouped(before, after, "idempotency_requests_total", "idempotency_requests_total by outcome",
            labels -> true, "outcome");
        boolean shedSeen = false;
        for (String series : after.keySet()) {
            String name = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
            if (name.matches(".*(shed|overload|admission|admitted).*") && !name.endsWith("_max")) {
                double delta = after.get(series) - before.getOrDefault(series, 0.0);
                System.out.printf(Locale.ROOT, "  %-90s %12.0f%n", series, delta);
                shedSeen = true;
            }
        }
        if (!shedSeen) {
            System.out.println("  (no shed counter on the metrics: no series named *shed*, *overload*, *admission*)");
        }
    }

    private void printGrouped(Map<String, Double> before, Map<String, Double> after, String name, String title,
                              java.util.function.Predicate<Map<String, String>> filter, String by) {
        Map<String, Double> grouped = new TreeMap<>();
        for (Map.Entry<String, Double> entry : after.entrySet()) {
            String series = entry.getKey();
            if (!series.startsWith(name + "{") && !series.equals(name)) {
                continue;
            }
            Map<String, String> labels = labels(series);
            if (filter.test(labels)) {
                grouped.merge(labels.getOrDefault(by, "-"), entry.getValue() - before.getOrDefault(series, 0.0),
                    Double::sum);
            }
        }
        StringBuilder line = new StringBuilder("  " + title + ":");
        if (grouped.isEmpty()) {
            line.append(" (absent)");
        }
        grouped.forEach((key, value) -> line.append(String.format(Locale.ROOT, " %s=%.0f", key, value)));
        System.out.println(line);
    }

    private static Map<String, String> labels(String series) {
        Map<String, String> labels = new LinkedHashMap<>();
        Matcher matcher = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(series);
        while (matcher.find()) {
            labels.put(matcher.group(1), matcher.group(2));
        }
        return labels;
    }

    // ---------------------------------------------------------------- Redis (RESP over a loopback socket)

    private long redisInteger(String... command) throws IOException {
        try (Redis redis = new Redis(options.redis)) {
            Object reply = redis.call(command);
            return reply instanceof Long ? (Long) reply : -1;
        }
    }

    private long countKeys(String pattern) throws IOException {
        long count = 0;
        try (Redis redis = new Redis(options.redis)) {
            String cursor = "0";
            for (int i = 0; i < 1_000_000; i++) {
                List<?> reply = (List<?>) redis.call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
                cursor = (String) reply.get(0);
                count += ((List<?>) reply.get(1)).size();
                if (cursor.equals("0")) {
                    return count;
                }
            }
        }
        throw new IllegalStateException("SCAN did not finish");
    }

    /** A minimal RESP2 client: enough for ZCARD and SCAN. */
    private static final class Redis implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Redis(String address) throws IOException {
            String[] parts = address.split(":");
            socket = new Socket();
            socket.connect(new InetSocketAddress(parts[0], Integer.parseInt(parts[1])), 5000);
            socket.setSoTimeout(10_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        }

        Object call(String... args) throws IOException {
            StringBuilder request = new StringBuilder("*" + args.length + "\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
                    .append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            return read();
        }

        private Object read() throws IOException {
            int type = in.read();
            String line = line();
            switch (type) {
                case '+':
                    return line;
                case '-':
                    throw new IOException("redis: " + line);
                case ':':
                    return Long.parseLong(line);
                case '$': {
                    int length = Integer.parseInt(line);
                    if (length < 0) {
                        return null;
                    }
                    byte[] data = in.readNBytes(length + 2);
                    return new String(data, 0, length, StandardCharsets.UTF_8);
                }
                case '*': {
                    int count = Integer.parseInt(line);
                    List<Object> items = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        items.add(read());
                    }
                    return items;
                }
                default:
                    throw new IOException("redis: unexpected reply");
            }
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != '\r') {
                if (c < 0) {
                    throw new IOException("redis: connection closed");
                }
                line.append((char) c);
            }
            in.read();
            return line.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    // ---------------------------------------------------------------- the wire (HTTP/1.1 over NIO)

    /** What one exchange came to: a response, or a client timeout, or a failed connection. */
    private record Reply(int status, String body, long retryAfterSeconds, boolean replayed, String failure) {
        static Reply failed(String failure) {
            return new Reply(-1, "", -1, false, failure);
        }
    }

    /**
     * A lean HTTP/1.1 client for the placements: one selector thread, keep-alive connections, one exchange per
     * connection at a time (no pipelining), each with a deadline; an exchange past its deadline closes its connection,
     * as a client that gives up does. It is here rather than the JDK's client because it spends less CPU per request,
     * and the harness shares the machine's cores with the service under test. Answers are handed to an executor.
     */
    private static final class Wire {
        private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};
        private final InetSocketAddress address;
        private final String host;
        private final Selector selector;
        private final Executor callbacks;
        private final ConcurrentLinkedQueue<Exchange> submitted = new ConcurrentLinkedQueue<>();
        private final ArrayDeque<Connection> idle = new ArrayDeque<>();
        // Finished exchanges stay until their deadline (their connection is null then): removal would cost a scan.
        private final PriorityQueue<Exchange> deadlines = new PriorityQueue<>((a, b) -> Long.compare(a.deadline,
            b.deadline));
        private final AtomicBoolean sleeping = new AtomicBoolean();
        private final AtomicInteger connections = new AtomicInteger();
        private final boolean reset;
        private final List<InetSocketAddress> sources = new ArrayList<>();
        private int nextSource;

        Wire(URI base, Executor callbacks, boolean reset, int sourceAddresses) throws IOException {
            this.reset = reset;
            this.address = new InetSocketAddress(base.getHost(), base.getPort());
            // Connections from several loopback addresses: each has its own range of ports, so the TIME_WAIT left by
            // thousands of closed connections a second does not exhaust one range (as a fleet of agents has many).
            if (address.getAddress().isLoopbackAddress() && address.getAddress().getAddress().length == 4) {
                for (int i = 0; i < sourceAddresses; i++) {
                    sources.add(new InetSocketAddress("127.0.0." + (2 + i), 0));
                }
            }
            this.host = base.getHost() + ":" + base.getPort();
            this.selector = Selector.open();
            this.callbacks = callbacks;
            Thread thread = new Thread(this::run, "storm-wire");
            thread.setDaemon(true);
            thread.start();
        }

        /** The bytes of one request. */
        byte[] request(String method, String path, Map<String, String> headers, String body) {
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder(256).append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append("\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            head.append("Content-Length: ").append(content.length).append("\r\n\r\n");
            byte[] start = head.toString().getBytes(StandardCharsets.US_ASCII);
            byte[] all = Arrays.copyOf(start, start.length + content.length);
            System.arraycopy(content, 0, all, start.length, content.length);
            return all;
        }

        /** Sends a request; {@code done} gets its reply on the executor, once. */
        void send(byte[] request, long timeoutNanos, Consumer<Reply> done) {
            submitted.add(new Exchange(request, System.nanoTime() + timeoutNanos, done));
            if (sleeping.compareAndSet(true, false)) {
                selector.wakeup();
            }
        }

        /** A blocking send, bounded by the timeout (and a second more for the answer to be handed over). */
        Reply call(byte[] request, long timeoutNanos) throws InterruptedException {
            java.util.concurrent.CompletableFuture<Reply> reply = new java.util.concurrent.CompletableFuture<>();
            send(request, timeoutNanos, reply::complete);
            try {
                return reply.get(TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + 1000, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return Reply.failed("timeout");
            }
        }

        int open() {
            return connections.get();
        }

        private void run() {
            while (true) {
                try {
                    long now = System.nanoTime();
                    Exchange next = deadlines.peek();
                    long waitMs = next == null ? 50 : Math.max(1, Math.min(50, (next.deadline - now) / 1_000_000 + 1));
                    sleeping.set(true);
                    if (submitted.isEmpty()) {
                        selector.select(waitMs);
                    } else {
                        selector.selectNow();
                    }
                    sleeping.set(false);
                    now = System.nanoTime();
                    while (!deadlines.isEmpty() && deadlines.peek().deadline <= now) {
                        Exchange late = deadlines.poll();
                        if (late.connection != null) {
                            abandon(late.connection);
                        }
                    }
                    for (SelectionKey key : selector.selectedKeys()) {
                        ready(key);
                    }
                    selector.selectedKeys().clear();
                    Exchange exchange;
                    for (int i = 0; i < 256 && (exchange = submitted.poll()) != null; i++) {
                        start(exchange);
                    }
                } catch (IOException | RuntimeException e) {
                    System.out.println("wire: " + e);
                }
            }
        }

        private void start(Exchange exchange) {
            Connection connection = idle.pollLast();
            try {
                if (connection == null) {
                    SocketChannel channel = SocketChannel.open();
                    channel.configureBlocking(false);
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    if (!sources.isEmpty()) {
                        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                        channel.bind(sources.get(nextSource++ % sources.size()));
                    }
                    connection = new Connection(channel);
                    connections.incrementAndGet();
                    connection.key = channel.register(selector, 0, connection);
                    bind(connection, exchange);
                    if (channel.connect(address)) {
                        write(connection);
                    } else {
                        connection.key.interestOps(SelectionKey.OP_CONNECT);
                    }
                } else {
                    bind(connection, exchange);
                    write(connection);
                }
            } catch (IOException e) {
                if (connection != null && connection.exchange == exchange) {
                    finish(connection, Reply.failed(failureName(e)), false);
                } else {
                    if (connection != null) {
                        close(connection);
                    }
                    deliver(exchange, Reply.failed(failureName(e)));
                }
            }
        }

        private void bind(Connection connection, Exchange exchange) {
            connection.exchange = exchange;
            connection.out = ByteBuffer.wrap(exchange.request);
            connection.received = 0;
            exchange.connection = connection;
            deadlines.add(exchange);
        }

        private void ready(SelectionKey key) {
            Connection connection = (Connection) key.attachment();
            try {
                if (!key.isValid()) {
                    return;
                }
                if (key.isConnectable()) {
                    connection.channel.finishConnect();
                    write(connection);
                } else if (key.isWritable()) {
                    write(connection);
                } else if (key.isReadable()) {
                    read(connection);
                }
            } catch (IOException e) {
                if (connection.exchange != null) {
                    finish(connection, Reply.failed(failureName(e)), false);
                } else {
                    close(connection);
                }
            }
        }

        private void write(Connection connection) throws IOException {
            connection.channel.write(connection.out);
            connection.key.interestOps(connection.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        private void read(Connection connection) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(connection.in, connection.received,
                connection.in.length - connection.received);
            int n = connection.channel.read(buffer);
            if (n < 0) {
                if (connection.exchange != null) {
                    finish(connection, Reply.failed("closed"), false);
                } else {
                    close(connection);
                }
                return;
            }
            if (connection.exchange == null) {
                close(connection);
                return;
            }
            connection.received += n;
            if (connection.received == connection.in.length) {
                connection.in = Arrays.copyOf(connection.in, connection.in.length * 2);
            }
            Parsed parsed = parse(connection.in, connection.received);
            if (parsed != null) {
                finish(connection, parsed.reply, parsed.keepAlive);
            }
        }

        /**
         * A client that gives up closes its connection, with a FIN as HTTP libraries do; {@code --abandon=reset}
         * resets it instead (SO_LINGER 0), as a client or proxy that aborts does.
         */
        private void abandon(Connection connection) {
            if (reset) {
                try {
                    connection.channel.setOption(StandardSocketOptions.SO_LINGER, 0);
                } catch (IOException | RuntimeException ignored) {
                    // closed anyway
                }
            }
            finish(connection, Reply.failed("timeout"), false);
        }

        /** Ends the connection's exchange: the connection goes back to the pool, or is closed. */
        private void finish(Connection connection, Reply reply, boolean keepAlive) {
            Exchange exchange = connection.exchange;
            connection.exchange = null;
            exchange.connection = null;
            if (keepAlive) {
                connection.received = 0;
                idle.addLast(connection);
            } else {
                close(connection);
            }
            deliver(exchange, reply);
        }

        private void deliver(Exchange exchange, Reply reply) {
            callbacks.execute(() -> exchange.done.accept(reply));
        }

        private void close(Connection connection) {
            idle.remove(connection);
            if (connection.key != null) {
                connection.key.cancel();
            }
            try {
                connection.channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            if (!connection.closed) {
                connection.closed = true;
                connections.decrementAndGet();
            }
        }

        private static String failureName(IOException e) {
            return e instanceof ConnectException ? "refused" : e.getClass().getSimpleName();
        }

        /** The reply once the whole response is in (Content-Length or chunked), else null. */
        private static Parsed parse(byte[] data, int length) {
            int headerEnd = indexOf(data, length, HEADER_END, 0);
            if (headerEnd < 0) {
                return null;
            }
            String[] lines = new String(data, 0, headerEnd, StandardCharsets.ISO_8859_1).split("\r\n");
            int status = Integer.parseInt(lines[0].substring(9, 12));
            long contentLength = -1;
            boolean chunked = false;
            boolean keepAlive = lines[0].startsWith("HTTP/1.1");
            long retryAfter = -1;
            boolean replayed = false;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> contentLength = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    case "connection" -> keepAlive = !value.equalsIgnoreCase("close");
                    case "retry-after" -> retryAfter = Answer.seconds(value);
                    case "idempotent-replayed" -> replayed = true;
                    default -> {
                    }
                }
            }
            int bodyStart = headerEnd + 4;
            String body;
            if (chunked) {
                java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
                int at = bodyStart;
                while (true) {
                    int lineEnd = indexOf(data, length, HEADER_END, at, 2);
                    if (lineEnd < 0) {
                        return null;
                    }
                    String sizeText = new String(data, at, lineEnd - at, StandardCharsets.ISO_8859_1);
                    int size = Integer.parseInt(sizeText.split(";")[0].trim(), 16);
                    at = lineEnd + 2;
                    if (size == 0) {
                        if (indexOf(data, length, HEADER_END, at - 2) < 0) {
                            return null;
                        }
                        break;
                    }
                    if (at + size + 2 > length) {
                        return null;
                    }
                    content.write(data, at, size);
                    at += size + 2;
                }
                body = content.toString(StandardCharsets.UTF_8);
            } else {
                long size = Math.max(0, contentLength);
                if (bodyStart + size > length) {
                    return null;
                }
                body = new String(data, bodyStart, (int) size, StandardCharsets.UTF_8);
                keepAlive &= contentLength >= 0;
            }
            return new Parsed(new Reply(status, body, retryAfter, replayed, null), keepAlive);
        }

        private static int indexOf(byte[] data, int length, byte[] pattern, int from) {
            return indexOf(data, length, pattern, from, pattern.length);
        }

        /** Where the first {@code patternLength} bytes of the pattern start, from {@code from}, or -1. */
        private static int indexOf(byte[] data, int length, byte[] pattern, int from, int patternLength) {
            for (int i = Math.max(0, from); i + patternLength <= length; i++) {
                boolean match = true;
                for (int j = 0; j < patternLength && match; j++) {
                    match = data[i + j] == pattern[j];
                }
                if (match) {
                    return i;
                }
            }
            return -1;
        }

        private record Parsed(Reply reply, boolean keepAlive) {
        }

        private static final class Exchange {
            final byte[] request;
            final long deadline;
            final Consumer<Reply> done;
            Connection connection;

            Exchange(byte[] request, long deadline, Consumer<Reply> done) {
                this.request = request;
                this.deadline = deadline;
                this.done = done;
            }
        }

        private static final class Connection {
            final SocketChannel channel;
            SelectionKey key;
            Exchange exchange;
            ByteBuffer out;
            byte[] in = new byte[8192];
            int received;
            boolean closed;

            Connection(SocketChannel channel) {
                this.channel = channel;
            }
        }
    }

    // ---------------------------------------------------------------- requests and tokens

    private byte[] placement(Principal principal, String key, int sku) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", principal.bearer);
        headers.put("Content-Type", "application/json");
        headers.put("Idempotency-Key", key);
        return wire.request("POST", "/api/v1/orders", headers, body(principal, sku));
    }

    private static String body(Principal principal, int sku) {
        return "{\"customerId\":\"" + principal.subject + "\",\"items\":[{\"sku\":\"sku-" + sku
            + "\",\"quantity\":1}],\"currency\":\"EUR\",\"paymentToken\":\"tok_ok\"}";
    }

    /** An RS256 token with the claims the service reads (docs/security-and-limits.md), signed with the run's key. */
    private String token(String tenant, String subject, String callerType) throws GeneralSecurityException {
        long now = System.currentTimeMillis() / 1000;
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = url.encodeToString(String.format(Locale.ROOT, "{\"iss\":\"%s\",\"sub\":\"%s\",\"tenant\":\"%s\","
            + "\"scope\":\"%s\",\"caller_type\":\"%s\",\"iat\":%d,\"exp\":%d}", options.issuer, subject, tenant, SCOPES,
            callerType, now, now + 7200).getBytes(StandardCharsets.UTF_8));
        Signature signature = Signature.getInstance("SHA256withRSA");
        signature.initSign(signingKey);
        signature.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
        return header + "." + payload + "." + url.encodeToString(signature.sign());
    }

    /** The private key of {@code openssl genpkey} (PKCS#8 PEM), or its base64 without the armour. */
    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    // ---------------------------------------------------------------- small helpers

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private static long[] sorted(ConcurrentLinkedQueue<Long> values) {
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** The q-quantile of sorted microseconds (nearest rank), or -1 when there are none. */
    private static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static String millis(long micros) {
        return micros < 0 ? "-" : String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    // ---------------------------------------------------------------- values

    /** Every command-line option, with its default. */
    static final class Options {
        String base;
        String management;
        String redis;
        String key;
        String issuer;
        String tenantPrefix = "storm";
        int tenants = 4;
        int principals = 64;
        int skus = 8;
        long stock = 1_000_000_000L;
        double plateau;
        double steadyShare = 0.5;
        int warmupSeconds = 20;
        int warmupMaxSeconds = 90;
        int warmupConcurrency = 32;
        int rampSeconds = 5;
        int[] rampConcurrency = {16, 64, 256};
        int steadySeconds = 15;
        int storm2Seconds = 15;
        int storm4Seconds = 15;
        int recoverySeconds = 15;
        long timeoutMs = 1000;
        int maxAttempts = 10;
        long intentDeadlineMs = 20_000;
        long retryAfterCapMs = 60_000;
        long backoffBaseMs = 50;
        long backoffCapMs = 2000;
        double doubleShare = 0.05;
        int maxInflight = 1900;
        int clientThreads = 4;
        int settleSeconds = 300;
        boolean abandonWithFin = true;
        int sourceAddresses = 32;
        String pids = "";
        int clockTicks = 100;
        String scenario = "storm";
        int floodConnections = 1500;
        int polite = 20;
        long politeIntervalMs = 500;
        long politeTimeoutMs = 5000;
        int calmSeconds = 15;
        int floodSeconds = 30;

        static Options parse(String[] args) {
            Options o = new Options();
            for (String arg : args) {
                if (!arg.startsWith("--") || !arg.contains("=")) {
                    throw new IllegalArgumentException("options are --name=value: " + arg);
                }
                String name = arg.substring(2, arg.indexOf('='));
                String value = arg.substring(arg.indexOf('=') + 1);
                switch (name) {
                    case "base" -> o.base = value;
                    case "management" -> o.management = value;
                    case "redis" -> o.redis = value;
                    case "key" -> o.key = value;
                    case "issuer" -> o.issuer = value;
                    case "tenant-prefix" -> o.tenantPrefix = value;
                    case "tenants" -> o.tenants = Integer.parseInt(value);
                    case "principals" -> o.principals = Integer.parseInt(value);
                    case "skus" -> o.skus = Integer.parseInt(value);
                    case "stock" -> o.stock = Long.parseLong(value);
                    case "plateau" -> o.plateau = Double.parseDouble(value);
                    case "steady-share" -> o.steadyShare = Double.parseDouble(value);
                    case "warmup" -> o.warmupSeconds = Integer.parseInt(value);
                    case "warmup-max" -> o.warmupMaxSeconds = Integer.parseInt(value);
                    case "warmup-connections" -> o.warmupConcurrency = Integer.parseInt(value);
                    case "ramp-step" -> o.rampSeconds = Integer.parseInt(value);
                    case "ramp-connections" -> o.rampConcurrency = Arrays.stream(value.split(","))
                        .mapToInt(Integer::parseInt).toArray();
                    case "phase" -> {
                        int seconds = Integer.parseInt(value);
                        o.steadySeconds = seconds;
                        o.storm2Seconds = seconds;
                        o.storm4Seconds = seconds;
                        o.recoverySeconds = seconds;
                    }
                    case "steady" -> o.steadySeconds = Integer.parseInt(value);
                    case "storm2" -> o.storm2Seconds = Integer.parseInt(value);
                    case "storm4" -> o.storm4Seconds = Integer.parseInt(value);
                    case "recovery" -> o.recoverySeconds = Integer.parseInt(value);
                    case "timeout-ms" -> o.timeoutMs = Long.parseLong(value);
                    case "max-attempts" -> o.maxAttempts = Integer.parseInt(value);
                    case "intent-deadline-ms" -> o.intentDeadlineMs = Long.parseLong(value);
                    case "retry-after-cap-ms" -> o.retryAfterCapMs = Long.parseLong(value);
                    case "backoff-base-ms" -> o.backoffBaseMs = Long.parseLong(value);
                    case "backoff-cap-ms" -> o.backoffCapMs = Long.parseLong(value);
                    case "double-share" -> o.doubleShare = Double.parseDouble(value);
                    case "max-inflight" -> o.maxInflight = Integer.parseInt(value);
                    case "client-threads" -> o.clientThreads = Integer.parseInt(value);
                    case "settle-seconds" -> o.settleSeconds = Integer.parseInt(value);
                    case "abandon" -> o.abandonWithFin = switch (value) {
                        case "reset" -> false;
                        case "close" -> true;
                        default -> throw new IllegalArgumentException("--abandon is reset or close");
                    };
                    case "source-addresses" -> o.sourceAddresses = Integer.parseInt(value);
                    case "pids" -> o.pids = value;
                    case "clock-ticks" -> o.clockTicks = Integer.parseInt(value);
                    case "scenario" -> o.scenario = switch (value) {
                        case "storm", "flood" -> value;
                        default -> throw new IllegalArgumentException("--scenario is storm or flood");
                    };
                    case "flood-connections" -> o.floodConnections = Integer.parseInt(value);
                    case "polite" -> o.polite = Integer.parseInt(value);
                    case "polite-interval-ms" -> o.politeIntervalMs = Long.parseLong(value);
                    case "polite-timeout-ms" -> o.politeTimeoutMs = Long.parseLong(value);
                    case "calm" -> o.calmSeconds = Integer.parseInt(value);
                    case "flood" -> o.floodSeconds = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option --" + name);
                }
            }
            if (o.base == null || o.redis == null || o.key == null || o.issuer == null) {
                throw new IllegalArgumentException("--base, --redis, --key and --issuer are required");
            }
            return o;
        }
    }

    private record Principal(String tenant, String subject, String callerType, boolean immediate, String bearer) {
    }

    private record Phase(String name, double rate, int start, int seconds) {
        int end() {
            return start + seconds;
        }
    }

    /** One client intent: one order wanted, under one key, sent by one or two copies at once. */
    private static final class Intent {
        final Principal principal;
        final String key;
        final int sku;
        final int copies;
        final long deadline;
        final AtomicInteger attempts = new AtomicInteger();
        String orderId;
        volatile boolean unsettled;

        Intent(Principal principal, String key, int sku, int copies, long deadline) {
            this.principal = principal;
            this.key = key;
            this.sku = sku;
            this.copies = copies;
            this.deadline = deadline;
        }
    }

    /** One copy's retry chain: at most one attempt in flight at a time. */
    private static final class Copy {
        volatile int attempts;
    }

    private static final class Settlement {
        final LongAdder same = new LongAdder();
        final LongAdder changed = new LongAdder();
        final LongAdder foundLater = new LongAdder();
        final LongAdder placedLater = new LongAdder();
        final LongAdder refused = new LongAdder();
        final LongAdder unsettled = new LongAdder();
        final LongAdder transportRetries = new LongAdder();
        double seconds;
        int intents;
    }

    /** How an outcome counts: its column, whether it is an admitted answer (latency), whether the client retries. */
    private enum Kind {
        PLACED(null, true, false),
        WAIT(Counter.WAIT409, true, true),
        SHED_LIMITED(Counter.SHED429, false, true),
        SHED_OVERLOADED(Counter.SHED503, false, true),
        SERVER_ERROR(Counter.ERROR5XX, true, true),
        TIMEOUT(Counter.TIMEOUTS, false, true),
        CONNECTION(Counter.CONNECTION, false, true),
        OTHER(Counter.OTHER, true, false);

        final Counter counter;
        final boolean admitted;
        final boolean retried;

        Kind(Counter counter, boolean admitted, boolean retried) {
            this.counter = counter;
            this.admitted = admitted;
            this.retried = retried;
        }
    }

    /** One attempt's outcome, classified as docs/load.md counts it. */
    private static final class Answer {
        final Kind kind;
        final String label;
        final long retryAfterSeconds;
        final String orderId;

        private Answer(Kind kind, String label, long retryAfterSeconds, String orderId) {
            this.kind = kind;
            this.label = label;
            this.retryAfterSeconds = retryAfterSeconds;
            this.orderId = orderId;
        }

        static Answer of(Reply reply) {
            if (reply.failure() != null) {
                return reply.failure().equals("timeout") ? new Answer(Kind.TIMEOUT, "timeout", -1, null)
                    : new Answer(Kind.CONNECTION, "connection:" + reply.failure(), -1, null);
            }
            int status = reply.status();
            long retryAfter = reply.retryAfterSeconds();
            if (status / 100 == 2) {
                Matcher id = ORDER_ID.matcher(reply.body());
                return new Answer(Kind.PLACED, Integer.toString(status), retryAfter, id.find() ? id.group(1) : "?");
            }
            Matcher typeMatcher = PROBLEM_TYPE.matcher(reply.body());
            String type = typeMatcher.find() ? typeMatcher.group(1).substring(typeMatcher.group(1).lastIndexOf('/') + 1)
                : "-";
            String label = status + ":" + type + (retryAfter >= 0 ? ":retry-after" : ":no-retry-after");
            Kind kind;
            if (status == 409 && type.equals("idempotency-request-in-progress")) {
                kind = Kind.WAIT;
            } else if (status == 429 && retryAfter >= 0) {
                kind = Kind.SHED_LIMITED;
            } else if (status == 503 && type.equals("overloaded") && retryAfter >= 0) {
                kind = Kind.SHED_OVERLOADED;
            } else if (status / 100 == 5) {
                kind = Kind.SERVER_ERROR;
            } else {
                kind = Kind.OTHER;
            }
            return new Answer(kind, label, retryAfter, null);
        }

        /** What docs/load.md allows under load: 2xx, 409 and 429 with Retry-After, 503 overloaded with Retry-After. */
        static boolean allowed(String label) {
            return label.matches("2\\d\\d|timeout|409:[^:]+:retry-after|429:[^:]+:retry-after|503:overloaded:retry-after");
        }

        static long seconds(String value) {
            try {
                return Math.max(0, Long.parseLong(value.trim()));
            } catch (NumberFormatException e) {
                return 1;
            }
        }
    }

    private enum Counter { OFFERED, RETRIES, GOODPUT, ADMITTED, SHED429, SHED503, WAIT409, TIMEOUTS, ERROR5XX,
        CONNECTION, OTHER, REJECTED, DUPLICATES }

    /** The counts of one second of the storm; latencies (microseconds) of its admitted answers. */
    private static final class Second {
        static final String HEADER = String.format("%4s %-9s %7s %7s %6s %7s %7s %7s %7s %6s %7s %5s %5s %4s %5s %5s"
            + " %8s %8s %8s %6s  %s", "t", "phase", "target", "offered", "retry", "admit", "goodput", "shed429", "shed503",
            "409", "timeout", "5xx", "other", "conn", "full", "dup", "p50 ms", "p99 ms", "inflight", "conns",
            "cpu % (one core = 100)");
        final int index;
        final String phase;
        final double target;
        final LongAdder[] counts = new LongAdder[Counter.values().length];
        final ConcurrentLinkedQueue<Long> admitted = new ConcurrentLinkedQueue<>();
        long[] latencies = new long[0];
        long p50 = -1;
        long p99 = -1;
        int inflightNow;
        int connectionsNow;
        String cpu = "";

        Second(int index, Phase phase) {
            this.index = index;
            this.phase = phase.name;
            this.target = phase.rate;
            for (int i = 0; i < counts.length; i++) {
                counts[i] = new LongAdder();
            }
        }

        void add(Counter counter) {
            counts[counter.ordinal()].increment();
        }

        long get(Counter counter) {
            return counts[counter.ordinal()].sum();
        }

        void admitted(long micros) {
            add(Counter.ADMITTED);
            admitted.add(micros);
        }

        void close(int inflight, int connections, String cpuNow) {
            latencies = sorted(admitted);
            p50 = percentile(latencies, 0.50);
            p99 = percentile(latencies, 0.99);
            inflightNow = inflight;
            connectionsNow = connections;
            cpu = cpuNow;
        }

        String row() {
            return String.format(Locale.ROOT, "%4d %-9s %7.0f %7d %6d %7d %7d %7d %7d %6d %7d %5d %5d %5d %5d %4d %8s %8s %8d %6d  %s",
                index, phase, target, get(Counter.OFFERED), get(Counter.RETRIES), get(Counter.ADMITTED),
                get(Counter.GOODPUT), get(Counter.SHED429), get(Counter.SHED503), get(Counter.WAIT409),
                get(Counter.TIMEOUTS), get(Counter.ERROR5XX), get(Counter.OTHER), get(Counter.CONNECTION),
                get(Counter.REJECTED), get(Counter.DUPLICATES), millis(p50), millis(p99), inflightNow, connectionsNow, cpu);
        }
    }

    private static final class PhaseFigures {
        final String name;
        final int seconds;
        final double rate;
        double offeredPerSecond;
        long goodputMedian;
        long goodputLow;
        long shed;
        long wait409;
        long timeouts;
        long errors;
        long p50;
        long p99;

        PhaseFigures(String name, int seconds, double rate) {
            this.name = name;
            this.seconds = seconds;
            this.rate = rate;
        }

        String row(double plateau) {
            return String.format(Locale.ROOT, "  %-9s %5d %8.0f %9.0f %9d %9d %6.0f%% %7d %7d %8d %6d %8s %8s", name,
                seconds, rate, offeredPerSecond, goodputMedian, goodputLow,
                plateau > 0 ? 100.0 * goodputMedian / plateau : 0, shed, wait409, timeouts, errors, millis(p50),
                millis(p99));
        }
    }

    /** CPU time of the service, Redis and this client per second, from /proc (Linux); empty elsewhere. */
    private static final class Cpu {
        private final Map<String, Long> pids = new LinkedHashMap<>();
        private final Map<String, Long> last = new ConcurrentHashMap<>();
        private final int ticksPerSecond;
        private long lastNanos;

        Cpu(String spec, int ticksPerSecond) {
            this.ticksPerSecond = ticksPerSecond;
            for (String entry : spec.split(",")) {
                if (entry.contains("=")) {
                    pids.put(entry.substring(0, entry.indexOf('=')), Long.parseLong(entry.substring(entry.indexOf('=') + 1)));
                }
            }
            pids.put("client", ProcessHandle.current().pid());
        }

        String sample() {
            long now = System.nanoTime();
            double elapsed = lastNanos == 0 ? 0 : (now - lastNanos) / 1e9;
            lastNanos = now;
            StringBuilder line = new StringBuilder();
            for (Map.Entry<String, Long> entry : pids.entrySet()) {
                long ticks = ticks(entry.getValue());
                Long previous = last.put(entry.getKey(), ticks);
                if (previous != null && elapsed > 0 && ticks >= 0) {
                    line.append(String.format(Locale.ROOT, "%s %3.0f ", entry.getKey(),
                        100.0 * (ticks - previous) / ticksPerSecond / elapsed));
                }
            }
            return line.toString().trim();
        }

        private static long ticks(long pid) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
    }
}
