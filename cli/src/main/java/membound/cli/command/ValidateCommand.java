package membound.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import membound.calibrator.run.CalibrationLock;
import membound.calibrator.store.ProfileStore;
import membound.cli.options.FormatOption;
import membound.cli.options.OutputFormat;
import membound.cli.options.ProfileOption;
import membound.cli.options.ProfilesDirOption;
import membound.hardware.host.HostDetector;
import membound.validate.ValidationMachines;
import membound.validate.published.PublishedReport;
import membound.validate.published.PublishedSet;
import membound.validate.published.PublishedValidation;
import membound.validate.ReferenceWorkload;
import membound.validate.ReportFormat;
import membound.validate.Validation;
import membound.validate.ValidationFailedException;
import membound.validate.ValidationReport;
import membound.validate.ValidationStore;
import membound.validate.ValidationSummary;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Launcher;

/** {@code membound validate}: real training steps measured, predicted from the profile, and the error. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Runs four small but real training workloads written in Java with the Vector API (an AdamW "
                + "step over 32 Mi FP32 parameters, an MLP training step, a one-layer transformer training step, "
                + "and the AdamW step in two processes at once), times them with JMH, predicts the same "
                + "workloads from the calibrated profile with the model, and prints predicted, measured and the "
                + "error, with the datasheet-based prediction beside it. Records the run under "
                + "results/validate/<host>-<UTC time>.json.",
                "Takes about a minute on 2 cores. Run it right after 'membound calibrate --standard' on a quiet "
                        + "machine: other work slows the workloads down, not the profile.",
                "Without --profile it predicts from the latest profile of the profiles directory.",
                "With --published it measures nothing: it checks the model against published measurements instead "
                        + "(under a second)."})
public final class ValidateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ProfileOption profile;

    @Option(names = "--nominal-bandwidth", paramLabel = "BW",
            description = "nominal memory bandwidth for the datasheet-based prediction, e.g. 273GB/s (default: the "
                    + "profile's nominal figure, where the catalog knows the host)")
    String nominalBandwidth;

    @Option(names = "--workloads", paramLabel = "LIST",
            description = "a comma-separated subset of adamw, mlp, transformer, adamw-2-tenants (default: all)")
    String workloads;

    @Option(names = "--quick", description = "1 warm-up and 3 measured iterations instead of 2 and 5")
    boolean quick;

    @Option(names = "--breakdown", description = "also time every operation alone (in this JVM) beside the model's "
            + "time for it: which operation a prediction gets wrong")
    boolean breakdown;

    @Option(names = "--huge-pages", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "transparent huge pages on the workloads' heap where the kernel offers them, as calibrate "
                    + "uses them (default: yes)")
    boolean hugePages = true;

    @Option(names = "--wait", description = "when a calibration or another validation is measuring this machine, "
            + "wait for it to finish instead of stopping (two at once would measure each other)")
    boolean waitForLock;

    @Option(names = "--drift-probe", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "bracket the workloads with a short DRAM triad and fp32 GEMM, compared with the profile's, "
                    + "and show the errors against the probe's rates too (default: yes; about 20 s)")
    boolean driftProbe = true;

    @Mixin
    ProfilesDirOption profilesDir;

    @Option(names = "--results-dir", paramLabel = "DIR",
            description = "where the run is recorded (default: results/validate of the repository)")
    Path resultsDir;

    @Mixin
    FormatOption format;

    @Option(names = "--summary", paramLabel = "FILE", arity = "1..*",
            description = "run nothing: summarize recorded validations (results/validate/*.json) by their medians "
                    + "per workload")
    List<Path> summary;

    @Option(names = "--published", description = "run nothing and read no profile: predict every row of the committed "
            + "published ground-truth set (decode, prefill and training throughputs with their sources) on the catalog's "
            + "measured and datasheet bases, fit the terms a roofline misses on its fit rows and print the errors, with "
            + "the median |error| of the held-out rows by kind")
    boolean published;

    @Option(names = "--rows", description = "with --published: every row too, with its prediction, error and source "
            + "(by default the fitted terms and the held-out errors by kind)")
    boolean rows;

    @Override
    public Integer call() {
        boolean json = format.value() == OutputFormat.JSON;
        if (published) {
            PublishedValidation.Result result = PublishedValidation.committed();
            PrintWriter out = spec.commandLine().getOut();
            out.print(json ? PublishedReport.json(result) : PublishedReport.text(result, rows));
            out.flush();
            return 0;
        }
        if (rows) {
            throw new BadInputException("rows must be left out without --published (it lists the published set's "
                    + "rows): rows=true");
        }
        if (summary != null) {
            ValidationSummary summarized = ValidationSummary.of(summary);
            PrintWriter out = spec.commandLine().getOut();
            out.print(json ? ReportFormat.json(summarized.tree()) : summarized.text());
            out.flush();
            return 0;
        }
        List<ReferenceWorkload> chosen = workloads == null ? List.of(ReferenceWorkload.values())
                : ReferenceWorkload.parse(workloads);
        if (chosen.isEmpty()) {
            throw new BadInputException("--workloads must name at least one workload: --workloads=" + workloads);
        }
        ProfileStore store = profilesDir.store();
        Path file = resolveProfile(store);
        // Everything the user typed is checked before anything runs: bad input writes nothing.
        ValidationMachines machines = ValidationMachines.of(file, nominalBandwidth, HostDetector.detect().hostname());
        machines.requireCeilingsFor(chosen);
        ValidationStore results = resultsDir != null ? new ValidationStore(resultsDir) : ValidationStore.repositoryDefault();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ValidationReport report;
        PrintWriter progress = json ? err : out;
        // The workloads and the drift probe measure the machine as a calibration does: one of them at a time.
        try (CalibrationLock lock = CalibrationLock.acquire(CalibrationLock.file(), waitForLock, progress)) {
            report = Validation.run(new Validation.Request(machines, chosen, settings(), hugePages, breakdown, driftProbe,
                    commandLine()), progress);
        } catch (ValidationFailedException e) {
            err.println("membound: " + e.getMessage());
            e.jmhTail().stream().filter(line -> !line.isBlank()).forEach(line -> err.println("  jmh: " + line));
            err.flush();
            return 1;
        }
        Path recorded = results.save(report);
        if (json) {
            out.print(ReportFormat.json(report));
        } else {
            out.print(ReportFormat.text(report));
            out.println("recorded: " + recorded);
        }
        out.flush();
        return 0;
    }

    private Path resolveProfile(ProfileStore store) {
        // Without --profile, validate predicts from the newest profile.
        String reference = profile.referenceOr("latest");
        if ((reference.equals("latest") || reference.startsWith("latest:")) && store.list().isEmpty()) {
            throw new BadInputException("profile must exist to predict from: there is none in " + store.directory()
                    + "; run '" + Launcher.command("calibrate --standard") + "' first");
        }
        return store.resolve(reference);
    }

    private Options settings() {
        Options standard = Validation.standardSettings();
        if (!quick) {
            return standard;
        }
        return new OptionsBuilder().parent(standard).warmupIterations(1).measurementIterations(3)
                .measurementTime(TimeValue.seconds(1)).build();
    }

    private String commandLine() {
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        return "membound " + args.stream().collect(Collectors.joining(" "));
    }
}
