package membound.validate;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import membound.benchmarks.results.PassTimes;
import membound.benchmarks.suite.SuitePlan;
import membound.benchmarks.suite.SuiteRequest;
import membound.benchmarks.suite.SuiteRunner;
import membound.benchmarks.training.TenantStepTimes;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.host.LoadMonitor;
import membound.model.Estimator;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.roofline.Bound;
import membound.model.roofline.OperationTime;

/**
 * A validation: run the reference workloads through the suite (JMH's Runner API, as a calibration runs its
 * benchmarks), predict each from the profile with the model, and put the two side by side, with the
 * datasheet-based prediction beside them.
 *
 * <pre>
 * benchmarks (training workloads) --JMH--> measured step
 * profile --Machines--> model (same operations, sizes, precisions) --> predicted step
 * </pre>
 */
public final class Validation {

    /**
     * What to validate.
     *
     * @param profile the calibrated machine and, if the user gave one, a nominal bandwidth for the datasheet basis
     * @param settings JMH's iterations, forks and timeouts for every workload
     * @param breakdown also time every operation alone in this JVM (plain Java), beside the model's time for it
     * @param driftProbe bracket the workloads with a {@link DriftProbe} and predict them at its rates too
     */
    public record Request(ValidationMachines profile, List<ReferenceWorkload> workloads, Options settings,
            boolean hugePages, boolean breakdown, boolean driftProbe, String commandLine) {
    }

    private Validation() {
    }

    /** JMH settings of a validation: those of {@code calibrate --standard} (2 warm-up, 5 measured 1 s iterations). */
    public static Options standardSettings() {
        return new OptionsBuilder().warmupIterations(2).warmupTime(org.openjdk.jmh.runner.options.TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(org.openjdk.jmh.runner.options.TimeValue.seconds(1))
                .forks(1).timeout(org.openjdk.jmh.runner.options.TimeValue.minutes(10)).shouldFailOnError(true)
                .build();
    }

    /**
     * Runs the workloads, printing one progress line each to {@code progress}, and returns the report.
     *
     * @throws ValidationFailedException when a workload fails (a forked VM dies, a step fails its check)
     */
    public static ValidationReport run(Request request, PrintWriter progress) {
        return run(request, progress, ReferenceWorkload::request);
    }

    /**
     * As {@link #run(Request, PrintWriter)}, with what the suite runs for each workload given (the benchmark at
     * other sizes): how tests validate with tiny workloads.
     */
    static ValidationReport run(Request request, PrintWriter progress,
            java.util.function.Function<ReferenceWorkload, SuiteRequest> suiteRequest) {
        Host host = HostDetector.detect();
        List<SuiteRequest> requests = request.workloads().stream().map(suiteRequest).toList();
        Options settings = new OptionsBuilder().parent(request.settings()).addProfiler(TenantStepTimes.class).build();
        SuitePlan plan = SuitePlan.of(requests, settings, host, request.hugePages());
        Instant started = Instant.now();
        Double loadBefore = loadAverage();
        progress.println("membound validate on " + host.hostname() + " (" + host.cpu().modelName() + ", "
                + host.logicalCpus() + " cpus" + (loadBefore == null ? "" : String.format(Locale.ROOT,
                ", load average %.2f", loadBefore)) + "): " + requests.size() + " workloads, predicted from "
                + request.profile().file());
        progress.flush();
        ProgressLines format = new ProgressLines(progress, requests.size());
        List<RunResult> results;
        Double otherCpus;
        java.util.Optional<LoadMonitor> monitor = LoadMonitor.start(Path.of("/proc"), host.logicalCpus());
        DriftProbe.Reading before = null;
        DriftProbe.Reading after = null;
        try {
            if (request.driftProbe()) {
                before = probe(host, request, progress, "before");
            }
            results = SuiteRunner.run(plan, format);
            if (request.driftProbe()) {
                after = probe(host, request, progress, "after");
            }
        } catch (RunnerException e) {
            throw new ValidationFailedException(rootMessage(e), format.jmhTail());
        } finally {
            monitor.ifPresent(LoadMonitor::close);
        }
        DriftProbe drift = before == null ? null
                : new DriftProbe(DriftProbe.of(request.profile().measured()), before, after);
        otherCpus = monitor.map(LoadMonitor::otherCpusOverall).orElse(null);
        if (results.size() < requests.size()) {
            throw new ValidationFailedException("only " + results.size() + " of " + requests.size()
                    + " workloads completed", format.jmhTail());
        }
        Double loadAfter = loadAverage();
        List<ValidationReport.Row> rows = new ArrayList<>();
        Machine probed = drift == null ? null : drift.rescale(request.profile().measured());
        for (RunResult result : results) {
            rows.add(row(result, request.profile(), probed));
        }
        if (request.breakdown()) {
            rows = Breakdown.addMeasuredOperations(rows, results, progress);
        }
        List<String> notes = new ArrayList<>(request.profile().notes());
        if (request.workloads().contains(ReferenceWorkload.TENANTS) && request.profile().measured().tenants() == null) {
            notes.add("the profile has no tenants curve, so the two-tenant prediction splits the bandwidth evenly; "
                    + "membound calibrate --standard --tenants 2 measures how it divides");
        }
        if (otherCpus != null && otherCpus > LoadMonitor.OTHER_CPUS_THRESHOLD) {
            notes.add(String.format(Locale.ROOT, "other processes used %.2f of the %d cpus on average while the "
                    + "workloads ran: measured times are longer than the machine's; rerun when it is quiet", otherCpus,
                    host.logicalCpus()));
        } else if (otherCpus == null && loadBefore != null && loadBefore > host.logicalCpus() / 2.0) {
            notes.add(String.format(Locale.ROOT, "the load average was %.2f on %d cpus when the run started: other "
                    + "work may share the machine, and measured times be longer than the machine's", loadBefore,
                    host.logicalCpus()));
        }
        ValidationMachines profile = request.profile();
        return new ValidationReport(host.hostname(), host.cpu().modelName(), host.logicalCpus(),
                started.truncatedTo(ChronoUnit.SECONDS).toString(), profile.file().toString(),
                profile.createdUtc(), profile.datasheetBandwidth(), profile.datasheetSource(), rows, loadBefore,
                loadAfter, otherCpus, describe(request.settings()), request.commandLine(), drift, notes);
    }

    /** One drift probe: a short DRAM Triad and GEMM, as calibrate runs them. */
    private static DriftProbe.Reading probe(Host host, Request request, PrintWriter progress, String when)
            throws RunnerException {
        List<SuiteRequest> probe = DriftProbe.requests(host.logicalCpus());
        progress.println("drift probe " + when + " the workloads: DRAM triad and fp32 GEMM");
        progress.flush();
        SuitePlan plan = SuitePlan.of(probe, DriftProbe.settings(request.settings()), host, request.hugePages());
        return DriftProbe.of(SuiteRunner.run(plan, new DriftProbe.ProgressLines(progress)));
    }

    /** One workload's row: what JMH measured, what the model predicts on both bases. */
    static ValidationReport.Row row(RunResult result, ValidationMachines profile, Machine probed) {
        ReferenceWorkload workload = ReferenceWorkload.ofBenchmark(result.getParams().getBenchmark());
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String key : result.getParams().getParamsKeys()) {
            parameters.put(key, result.getParams().getParam(key));
        }
        PassTimes times = PassTimes.of(result.getPrimaryResult());
        ValidationReport.Measured measured = new ValidationReport.Measured(times.percentileNanos(50) / 1e9,
                times.percentileNanos(5) / 1e9, times.percentileNanos(95) / 1e9, times.count());
        List<Double> tenants = new ArrayList<>();
        Map<String, Result> secondary = result.getSecondaryResults();
        for (int t = 1; secondary.containsKey(TenantStepTimes.label(t)); t++) {
            tenants.add(secondary.get(TenantStepTimes.label(t)).getScore() / 1e6);
        }
        return row(workload, parameters, measured, tenants, profile, probed);
    }

    /** A row from a run's parameters and measurement (also what tests build rows with). */
    static ValidationReport.Row row(ReferenceWorkload workload, Map<String, String> parameters,
            ValidationReport.Measured measured, List<Double> tenants, ValidationMachines profile) {
        return row(workload, parameters, measured, tenants, profile, null);
    }

    /** As above, with the prediction on the profile rescaled to a drift probe's rates ({@code probed}, or null). */
    static ValidationReport.Row row(ReferenceWorkload workload, Map<String, String> parameters,
            ValidationReport.Measured measured, List<Double> tenants, ValidationMachines profile, Machine probed) {
        ReferenceWorkload.Description description = workload.describe(parameters, profile.measured());
        Step predicted = predict(description, profile.measured(), Basis.MEASURED);
        Double datasheet = profile.datasheet() == null ? null
                : predict(description, profile.datasheet(), Basis.DATASHEET).seconds();
        List<ValidationReport.OperationRow> operations = new ArrayList<>();
        for (OperationTime time : predicted.times()) {
            operations.add(new ValidationReport.OperationRow(time.operation().name(), time.bound().label(),
                    time.seconds(), null));
        }
        Double probedSeconds = probed == null ? null : predict(description, probed, Basis.MEASURED).seconds();
        return new ValidationReport.Row(workload, description.sizes(), measured, predicted.seconds(),
                predicted.memoryBoundSeconds() / predicted.seconds(), datasheet, probedSeconds, tenants, operations);
    }

    /** The model's step: every operation's roofline time, in order, and their sum. */
    record Step(double seconds, double memoryBoundSeconds, List<OperationTime> times) {
    }

    static Step predict(ReferenceWorkload.Description description, Machine machine, Basis basis) {
        List<OperationTime> times = Estimator.time(description.operations(), machine, basis, description.tenants());
        double seconds = 0;
        double memoryBound = 0;
        for (OperationTime time : times) {
            seconds += time.seconds();
            if (time.bound() == Bound.MEMORY) {
                memoryBound += time.seconds();
            }
        }
        return new Step(seconds, memoryBound, times);
    }

    /** The host's one-minute load average, or null where the platform does not give one. */
    static Double loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? null : load;
    }

    private static String describe(Options settings) {
        return String.format(Locale.ROOT, "JMH SampleTime, %d warm-up and %d measured iterations of %s, %d fork(s)",
                settings.getWarmupIterations().orElse(0), settings.getMeasurementIterations().orElse(0),
                settings.getMeasurementTime().orElse(null), settings.getForkCount().orElse(1));
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
