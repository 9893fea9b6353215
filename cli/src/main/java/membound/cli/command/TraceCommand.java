package membound.cli.command;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import membound.cli.options.OutputFormat;
import membound.cli.options.PredictOptions;
import membound.cli.text.TraceText;
import membound.model.Estimator;
import membound.model.Prediction;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.model.training.TrainingSetup;
import membound.model.workload.Workload;
import membound.profile.ProfileDirectory;
import membound.trace.RankSummary;
import membound.trace.RankTrace;
import membound.trace.TraceAnalysis;
import membound.trace.Traces;
import membound.trace.compare.CeilingShares;
import membound.trace.compare.PredictionComparison;
import membound.trace.project.Projection;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * {@code membound trace}: the user's own training job, from its PyTorch profiler or Nsight Systems traces — each
 * step by kernel class, against the machine's measured ceilings ({@code --profile}/{@code --hardware}), against
 * membound's prediction for the same setup ({@code --model} and predict's setup flags), and projected onto other
 * machines ({@code --on}).
 */
@Command(name = "trace",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
                "Reads PyTorch profiler traces (.json, .json.gz; a directory of one file per rank, read in parallel) "
                        + "and Nsight Systems SQLite exports: per step the wall, busy and idle time, the time by class "
                        + "(gemm, attention, norm, elementwise, optimizer, communication, memcpy, other) on each "
                        + "stream and as the union across streams, the top kernels, and the straggler among ranks.",
                "With --profile or --hardware: each class's achieved FLOP/s or GB/s against the measured ceiling "
                        + "(where the trace recorded shapes); with --model: the prediction for the same setup, class "
                        + "by class; with --on: the job projected onto other machines. docs/trace.md."},
        footer = {"", "Examples:",
                "  membound trace rank-0.json.gz rank-1.json.gz",
                "  membound trace traces/ --profile latest --on gh200,dgx-spark",
                "  membound trace gpt.pt.trace.json.gz --profile latest --model config.json --seq-len 128 --micro-batch 8",
                "  membound trace job.sqlite --hardware h100 --on dgx-spark --format json"})
public final class TraceCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE|DIR", arity = "1..*",
            description = "Trace files (Kineto .json/.json.gz, nsys .sqlite) or directories of them, one per rank.")
    List<Path> traces = new ArrayList<>();

    @Option(names = "--on", paramLabel = "NAME|PROFILE", split = ",",
            description = "Project the job onto this machine: a catalog entry (gh200, dgx-spark, h100, ...) or a "
                    + "profile file; repeatable.")
    List<String> on = new ArrayList<>();

    @Mixin
    PredictOptions options;

    @Override
    public Integer call() {
        OutputFormat format = options.format();
        if (options.decode()) {
            throw new BadInputException("decode must be left out of trace (a trace is a training job): --decode");
        }
        if (options.comparing().isPresent()) {
            throw new BadInputException("compare must be left out of trace (it projects onto machines with --on): "
                    + "--compare=" + options.comparing().get());
        }
        if (options.profile().given() && options.hardware() != null) {
            throw new BadInputException("machine must be given once: --profile or --hardware, not both: profile="
                    + options.profile().reference() + ", hardware=" + options.hardware());
        }
        options.checkConsistent();
        Overrides overrides = options.overrides();
        Machine machine = sourceMachine(overrides);
        Workload workload = null;
        TrainingSetup setup = null;
        if (options.workloadGiven()) {
            if (machine == null) {
                throw new BadInputException("model needs the machine the trace ran on: --profile PROFILE or "
                        + "--hardware NAME");
            }
            workload = options.workload();
            options.checkAgainst(workload);
            setup = options.trainingSetup();
        }
        List<Machine> targets = new ArrayList<>();
        for (String name : on) {
            if (machine == null) {
                throw new BadInputException("on needs the machine the trace ran on: --profile PROFILE or --hardware "
                        + "NAME, on=" + name);
            }
            targets.add(target(name.strip(), overrides));
        }

        List<RankTrace> read = Traces.read(traces);
        List<RankSummary> ranks = read.stream().map(TraceAnalysis::summarise).toList();
        Prediction prediction = null;
        if (workload != null) {
            checkWorldSize(read, setup);
            prediction = Estimator.predict(workload, setup, machine);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("ranks", TraceText.ranksJson(ranks));
        TraceAnalysis.Straggler straggler = TraceAnalysis.straggler(ranks);
        result.put("straggler", straggler);
        if (machine != null) {
            Map<String, Object> against = new LinkedHashMap<>();
            against.put("machine", machine.id());
            against.put("machineSource", machine.source());
            List<CeilingShares.Share> shares = CeilingShares.of(ranks, machine);
            against.put("classes", shares);
            if (shares.isEmpty()) {
                against.put("note", "no operator input shapes in the trace (record_shapes=True gives them): time "
                        + "shares only, no FLOP/s or GB/s to hold against the ceilings");
            }
            result.put("againstMachine", against);
        }
        if (prediction != null) {
            result.put("againstPrediction", PredictionComparison.of(ranks, prediction));
        }
        if (!targets.isEmpty()) {
            List<Projection.Result> projections = new ArrayList<>();
            Precision fallback = read.get(0).gpu() ? Precision.BF16 : Precision.FP32;
            RankSummary slowest = ranks.stream().max(java.util.Comparator.comparingDouble(
                    RankSummary::meanStepSeconds)).orElseThrow();
            for (Machine t : targets) {
                projections.add(Projection.project(slowest, machine, t, slowest.gemmPrecision(fallback)));
            }
            result.put("projections", projections);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == OutputFormat.JSON) {
            out.println(PredictCommand.json(result));
        } else {
            TraceText.print(out, ranks, straggler, machine, result);
        }
        return 0;
    }

    private Machine sourceMachine(Overrides overrides) {
        if (options.profile().given()) {
            Path file = ProfileDirectory.repositoryDefault().resolve(options.profile().reference());
            return Machines.profile(file, options.device(), overrides);
        }
        if (options.hardware() != null) {
            return Machines.datasheet(options.hardware(), overrides);
        }
        return null;
    }

    /** A catalog entry by name, else a profile (a file, latest, latest:host); neither is an error with close matches. */
    private static Machine target(String name, Overrides overrides) {
        if (name.isEmpty()) {
            throw new BadInputException("on must name a machine: --on=" + name);
        }
        boolean catalog = Machines.catalogIds().stream().anyMatch(id -> id.equalsIgnoreCase(name));
        if (!catalog && (name.startsWith("latest") || Files.isRegularFile(Path.of(name)))) {
            Path file = ProfileDirectory.repositoryDefault().resolve(name);
            return Machines.profile(file, null, overrides);
        }
        return Machines.datasheet(name, overrides);
    }

    /** The setup's devices must be the trace's world size: a prediction of another job is no check of this one. */
    private static void checkWorldSize(List<RankTrace> read, TrainingSetup setup) {
        int world = 0;
        String file = read.get(0).file();
        for (RankTrace t : read) {
            if (t.worldSize() > world) {
                world = t.worldSize();
                file = t.file();
            }
        }
        if (world == 0) {
            world = read.size();
        }
        int devices = setup.parallelism().devices();
        if (devices != world) {
            throw new BadInputException("model setup must match the trace's world size: data-parallel x "
                    + "tensor-parallel x pipeline-parallel=" + devices + ", world_size=" + world + " (file=" + file + ")");
        }
    }
}
