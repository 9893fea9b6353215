package membound.calibrator.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import membound.benchmarks.placement.Placement;
import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.suite.SuitePlan;
import membound.benchmarks.suite.SuiteRequest;
import membound.benchmarks.suite.SuiteRunner;
import membound.calibrator.store.ProfileStore;
import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.PlatformSpec;
import membound.hardware.host.CpuList;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.host.LoadMonitor;
import membound.profile.Profile;
import membound.profile.Provenance;
import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;

/**
 * A calibration: detect the host, run the mode's benchmarks through JMH's Runner API, build the profile, and
 * store it (with JMH's raw JSON beside it). Nothing is written before every benchmark has run and passed
 * its checks, and the profile appears under its name in one atomic step: an interrupted calibration leaves
 * earlier profiles as they were and no partial one behind.
 */
public final class Calibrator {

    /**
     * What to calibrate: {@code Request.builder(mode, store).pin(true).tenants(4).build()}. Unset, a request has
     * the platform detected, the nominal bandwidth from the catalog, huge pages, no pinning, each core type
     * measured, forks on this JVM's java, no tenants curve and the GPU measured where it can be.
     */
    public static final class Request {

        private final CalibrationMode mode;
        private final ProfileStore store;
        private final Optional<String> platform;
        private final Optional<String> nominalBandwidth;
        private final boolean hugePages;
        private final String commandLine;
        private final String memboundVersion;
        private final boolean pin;
        private final boolean coreTypes;
        private final Optional<String> jvm;
        private final int tenants;
        private final GpuPolicy gpu;

        private Request(Builder b) {
            this.mode = b.mode;
            this.store = b.store;
            this.platform = b.platform;
            this.nominalBandwidth = b.nominalBandwidth;
            this.hugePages = b.hugePages;
            this.commandLine = b.commandLine;
            this.memboundVersion = b.memboundVersion;
            this.pin = b.pin;
            this.coreTypes = b.coreTypes;
            this.jvm = b.jvm;
            this.tenants = b.tenants;
            this.gpu = b.gpu;
        }

        public static Builder builder(CalibrationMode mode, ProfileStore store) {
            return new Builder(mode, store);
        }

        public CalibrationMode mode() {
            return mode;
        }

        public ProfileStore store() {
            return store;
        }

        /** A catalog id to use instead of the detected platform, if given. */
        public Optional<String> platform() {
            return platform;
        }

        /** A nominal memory bandwidth such as {@code 273GB/s}, if given. */
        public Optional<String> nominalBandwidth() {
            return nominalBandwidth;
        }

        public boolean hugePages() {
            return hugePages;
        }

        /** The command line, as the profile's provenance records it. */
        public String commandLine() {
            return commandLine;
        }

        public String memboundVersion() {
            return memboundVersion;
        }

        /** Bind each benchmark thread to one cpu ({@code --pin}). */
        public boolean pin() {
            return pin;
        }

        /** On a host with several core types, measure each on its own as well as all together. */
        public boolean coreTypes() {
            return coreTypes;
        }

        /**
         * The java that runs the benchmark forks, if not this one ({@code --jvm}: another JDK, or a wrapper such as
         * CI's emulated aarch64 java).
         */
        public Optional<String> jvm() {
            return jvm;
        }

        /** The tenants curve's largest count; 0 for none. */
        public int tenants() {
            return tenants;
        }

        public GpuPolicy gpu() {
            return gpu;
        }

        /** A {@link Request}, one named setting at a time. */
        public static final class Builder {
            private final CalibrationMode mode;
            private final ProfileStore store;
            private Optional<String> platform = Optional.empty();
            private Optional<String> nominalBandwidth = Optional.empty();
            private boolean hugePages = true;
            private String commandLine = "membound calibrate";
            private String memboundVersion = "unknown";
            private boolean pin;
            private boolean coreTypes = true;
            private Optional<String> jvm = Optional.empty();
            private int tenants;
            private GpuPolicy gpu = GpuPolicy.AUTO;

            private Builder(CalibrationMode mode, ProfileStore store) {
                this.mode = Objects.requireNonNull(mode, "mode");
                this.store = Objects.requireNonNull(store, "store");
            }

            /** A catalog id to use instead of the detected platform; null for none. */
            public Builder platform(String id) {
                this.platform = Optional.ofNullable(id);
                return this;
            }

            /** A nominal memory bandwidth such as {@code 273GB/s}; null for the catalog's. */
            public Builder nominalBandwidth(String bandwidth) {
                this.nominalBandwidth = Optional.ofNullable(bandwidth);
                return this;
            }

            public Builder hugePages(boolean on) {
                this.hugePages = on;
                return this;
            }

            public Builder commandLine(String line) {
                this.commandLine = Objects.requireNonNull(line, "commandLine");
                return this;
            }

            public Builder memboundVersion(String version) {
                this.memboundVersion = Objects.requireNonNull(version, "memboundVersion");
                return this;
            }

            public Builder pin(boolean on) {
                this.pin = on;
                return this;
            }

            public Builder coreTypes(boolean each) {
                this.coreTypes = each;
                return this;
            }

            /** The java that runs the forks; null for this JVM's. */
            public Builder jvm(String java) {
                this.jvm = Optional.ofNullable(java);
                return this;
            }

            /**
             * The tenants curve's largest count, 0 for none.
             *
             * @throws BadInputException for a negative count ({@code --tenants})
             */
            public Builder tenants(int count) {
                if (count < 0) {
                    throw new BadInputException("tenants must be 0 (none) or more: tenants=" + count);
                }
                this.tenants = count;
                return this;
            }

            public Builder gpu(GpuPolicy policy) {
                this.gpu = Objects.requireNonNull(policy, "gpu");
                return this;
            }

            public Request build() {
                return new Request(this);
            }
        }
    }

    /**
     * What a calibration will run on a host, before anything runs.
     *
     * @param placements where bandwidth is measured: each core type and then {@code all}, or {@code all} alone
     * @param coreTypeNote one line saying which, for the progress output
     */
    public record Plan(Host host, SuitePlan suite, List<Placement> placements, String coreTypeNote) {
    }

    /** What a calibration produced. */
    public record Outcome(Path profileFile, Profile profile, Duration elapsed) {
    }

    private Calibrator() {
    }

    /**
     * Runs a calibration, printing one progress line per measurement to {@code progress}.
     *
     * @throws BadInputException for an unknown platform or a malformed bandwidth, before anything runs
     * @throws CalibrationFailedException when a benchmark fails (a forked VM dies, a result fails validation)
     */
    public static Outcome run(Request request, PrintWriter progress) {
        return run(request, progress, request.mode()::requests, request.mode().settings());
    }

    /**
     * As {@link #run(Request, PrintWriter)}, with the benchmarks and JMH settings given instead of taken from
     * the mode (which still names the run in the profile): how tests calibrate with tiny working sets.
     *
     * @param requests the benchmarks to run, given the host's logical cpu count
     */
    static Outcome run(Request request, PrintWriter progress, java.util.function.IntFunction<List<SuiteRequest>> requests,
            Options settings) {
        Instant started = Instant.now();
        Catalog catalog = Catalog.builtIn();
        Host host = HostDetector.detect();
        if (request.platform().isPresent()) {
            host = catalog.withPlatform(host, request.platform().get());
        }
        Optional<PlatformSpec> platform = catalog.match(host);
        ProfileBuilder.NominalBandwidth nominal = nominal(request, platform, host);
        CacheSizes caches = CacheSizes.of(host);
        if (request.tenants() > host.logicalCpus()) {
            throw new BadInputException("tenants must be 1 to " + host.logicalCpus() + " (each tenant needs a cpu of "
                    + "its own): tenants=" + request.tenants());
        }

        Plan planned = plan(request, host, requests, settings);
        SuitePlan plan = planned.suite();
        java.util.Map<String, String> recorded = new java.util.TreeMap<>(request.mode().recordedSettings());
        recorded.put("jvm.transparentHugePages", Boolean.toString(plan.transparentHugePages()));
        recorded.put("placement.pin", Boolean.toString(plan.pinned()));
        progress.println("membound calibrate --" + request.mode().label() + " on " + host.hostname() + " ("
                + host.cpu().modelName() + ", " + host.logicalCpus() + " cpus, caches from " + caches.source()
                + "): " + trials(plan) + " measurements");
        progress.println(planned.coreTypeNote());
        progress.flush();
        GpuMeasurement.Outcome gpu = GpuMeasurement.attempt(request.gpu(), request.mode().gpuPlan(), progress);
        recorded.put("gpu", request.gpu().label());

        Optional<LoadMonitor> monitor = LoadMonitor.start(Path.of("/proc"), host.logicalCpus());
        ProgressFormat format = new ProgressFormat(progress, trials(plan), monitor.orElse(null));
        List<RunResult> results;
        List<membound.profile.TenantEntry> tenants = List.of();
        MemoryCounters.Reading counters;
        LoadReport load;
        try {
            results = SuiteRunner.run(plan, format);
            if (request.tenants() > 0) {
                long dram = membound.benchmarks.sizing.WorkingSet.DRAM_MULTIPLE * caches.lastLevelTotalBytes();
                // A smoke run checks the machinery with small arrays, as its other benchmarks do.
                long arrayBytes = request.mode().isSmoke() ? 64L << 20 : dram;
                boolean smoke = request.mode().isSmoke();
                tenants = TenantsMeasurement.measure(request.tenants(), host.logicalCpus(), arrayBytes, dram,
                        plan.transparentHugePages(), request.jvm().orElse(null), recorded, progress,
                        smoke ? 200 : TenantsMeasurement.WARMUP_MILLIS, smoke ? 500 : TenantsMeasurement.MEASURE_MILLIS,
                        smoke ? 1 : TenantsMeasurement.ROUNDS);
            }
            // Whether stores allocate, as the memory controller counts it, where the host lets perf read it.
            boolean smoke = request.mode().isSmoke();
            counters = MemoryCounters.read(MemoryCounters.EVENT_SOURCES, "perf", host.logicalCpus(),
                    smoke ? 64L << 20 : membound.benchmarks.sizing.WorkingSet.DRAM_MULTIPLE * caches.lastLevelTotalBytes(),
                    plan.transparentHugePages(), request.jvm().orElse(null), progress,
                    smoke ? 200 : MemoryCounters.WARMUP_MILLIS, smoke ? 500 : MemoryCounters.WINDOW_MILLIS);
        } catch (RunnerException e) {
            throw new CalibrationFailedException(rootMessage(e), format.jmhTail());
        } finally {
            monitor.ifPresent(LoadMonitor::close);
        }
        load = monitor.map(m -> new LoadReport(true, m.otherCpusOverall(), format.loaded(), trials(plan)))
                .orElseGet(() -> LoadReport.unmonitored(trials(plan)));
        if (results.size() < trials(plan)) {
            throw new CalibrationFailedException("only " + results.size() + " of " + trials(plan)
                    + " measurements completed", format.jmhTail());
        }
        Profile profile = new ProfileBuilder(host, caches, platform, nominal, recorded, request.commandLine(),
                started, request.memboundVersion()).build(results, load, tenants, gpu, counters);
        Path file = request.store().save(profile, rawJson(results));
        // The stored profile names its raw result file: return exactly what was written.
        return new Outcome(file, membound.profile.ProfileJson.read(file), Duration.between(started, Instant.now()));
    }

    /** What {@code request} will run on {@code host}: the mode's benchmarks, placed by core type. */
    public static Plan plan(Request request, Host host) {
        return plan(request, host, request.mode()::requests, request.mode().settings());
    }

    /**
     * The plan with the given benchmarks (on all cpus) and JMH settings. On a host with several core types
     * (and {@link Request#coreTypes()}), the mode's {@link CalibrationMode#placementRequests()} run on each type
     * first, then everything on all cpus; in {@code full} each cluster gets {@link CalibrationMode#clusterRequests()}.
     *
     * @throws BadInputException as {@link SuitePlan#of(List, Options, Host, boolean, boolean)}
     */
    static Plan plan(Request request, Host host, java.util.function.IntFunction<List<SuiteRequest>> requests,
            Options settings) {
        List<Placement> placements = request.coreTypes() ? Placement.perCoreType(host, request.pin())
                : List.of(Placement.all(host, request.pin()));
        List<Placement> clusters = request.coreTypes() && !request.mode().clusterRequests().isEmpty()
                ? Placement.perCluster(host, request.pin()) : List.of();
        List<SuiteRequest> all = new ArrayList<>();
        for (Placement placement : placements) {
            if (placement.confinesFork()) {
                request.mode().placementRequests().forEach(r -> all.add(r.on(placement.name())));
            }
        }
        for (Placement cluster : clusters) {
            request.mode().clusterRequests().forEach(r -> all.add(r.on(cluster.name())));
        }
        all.addAll(requests.apply(host.logicalCpus()));
        Options forks = request.jvm().isEmpty() ? settings
                : new OptionsBuilder().parent(settings).jvm(request.jvm().get()).build();
        SuitePlan suite = SuitePlan.of(all, forks, host, request.hugePages(), request.pin());
        List<Placement> measured = suite.placements();
        return new Plan(host, suite, measured, coreTypeNote(host, request, measured));
    }

    private static String coreTypeNote(Host host, Request request, List<Placement> measured) {
        String pinning = request.pin() ? "; each benchmark thread bound to one cpu (--pin)" : "";
        if (host.coreTypes().isEmpty()) {
            return "core types unknown: all " + host.logicalCpus() + " cpus measured together" + pinning;
        }
        if (!host.heterogeneous()) {
            return "one core type (" + host.coreTypes().get(0).name() + "): all " + host.logicalCpus()
                    + " cpus measured together" + pinning;
        }
        String types = String.join(", ", host.coreTypes().stream()
                .map(t -> t.name() + " (" + t.cpus().size() + " cpus " + CpuList.format(t.cpus()) + ")").toList());
        if (!request.coreTypes()) {
            return host.coreTypes().size() + " core types, " + types + ": all " + host.logicalCpus()
                    + " cpus measured together only (--no-core-types)" + pinning;
        }
        return host.coreTypes().size() + " core types, " + types + ": bandwidth measured on "
                + String.join(", ", measured.stream().map(Placement::name).toList()) + " (each type on its own, then all "
                + host.logicalCpus() + " together; ceilings from all)" + pinning;
    }

    private static ProfileBuilder.NominalBandwidth nominal(Request request, Optional<PlatformSpec> platform, Host host) {
        if (request.nominalBandwidth().isPresent()) {
            String given = request.nominalBandwidth().get();
            return new ProfileBuilder.NominalBandwidth(Units.parseBandwidth("--nominal-bandwidth", given),
                    Provenance.user("--nominal-bandwidth " + given), null);
        }
        return platform.flatMap(spec -> spec.nominalHostMemoryBandwidth()
                        .map(figure -> new ProfileBuilder.NominalBandwidth(figure.value(),
                                Provenance.datasheet(figure.source()), null)))
                .orElseGet(() -> new ProfileBuilder.NominalBandwidth(null, null, platform.isPresent()
                        ? "the catalog entry for " + platform.get().name() + " has no memory bandwidth"
                        : "no catalog entry matches this host (" + host.cpu().modelName()
                                + "); give one with --nominal-bandwidth or --platform"));
    }

    /** Benchmark runs in the plan: the product of each step's parameter value counts. */
    static int trials(SuitePlan plan) {
        int trials = 0;
        for (SuitePlan.Step step : plan.steps()) {
            int product = 1;
            for (String name : step.benchmark().parameterNames()) {
                product *= step.options().getParameter(name).hasValue()
                        ? step.options().getParameter(name).get().size() : step.benchmark().defaults(name).length;
            }
            trials += product;
        }
        return trials;
    }

    private static byte[] rawJson(List<RunResult> results) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream json = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, json).writeOut(results);
        }
        return bytes.toByteArray();
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
